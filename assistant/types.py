"""The domain's data: regions, candidates, verdicts, strategies, replies and turns. Boxes and groundings
are the models' own (models/types.py); the domain's names for them are these.

Coordinates are always in pixels of the *original* (upright, EXIF-applied) image: x to the right, y down.
Boxes are (x0, y0, x1, y1) with x0 <= x1, y0 <= y1. Masks are H x W boolean arrays of the same image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Any, Literal

import numpy as np

from models.types import Box


class Verdict(str, Enum):
    """The VLM's focus-ambiguity recognition answer, post-processed as VQ-FocusAmbiguity does."""

    AMBIGUOUS = "ambiguous"
    UNAMBIGUOUS = "unambiguous"
    UNDECIDED = "undecided"


class Level(IntEnum):
    """AQuA ambiguity levels."""

    UNAMBIGUOUS = 0  # one clear referent
    SALIENT = 1  # vague wording, one salient referent: infer from context
    FEW = 2  # 2-3 plausible referents: enumerate
    MANY = 3  # many plausible referents: ask for clarification


class Strategy(str, Enum):
    ANSWER = "answer"
    INFER = "infer"
    ENUMERATE = "enumerate"
    CLARIFY = "clarify"


STRATEGY_FOR_LEVEL: dict[Level, Strategy] = {
    Level.UNAMBIGUOUS: Strategy.ANSWER,
    Level.SALIENT: Strategy.INFER,
    Level.FEW: Strategy.ENUMERATE,
    Level.MANY: Strategy.CLARIFY,
}


GrammaticalNumber = Literal["singular", "plural"]


@dataclass
class Region:
    """One candidate referent in the image.

    `id` is the 1-based number shown on the overlay and in the text list (left to right, top to bottom).
    `mask` is H x W bool or None when only a box is known.
    """

    id: int
    box: Box
    label: str = ""
    point: tuple[float, float] | None = None
    mask: np.ndarray | None = field(default=None, repr=False, compare=False)
    score: float = 1.0
    source: str = ""
    area_ratio: float = 0.0  # region area / image area
    area_term: float = 0.0  # area ratio as normalised for the saliency score
    centre_term: float = 0.0  # 1 at the image centre, 0 at a corner
    saliency: float = 0.0  # 0.7 * area_term + 0.3 * centre_term (AQuA)
    salient: bool = False
    position: str = ""  # "on the left", "top right", ...
    description: str = ""  # "the cup on the left, large"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "description": self.description,
            "box": self.box.as_list(),
            "point": [round(self.point[0], 1), round(self.point[1], 1)] if self.point else None,
            "has_mask": self.mask is not None,
            "score": round(self.score, 3),
            "source": self.source,
            "area_ratio": round(self.area_ratio, 4),
            "saliency": round(self.saliency, 3),
            "salient": self.salient,
            "position": self.position,
        }


@dataclass
class Candidates:
    """The candidate regions for one question on one image."""

    regions: list[Region]
    image_size: tuple[int, int]  # (width, height)
    phrase: str = ""  # what was grounded, e.g. "cup"
    notes: list[str] = field(default_factory=list)  # e.g. "capped at 12 of 40 points"
    found: int | None = None  # how many were found before the cap (None: every one found is listed)

    @property
    def found_count(self) -> int:
        """How many were found: at least the ones listed."""
        return max(self.found or 0, len(self.regions))

    def __len__(self) -> int:
        return len(self.regions)

    def by_id(self, region_id: int) -> Region | None:
        return next((r for r in self.regions if r.id == region_id), None)

    @property
    def salient(self) -> list[Region]:
        return [r for r in self.regions if r.salient]


@dataclass(frozen=True)
class QuestionFocus:
    """What a question is about, from its wording alone (see assistant.question)."""

    question: str
    focus: str  # "the cup on the left"
    head: str  # "cup"
    number: GrammaticalNumber
    pronoun: bool  # "he", "it", "this" ...
    pronoun_word: str | None = None
    descriptors: tuple[str, ...] = ()  # words/phrases that narrow the head: "red", "on the left"
    non_visual_descriptors: tuple[str, ...] = ()  # cannot be seen in pixels: "emotional", "heroic"
    spatial_descriptors: tuple[str, ...] = ()  # subset of descriptors naming a place: "on the left"
    # Questions in other languages (assistant.languages); English questions keep the defaults.
    language: str = "en"  # the question's language, ISO 639-1
    english: str = ""  # the referent as an English noun phrase for the pointer; "" when not known
    locating: tuple[str, ...] = ()  # English equivalents of the place / order / size descriptors
    reader: str = ""  # "rules" or "model" (who found the focus), "none" (needs a model); "" for English

    @property
    def plural(self) -> bool:
        return self.number == "plural"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "focus": self.focus,
            "head": self.head,
            "number": self.number,
            "pronoun": self.pronoun,
            "descriptors": list(self.descriptors),
            "non_visual_descriptors": list(self.non_visual_descriptors),
        }
        if self.language != "en":  # English output stays as it was
            out |= {"language": self.language, "english": self.english, "reader": self.reader}
            out["locating"] = list(self.locating)
        return out


@dataclass(frozen=True)
class Decision:
    """The policy's choice, with the one-sentence reason the UI shows."""

    level: Level
    strategy: Strategy
    explanation: str
    referents: tuple[int, ...] = ()  # region ids the reply is about (answer/infer: 1, enumerate: 2-3)


@dataclass
class Reply:
    """The assistant's answer to one turn."""

    text: str
    strategy: Strategy
    level: Level
    candidates: Candidates
    explanation: str
    verdict: Verdict
    focus: QuestionFocus | None = None
    referents: tuple[int, ...] = ()
    verdict_raw: str = ""
    ambiguity_probability: float | None = None  # P(ambiguous) of a one-pass recognition
    timings: dict[str, float] = field(default_factory=dict)  # stage -> seconds
    model_calls: dict[str, int] = field(default_factory=dict)  # model role -> calls this turn
    resolved_region: int | None = None  # set on a second turn

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy.value,
            "level": int(self.level),
            "reply": self.text,
            "explanation": self.explanation,
            "verdict": self.verdict.value,
            "verdict_raw": self.verdict_raw,
            "ambiguity_probability": (
                None if self.ambiguity_probability is None else round(self.ambiguity_probability, 4)
            ),
            "focus": self.focus.to_dict() if self.focus else None,
            "language": self.focus.language if self.focus else "en",  # the question's (issue 36)
            "referents": list(self.referents),
            "resolved_region": self.resolved_region,
            "candidates": [r.to_dict() for r in self.candidates.regions],
            "candidate_notes": list(self.candidates.notes),
            "timings_s": {k: round(v, 4) for k, v in self.timings.items()},
            "model_calls": dict(self.model_calls),
        }


@dataclass(frozen=True)
class Turn:
    """One message of a conversation, as the UI's history shows it."""

    role: Literal["user", "assistant"]
    text: str
    region_id: int | None = None
