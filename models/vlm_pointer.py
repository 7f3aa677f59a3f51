"""A pointer that asks a VisionLanguageModel to ground a phrase, so one model can serve where memory is short.

output="qwen" (default): prompts/grounding_boxes.txt asks for Qwen2.5-VL's grounding JSON
(`[{"bbox_2d": [x1, y1, x2, y2], "label": ...}]`); the coordinates are absolute pixels of the image as the
model's processor resized it, so they are rescaled by original size / `vlm.model_input_size(image)` when the
VLM has that method (models.hf_vlm and models.openai_vlm do), else read as original-image pixels. Qwen2-VL and
Qwen3-VL answer on a 0-1000 scale instead: pass coords="norm1000".
output="molmo": prompts/point_molmo.txt and Molmo's point tags (v1 percentages or Molmo2 0-1000 coords), for
a Molmo served through any VLM adapter (e.g. vLLM behind models.openai_vlm; see models/molmo.py for Molmo2 in
transformers).
"""

from __future__ import annotations

from typing import Any, Literal

from PIL import Image

from models.base import (
    ChatMessage,
    Describing,
    FrameSizingModel,
    GenerationSettings,
    GroundingFamilyModel,
    VisionLanguageModel,
)
from models.errors import ModelUnavailable
from models.parsing import Coords, parse_molmo, parse_qwen
from models.types import Grounding
from prompts import render_prompt

OUTPUTS = {"qwen": "grounding_boxes", "molmo": "point_molmo"}
MAX_PHRASE_CHARS = 120


def clean_phrase(phrase: str) -> str:
    """One line, collapsed whitespace, at most MAX_PHRASE_CHARS: it goes into a prompt."""
    return " ".join(str(phrase).split())[:MAX_PHRASE_CHARS]


NORM1000_FAMILIES = frozenset({"qwen3-vl", "qwen2-vl"})


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
        """The model's text -> Groundings in original-image pixels (never raises)."""
        if self.output == "molmo":
            hits = parse_molmo(raw, image.size, default_label=phrase)
        else:
            coords = self.coords
            if (
                isinstance(self.vlm, GroundingFamilyModel)
                and self.vlm.grounding_family() in NORM1000_FAMILIES
            ):
                coords = "norm1000"  # a served Qwen3-VL / Qwen2-VL answers on 0-1000 whatever we configured
            input_size = None
            if coords == "pixels" and isinstance(self.vlm, FrameSizingModel):
                input_size = self.vlm.model_input_size(image)
            hits = parse_qwen(raw, image.size, input_size, coords=coords, default_label=phrase)
        return [Grounding(h.label, h.point, h.box, h.score, self.name) for h in hits]

    def describe(self) -> dict[str, Any]:
        vlm = (
            self.vlm.describe()
            if isinstance(self.vlm, Describing)
            else {"name": getattr(self.vlm, "name", "")}
        )
        return {"name": self.name, "backend": "vlm", "output": self.output, "coords": self.coords, "vlm": vlm}
