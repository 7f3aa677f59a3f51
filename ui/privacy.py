"""Where Gradio keeps the files it moves between browser and server, and forgetting them.

Gradio's transport stores every upload and every output image as a file in GRADIO_TEMP_DIR. To keep users'
photos off the disk, `use_memory_temp_dir` points that at a RAM-backed tmpfs (/dev/shm) when there is one;
it must run before gradio is imported (gradio reads the variable at import time), which is why ui/__init__
calls it. `forget_files` deletes a session's files when it starts over, changes photo, closes or expires.
`remove_stale_folders` deletes the RAM folders of servers that died without cleaning up (kill -9, a crash),
and `sweep` deletes what no session holds: Gradio's staging files and uploads that no session opened.
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
import time
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from PIL import Image

from ui.example_photos import is_example

MEMORY_ROOT = Path("/dev/shm")
MIN_MEMORY_FREE = 512 * 2**20  # room for a couple of dozen 20 MB uploads and their overlays
FOLDER_PREFIX = "whichone-gradio-"
OWNER_SUFFIX = ".pid"  # beside each RAM folder (never inside: Gradio serves that folder): its server
STALE_UNOWNED_S = 600  # a folder without an owner file (made by an older whichone) untouched this long
STAGING_AGE_S = 120  # Gradio's staging files (the upload folder's top level) are renamed within seconds
UNOPENED_AGE_S = 300  # an upload no session has opened after this long is deleted
PRESSURE_AGE_S = 30  # ... or after this long, when the upload folder is full


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
    remove_stale_folders(MEMORY_ROOT)
    folder = tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=MEMORY_ROOT)
    os.chmod(folder, 0o700)
    owner = owner_file(Path(folder))
    owner.write_text(str(os.getpid()))
    owner.chmod(0o600)
    os.environ["GRADIO_TEMP_DIR"] = folder
    atexit.register(owner.unlink, missing_ok=True)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # RAM is not freed until it is removed
    return folder


def owner_file(folder: Path) -> Path:
    """The file naming the server that uses RAM folder `folder`: beside it, outside what Gradio serves."""
    return folder.with_name(folder.name + OWNER_SUFFIX)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


def remove_stale_folders(root: Path = MEMORY_ROOT) -> list[Path]:
    """Delete this user's whichone RAM folders whose server is gone (killed, crashed); returns them.

    A folder names its server in its owner_file; one without that file (an older whichone's) goes once nothing
    in it has changed for STALE_UNOWNED_S. Folders of other users and of running servers stay."""
    removed: list[Path] = []
    try:
        folders = [p for p in root.glob(f"{FOLDER_PREFIX}*") if p.is_dir() and not p.is_symlink()]
    except OSError:
        return removed
    for folder in folders:
        try:
            if folder.stat().st_uid != os.getuid():
                continue
            owner = owner_file(folder)
            if owner.is_file():
                text = owner.read_text().strip()
                if text.isdigit() and _alive(int(text)):
                    continue
            elif time.time() - _newest_mtime(folder) < STALE_UNOWNED_S:
                continue
        except OSError:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        owner_file(folder).unlink(missing_ok=True)
        removed.append(folder)
    return removed


def _newest_mtime(folder: Path) -> float:
    newest = folder.stat().st_mtime
    for path in folder.rglob("*"):
        try:
            newest = max(newest, path.lstat().st_mtime)
        except OSError:
            continue
    return newest


def folder_bytes(folder: Path) -> int:
    """Bytes of the regular files below `folder` (0 where it does not exist)."""
    total = 0
    for path in folder.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
        except OSError:
            continue
    return total


def sweep(
    live: Collection[str], unopened: Callable[[float], list[str]], forget: Callable[[str], None]
) -> int:
    """Delete what no session holds; returns how many files went.

    - Files at the top of Gradio's temp folder older than STAGING_AGE_S: Gradio writes each upload there
      first and renames it into a folder of its own; what stays (an interrupted or malformed upload, the
      empty file Gradio leaves per upload) is nobody's.
    - Uploads `unopened(UNOPENED_AGE_S)` lists (the gatekeeper's ledger) that no live session holds: sent
      to /upload and never opened as a photo. `forget(path)` drops each from that ledger.
    """
    root = temp_root()
    removed = 0
    cutoff = time.time() - STAGING_AGE_S
    try:
        tops = [p for p in root.iterdir() if p.is_file()]
    except OSError:
        tops = []
    for top in tops:
        try:
            if top.lstat().st_mtime < cutoff:
                top.unlink()
                removed += 1
        except OSError:
            continue
    held = set(live)
    stale = [p for p in unopened(UNOPENED_AGE_S) if p not in held]
    for path in stale:
        if is_example(Path(path)):  # a visitor sent an example's own file: that is everyone's copy (H15)
            forget(path)
            continue
        existed = Path(path).exists()
        forget_files([path])
        removed += existed and not Path(path).exists()
        forget(path)
    return removed


def held_bytes(folder: Path) -> int:
    """Bytes of the files Gradio has finished receiving or writing below `folder`: those in its
    subfolders (the top level holds only uploads still arriving, which the upload budget counts itself)."""
    try:
        subfolders = [p for p in folder.iterdir() if p.is_dir() and not p.is_symlink()]
    except OSError:
        return 0
    return sum(folder_bytes(sub) for sub in subfolders)


def free_unopened(
    needed: int,
    live: Collection[str],
    unopened: Callable[[float], list[str]],
    forget: Callable[[str], None],
    min_age_s: float = PRESSURE_AGE_S,
) -> int:
    """Delete uploads that no session opened, older than `min_age_s`, oldest first, until `needed` bytes
    are free; returns the bytes freed. Used when the upload folder is full: a visitor's photo is opened
    within a second of its upload, so what waits longer than that is nobody's, and it must not lock an
    innocent visitor out until the next sweep."""
    freed = 0
    held = set(live)
    for path in unopened(min_age_s):
        if freed >= needed:
            break
        if path in held:
            continue
        if is_example(Path(path)):  # everyone's copy of an example photo (H15): not this visitor's to free
            forget(path)
            continue
        try:
            size = Path(path).stat().st_size
        except OSError:
            size = 0
        forget_files([path])
        if not Path(path).exists():
            freed += size
            forget(path)
    return freed


def start_sweeper(
    live: Callable[[], Collection[str]],
    unopened: Callable[[float], list[str]],
    forget: Callable[[str], None],
    every_s: float = 60.0,
) -> threading.Event:
    """Run `sweep` every `every_s` seconds in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(every_s):
            try:
                sweep(live(), unopened, forget)
            except Exception:  # noqa: BLE001 - a failed sweep is retried next time; the app stays up
                continue

    threading.Thread(target=loop, name="whichone-sweeper", daemon=True).start()
    return stop


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


STOPPING = threading.Event()  # set once SIGTERM has asked the app to stop


def stop_on_sigterm() -> None:
    """Make SIGTERM set STOPPING instead of ending Python at once: the serving loop (ui.serve) then closes
    the app (the heartbeat streams end, the server stops) and Python exits normally and runs its exit
    hooks, removing the RAM folder. Closing from the loop rather than in the handler keeps a SIGTERM that
    arrives during start-up from pulling the server away under launch(). Call it from the main thread
    (only there can Python set a signal handler)."""
    if threading.current_thread() is not threading.main_thread():
        return

    def on_sigterm(signum: int, frame: object) -> None:
        STOPPING.set()

    signal.signal(signal.SIGTERM, on_sigterm)
