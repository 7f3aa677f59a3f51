"""What every paper's dataset loader is built from: the DatasetLoad and DatasetSpec types, fetching a local
path or an http(s) URL of a file or zip (`materialise`), reading JSON lines with a note per bad line, and
plain values out of Hugging Face rows. The papers' loaders (assistant/evaluation/papers/) import this;
assistant/evaluation/datasets.py finds their datasets by name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.errors import WhichoneError
from assistant.evaluation.fetch import (
    cached_download_dir,
    download_file,
    extract_zip,
)
from assistant.evaluation.schema import Example


class DatasetUnavailable(WhichoneError):
    """A dataset cannot be loaded (not downloadable from here, wrong folder, unreadable file)."""


@dataclass
class DatasetLoad:
    name: str
    split: str
    examples: list[Example]
    notes: list[str] = field(default_factory=list)  # one line per skipped record or file


@dataclass(frozen=True)
class DatasetSpec:
    name: str
    splits: tuple[str, ...]
    default_split: str
    homepage: str
    loader: Callable[[str | Path | None, str], DatasetLoad]
    # writes a small sample in the released layout into a folder (assistant/evaluation/samples.py)
    sample: Callable[[Path], None] | None = None


# ----------------------------------------------------------------------------------------------- helpers


def _is_url(data: str | Path | None) -> bool:
    return isinstance(data, str) and data.startswith(("http://", "https://"))


def materialise(data: str | Path, what: str) -> Path:
    """A local path for `data`: itself, or the cached download (a zip is extracted) of a URL."""
    if not _is_url(data):
        path = Path(data).expanduser()
        if not path.exists():
            raise DatasetUnavailable(f"there is no {what} at {path}")
        return path
    url = str(data)
    directory = cached_download_dir(url, "datasets")
    name = url.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0] or "download"
    file = download_file(url, directory / name, what=what)
    if name.endswith(".zip"):
        return extract_zip(file, directory / "extracted")
    return file


def read_jsonl(path: Path, notes: list[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each readable line; a bad line becomes a note, never an exception."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetUnavailable(f"cannot read {path} ({exc})") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            notes.append(f"{path.name} line {number}: not JSON ({exc.msg}); skipped")
            continue
        if not isinstance(obj, dict):
            notes.append(f"{path.name} line {number}: not a JSON object; skipped")
            continue
        yield number, obj


def plain_value(value: Any) -> Any:
    """Keep JSON-friendly scalars and lists for `meta`; drop anything else (images, arrays)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int, float, bool)) for v in value):
        return list(value)
    return None
