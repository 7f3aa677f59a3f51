"""What one browser session keeps (in gr.State, so in server memory, per session; never global).

`LIVE` maps a Gradio session hash to that session's state, weakly (it keeps nothing alive), so that when a
tab or API client disconnects (`end_session`, the app's unload event) its photo and files are forgotten at
once instead of when Gradio expires the state (an hour after a tab closes).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from assistant.pipeline import AssistantConfig
from assistant.session import Session
from ui.engine import ModelChoice
from ui.privacy import forget_files

STATE_TTL_S = 30 * 60  # a session untouched this long is forgotten, photo included


@dataclass
class UIState:
    choice: ModelChoice
    config: AssistantConfig = field(default_factory=AssistantConfig)
    _session: Session | None = None  # made on first use, so each copy of the initial state gets its own
    image_path: str | None = None  # the Gradio upload now open in `session` (in the RAM temp folder)
    overlay_scale: float = 1.0  # overlay pixels per working-image pixel, to map clicks back
    files: list[str] = field(default_factory=list)  # this session's uploads, deleted when forgotten
    chat: list[dict[str, str]] = field(default_factory=list)  # the chat as shown, error lines included
    record: list[dict[str, Any]] = field(default_factory=list)  # the turns as data (ui.conversation_log)
    save: bool = False  # the user opted in to saving this conversation (ui.conversation_log)
    save_photo: bool = False  # ... with the photo
    conversation_id: str | None = None  # the saved copy's folder name, once saved

    @property
    def session(self) -> Session:
        if self._session is None:
            self._session = Session()
        return self._session

    @session.setter
    def session(self, value: Session) -> None:
        self._session = value

    def new_conversation(self) -> None:
        """A new photo: a new chat and record (a saved copy, if any, stays as it was)."""
        self.chat = []
        self.record = []
        self.conversation_id = None

    def forget_photo(self) -> None:
        """Start over: drop the photo, the conversation, the uploaded files and the opt-in to save."""
        self.session.start_over()
        forget_files(self.files)
        self.files = []
        self.image_path = None
        self.overlay_scale = 1.0
        self.new_conversation()
        self.save = self.save_photo = False


LIVE: weakref.WeakValueDictionary[str, UIState] = weakref.WeakValueDictionary()


def track_session(state: UIState, request: Any) -> None:
    """Remember which Gradio session `state` belongs to (request: gr.Request or None)."""
    session_hash = getattr(request, "session_hash", None)
    if session_hash:
        LIVE[session_hash] = state


def end_session(request: Any) -> None:
    """The app's unload event: the tab or client went away; forget its photo and files now."""
    session_hash = getattr(request, "session_hash", None)
    state = LIVE.pop(session_hash, None) if session_hash else None
    if state is not None:
        state.forget_photo()


def forget_state(state: UIState | None) -> None:
    """gr.State's delete_callback: the session ended or expired."""
    if isinstance(state, UIState):
        state.forget_photo()
