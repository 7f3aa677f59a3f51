"""The state of one conversation: one image, the current question, its candidates and the history.

A Session lives in memory only (the UI keeps one per browser session in gr.State); nothing here is
written to disk.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from typing import Literal

from PIL import Image

from assistant.types import Candidates, QuestionFocus, Region, Reply, Turn
from models.pixels import image_digest


@dataclass
class Session:
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    image: Image.Image | None = field(default=None, repr=False)
    image_key: str | None = None  # content hash of the working image
    question: str | None = None
    focus: QuestionFocus | None = None
    candidates: Candidates | None = None
    last_reply: Reply | None = None
    history: list[Turn] = field(default_factory=list)
    # The candidate the user chose last (a region id of `candidates`): a next question that points back to
    # it ("what is he holding?") is about it; a question that names a thing forgets it.
    chosen_region: int | None = None

    def set_image(self, image: Image.Image) -> bool:
        """Use `image` from now on; returns True when it differs from the current one (state reset)."""
        key = image_digest(image)
        if key == self.image_key:
            return False
        self.image, self.image_key = image, key
        self.question = self.focus = self.candidates = self.last_reply = self.chosen_region = None
        self.history = []
        return True

    def start_over(self) -> None:
        """Forget everything, the image included."""
        self.image = self.image_key = None
        self.question = self.focus = self.candidates = self.last_reply = self.chosen_region = None
        self.history = []

    def copy(self) -> Session:
        """The same conversation as a new object (the photo and replies shared: they are not changed)."""
        return replace(self, history=list(self.history))

    def chosen(self) -> Region | None:
        """The region the user chose last, while it is among the candidates."""
        if self.chosen_region is None or self.candidates is None:
            return None
        return self.candidates.by_id(self.chosen_region)

    def add(self, role: Literal["user", "assistant"], text: str, region_id: int | None = None) -> None:
        self.history.append(Turn(role=role, text=text, region_id=region_id))
