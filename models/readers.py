"""The one reader of grounding replies, `read_grounding`: the family's own reader (models/families/), then the
rules every family shares.

Each family writes coordinates its own way (see ../shared/datasets/real-model-outputs/README.md); its record
says how to read them. Libraries do the reading where they read a family right on the corpus. Every reader
clips boxes to the frame (the advice of the maintainers of the models that write JSON boxes) instead of
dropping them, recovers each well-formed object from broken JSON, never raises, and says in `notes` what it
could not read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from models.families import GroundingFamilySpec, family_table
from models.parsing import MAX_HITS, MAX_TEXT_CHARS, Size, checked_size
from models.types import Grounding


@dataclass
class GroundingReading:
    """What a reply says, in original-image pixels, in the reply's order; `notes` say what was not read."""

    groundings: list[Grounding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        boxes = [g for g in self.groundings if g.box is not None]
        points = [g for g in self.groundings if g.box is None and g.point is not None]
        return {
            "boxes": [
                [round(v, 2) for v in (g.box.x0, g.box.y0, g.box.x1, g.box.y1)] for g in boxes if g.box
            ],
            "points": [[round(g.point[0], 2), round(g.point[1], 2)] for g in points if g.point],
            "labels": [g.label for g in boxes + points],
            "notes": list(self.notes),
        }


def read_grounding(
    text: Any,
    family: GroundingFamilySpec | str,
    image_size: Size,
    input_size: Size | None = None,
    default_label: str = "",
) -> GroundingReading:
    """Read a grounding reply of `family` into original-image pixels: the one reader the app's VLM
    pointer, the benchmark and `whichone parse-grounding` use; `family` is a record (models/families/) or
    a family's name. `input_size` (a family with a frame rule): the processor-resized frame the coordinates
    are in; the family's reader computes it with the model's resize rule when None.
    `default_label`: the label of a hit the reply names nothing for (the phrase asked about).
    Raises ValueError only for an unknown family name or an unusable image size."""
    family = family_table().named(family)
    width, height = checked_size(image_size)
    if not isinstance(text, str) or not text.strip():
        return GroundingReading(notes=["the reply is empty"])
    notes: list[str] = []
    if len(text) > MAX_TEXT_CHARS:
        notes.append(f"the reply is {len(text):,} characters; only the first {MAX_TEXT_CHARS:,} were read")
        text = text[:MAX_TEXT_CHARS]
    hits = family.read(text, (width, height), input_size, notes)
    if default_label:
        hits = [h if h.label else Grounding(default_label, h.point, h.box, h.score, h.source) for h in hits]
    if len(hits) >= MAX_HITS:
        notes.append(f"only the first {MAX_HITS} objects were read")
    kept = [h for h in hits if _finite(h)]
    if not kept:
        notes.append(f"no {family.name} boxes or points could be read from the reply")
    return GroundingReading(kept[:MAX_HITS], notes)


def _finite(hit: Grounding) -> bool:
    values = list(hit.point or ())
    if hit.box is not None:
        values += [hit.box.x0, hit.box.y0, hit.box.x1, hit.box.y1]
    return all(math.isfinite(v) for v in values)
