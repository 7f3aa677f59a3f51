"""Small protocols every model adapter implements. Nothing outside models/ imports transformers or openai.

Images are PIL RGB images in their original size; adapters resize as their model needs and map any
coordinates they return back to original-image pixels.

Optional abilities (streaming, a frame size, a grounding family, preparing an image, scoring answers,
SAM 3's instances, SAM's multimask outputs) are asked one way: `can(obj, Ability.X)`, which reads the
object's `abilities()`. An adapter lists its own in `ABILITIES` (a `ModelBase` default: none); a wrapper
(the benchmark's cache) answers for what it wraps and forwards each method explicitly, so no ability is
lost, or claimed, behind a wrapper on any Python version. The ability's methods are typed by the protocols
below (for the type checker only: nothing checks them with isinstance).
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Literal, Protocol, cast, runtime_checkable

import numpy as np
from PIL import Image

from models.errors import ModelError as ModelError  # re-exported for adapters
from models.families.spec import GroundingFamilySpec
from models.types import Grounding


@dataclass(frozen=True)
class GenerationSettings:
    """Everything about decoding that changes an answer (it is part of every cache key)."""

    max_new_tokens: int = 256
    temperature: float = 0.0  # 0 means greedy
    top_p: float = 1.0
    seed: int | None = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "max_new_tokens": self.max_new_tokens,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "seed": self.seed,
        }


Role = Literal["system", "user", "assistant"]


@dataclass
class ChatMessage:
    """One chat message. Images attached to a message come before its text in the prompt."""

    role: Role
    text: str
    images: list[Image.Image] = field(default_factory=list)


Conversation = Sequence[ChatMessage]


class Ability(str, Enum):
    """An optional ability of a model, pointer or segmenter, and the method that has it."""

    STREAM = "stream"  # generate_stream (StreamingVisionLanguageModel)
    FRAME_SIZE = "frame-size"  # model_input_size (FrameSizingModel)
    GROUNDING_FAMILY = "grounding-family"  # grounding_family (GroundingFamilyModel)
    PREPARE_IMAGE = "prepare-image"  # prepare_image (ImagePreparingModel)
    ANSWER_SCORES = "answer-scores"  # answer_probabilities (AnswerScoringModel)
    INSTANCES = "instances"  # a pointer's instances (InstancePointer: SAM 3)
    MULTIMASK = "multimask"  # a segmenter's candidate_masks (MultimaskSegmenter)


class ModelBase:
    """The default of every adapter: no optional ability. A subclass lists its own in ABILITIES."""

    ABILITIES: ClassVar[frozenset[Ability]] = frozenset()

    def abilities(self) -> frozenset[Ability]:
        return self.ABILITIES


def abilities_of(obj: object) -> frozenset[Ability]:
    """What `obj` says it can do (its `abilities()`); nothing for an object that does not say."""
    said = getattr(obj, "abilities", None)
    return frozenset(said()) if callable(said) else frozenset()


def can(obj: object, ability: Ability) -> bool:
    """Whether `obj` has `ability` (then it has the ability's method)."""
    return ability in abilities_of(obj)


@runtime_checkable
class VisionLanguageModel(Protocol):
    """Generates text from chat messages that may carry images.

    An adapter may also stream: see StreamingVisionLanguageModel, and `stream_generate`, which streams any
    VisionLanguageModel (one piece, the whole reply, from one without `generate_stream`).
    """

    @property
    def name(self) -> str:
        """The model's name as the registry and the reports give it (an attribute or a property)."""
        ...

    def generate(self, messages: Conversation, settings: GenerationSettings | None = None) -> str:
        """One reply for one conversation."""
        ...

    def generate_batch(
        self, conversations: Sequence[Conversation], settings: GenerationSettings | None = None
    ) -> list[str]:
        """One reply per conversation, in order; batched where the backend allows."""
        ...

    def describe(self) -> dict[str, Any]:
        """What is loaded and where: {"name", "backend", "device", "dtype", "quantisation", ...}."""
        ...


class StreamingVisionLanguageModel(VisionLanguageModel, Protocol):
    """A VisionLanguageModel that also gives its reply in pieces as they are generated (Ability.STREAM);
    `stream_generate` serves models with and without it."""

    def generate_stream(
        self, messages: Conversation, settings: GenerationSettings | None = None
    ) -> Iterator[str]:
        """The reply of `generate(messages, settings)` in pieces as they are generated: for the same tokens
        the pieces joined equal generate()'s text (stripped alike). A failure raises the ModelError kinds that
        generate() raises, from the iterator, possibly after some pieces. Closing the iterator early stops
        the generation."""
        ...


@runtime_checkable
class Describing(Protocol):
    """A model that says what is loaded and where (every adapter; a test double may not)."""

    def describe(self) -> dict[str, Any]: ...


class FrameSizingModel(Protocol):
    """A VLM that knows the frame its processor resizes a photo to (Qwen2.5-VL answers in its pixels)."""

    def model_input_size(self, image: Image.Image) -> tuple[int, int]: ...


class GroundingFamilyModel(Protocol):
    """A VLM that knows its grounding convention (None: its replies have none)."""

    def grounding_family(self) -> GroundingFamilySpec | None: ...


def stream_generate(
    model: VisionLanguageModel, messages: Conversation, settings: GenerationSettings | None = None
) -> Generator[str, None, None]:
    """The reply in pieces: the model's own `generate_stream` where it has one, else generate()'s whole
    reply as one piece (nothing for an empty reply)."""
    if can(model, Ability.STREAM):
        yield from cast(StreamingVisionLanguageModel, model).generate_stream(messages, settings)
        return
    text = model.generate(messages, settings)
    if text:
        yield text


@dataclass(frozen=True)
class AnswerProbabilities:
    """How likely each one-word answer of a closed set is as the start of a model's reply.

    probabilities: answer -> probability, renormalised over the answers (sums to 1; empty when the model
    put no probability on any of them). covered: the probability the model put on the answers' first tokens
    before renormalising (1.0 for a generated answer). source: "logits" (one forward pass), "logprobs" (a
    server's top_logprobs of one token) or "generated" (a short reply read as one of the answers).
    """

    probabilities: dict[str, float]
    covered: float
    source: Literal["logits", "logprobs", "generated"]

    @classmethod
    def from_mass(
        cls, mass: dict[str, float], source: Literal["logits", "logprobs", "generated"]
    ) -> AnswerProbabilities:
        total = sum(mass.values())
        if total <= 0:
            return cls({}, 0.0, source)
        return cls({a: m / total for a, m in mass.items()}, min(1.0, total), source)


class AnswerScoringModel(Protocol):
    """A model that scores a closed set of one-word answers without generating (see answer_probabilities)."""

    def answer_probabilities(self, messages: Conversation, answers: Sequence[str]) -> AnswerProbabilities:
        """The next-token probabilities of `answers` as the reply to `messages`, in one pass."""
        ...


class ImagePreparingModel(Protocol):
    """A model that can encode a photo ahead of the calls about it (SmolVLM's cached image prefix)."""

    def prepare_image(self, image: Image.Image) -> None:
        """Encode `image` now (e.g. on upload, in the background) so later calls about it are cheaper."""
        ...


def answer_probabilities(
    model: VisionLanguageModel, messages: Conversation, answers: Sequence[str]
) -> AnswerProbabilities:
    """The model's own scoring where it has one; else a short greedy reply read as one of `answers`
    (probability 1 for the first answer word it says; none: empty probabilities)."""
    if can(model, Ability.ANSWER_SCORES):
        return cast(AnswerScoringModel, model).answer_probabilities(messages, answers)
    return read_answer(
        model.generate(messages, GenerationSettings(max_new_tokens=4, temperature=0.0)), answers
    )


def read_answer(text: str, answers: Sequence[str]) -> AnswerProbabilities:
    """A generated reply as AnswerProbabilities: the first of `answers` it says as a word gets 1."""
    first = None
    for answer in answers:
        found = re.search(rf"\b{re.escape(answer)}\b", text, re.IGNORECASE)
        if found and (first is None or found.start() < first[1]):
            first = (answer, found.start())
    mass = dict.fromkeys(answers, 0.0)
    if first:
        mass[first[0]] = 1.0
    return AnswerProbabilities.from_mass(mass, "generated")


def strip_pieces(pieces: Iterable[str]) -> Iterator[str]:
    """`pieces` such that joined they equal "".join(pieces).strip(): leading whitespace is dropped, and
    whitespace is held back until text follows it (so none is left at the end). Empty pieces are dropped."""
    started = False
    held = ""
    for piece in pieces:
        if not started:
            piece = piece.lstrip()
            if not piece:
                continue
            started = True
        text = held + piece
        body = text.rstrip()
        held = text[len(body) :]
        if body:
            yield body


@runtime_checkable
class Pointer(Protocol):
    """Finds every instance of a phrase: N hits, each a point and/or a box in original-image pixels."""

    name: str

    def point(self, image: Image.Image, phrase: str) -> list[Grounding]: ...


class InstancePointer(Pointer, Protocol):
    """A pointer that segments what it finds in the same call (SAM 3: a phrase in, every instance's box,
    score and mask out): the grounder uses its masks instead of asking a segmenter."""

    def instances(self, image: Image.Image, phrase: str) -> tuple[list[Grounding], np.ndarray]:
        """Hits (original-image pixels) and one mask per hit, N x H x W bool at the image's size."""
        ...


@runtime_checkable
class Segmenter(Protocol):
    """Turns point prompts into masks, one mask per point (never one prompt for all points)."""

    name: str

    def prepare(self, image: Image.Image) -> None:
        """Compute (and cache) the image embedding; may be called early, e.g. on upload."""
        ...

    def segment_points(self, image: Image.Image, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """points: N x 2 (x, y) pixels -> (masks N x H x W bool, scores N float)."""
        ...


class MultimaskSegmenter(Segmenter, Protocol):
    """A segmenter that gives all of SAM's multimask outputs per prompt, so the grounder can pick the best
    one that fits (assistant.grounding.select_masks)."""

    def candidate_masks(
        self, image: Image.Image, points: np.ndarray, boxes: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """points N x 2, optional boxes N x 4 -> (masks N x K x H x W bool, scores N x K)."""
        ...
