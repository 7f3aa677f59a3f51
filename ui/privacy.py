"""Where Gradio keeps the files it moves between browser and server, and forgetting them.

Gradio's transport stores every upload and every output image as a file in GRADIO_TEMP_DIR. To keep users'
photos off the disk, `use_memory_temp_dir` points that at a RAM-backed tmpfs (/dev/shm) when there is one;
it must run before gradio is imported (gradio reads the variable at import time), which is why ui/__init__
calls it. `forget_files` deletes a session's files when it starts over, changes photo or expires.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

MEMORY_ROOT = Path("/dev/shm")


def use_memory_temp_dir() -> str | None:
    """Set GRADIO_TEMP_DIR to a private folder on /dev/shm unless the user chose one; returns it."""
    if os.environ.get("GRADIO_TEMP_DIR"):
        return os.environ["GRADIO_TEMP_DIR"]
    if not (MEMORY_ROOT.is_dir() and os.access(MEMORY_ROOT, os.W_OK)):
        return None  # no tmpfs: Gradio's default temp folder; forget_files and delete_cache still apply
    folder = tempfile.mkdtemp(prefix="whichone-gradio-", dir=MEMORY_ROOT)
    os.chmod(folder, 0o700)
    os.environ["GRADIO_TEMP_DIR"] = folder
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # RAM is not freed until it is removed
    return folder


def forget_files(paths: Iterable[str]) -> None:
    """Delete these files if they are inside Gradio's temp folder (never anything else)."""
    root = os.environ.get("GRADIO_TEMP_DIR") or str(Path(tempfile.gettempdir()) / "gradio")
    root_path = Path(root).resolve()
    for path in paths:
        try:
            resolved = Path(path).resolve()
            if root_path in resolved.parents and resolved.is_file():
                resolved.unlink()
        except OSError:
            continue
