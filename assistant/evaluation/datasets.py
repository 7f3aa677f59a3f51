"""Loading a benchmark's dataset by name: the registry of every paper's datasets.

Each paper's package (assistant/evaluation/papers/<paper>/) has its own loader (RAcQUEt's jsonl, AQuA's
Hugging Face dataset, the VQ-FocusAmbiguity release, ClearVQA's jsonl and images) and its DatasetSpecs,
built from assistant/evaluation/dataset_base.py; this module finds them by name.

`load_dataset(name, data=None, split=None)` returns a `DatasetLoad`: the examples plus notes on anything
skipped (one plain line each). `data` is a local file or folder, or an http(s) URL of a file or zip.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from assistant.evaluation.dataset_base import DatasetLoad, DatasetSpec, DatasetUnavailable
from assistant.evaluation.fetch import DownloadError
from assistant.evaluation.papers import PAPERS
from assistant.evaluation.samples import SAMPLE, SAMPLE_NOTE, sample_folder

__all__ = ["DatasetLoad", "DatasetSpec", "DatasetUnavailable", "dataset_specs", "load_dataset"]


def dataset_specs() -> dict[str, DatasetSpec]:
    """Every paper's datasets by name."""
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
