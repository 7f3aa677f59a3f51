"""Small protocols every model adapter implements. Nothing outside models/ imports transformers or openai.

Images are PIL RGB images in their original size; adapters resize as their model needs and map any
coordinates they return back to original-image pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
from PIL import Image

from assistant.types import Grounding
from models.errors import ModelError as ModelError  # re-exported for adapters


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


@dataclass
class ChatMessage:
    """One chat message. Images attached to a message come before its text in the prompt."""

    role: str  # "system" | "user" | "assistant"
    text: str
    images: list[Image.Image] = field(default_factory=list)


Conversation = Sequence[ChatMessage]


@runtime_checkable
class VisionLanguageModel(Protocol):
    """Generates text from chat messages that may carry images."""

    name: str

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


@runtime_checkable
class Pointer(Protocol):
    """Finds every instance of a phrase: N hits, each a point and/or a box in original-image pixels."""

    name: str

    def point(self, image: Image.Image, phrase: str) -> list[Grounding]: ...


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
