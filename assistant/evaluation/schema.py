"""One example schema for every benchmark dataset.

Every loader in `assistant.evaluation.datasets` yields `Example`s; tasks read only these fields, never a
dataset's own format. The image is a reference (URL, file, or embedded bytes) that is fetched when a run
needs it, so listing a dataset never downloads or decodes thousands of images.

Gold fields by source (absent keys mean the dataset does not provide them):
- racquet-general: none (every question is ambiguous by construction), except "referents" where the
  data has them: the possible referents' boxes [[x0, y0, x1, y1], ...] in image pixels (RAcQUEt Table 1).
- racquet-bias: "bias_category" (gender / ethnicity / disability), "adjective", "stereotyped_group"
  (whom the adjective stereotypically describes, RAcQUEt Appendix I.2).
- aqua: "level" (0-3), "answer" (reference response, when the release has it), "hint" and
  "clarified_answer" (the second turn of the clarification subset, when present).
- vq-focusambiguity: "ambiguous" (bool: more than one focus region), "focus_regions" (COCO RLE dicts
  {"size": [h, w], "counts": str}, one per region), "image_size" ([h, w]).
- clearvqa: "answer" (gold answer), "answers" (crowd answers), "clear_question", "clarification_question",
  "ambiguity_category", "hint" (the clear question, which is what a user's clarification amounts to).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

Source = Literal["racquet-general", "racquet-bias", "aqua", "vq-focusambiguity", "clearvqa"]
SOURCES: tuple[Source, ...] = get_args(Source)


def example_key(source: str, split: str, example_id: str) -> str:
    """An example's key within a run ("racquet-general/all/17"): how records find their examples."""
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
    source: Source
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
        """Gold fields that fit a JSONL line: region masks are summarised by their count."""
        out: dict[str, Any] = {}
        for name, value in self.gold.items():
            if name == "focus_regions":
                out["focus_region_count"] = len(value)
            else:
                out[name] = value
        return out


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
