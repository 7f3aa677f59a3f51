"""A toy grounding family, to show that adding one is one module plus one catalog row (docs/architecture.md,
"Adding a model family"; tests/test_toy_family.py runs it end to end).

The "toy" family's models (served as `acme/toyvlm-*`) answer one object a line, `label @ x0% y0% x1% y1%`,
the box in percent of the image's width and height. Its record says how to read that, which served model ids
answer that way, and what the VLM pointer asks them for (the boxes prompt; a family with a prompt of its own
adds prompts/<name>.txt). `TOY_POINTER_ROW` is its catalog row: in models/catalog.py it would be one more
`register(...)`; here it is handed to the registry by the test.
"""

from __future__ import annotations

import re
from typing import Any

from models.base import Pointer, VisionLanguageModel
from models.errors import ModelUnavailable
from models.families import FamilyTable
from models.families.spec import GroundingFamilySpec, PointerFormat, Size
from models.parsing import clipped_grounding
from models.spec import ModelSpec
from models.types import Grounding
from models.vlm_pointer import VLMPointer

_PERCENT = r"(-?\d+(?:\.\d+)?)%"
_LINE = re.compile(rf"(?m)^\s*(.*?)\s*@\s*{_PERCENT}\s+{_PERCENT}\s+{_PERCENT}\s+{_PERCENT}\s*$")


def read_toy(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
    """Each `label @ x0% y0% x1% y1%` line as a box in image pixels (clipped to the image)."""
    hits = []
    for match in _LINE.finditer(text):
        x0, y0, x1, y1 = (float(match.group(i)) / 100.0 for i in range(2, 6))
        xyxy = (x0 * size[0], y0 * size[1], x1 * size[0], y1 * size[1])
        hits.append(clipped_grounding(xyxy, match.group(1), size, "toy"))
    if not hits and "@" in text:
        notes.append("a line with @ was not `label @ x0% y0% x1% y1%`")
    return hits


TOY = GroundingFamilySpec(
    "toy",
    read=read_toy,
    id_pattern=r"toyvlm",
    pointer=PointerFormat("toy", prompt="grounding_boxes", shape="boxes"),
)
FAMILIES = (TOY,)
TOY_FAMILIES = FamilyTable(FAMILIES)  # the built-in families and the toy one


def _toy_pointer_factory(*, vlm: VisionLanguageModel | None = None, **kwargs: Any) -> Pointer:
    if vlm is None:
        raise ModelUnavailable("this pointer asks the answering vision-language model: pass vlm=")
    return VLMPointer(vlm, output="toy", families=TOY_FAMILIES, **kwargs)


TOY_POINTER_ROW = ModelSpec(
    name="toy-boxes",
    kind="pointer",
    description="the answering VLM's boxes in the toy family's percent lines",
    factory=_toy_pointer_factory,
    on_device=False,
)
