"""A pointer that asks a VisionLanguageModel to ground a phrase, so one model can serve where memory is short.

output="qwen" (default): prompts/grounding_boxes.txt asks for Qwen's grounding JSON
(`[{"bbox_2d": [x1, y1, x2, y2], "label": ...}]`); output="molmo": prompts/point_molmo.txt and Molmo's point
tags, for a Molmo served through any VLM adapter (e.g. vLLM behind models.openai_vlm; models/molmo.py runs
Molmo2 in transformers). The reply is read by models/readers.py, the reader `whichone parse-grounding` uses,
in the family the VLM reports (models.types.GroundingFamily); a VLM that reports none is read as configured
(coords="pixels": Qwen2.5-VL, in the frame the VLM's processor resized the photo to where it knows it, else
original pixels; coords="norm1000": 0-1000 as Qwen2-VL and Qwen3-VL answer).
"""

from __future__ import annotations

from typing import Any, Literal, cast

from PIL import Image

from models.base import (
    Ability,
    ChatMessage,
    Describing,
    FrameSizingModel,
    GenerationSettings,
    GroundingFamilyModel,
    VisionLanguageModel,
    can,
)
from models.errors import ModelUnavailable
from models.parsing import Coords
from models.readers import read_grounding
from models.types import Grounding, GroundingFamily
from prompts import render_prompt

OUTPUTS = {"qwen": "grounding_boxes", "molmo": "point_molmo"}
MAX_PHRASE_CHARS = 120


def clean_phrase(phrase: str) -> str:
    """One line, collapsed whitespace, at most MAX_PHRASE_CHARS: it goes into a prompt."""
    return " ".join(str(phrase).split())[:MAX_PHRASE_CHARS]


QWEN_FAMILIES = (GroundingFamily.QWEN2_5_VL, GroundingFamily.QWEN2_VL, GroundingFamily.QWEN3_VL)
MOLMO_FAMILIES = (GroundingFamily.MOLMO2, GroundingFamily.MOLMO)


class VLMPointer:
    """Pointer protocol over a VLM's own grounding output; `last_output` is the raw text of the last call."""

    def __init__(
        self,
        vlm: VisionLanguageModel,
        *,
        output: Literal["qwen", "molmo"] = "qwen",
        prompt: str | None = None,
        coords: Coords = "pixels",
        settings: GenerationSettings | None = None,
        name: str | None = None,
    ) -> None:
        if output not in OUTPUTS:
            raise ModelUnavailable(
                f"unknown pointer output format {output!r}; choose one of {', '.join(OUTPUTS)}"
            )
        if coords not in ("pixels", "norm1000"):
            raise ModelUnavailable(f"unknown coordinate scale {coords!r}; choose 'pixels' or 'norm1000'")
        self.vlm = vlm
        self.output = output
        self.prompt = prompt or OUTPUTS[output]
        self.coords = coords
        # Boxes for a dozen objects fit in ~40 tokens each; greedy so the same image gives the same regions.
        self.settings = settings or GenerationSettings(max_new_tokens=512, temperature=0.0)
        self.name = name or f"vlm-{'boxes' if output == 'qwen' else 'points'}:{getattr(vlm, 'name', 'vlm')}"
        self.last_output = ""
        self.last_notes: list[str] = []

    def prompt_text(self, phrase: str) -> str:
        return render_prompt(self.prompt, phrase=clean_phrase(phrase))

    def point(self, image: Image.Image, phrase: str) -> list[Grounding]:
        phrase = clean_phrase(phrase)
        if not phrase:
            return []
        raw = self.vlm.generate([ChatMessage("user", self.prompt_text(phrase), [image])], self.settings)
        self.last_output = raw
        return self.parse(raw, image, phrase)

    def parse(self, raw: str, image: Image.Image, phrase: str = "") -> list[Grounding]:
        """The model's text -> Groundings in original-image pixels (never raises), read by the one grounding
        reader (models/readers.py) in the family the VLM reports, else the one this pointer was configured
        for; what could not be read is in `last_notes`."""
        reported = (
            cast(GroundingFamilyModel, self.vlm).grounding_family()
            if can(self.vlm, Ability.GROUNDING_FAMILY)
            else None
        )
        if self.output == "molmo":
            # A Molmo served through any adapter: v1 percent tags or Molmo2 coords, as the reply has them.
            readings = [
                read_grounding(raw, family, image.size, default_label=phrase)
                for family in ((reported,) if reported in MOLMO_FAMILIES else MOLMO_FAMILIES)
            ]
            reading = max(readings, key=lambda r: len(r.groundings))
        else:
            if reported in QWEN_FAMILIES:  # a served Qwen3-VL answers on 0-1000 whatever we configured
                family = reported
            else:
                family = GroundingFamily.QWEN3_VL if self.coords == "norm1000" else GroundingFamily.QWEN2_5_VL
            # Qwen2.5-VL's pixels are of the frame its processor resized the photo to, where the VLM knows
            # it; a VLM that does not is read in original-image pixels.
            frame = (
                cast(FrameSizingModel, self.vlm).model_input_size(image)
                if can(self.vlm, Ability.FRAME_SIZE)
                else image.size
            )
            reading = read_grounding(raw, family, image.size, frame, default_label=phrase)
        self.last_notes = list(reading.notes)
        return [Grounding(h.label, h.point, h.box, h.score, self.name) for h in reading.groundings]

    def describe(self) -> dict[str, Any]:
        vlm = (
            self.vlm.describe()
            if isinstance(self.vlm, Describing)
            else {"name": getattr(self.vlm, "name", "")}
        )
        return {"name": self.name, "backend": "vlm", "output": self.output, "coords": self.coords, "vlm": vlm}
