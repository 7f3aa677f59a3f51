"""The PaliGemma family: `<locYYYY>` x4 (y_min, x_min, y_max, x_max) then the label, ` ; ` between objects;
bins of 1024. supervision reads it right on the corpus (`sv.Detections.from_vlm`), so it does the reading."""

from __future__ import annotations

from models.families.spec import GroundingFamilySpec, Size
from models.parsing import clipped_grounding
from models.sv import supervision
from models.types import Grounding


def _read(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
    sv = supervision()
    detections = sv.Detections.from_vlm(sv.VLM.PALIGEMMA, text, resolution_wh=(int(size[0]), int(size[1])))
    names = detections.data.get("class_name", [""] * len(detections))
    return [
        clipped_grounding(xyxy, str(name), size, "paligemma")
        for xyxy, name in zip(detections.xyxy, names, strict=False)
    ]


FAMILIES = (GroundingFamilySpec("paligemma", read=_read, id_pattern=r"paligemma"),)
