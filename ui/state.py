"""What one browser session keeps (in gr.State, so in server memory, per session; never global).

`LIVE` maps a Gradio session hash to that session's state, weakly (it keeps nothing alive), so that when a
tab or API client disconnects (`end_session`, the app's unload event) its photo and files are forgotten at
once instead of when Gradio expires the state (an hour after a tab closes).
"""

from __future__ import annotations

import shutil
import threading
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.pipeline import AssistantConfig
from assistant.session import Session
from models.catalog import ModelChoice
from ui.privacy import forget_files
from ui.upload_quota import LEDGER

if TYPE_CHECKING:
    import gradio as gr

STATE_TTL_S = 30 * 60  # a session untouched this long is forgotten, photo included


@dataclass
class UIState:
    choice: ModelChoice
    config: AssistantConfig = field(default_factory=AssistantConfig)
    # Settings applied whose models are still being fetched: the session keeps `choice` until they are
    # loaded (ui.settings_tab: the fetch timer's poll switches it, or says why not).
    pending: tuple[ModelChoice, AssistantConfig] | None = None
    _session: Session | None = None  # made on first use, so each copy of the initial state gets its own
    image_path: str | None = None  # the Gradio upload now open in `session` (in the RAM temp folder)
    overlay_scale: float = 1.0  # overlay pixels per working-image pixel, to map clicks back
    files: list[str] = field(default_factory=list)  # this session's uploads, deleted when forgotten
    chat: list[dict[str, str]] = field(default_factory=list)  # the conversation as shown, without errors
    # The one error now shown under the conversation (not part of it): replaced by the next error, gone with
    # the next success, so a repeated cause never piles up lines.
    notice: list[dict[str, str]] = field(default_factory=list)
    # The session and chat from before the latest choice, while that choice is the last turn (undo).
    before_choice: tuple[Session, list[dict[str, str]]] | None = None
    record: list[dict[str, Any]] = field(default_factory=list)  # the turns as data (ui.conversation_log)
    save: bool = False  # the user opted in to saving this conversation (ui.conversation_log)
    save_photo: bool = False  # ... with the photo
    conversation_id: str | None = None  # the saved copy's folder name, once saved
    saved_ids: list[str] = field(default_factory=list)  # every copy this session saved (untick deletes all)
    page_lang: str = "en"  # the page's language, read from each event's request (ui.page_language)

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
        self.notice = []
        self.before_choice = None
        self.record = []
        self.conversation_id = None

    def release_files(self, keep: str | None = None) -> None:
        """Delete this session's files but `keep`, except those another live session holds too, or that
        were uploaded again and wait to be opened (Gradio names an upload by its bytes: two sessions with
        the same photo share its file)."""
        others = {path for state in list(LIVE.values()) if state is not self for path in state.files}
        forget_files([f for f in self.files if f != keep and f not in others and not LEDGER.awaited(f)])
        self.files = [keep] if keep is not None and keep in self.files else []

    def release_file(self, path: str) -> None:
        """Delete one of this session's files now (an upload that could not be opened), on the same terms
        as release_files: not while another live session holds it or a new upload of it waits."""
        if path not in self.files:
            return
        self.files.remove(path)
        others = {f for state in list(LIVE.values()) if state is not self for f in state.files}
        if path not in others and not LEDGER.awaited(path):
            forget_files([path])

    def forget_photo(self) -> None:
        """Start over: drop the photo, the conversation, the uploaded files and the opt-in to save."""
        self.session.start_over()
        self.release_files()
        self.image_path = None
        self.overlay_scale = 1.0
        self.new_conversation()
        self.save = self.save_photo = False


LIVE: weakref.WeakValueDictionary[str, UIState] = weakref.WeakValueDictionary()
# Folders a session made outside its UIState (benchmark runs and the copies of their files that the page
# serves), deleted when the session ends (unload) or replaced by its next run.
FOLDERS: dict[str, list[Path]] = {}
_FOLDERS_LOCK = threading.Lock()


def own_folder(request: gr.Request | None, folder: Path) -> None:
    """Delete `folder` when the session of `request` ends (no session: when the process exits)."""
    session_hash = getattr(request, "session_hash", None) or ""
    with _FOLDERS_LOCK:
        owned = FOLDERS.setdefault(session_hash, [])
        if folder not in owned:
            owned.append(folder)


def drop_folders(request: gr.Request | None, prefix: str = "") -> None:
    """Delete the folders the session of `request` owns whose names start with `prefix`."""
    session_hash = getattr(request, "session_hash", None) or ""
    with _FOLDERS_LOCK:
        owned = FOLDERS.pop(session_hash, [])
        dropped = [f for f in owned if f.name.startswith(prefix)]
        kept = [f for f in owned if f not in dropped]
        if kept:
            FOLDERS[session_hash] = kept
    for folder in dropped:
        shutil.rmtree(folder, ignore_errors=True)


def track_session(state: UIState, request: gr.Request | None) -> None:
    """Remember which Gradio session `state` belongs to (request: gr.Request or None)."""
    session_hash = getattr(request, "session_hash", None)
    if session_hash:
        LIVE[session_hash] = state


def live_files() -> set[str]:
    """Every file a live session holds (its upload, overlays, benchmark files)."""
    return {path for state in list(LIVE.values()) for path in state.files}


def end_session(request: gr.Request | None) -> None:
    """The app's unload event: the tab or client went away; forget its photo and files now."""
    session_hash = getattr(request, "session_hash", None)
    state = LIVE.pop(session_hash, None) if session_hash else None
    if state is not None:
        state.forget_photo()
    if session_hash:
        drop_folders(request)


def forget_state(state: UIState | None) -> None:
    """gr.State's delete_callback: the session ended or expired."""
    if isinstance(state, UIState):
        state.forget_photo()


RELEASE_DELAY_S = 5.0  # after the unload event: Gradio finishes the event before the entry goes


def release_closed_session(holder: Any, request: gr.Request | None, delay_s: float = RELEASE_DELAY_S) -> None:
    """Drop a closed session's entry from Gradio's state holder (Blocks.state_holder).

    Gradio keeps every session's SessionState (a copy of each component's config: about 200 KB for this
    page) after the session closes; an hour later it empties only its gr.State values, and the entry itself
    goes only when 10,000 newer sessions push it out. That was the server's growth of ~20-30 MB per 100
    sessions. whichone already forgets a closed session's photo and conversation at once (end_session), so
    nothing is lost that a reconnecting tab could use. Uses Gradio's StateHolder internals (session_data,
    time_last_used, is_closed): tests/test_security_app.py checks that a closed client's entry goes."""
    session_hash = getattr(request, "session_hash", None)
    if not session_hash or holder is None:
        return

    def drop() -> None:
        data = getattr(holder, "session_data", None)
        if data is None:
            return
        with holder.lock:
            entry = data.get(session_hash)
            if entry is not None and getattr(entry, "is_closed", False):
                data.pop(session_hash, None)
                holder.time_last_used.pop(session_hash, None)

    timer = threading.Timer(delay_s, drop)
    timer.daemon = True
    timer.start()


def forget_session(holder: Any, session_hash: str) -> None:
    """Forget a session now (the door evicted it: its client opened more than its bound and this one was
    idle): its photo and folders, then Gradio's entry for it (Blocks.state_holder, as
    release_closed_session)."""
    state = LIVE.pop(session_hash, None)
    if state is not None:
        state.forget_photo()
    drop_folders(_HashOnly(session_hash))  # type: ignore[arg-type]
    data = getattr(holder, "session_data", None)
    if data is None:
        return
    with holder.lock:
        data.pop(session_hash, None)
        holder.time_last_used.pop(session_hash, None)


@dataclass(frozen=True)
class _HashOnly:
    """What drop_folders reads of a gr.Request: its session hash."""

    session_hash: str
