"""A classical pointer (no learning): points at connected regions that differ from the background colour.

This is an offline / demo pointer, not a recogniser. It does not know what a cup is: it finds the image's
dominant background colour (the most common colour along the border), keeps pixels that differ from it,
splits them into connected regions of similar colour, and points at each region of a plausible size (not
spanning the whole image: that is a table or a wall). If the
phrase names a colour ("red cup"), only regions of that colour are kept. On synthetic scenes (coloured
objects on a plain background) that gives the real candidate regions the tiny VLM cannot (its own grounding
output is noise), so the offline demo, the UI's browser tests and the end-to-end tests see real regions.
On cluttered photos it points at whatever stands out; use a Molmo2 or VLM pointer there.

Only PIL and numpy: the connected components are found by vectorised min-label propagation.
"""

from __future__ import annotations

import colorsys
import re

import numpy as np
from PIL import Image

from models.types import Box, Grounding

COLOUR_WORDS = {
    "red": "red", "orange": "orange", "yellow": "yellow", "green": "green", "blue": "blue",
    "purple": "purple", "violet": "purple", "pink": "pink", "magenta": "pink", "brown": "brown",
    "white": "white", "black": "black", "grey": "grey", "gray": "grey", "cyan": "blue", "teal": "green",
}  # fmt: skip


def colour_name(rgb: tuple[float, float, float]) -> str:
    """A basic colour word for an RGB colour (0-255 each)."""
    r, g, b = (max(0.0, min(255.0, c)) / 255.0 for c in rgb)
    hue, sat, val = colorsys.rgb_to_hsv(r, g, b)
    deg = hue * 360.0
    if val < 0.2:
        return "black"
    if sat < 0.2:
        return "white" if val > 0.8 else "grey"
    if 15 <= deg < 45 and val < 0.6:
        return "brown"
    for limit, name in ((15, "red"), (45, "orange"), (70, "yellow"), (165, "green"), (255, "blue"),
                        (290, "purple"), (345, "pink")):  # fmt: skip
        if deg < limit:
            return name
    return "red"


class BlobPointer:
    """Pointer protocol: point(image, phrase) -> one Grounding (point + box) per coloured region.

    max_side: the image is analysed at this size (the result is mapped back to original pixels).
    tolerance: RGB distance that counts as "a different colour" (from the background, and between
    neighbouring pixels of one region). min_area / max_area: kept region sizes as fractions of the image.
    """

    name = "blobs"

    def __init__(
        self,
        *,
        max_side: int = 160,
        tolerance: float = 48.0,
        min_area: float = 0.002,
        max_area: float = 0.5,
        max_blobs: int = 24,
    ) -> None:
        self.max_side = max_side
        self.tolerance = tolerance
        self.min_area = min_area
        self.max_area = max_area
        self.max_blobs = max_blobs

    def point(self, image: Image.Image, phrase: str) -> list[Grounding]:
        width, height = image.size
        if width < 2 or height < 2:
            return []
        small = image.convert("RGB")
        scale = min(1.0, self.max_side / max(width, height))
        if scale < 1.0:
            small = small.resize(
                (max(2, round(width * scale)), max(2, round(height * scale))), Image.Resampling.BOX
            )
        rgb = np.asarray(small, dtype=np.float32)  # h x w x 3
        labels = self._components(rgb)
        wanted = _colour_in(phrase)
        hits = []
        sx, sy = width / rgb.shape[1], height / rgb.shape[0]
        for mask in self._regions(labels):
            mean = rgb[mask].mean(axis=0)
            colour = colour_name((float(mean[0]), float(mean[1]), float(mean[2])))
            if wanted and colour != wanted:
                continue
            ys, xs = np.nonzero(mask)
            x0, y0, x1, y1 = int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
            if x1 - x0 >= 0.95 * mask.shape[1] or y1 - y0 >= 0.95 * mask.shape[0]:
                continue  # spans the whole image: a surface (table, wall, floor), not an object
            if min(x1 - x0, y1 - y0) < 3:
                continue  # a line of mixed colour where two objects meet (downscaling blends them)
            # The region's pixel nearest its centroid: inside the region even when it is not convex.
            i = int(np.argmin((xs - xs.mean()) ** 2 + (ys - ys.mean()) ** 2))
            point = (float(xs[i] + 0.5) * sx, float(ys[i] + 0.5) * sy)
            box = Box(x0 * sx, y0 * sy, x1 * sx, y1 * sy).clip(width, height)
            label = _label(phrase, colour, wanted)
            hits.append(
                (int(mask.sum()), Grounding(label=label, point=point, box=box, score=1.0, source="blobs"))
            )
        hits.sort(key=lambda h: -h[0])
        largest = hits[0][0] if hits else 1
        # Score: relative size, so the grounder's cap keeps the biggest regions.
        return [
            Grounding(g.label, g.point, g.box, score=round(area / largest, 4), source=g.source)
            for area, g in hits[: self.max_blobs]
        ]

    # ---------------------------------------------------------------- image analysis

    def _background(self, rgb: np.ndarray) -> np.ndarray:
        """Mean colour of the most common (5 bits a channel) colour along the image border."""
        border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
        q = (border // 8).astype(np.int64)
        codes = q[:, 0] * 1024 + q[:, 1] * 32 + q[:, 2]
        values, counts = np.unique(codes, return_counts=True)
        top = values[np.argmax(counts)]
        return border[codes == top].mean(axis=0)

    def _components(self, rgb: np.ndarray) -> np.ndarray:
        """h x w int labels: -1 for background, else the flat index of the region's first pixel."""
        h, w, _ = rgb.shape
        foreground = np.linalg.norm(rgb - self._background(rgb), axis=2) > self.tolerance
        # Neighbours join a region when both are foreground and of similar colour (objects that touch split).
        right = (
            foreground[:, :-1]
            & foreground[:, 1:]
            & (np.linalg.norm(rgb[:, :-1] - rgb[:, 1:], axis=2) < self.tolerance)
        )
        down = (
            foreground[:-1] & foreground[1:] & (np.linalg.norm(rgb[:-1] - rgb[1:], axis=2) < self.tolerance)
        )
        big = h * w
        labels = np.where(foreground, np.arange(big).reshape(h, w), big)
        for _ in range(4 * (h + w)):  # enough for any region shape; pointer jumping usually ends it early
            new = labels.copy()
            np.minimum(new[:, :-1], np.where(right, labels[:, 1:], big), out=new[:, :-1])
            np.minimum(new[:, 1:], np.where(right, labels[:, :-1], big), out=new[:, 1:])
            np.minimum(new[:-1], np.where(down, labels[1:], big), out=new[:-1])
            np.minimum(new[1:], np.where(down, labels[:-1], big), out=new[1:])
            flat = new.reshape(-1)
            inside = flat < big
            flat[inside] = flat[flat[inside]]  # pointer jumping: a label's own label is as small or smaller
            if np.array_equal(new, labels):
                break
            labels = new
        return np.where(labels < big, labels, -1)

    def _regions(self, labels: np.ndarray) -> list[np.ndarray]:
        total = labels.size
        ids, counts = np.unique(labels[labels >= 0], return_counts=True)
        keep = [i for i, c in zip(ids, counts, strict=True) if self.min_area <= c / total <= self.max_area]
        return [labels == i for i in keep]


def _colour_in(phrase: str) -> str | None:
    for word in re.findall(r"[a-z]+", phrase.lower()):
        if word in COLOUR_WORDS:
            return COLOUR_WORDS[word]
    return None


def _label(phrase: str, colour: str, wanted: str | None) -> str:
    """The phrase, with the region's colour before a short phrase that names none ("cup" -> "red cup")."""
    phrase = " ".join(phrase.split()) or "object"
    if wanted or len(phrase.split()) > 2:
        return phrase
    return f"{colour} {phrase}"
