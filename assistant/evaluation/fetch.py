"""Downloads for the benchmark: dataset files, archives and images, cached on the user's machine.

The cache root is $WHICHONE_CACHE_DIR, else ~/.cache/whichone. Downloads go to a temporary file and are
renamed into place, so an interrupted download never leaves a half file that looks complete. Failures
raise `DownloadError` / `ImageUnavailable` with one plain line saying what failed and what to do; a
failed image is not cached, so a later run tries again.

Set WHICHONE_OFFLINE=1 to never touch the network (cached files are still used).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from assistant.errors import WhichoneError
from assistant.evaluation.schema import ImageRef
from assistant.settings import settings
from models.errors import first_line
from models.tiny import default_cache_dir  # one home for the cache root (re-exported here)

USER_AGENT = "whichone-benchmark/0.1 (+https://github.com/; research use)"
TIMEOUT_S = 30.0
MAX_DOWNLOAD_BYTES = 20 * 1024**3  # a dataset archive; images are far smaller
MAX_IMAGE_BYTES = 64 * 1024**2


class DownloadError(WhichoneError):
    """A dataset file could not be downloaded (offline, not found, ...)."""


class ImageUnavailable(WhichoneError):
    """One example's image could not be had; the run records this for the example and goes on."""


def offline() -> bool:
    return settings().offline


def _reason(exc: BaseException) -> str:
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}"
    if isinstance(exc, urllib.error.URLError):
        return f"{exc.reason}"
    return first_line(exc, 160)


def _download_to(url: str, dest: Path, *, limit: int) -> None:
    """Stream `url` into `dest` atomically; raises OSError / urllib errors."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", dir=dest.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            size = 0
            while chunk := response.read(1 << 20):
                size += len(chunk)
                if size > limit:
                    raise OSError(f"more than {limit // 1024**2} MiB")
                out.write(chunk)
        if size == 0:
            raise OSError("the server sent an empty file")
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)


def download_file(url: str, dest: Path, *, what: str) -> Path:
    """`dest` if it exists, else download `url` there. `what` names the file in messages."""
    if dest.is_file() and dest.stat().st_size > 0:
        return dest
    if offline():
        raise DownloadError(f"{what} is not cached at {dest} and WHICHONE_OFFLINE is set; pass --data PATH.")
    try:
        _download_to(url, dest, limit=MAX_DOWNLOAD_BYTES)
    except (OSError, urllib.error.URLError, ValueError) as exc:
        raise DownloadError(
            f"could not download {what} from {url} ({_reason(exc)}); pass --data PATH to a local copy."
        ) from exc
    return dest


def extract_zip(archive: Path, dest: Path) -> Path:
    """Extract `archive` into `dest` once (a marker file records completion); refuses unsafe paths."""
    marker = dest / ".whichone-extracted"
    if marker.is_file():
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    try:
        with zipfile.ZipFile(archive) as zf:
            root = dest.resolve()
            for member in zf.infolist():
                target = (dest / member.filename).resolve()
                if root != target and root not in target.parents:
                    raise DownloadError(f"{archive.name} holds an unsafe path {member.filename!r}")
            zf.extractall(dest)
    except zipfile.BadZipFile as exc:
        raise DownloadError(f"{archive} is not a readable zip archive ({_reason(exc)})") from exc
    marker.write_text("ok")
    return dest


def cached_download_dir(url: str, kind: str) -> Path:
    """Where a download of `url` lives in the cache: <cache>/<kind>/<sha256(url)[:16]>/."""
    return default_cache_dir() / kind / hashlib.sha256(url.encode()).hexdigest()[:16]


class ImageFetcher:
    """Encoded image bytes for an `ImageRef`; URL images are downloaded once into <cache>/images."""

    def __init__(self, cache_dir: Path | None = None) -> None:
        self.cache_dir = (cache_dir or default_cache_dir()) / "images"

    def cached_path(self, url: str) -> Path:
        digest = hashlib.sha256(url.encode()).hexdigest()
        return self.cache_dir / digest[:2] / f"{digest}.img"

    def fetch(self, ref: ImageRef) -> bytes:
        """The image file's bytes; raises ImageUnavailable with a one-line reason."""
        if ref.kind == "bytes":
            assert ref.data is not None
            return ref.data
        if ref.kind == "path":
            path = Path(ref.location)
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise ImageUnavailable(f"image file {path} cannot be read ({_reason(exc)})") from exc
            if not data:
                raise ImageUnavailable(f"image file {path} is empty")
            return data
        return self._fetch_url(ref.location)

    def _fetch_url(self, url: str) -> bytes:
        path = self.cached_path(url)
        if path.is_file() and path.stat().st_size > 0:
            return path.read_bytes()
        if offline():
            raise ImageUnavailable(f"image {url} is not cached and WHICHONE_OFFLINE is set")
        try:
            _download_to(url, path, limit=MAX_IMAGE_BYTES)
        except (OSError, urllib.error.URLError, ValueError) as exc:
            raise ImageUnavailable(f"could not download image {url} ({_reason(exc)})") from exc
        return path.read_bytes()

    def clear(self) -> None:
        shutil.rmtree(self.cache_dir, ignore_errors=True)
