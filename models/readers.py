"""One reader per model family for grounding replies, behind `read_grounding`.

Each family writes coordinates its own way (see ../shared/datasets/real-model-outputs/README.md):

- qwen2.5-vl: JSON `bbox_2d` / `point_2d`, plain text `x1,y1,x2,y2 label`, XML `<points x1= y1=>`; pixels
  of the processor-resized input (`smart_resize`: sides multiples of 28 within min/max pixels).
- qwen2-vl: JSON (`bbox_2d`, or `bboxes` lists under `object`), box tokens; 0-1000.
- qwen3-vl: JSON `bbox_2d` / `point_2d` with extra keys (`name_en`, `img_idx`); 0-1000.
- molmo: `<point x= y=>` / `<points x1= y1= ...>`; percent of width / height.
- molmo2: `<points coords="IMG OBJ X Y ...">`; 0-1000, the image index first.
- paligemma: `<locYYYY>` x4 (y_min, x_min, y_max, x_max) then the label, ` ; ` between objects; bins of 1024.
- florence-2: a label then `<loc_N>` x4 groups (x1 y1 x2 y2); bins of 1000, the bin's centre.

Libraries do the reading where they read a family right on the corpus: PaliGemma through supervision
(`sv.Detections.from_vlm`), Florence-2 through transformers' own Florence2PostProcessor. supervision's
Qwen readers are not used: they keep only objects with a "label" key (Qwen3-VL's `name_en` objects are
dropped), do not clip, and lose every object after a broken one in the real Qwen3-VL reply.

Every reader clips boxes to the frame (the Qwen maintainers' advice) instead of dropping them, recovers each
well-formed object from broken JSON, never raises, and says in `notes` what it could not read.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from models.parsing import MAX_HITS, MAX_TEXT_CHARS, parse_molmo, parse_qwen
from models.sv import supervision
from models.types import Box, Grounding, GroundingFamily

Size = tuple[float, float]  # (width, height)

# Qwen2.5-VL's image processor: 28-pixel patches-of-patches, and its default pixel bounds
# (preprocessor_config.json of Qwen/Qwen2.5-VL-*-Instruct: min_pixels 3136, max_pixels 12845056).
QWEN2_5_VL_FACTOR = 28
QWEN2_5_VL_MIN_PIXELS = 56 * 56
QWEN2_5_VL_MAX_PIXELS = 28 * 28 * 16384


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


def qwen2_5_vl_frame(
    image_size: Size, min_pixels: int = QWEN2_5_VL_MIN_PIXELS, max_pixels: int = QWEN2_5_VL_MAX_PIXELS
) -> tuple[int, int]:
    """(width, height) of the frame Qwen2.5-VL's processor resizes an image of `image_size` to: transformers'
    own smart_resize (the rule a vLLM or SGLang server runs too; give its min/max pixels if they differ)."""
    from transformers.models.qwen2_vl.image_processing_qwen2_vl import smart_resize

    width, height = int(image_size[0]), int(image_size[1])
    new_height, new_width = smart_resize(
        height, width, factor=QWEN2_5_VL_FACTOR, min_pixels=min_pixels, max_pixels=max_pixels
    )
    return int(new_width), int(new_height)


def read_grounding(
    text: Any,
    family: GroundingFamily | str,
    image_size: Size,
    input_size: Size | None = None,
    default_label: str = "",
) -> GroundingReading:
    """Read a grounding reply of `family` into original-image pixels: the one reader the app's VLM
    pointer, the benchmark and `whichone parse-grounding` use. `input_size` (Qwen2.5-VL only): the
    processor-resized frame the coordinates are in; computed with the model's resize rule when None.
    `default_label`: the label of a hit the reply names nothing for (the phrase asked about).
    Raises ValueError only for an unknown family name or an unusable image size."""
    family = GroundingFamily(family)
    width, height = _size(image_size)
    if not isinstance(text, str) or not text.strip():
        return GroundingReading(notes=["the reply is empty"])
    notes: list[str] = []
    if len(text) > MAX_TEXT_CHARS:
        notes.append(f"the reply is {len(text):,} characters; only the first {MAX_TEXT_CHARS:,} were read")
        text = text[:MAX_TEXT_CHARS]
    hits = READERS[family](text, (width, height), input_size, notes)
    if default_label:
        hits = [h if h.label else Grounding(default_label, h.point, h.box, h.score, h.source) for h in hits]
    if len(hits) >= MAX_HITS:
        notes.append(f"only the first {MAX_HITS} objects were read")
    kept = [h for h in hits if _finite(h)]
    if not kept:
        notes.append(f"no {family.value} boxes or points could be read from the reply")
    return GroundingReading(kept[:MAX_HITS], notes)


# ------------------------------------------------------------------------------------------------ readers


def _qwen2_5_vl(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
    frame = _size(input_size) if input_size is not None else qwen2_5_vl_frame(size)
    hits = parse_qwen(text, size, frame, coords="pixels")
    if hits:
        return hits
    sx, sy = size[0] / frame[0], size[1] / frame[1]
    plain = [_clipped_box(m, frame, sx, sy, m.group(5), "qwen-text") for m in _PLAIN_BOX.finditer(text)]
    if any(plain):
        return [h for h in plain if h is not None]
    # Qwen's XML points, in the resized frame's pixels (the same tag as Molmo v1, whose numbers are percent).
    as_percent = parse_molmo(text, (100.0, 100.0))
    return [
        Grounding(label=h.label, point=(h.point[0] * sx, h.point[1] * sy), source="qwen-xml")
        for h in as_percent
        if h.point is not None and 0 <= h.point[0] <= frame[0] and 0 <= h.point[1] <= frame[1]
    ]


def _norm1000(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
    return parse_qwen(text, size, coords="norm1000")


def _molmo_reader(source: str, scale: str, other: str):
    """A reader of one Molmo generation's point tags (`source` "molmo": percent, "molmo2": 0-1000); points
    in the other generation's shape are skipped with a note."""

    def read(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
        hits = parse_molmo(text, size)
        skipped = sum(h.source != source for h in hits)
        if skipped:
            notes.append(f"{skipped} {other}-style point(s) skipped: this reply was read as {scale}")
        return [h for h in hits if h.source == source]

    return read


def _paligemma(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:

    sv = supervision()

    detections = sv.Detections.from_vlm(sv.VLM.PALIGEMMA, text, resolution_wh=(int(size[0]), int(size[1])))
    names = detections.data.get("class_name", [""] * len(detections))
    return [
        _grounding(xyxy, str(name), size, "paligemma")
        for xyxy, name in zip(detections.xyxy, names, strict=False)
    ]


def _florence_2(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
    from transformers.models.florence2.processing_florence2 import Florence2PostProcessor

    # The text-to-boxes step of transformers' own post-processor (<OD>, phrase grounding): it reads text
    # only, so it needs none of the tokenizer the class is built with for decoding token ids.
    reader = Florence2PostProcessor.__new__(Florence2PostProcessor)
    reader.quantize_bins = (1000, 1000)
    instances = reader.parse_description_with_bboxes_from_text_and_spans(
        text, image_size=(int(size[0]), int(size[1]))
    )
    return [_grounding(i["bbox"], str(i.get("cat_name", "")), size, "florence-2") for i in instances]


READERS = {
    GroundingFamily.QWEN2_5_VL: _qwen2_5_vl,
    GroundingFamily.QWEN2_VL: _norm1000,
    GroundingFamily.QWEN3_VL: _norm1000,
    GroundingFamily.MOLMO: _molmo_reader("molmo", "Molmo v1 (percent)", "Molmo2"),
    GroundingFamily.MOLMO2: _molmo_reader("molmo2", "Molmo2 (0-1000)", "Molmo v1"),
    GroundingFamily.PALIGEMMA: _paligemma,
    GroundingFamily.FLORENCE_2: _florence_2,
}

# ------------------------------------------------------------------------------------------------ helpers

_NUM = r"(-?\d+(?:\.\d+)?)"
# Qwen2.5-VL's plain-text box: "x1,y1,x2,y2 label" (one per line).
_PLAIN_BOX = re.compile(rf"(?m)^\s*{_NUM}\s*,\s*{_NUM}\s*,\s*{_NUM}\s*,\s*{_NUM}\s+([^\n]*?)\s*$")


def _clipped_box(
    match: re.Match[str], frame: Size, sx: float, sy: float, label: str, source: str
) -> Grounding | None:
    x0, y0, x1, y1 = (float(match.group(i)) for i in range(1, 5))
    x0, x1 = sorted((max(0.0, min(frame[0], x0)), max(0.0, min(frame[0], x1))))
    y0, y1 = sorted((max(0.0, min(frame[1], y0)), max(0.0, min(frame[1], y1))))
    if x1 <= x0 or y1 <= y0:
        return None
    box = Box(x0 * sx, y0 * sy, x1 * sx, y1 * sy)
    return Grounding(label=" ".join(label.split())[:100], box=box, point=box.centre, source=source)


def _grounding(xyxy: Any, label: str, size: Size, source: str) -> Grounding:
    x0, y0, x1, y1 = (float(v) for v in xyxy)
    x0, x1 = max(0.0, min(size[0], x0)), max(0.0, min(size[0], x1))
    y0, y1 = max(0.0, min(size[1], y0)), max(0.0, min(size[1], y1))
    box = Box(x0, y0, x1, y1)
    return Grounding(label=" ".join(label.split())[:100], box=box, point=box.centre, source=source)


def _size(size: Any) -> tuple[float, float]:
    try:
        width, height = float(size[0]), float(size[1])
    except (TypeError, ValueError, IndexError):
        raise ValueError(f"an image size is two numbers (width height), not {size!r}") from None
    if (
        not (math.isfinite(width) and math.isfinite(height))
        or width < 1
        or height < 1
        or max(width, height) > 1e6
    ):
        raise ValueError(f"an image size must be two whole numbers from 1 to 1,000,000, not {size!r}")
    return width, height


def _finite(hit: Grounding) -> bool:
    values = list(hit.point or ())
    if hit.box is not None:
        values += [hit.box.x0, hit.box.y0, hit.box.x1, hit.box.y1]
    return all(math.isfinite(v) for v in values)
