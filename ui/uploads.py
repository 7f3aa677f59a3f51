"""Which files a client may hand the server: only what Gradio received as an upload on this page.

The Ask tab's photo events skip Gradio's preprocessing (see ui/ask_tab.py), so they get the raw file value a
client sent, `{"path": ...}`, and a hostile client can put any server path there. `UploadGate.path` lets a
value through only when it names a regular file inside Gradio's upload folder that Gradio itself received
(Blocks.upload_file_set, filled by Gradio's /upload route) or that is Gradio's copy of one of the example
photos (ui.example_photos, recognised by its bytes), after resolving links. Every refusal gives the
same sentence, whether the path exists, is a folder, is unreadable or is outside the folder: an error must
never tell a visitor which server paths exist.

An upload belongs to the session that opens it: with the app's ledger (ui.upload_quota) a session may open
an upload only by spending an opening that its own client got by uploading it, so no other session, even
one that knows or can work out the path, opens (and then, by starting over, deletes) somebody's photo.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from assistant.errors import InputError
from ui.example_photos import is_example
from ui.privacy import temp_root
from ui.upload_quota import UploadLedger

NOT_UPLOADED = "That photo did not arrive through this page's upload. Please add the photo again."


def upload_path(value: object) -> str | None:
    """The server path in a photo input's value: a path, or the raw file data (a dict with "path")."""
    if isinstance(value, dict):
        value = value.get("path")
    return str(value) if value else None


def in_upload_folder(path: str) -> Path | None:
    """The resolved path when it is a regular file inside Gradio's upload folder (links followed), else
    None (missing, a folder, outside, a link loop, a NUL byte in the name)."""
    try:
        resolved = Path(path).resolve(strict=True)
        return resolved if temp_root() in resolved.parents and resolved.is_file() else None
    except (OSError, RuntimeError, ValueError):
        return None


@dataclass(frozen=True)
class Upload:
    """A file a client may hand the server. `is_example`: Gradio's copy of a public example photo, which
    every session may pick and none owns (so none deletes it)."""

    path: str
    is_example: bool


class UploadGate:
    """Checks that a path is one of the uploads Gradio received.

    `received` is the app's Blocks.upload_file_set and `ledger` the door's record of who uploaded what (both
    set by ui.app.build_app); left None (handlers used without an app, as some tests do) only the folder
    rule applies.
    """

    def __init__(self, received: Collection[str] | None = None, ledger: UploadLedger | None = None) -> None:
        self.received = received
        self.ledger = ledger

    def check(self, path: str, client: str | None = None) -> Upload:
        """`path` when it is an upload that `client` sent (spending that opening) or an example's copy;
        raises InputError(NOT_UPLOADED) otherwise. `client` None: a handler called in-process."""
        resolved = in_upload_folder(path)
        if resolved is None:
            raise InputError(NOT_UPLOADED)
        example = is_example(resolved)  # the file's bytes are read once, here
        if (
            self.received is not None
            and path not in self.received
            and str(resolved) not in self.received
            and not example
        ):
            raise InputError(NOT_UPLOADED)
        owned = example or self.ledger is None or client is None or self.ledger.claim(path, client)
        if not owned:
            raise InputError(NOT_UPLOADED)
        return Upload(path, example)
