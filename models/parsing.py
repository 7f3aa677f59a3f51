"""What every grounding reader shares: point tags, the limits on a reply, and small readers of numbers and
sizes (each family's own format is read in its module under models/families/).

Point tags: `<point x="61.5" y="40.6" alt="cup">cup</point>` and `<points x1="26.0" y1="67.5" x2="44.2"
y2="40.5" alt="people">people</points>` give x and y as percentages (0-100) of the image width and height;
`<points coords="1 1 461 527 2 481 521">cups</points>` gives, per image (or video frame), its 1-based index,
then repeated "point-index x y" with x, y on a 0-1000 scale of the width and height; several images/frames
are separated by ";" (or tab, ":" or ","). Coordinates in coords are 3-4 digits (zero-padded, "098"), which
is what lets the model card's regexes re-synchronise after a missing number; we keep that rule.

Every parser here never raises: what is valid is returned, what is not is dropped (a missing coordinate, a
value outside the frame, a truncated object). Output order is the order in the text.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any

from models.types import Box, Grounding

log = logging.getLogger(__name__)

MAX_TEXT_CHARS = 200_000  # longer outputs are cut: a runaway generation must not make parsing slow
MAX_HITS = 500  # the grounder caps further; this bounds the parser's own work

Size = tuple[float, float]  # (width, height)


# ------------------------------------------------------------------------------------------------ point tags

_TAG = re.compile(r"<\s*(points?|tracks)\b((?:[^<>\"']|\"[^\"]*\"|'[^']*')*)>", re.IGNORECASE)
_ATTR = re.compile(r"([A-Za-z_][\w-]*)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>/]+))")
_CLOSE = re.compile(r"<\s*/\s*(points?|tracks)\s*>", re.IGNORECASE)
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
# The model card's regexes (of the family that writes coords): frames split on tab : , ; and points as
# "index xxx yyy" with 3-4 digit x, y.
_COORDS_FRAME = re.compile(r"(?:^|\t|:|,|;)\s*([0-9.]+) ([0-9. ]+)")
_COORDS_POINT = re.compile(r"(?<!\d)([0-9]+) ([0-9]{3,4}) ([0-9]{3,4})(?!\d)")
_TRUNCATED_COORDS = re.compile(
    r"<\s*(?:points|tracks)\b[^<>]*?\bcoords\s*=\s*[\"']([0-9\t:;, .]*)$", re.IGNORECASE
)


def parse_point_tags(
    text: str, image_size: Size, default_label: str = "", sources: tuple[str, str] = ("percent", "coords")
) -> list[Grounding]:
    """Point tags -> point Groundings in image pixels: x/y attributes in percent, `coords` on 0-1000. Each
    hit's source is `sources[0]` for a percent point, `sources[1]` for a coords one."""
    try:
        return list(limit_hits(_tag_hits(clip_text(text), image_size, default_label, sources)))
    except Exception:  # noqa: BLE001 - a parser of model output must never take the app down
        log.exception("unexpected failure parsing point tags; returning no points")
        return []


def _tag_hits(
    text: str, image_size: Size, default_label: str, sources: tuple[str, str]
) -> Iterator[Grounding]:
    width, height = valid_size(image_size)
    if width <= 0:
        return
    for match in _TAG.finditer(text):
        attrs = _attributes(match.group(2))
        label = attrs.get("alt") or _inner_text(text, match) or default_label
        if "coords" in attrs:
            for x, y in _coords_points(attrs["coords"]):
                yield Grounding(
                    label=label, point=(x / 1000.0 * width, y / 1000.0 * height), source=sources[1]
                )
            continue
        for x, y in _percent_points(attrs):
            yield Grounding(label=label, point=(x / 100.0 * width, y / 100.0 * height), source=sources[0])
    cut = _TRUNCATED_COORDS.search(text)
    if cut is not None:  # generation stopped inside coords="...: keep the points that are complete
        # The number it stopped in may have lost digits: drop it unless a separator followed it.
        coords = re.sub(r"[0-9.]+$", "", cut.group(1))
        for x, y in _coords_points(coords):
            yield Grounding(
                label=default_label, point=(x / 1000.0 * width, y / 1000.0 * height), source=sources[1]
            )


def _percent_points(attrs: dict[str, str]) -> Iterator[tuple[float, float]]:
    """x/y, or x1/y1, x2/y2, ... in percent; a pair missing a coordinate or outside 0-100 is dropped."""
    indices = sorted(
        {m.group(1) for key in attrs if (m := re.fullmatch(r"[xy](\d*)", key))},
        key=lambda s: int(s) if s else 0,
    )
    for index in indices:
        x, y = number(attrs.get(f"x{index}")), number(attrs.get(f"y{index}"))
        if x is None or y is None or not (0.0 <= x <= 100.0 and 0.0 <= y <= 100.0):
            continue
        yield x, y


def _coords_points(coords: str) -> Iterator[tuple[float, float]]:
    """coords -> (x, y) on 0-1000, every frame's points (a single image has frame 1 only)."""
    for frame in _COORDS_FRAME.finditer(coords.strip()):
        for point in _COORDS_POINT.finditer(frame.group(2)):
            x, y = float(point.group(2)), float(point.group(3))
            if 0.0 <= x <= 1000.0 and 0.0 <= y <= 1000.0:
                yield x, y


def _attributes(raw: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for m in _ATTR.finditer(raw):
        value = next((g for g in m.groups()[1:] if g is not None), "")
        attrs.setdefault(m.group(1).lower(), value.strip())
    return attrs


def _inner_text(text: str, tag: re.Match[str]) -> str:
    """The label between an opening tag and its closing tag ("" for a self-closing or unclosed tag)."""
    if tag.group(0).rstrip(">").rstrip().endswith("/"):
        return ""
    close = _CLOSE.search(text, tag.end())
    if close is None:
        return ""
    inner = text[tag.end() : close.start()]
    if "<" in inner:  # the next tag came first: this one was never closed
        return ""
    return " ".join(inner.split())[:100]


# ------------------------------------------------------------------------------------------------ helpers


def clip_text(text: object) -> str:
    if not isinstance(text, str):
        return ""
    return text[:MAX_TEXT_CHARS]


def limit_hits(hits: Iterable[Grounding]) -> Iterator[Grounding]:
    for i, hit in enumerate(hits):
        if i >= MAX_HITS:
            return
        yield hit


def valid_size(size: object) -> tuple[float, float]:
    if not isinstance(size, (tuple, list)) or len(size) < 2:
        return (0.0, 0.0)
    width, height = number(size[0]), number(size[1])
    if width is None or height is None or width <= 0 or height <= 0:
        return (0.0, 0.0)
    return width, height


def number(value: object) -> float | None:
    """A finite number from a JSON value: a number, or text such as " 12.5" or "40%"; None otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value.strip().rstrip("%")) if isinstance(value, str) else float(value)
    except (ValueError, OverflowError):  # an integer past float's range (JSON allows 1 followed by 400 zeros)
        return None
    return number if math.isfinite(number) else None


def flat_values(value: object) -> list[object]:
    """[x1, y1, x2, y2] or [[x1, y1, x2, y2]] or [[x1, y1], [x2, y2]] -> a flat list."""
    if not isinstance(value, (list, tuple)):
        return [value]
    out: list[object] = []
    for v in value:
        out.extend(flat_values(v) if isinstance(v, (list, tuple)) else [v])
    return out


def clipped_grounding(xyxy: Any, label: str, size: Size, source: str) -> Grounding:
    """A box (x0, y0, x1, y1) in image pixels, clipped to the image, as a Grounding (its point the centre)."""
    x0, y0, x1, y1 = (float(v) for v in xyxy)
    x0, x1 = max(0.0, min(size[0], x0)), max(0.0, min(size[0], x1))
    y0, y1 = max(0.0, min(size[1], y0)), max(0.0, min(size[1], y1))
    box = Box(x0, y0, x1, y1)
    return Grounding(label=" ".join(label.split())[:100], box=box, point=box.centre, source=source)


def checked_size(size: Any) -> tuple[float, float]:
    """(width, height) as numbers; ValueError in plain words for anything that is not a usable size."""
    try:
        width, height = float(size[0]), float(size[1])
    except (TypeError, ValueError, IndexError):
        raise ValueError(f"an image size is two numbers (width height), not {size!r}") from None
    if (
        not (math.isfinite(width) and math.isfinite(height))
        or width < 1
        or height < 1
        or max(width, height) > 1e6
    ):
        raise ValueError(f"an image size must be two whole numbers from 1 to 1,000,000, not {size!r}")
    return width, height
