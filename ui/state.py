"""What one browser session keeps (in gr.State, so in server memory, per session; never global)."""

from __future__ import annotations

from dataclasses import dataclass, field

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

    @property
    def session(self) -> Session:
        if self._session is None:
            self._session = Session()
        return self._session

    @session.setter
    def session(self, value: Session) -> None:
        self._session = value

    def forget_photo(self) -> None:
        """Start over: drop the photo, the conversation and the uploaded files."""
        self.session.start_over()
        forget_files(self.files)
        self.files = []
        self.image_path = None
        self.overlay_scale = 1.0
        self.chat = []


def forget_state(state: UIState | None) -> None:
    """gr.State's delete_callback: the session ended or expired."""
    if isinstance(state, UIState):
        state.forget_photo()
