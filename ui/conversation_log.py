"""The opt-in to save a conversation for error inspection; off unless the operator and the user both ask.

The operator allows it by naming a folder: WHICHONE_SAVE_CONVERSATIONS=DIR. Without it nothing here ever
writes, the UI shows no checkbox and the API has no /save_conversation. With it, a user who ticks "Save
this conversation for error inspection" (or calls /save_conversation) gets the conversation written to
DIR/<conversation id>/conversation.json: the questions, choices and hints, every reply with its candidates
(Reply.to_dict()), the errors shown, and the models used. The photo (the working image, as the assistant
saw it: upright, resized, no EXIF or file name) goes to photo.png only if the user also ticks "Include the
photo". The copy is rewritten after every later turn; unticking deletes it (consent withdrawn). The
upload's file name is never written: it can name a person.

`state.record` (the turns as data) lives in the session's memory like its chat; it is only written here.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
import uuid
from pathlib import Path
from typing import Any

from assistant.errors import WhichoneError
from assistant.types import Reply
from ui.serving_settings import serving_settings
from ui.state import UIState

log = logging.getLogger(__name__)

SAVE_ENV = "WHICHONE_SAVE_CONVERSATIONS"
CONVERSATION_FILE = "conversation.json"
PHOTO_FILE = "photo.png"
MAX_SAVED_CONVERSATIONS = 1000  # folders under the save folder; a new one past this is refused
MAX_CONVERSATION_BYTES = 2 * 2**20  # one conversation.json (a long chat is ~50 KB); later turns not saved


class SaveRefused(WhichoneError):
    """A cap on saved conversations (count, size) would be passed: nothing more is written."""


def save_folder() -> Path | None:
    """Where saved conversations go, or None when the operator has not allowed saving."""
    return serving_settings().save_conversations


def remember(
    state: UIState, kind: str, given: Any, reply: Reply | None = None, error: str | None = None
) -> None:
    """Add one turn to the session's record (kind: ask, choose, click, hint or undo); save if opted in.

    A failed save never fails the turn: the user asked a question, not for a file.
    """
    entry: dict[str, Any] = {"at": _now(), "kind": kind, "input": given}
    if reply is not None:
        entry["reply"] = reply.to_dict()
    else:
        entry["error"] = error
    state.record.append(entry)
    if state.save:
        try:
            write(state)
        except OSError as exc:  # the folder went away, the disk is full: tell the operator, not the user
            log.warning("a conversation could not be saved: %s", exc.strerror or type(exc).__name__)
        except SaveRefused as refused:
            log.warning("a conversation was not saved further: %s", refused)


def set_saving(state: UIState, save: bool, include_photo: bool) -> str:
    """Turn this session's saving on or off; returns the one line to show. Raises WhichoneError when the
    server does not allow saving or the folder cannot be written."""
    if save_folder() is None:
        raise WhichoneError(
            f"Saving conversations is turned off on this server (the operator can allow it with {SAVE_ENV})."
        )
    state.save, state.save_photo = bool(save), bool(save and include_photo)
    if not state.save:
        removed = delete(state)
        if not removed:
            return "Not saved."
        return f"Not saved. {removed} saved cop{'y was' if removed == 1 else 'ies were'} deleted."
    if state.session.image is None and not state.record:
        # Nothing to save yet: no empty file; the first turn writes it.
        return "This conversation will be saved for error inspection from your first question."
    try:
        write(state)
    except SaveRefused:
        state.save = state.save_photo = False
        raise
    except OSError as exc:
        state.save = state.save_photo = False
        raise WhichoneError(f"The conversation could not be saved ({exc.strerror or exc}).") from None
    with_photo = "with the photo" if state.save_photo else "without the photo"
    return f"This conversation is saved for error inspection, {with_photo}, as {state.conversation_id}."


def write(state: UIState) -> Path:
    """Write (or rewrite) the conversation's copy; returns its folder."""
    root = save_folder()
    if root is None:
        raise WhichoneError(f"Saving conversations is turned off on this server ({SAVE_ENV} is not set).")
    if state.conversation_id is None:
        state.conversation_id = f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}"
    if state.conversation_id not in state.saved_ids:
        state.saved_ids.append(state.conversation_id)
    folder = root / state.conversation_id
    if not folder.is_dir() and _saved_count(root) >= MAX_SAVED_CONVERSATIONS:
        raise SaveRefused(
            f"The server keeps at most {MAX_SAVED_CONVERSATIONS} saved conversations and has them; "
            "this one is not saved."
        )
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    image = state.session.image
    photo = folder / PHOTO_FILE
    if state.save_photo and image is not None:
        _atomic(photo, lambda tmp: image.save(tmp, format="PNG"))
    else:
        photo.unlink(missing_ok=True)
    data = {
        "conversation": state.conversation_id,
        "saved_at": _now(),
        "models": state.choice.label(),
        "image_size": list(image.size) if image is not None else None,
        "photo": PHOTO_FILE if photo.exists() else None,
        "chat": state.chat,
        "turns": state.record,
    }
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if len(text.encode("utf-8")) > MAX_CONVERSATION_BYTES:
        raise SaveRefused(
            f"The conversation is longer than the {MAX_CONVERSATION_BYTES // 2**20} MB a saved copy may "
            "hold; its later turns are not saved."
        )
    _atomic(folder / CONVERSATION_FILE, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return folder


def _saved_count(root: Path) -> int:
    try:
        return sum(1 for entry in os.scandir(root) if entry.is_dir())
    except OSError:
        return 0


def delete(state: UIState) -> int:
    """Delete every copy this session saved (the conversation now and any earlier one: another photo, or
    before a start over); returns how many there were."""
    root = save_folder()
    if root is None:
        return 0
    removed = 0
    for conversation in state.saved_ids:
        folder = root / conversation
        removed += folder.is_dir()
        shutil.rmtree(folder, ignore_errors=True)
    state.saved_ids = []
    return removed


def _atomic(path: Path, write_to: Any) -> None:
    # Written beside and renamed into place: a reader never sees half a file.
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:6]}.tmp")
    try:
        write_to(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
