"""Loading a benchmark's dataset: the registry of every paper's datasets and the plumbing they share.

Each paper's module (assistant/evaluation/papers/) has its own loader (RAcQUEt's jsonl, AQuA's Hugging Face
dataset, the VQ-FocusAmbiguity release, ClearVQA's jsonl and images) and its DatasetSpecs; this module
finds them by name and holds what they share: the DatasetLoad and DatasetSpec types, fetching a local path
or an http(s) URL of a file or zip (`materialise`), reading JSON lines with a note per bad line.

`load_dataset(name, data=None, split=None)` returns a `DatasetLoad`: the examples plus notes on anything
skipped (one plain line each). `data` is a local file or folder, or an http(s) URL of a file or zip.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.errors import WhichoneError
from assistant.evaluation.fetch import (
    DownloadError,
    cached_download_dir,
    download_file,
    extract_zip,
)
from assistant.evaluation.samples import SAMPLE, SAMPLE_NOTE, sample_folder
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


# ----------------------------------------------------------------------------------------------- RAcQUEt


# ----------------------------------------------------------------------------------------------- AQuA


# ------------------------------------------------------------------------------------- VQ-FocusAmbiguity


# ----------------------------------------------------------------------------------------------- ClearVQA


# ----------------------------------------------------------------------------------------------- registry


def dataset_specs() -> dict[str, DatasetSpec]:
    """Every paper's datasets by name (the papers import this module, so they are found when asked)."""
    from assistant.evaluation.papers import PAPERS

    return {spec.name: spec for paper in PAPERS for spec in paper.datasets}


def load_dataset(name: str, data: str | Path | None = None, split: str | None = None) -> DatasetLoad:
    """Load dataset `name` (see dataset_specs); raises DatasetUnavailable / DownloadError with one line."""
    specs = dataset_specs()
    spec = specs.get(name)
    if spec is None:
        raise DatasetUnavailable(f"there is no dataset {name!r}; known: {', '.join(specs)}")
    split = split or spec.default_split
    if split not in spec.splits:
        raise DatasetUnavailable(f"{name} has splits {', '.join(spec.splits)}; not {split!r}")
    notes: list[str] = []
    if data == SAMPLE:
        if spec.sample is None:
            raise DatasetUnavailable(f"{name} has no bundled sample")
        data = sample_folder(spec.name, spec.sample)
        notes.append(f"data: {SAMPLE_NOTE}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # `datasets` warns about cache layouts; not the user's concern
        try:
            loaded = spec.loader(data, split)
        except DownloadError as exc:
            raise DatasetUnavailable(str(exc)) from exc
    loaded.notes[:0] = notes
    return loaded
