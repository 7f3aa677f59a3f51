"""Where Gradio keeps the files it moves between browser and server, and forgetting them.

Gradio's transport stores every upload and every output image as a file in GRADIO_TEMP_DIR. To keep users'
photos off the disk, `use_memory_temp_dir` points that at a RAM-backed tmpfs (/dev/shm) when there is one;
it must run before gradio is imported (gradio reads the variable at import time), which is why ui/__init__
calls it. `forget_files` deletes a session's files when it starts over, changes photo, closes or expires.
`stop_on_sigterm` makes SIGTERM (how a container or a Space is stopped) close the app cleanly, so the exit
hooks run and the RAM folder is removed: by default SIGTERM ends Python without them, and the photos would
stay in /dev/shm until the machine restarts.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from PIL import Image

MEMORY_ROOT = Path("/dev/shm")
MIN_MEMORY_FREE = 512 * 2**20  # room for a couple of dozen 20 MB uploads and their overlays


def use_memory_temp_dir() -> str | None:
    """Set GRADIO_TEMP_DIR to a private folder on /dev/shm unless the user chose one; returns it."""
    if os.environ.get("GRADIO_TEMP_DIR"):
        return os.environ["GRADIO_TEMP_DIR"]
    if not (MEMORY_ROOT.is_dir() and os.access(MEMORY_ROOT, os.W_OK)):
        return None  # no tmpfs: Gradio's default temp folder; forget_files and delete_cache still apply
    if shutil.disk_usage(MEMORY_ROOT).free < MIN_MEMORY_FREE:
        # Containers often give /dev/shm only 64 MB: a few uploads would fill it and fail. Use Gradio's
        # default (disk) folder, with the same per-session deletions.
        return None
    folder = tempfile.mkdtemp(prefix="whichone-gradio-", dir=MEMORY_ROOT)
    os.chmod(folder, 0o700)
    os.environ["GRADIO_TEMP_DIR"] = folder
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # RAM is not freed until it is removed
    return folder


def temp_root() -> Path:
    """Gradio's temp folder, as Gradio computes it."""
    return Path(os.environ.get("GRADIO_TEMP_DIR") or Path(tempfile.gettempdir()) / "gradio").resolve()


def forget_files(paths: Iterable[str]) -> None:
    """Delete these files if they are inside Gradio's temp folder (never anything else), and the folder
    Gradio made for each when left empty (its name is the file's SHA-256, a fingerprint of the photo)."""
    root_path = temp_root()
    for path in paths:
        try:
            resolved = Path(path).resolve()
            if root_path in resolved.parents and resolved.is_file():
                resolved.unlink()
            parent = resolved.parent
            if parent != root_path and root_path in parent.parents and not any(parent.iterdir()):
                parent.rmdir()
        except OSError:
            continue


def cache_image(image: Image.Image, name: str = "overlay") -> str:
    """Write `image` as PNG into Gradio's temp folder and return its path, so the session can track and
    delete it: given a PIL image instead, Gradio would write its own copy, which no session knows about
    and which would stay until delete_cache's next sweep (up to 30 minutes)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    data = buffer.getvalue()
    folder = temp_root() / hashlib.sha256(data).hexdigest()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    path.write_bytes(data)
    return str(path)


def stop_on_sigterm(close: Callable[[], None]) -> None:
    """On SIGTERM call `close` (the app's Blocks.close: it ends the heartbeat streams, stops the server and
    lets launch() return), so Python exits normally and runs its exit hooks, removing the RAM folder.
    Call it from the main thread (only there can Python set a signal handler)."""
    if threading.current_thread() is not threading.main_thread():
        return

    def on_sigterm(signum: int, frame: object) -> None:
        close()

    signal.signal(signal.SIGTERM, on_sigterm)
