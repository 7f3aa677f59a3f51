"""What one grounding family is, in one record: `GroundingFamilySpec`.

A grounding family is a convention for writing boxes and points in a reply (JSON in the resized frame's
pixels, point tags in percent, location tokens in bins, ...). Its record says everything the code needs to
know about it: which checkpoints answer that way (their config's model_type, a served model's id), how to
read a reply (`read`), what the VLM pointer asks such a model for (`pointer`: the output format and its
prompt), the frame its coordinates are in (`frame`), for which `coords` setting the pointer reads a model
that names no family this way (`fallback_for`), and the tiny checkpoint tests run its code path on (`tiny`).
Each family is one module of this package; models/families/__init__.py finds them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from models.types import Grounding

if TYPE_CHECKING:
    from models.tiny import TinyRecipe

Size = tuple[float, float]  # (width, height)
Coords = Literal["pixels", "norm1000"]  # a reply's scale: the resized frame's pixels, or 0-1000 of each side

# (reply, original image size, the frame the coordinates are in or None, notes to add to) -> hits in
# original-image pixels, in the reply's order. A reader never raises; what it cannot read goes in the notes.
Reader = Callable[[str, Size, "Size | None", list[str]], list[Grounding]]
# (image size as sent, the server's min pixels or None, its max pixels or None) -> (width, height) of the
# frame the model's processor resizes it to.
FrameRule = Callable[[Size, "int | None", "int | None"], tuple[int, int]]


@dataclass(frozen=True)
class PointerFormat:
    """What the VLM pointer (models/vlm_pointer.py) asks a model of the family for: `output` is the name
    `VLMPointer(output=...)` takes, `prompt` the prompt's name (prompts/<prompt>.txt, with {phrase}), and
    `shape` what the reply holds (the pointer is named vlm-boxes or vlm-points after it)."""

    output: str
    prompt: str
    shape: Literal["boxes", "points"]


@dataclass(frozen=True, eq=False)
class GroundingFamilySpec:
    """One grounding family: the one name a model reports (`grounding_family()`), `whichone parse-grounding
    --family` takes and WHICHONE_OPENAI_GROUNDING gives, and everything about it (see the module's doc)."""

    name: str
    read: Reader
    model_types: tuple[str, ...] = ()  # checkpoint configs' model_type (models/hf_vlm.py)
    id_pattern: str | None = None  # a regular expression found in a served model's lower-cased id
    pointer: PointerFormat | None = None  # None: the VLM pointer does not ask for this family's output
    frame: FrameRule | None = None  # None: the coordinates are of the original image, or normalised
    fallback_for: tuple[Coords, ...] = ()
    tiny: tuple[TinyRecipe, ...] = field(default=(), repr=False)  # local checkpoints of the family

    def matches_id(self, model_id: str) -> bool:
        return bool(self.id_pattern) and re.search(str(self.id_pattern), model_id) is not None

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        """Equal to the same record, or to its name (a family is often given by name)."""
        if isinstance(other, GroundingFamilySpec):
            return self.name == other.name
        if isinstance(other, str):
            return self.name == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)
