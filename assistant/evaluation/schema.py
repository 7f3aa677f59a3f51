"""One example schema for every benchmark dataset.

Every loader in `assistant.evaluation.datasets` yields `Example`s; tasks read only these fields, never a
dataset's own format. The image is a reference (URL, file, or embedded bytes) that is fetched when a run
needs it, so listing a dataset never downloads or decodes thousands of images.

Each paper's module (assistant/evaluation/papers/) says which gold fields its examples carry.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def example_key(source: str, split: str, example_id: str) -> str:
    """An example's key within a run ("<dataset>/<split>/<id>"): how records find their examples."""
    return f"{source}/{split}/{example_id}"


@dataclass(frozen=True)
class ImageRef:
    """Where an example's image comes from.

    kind "url": `location` is an http(s) URL, downloaded once into the image cache.
    kind "path": `location` is a local file.
    kind "bytes": the encoded file is `data` (e.g. an image embedded in a Hugging Face Arrow file);
    `location` is only a label (the original file name) for messages.
    """

    kind: str
    location: str
    data: bytes | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in ("url", "path", "bytes"):
            raise ValueError(f"unknown image reference kind {self.kind!r}")
        if self.kind == "bytes" and not self.data:
            raise ValueError("an embedded image reference needs its bytes")

    def describe(self) -> str:
        """Where the image is, for messages and reports (never the bytes)."""
        return self.location if self.kind != "bytes" else f"embedded image {self.location}".strip()


@dataclass(frozen=True)
class Example:
    """One benchmark item: an image, a question about it, and what the dataset says is right."""

    id: str
    image: ImageRef
    question: str
    source: str  # the dataset's name (its DatasetSpec's)
    split: str  # "train" / "validation" / "test" / "all" ...
    gold: Mapping[str, Any] = field(default_factory=dict)
    meta: Mapping[str, Any] = field(default_factory=dict)  # provenance: original ids, file names, URLs

    def __post_init__(self) -> None:
        if not str(self.id):
            raise ValueError("an example needs an id")
        if not self.question.strip():
            raise ValueError(f"example {self.id} has an empty question")

    @property
    def key(self) -> str:
        """Unique within a run: source, split and id."""
        return example_key(self.source, self.split, self.id)

    def gold_for_report(self) -> dict[str, Any]:
        """Gold fields that fit a JSONL line: a list of region masks (COCO RLE dicts) is summarised by its
        count ("focus_regions" -> "focus_region_count")."""
        out: dict[str, Any] = {}
        for name, value in self.gold.items():
            if _is_mask_list(value):
                out[f"{name.removesuffix('s')}_count"] = len(value)
            else:
                out[name] = value
        return out


def _is_mask_list(value: object) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(m, Mapping) and "counts" in m and "size" in m for m in value)
    )


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
