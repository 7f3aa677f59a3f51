"""A pointer that asks a VisionLanguageModel to ground a phrase, so one model can serve where memory is short.

`output` names the format asked for, one of the families' pointer formats (models/families/): its prompt
asks for JSON boxes or point tags, and the reply is read by models/readers.py, the reader `whichone
parse-grounding` uses, in the family the VLM reports (`grounding_family()`). A VLM that reports none, or
one of another format, is read as configured: as the format's family for the `coords` setting ("pixels":
the frame the VLM's processor resized the photo to where it knows it, else original pixels; "norm1000":
0-1000 of each side), or, where the format has none, as each of its families, keeping the reading that
finds most.
"""

from __future__ import annotations

from typing import Any, cast

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
from models.families import FamilyTable, GroundingFamilySpec, family_table
from models.families.spec import Coords
from models.readers import read_grounding
from models.types import Grounding
from prompts import render_prompt

MAX_PHRASE_CHARS = 120


def clean_phrase(phrase: str) -> str:
    """One line, collapsed whitespace, at most MAX_PHRASE_CHARS: it goes into a prompt."""
    return " ".join(str(phrase).split())[:MAX_PHRASE_CHARS]


class VLMPointer:
    """Pointer protocol over a VLM's own grounding output; `last_output` is the raw text of the last call."""

    def __init__(
        self,
        vlm: VisionLanguageModel,
        *,
        output: str | None = None,
        prompt: str | None = None,
        coords: Coords = "pixels",
        settings: GenerationSettings | None = None,
        name: str | None = None,
        families: FamilyTable | None = None,
    ) -> None:
        """`output`: a pointer format's name (None: the families' first that asks for boxes); `families`:
        the records to read with (default: models/families/)."""
        self.families = families or family_table()
        formats = self.families.pointer_formats()
        output = output or next(f.output for f in formats.values() if f.shape == "boxes")
        if output not in formats:
            raise ModelUnavailable(
                f"unknown pointer output format {output!r}; choose one of {', '.join(formats)}"
            )
        if coords not in ("pixels", "norm1000"):
            raise ModelUnavailable(f"unknown coordinate scale {coords!r}; choose 'pixels' or 'norm1000'")
        self.vlm = vlm
        self.output = output
        self.shape = formats[output].shape  # what the reply holds: "boxes" or "points"
        self.prompt = prompt or formats[output].prompt
        self.coords = coords
        # Boxes for a dozen objects fit in ~40 tokens each; greedy so the same image gives the same regions.
        self.settings = settings or GenerationSettings(max_new_tokens=512, temperature=0.0)
        self.name = name or f"vlm-{formats[output].shape}:{getattr(vlm, 'name', 'vlm')}"
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
        reader (models/readers.py) in the family the VLM reports, else as configured (see the module's
        doc); what could not be read is in `last_notes`."""
        reported = (
            cast(GroundingFamilyModel, self.vlm).grounding_family()
            if can(self.vlm, Ability.GROUNDING_FAMILY)
            else None
        )
        readings = [
            read_grounding(raw, family, image.size, self._frame(family, image), default_label=phrase)
            for family in self.families.to_read(self.output, reported, self.coords)
        ]
        reading = max(readings, key=lambda r: len(r.groundings))
        self.last_notes = list(reading.notes)
        return [Grounding(h.label, h.point, h.box, h.score, self.name) for h in reading.groundings]

    def _frame(self, family: GroundingFamilySpec, image: Image.Image) -> tuple[float, float] | None:
        """The frame a family with a frame rule answers in: the one the VLM's processor resized the photo
        to, where the VLM knows it; else the photo's own size. None for other families."""
        if family.frame is None:
            return None
        if can(self.vlm, Ability.FRAME_SIZE):
            return cast(FrameSizingModel, self.vlm).model_input_size(image)
        return image.size

    def describe(self) -> dict[str, Any]:
        vlm = (
            self.vlm.describe()
            if isinstance(self.vlm, Describing)
            else {"name": getattr(self.vlm, "name", "")}
        )
        return {"name": self.name, "backend": "vlm", "output": self.output, "coords": self.coords, "vlm": vlm}
