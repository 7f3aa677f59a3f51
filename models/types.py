"""What the models produce, in the coordinates the whole project uses: a `Box` and a `Grounding` (one raw hit
of a pointer or grounder). The domain (assistant/types.py) builds its regions from them; the convention a
reply's coordinates follow is its grounding family (models/families/).

Coordinates are pixels of the *original* (upright, EXIF-applied) image: x to the right, y down. Boxes are
(x0, y0, x1, y1) with x0 <= x1, y0 <= y1. Masks are H x W boolean arrays of the same image.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in original-image pixels."""

    x0: float
    y0: float
    x1: float
    y1: float

    def __post_init__(self) -> None:
        if self.x1 < self.x0 or self.y1 < self.y0:
            raise ValueError(f"box corners out of order: {self}")

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def area(self) -> float:
        return self.width * self.height

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def clip(self, width: int, height: int) -> Box:
        return Box(
            min(max(self.x0, 0.0), width),
            min(max(self.y0, 0.0), height),
            min(max(self.x1, 0.0), width),
            min(max(self.y1, 0.0), height),
        )

    def as_list(self) -> list[float]:
        return [round(self.x0, 1), round(self.y0, 1), round(self.x1, 1), round(self.y1, 1)]

    @classmethod
    def from_mask(cls, mask: np.ndarray) -> Box | None:
        """Tight box of an H x W boolean mask; None for an empty mask."""
        ys, xs = np.nonzero(mask)
        if xs.size == 0:
            return None
        return cls(float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


@dataclass(frozen=True)
class Grounding:
    """One raw hit of a pointer or grounder, before segmentation: a point, a box, or both."""

    label: str
    point: tuple[float, float] | None = None
    box: Box | None = None
    score: float = 1.0
    source: str = ""
