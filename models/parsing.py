"""Parsers for the grounding outputs of pointing and grounding VLMs, to Groundings in original-image pixels.

Formats (real output shapes):
- Molmo (v1, e.g. allenai/Molmo-7B-D-0924): `<point x="61.5" y="40.6" alt="cup">cup</point>` and
  `<points x1="26.0" y1="67.5" x2="44.2" y2="40.5" alt="people">people</points>`; x and y are percentages
  (0-100) of the image width and height.
- Molmo2 (allenai/Molmo2-4B / -8B): `<points coords="1 1 461 527 2 481 521">cups</points>`: per image (or
  video frame) its 1-based index, then repeated "point-index x y" with x, y on a 0-1000 scale of the width and
  height; several images/frames are separated by ";" (or tab, ":" or ","). Coordinates are 3-4 digits
  (zero-padded, "098"), which is what lets the model card's regexes re-synchronise after a missing number;
  we keep that rule. transformers' Molmo2Processor has no post-processing of its own for points.
- Qwen2.5-VL: JSON `[{"bbox_2d": [x1, y1, x2, y2], "label": "cup"}]` or `{"point_2d": [x, y], ...}`, often in
  a ```json fence, in absolute pixels of the image *as the processor resized it* (model_input_size); Qwen2-VL
  and Qwen3-VL use 0-1000 instead (`coords="norm1000"`). Qwen2-VL's token form
  `<|object_ref_start|>cup<|object_ref_end|><|box_start|>(10,20),(30,40)<|box_end|>` is 0-1000 too.

Every parser here never raises: what is valid is returned, what is not is dropped (a missing coordinate, a
value outside the frame, a truncated object). Output order is the order in the text.
"""

from __future__ import annotations

import ast
import json
import logging
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any, Literal

from models.types import Box, Grounding

log = logging.getLogger(__name__)

MAX_TEXT_CHARS = 200_000  # longer outputs are cut: a runaway generation must not make parsing slow
MAX_HITS = 500  # the grounder caps further; this bounds the parser's own work

Size = tuple[float, float]  # (width, height)
Coords = Literal["pixels", "norm1000"]  # the Qwen reply's scale: the resized frame's pixels, or 0-1000


# ------------------------------------------------------------------------------------------------ Molmo

_TAG = re.compile(r"<\s*(points?|tracks)\b((?:[^<>\"']|\"[^\"]*\"|'[^']*')*)>", re.IGNORECASE)
_ATTR = re.compile(r"([A-Za-z_][\w-]*)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>/]+))")
_CLOSE = re.compile(r"<\s*/\s*(points?|tracks)\s*>", re.IGNORECASE)
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
# Molmo2's model-card regexes: frames split on tab : , ; and points as "index xxx yyy" with 3-4 digit x, y.
_MOLMO2_FRAME = re.compile(r"(?:^|\t|:|,|;)\s*([0-9.]+) ([0-9. ]+)")
_MOLMO2_POINT = re.compile(r"(?<!\d)([0-9]+) ([0-9]{3,4}) ([0-9]{3,4})(?!\d)")
_TRUNCATED_MOLMO2 = re.compile(
    r"<\s*(?:points|tracks)\b[^<>]*?\bcoords\s*=\s*[\"']([0-9\t:;, .]*)$", re.IGNORECASE
)


def parse_molmo(text: str, image_size: Size, default_label: str = "") -> list[Grounding]:
    """Molmo v1 (percent) and Molmo2 (coords, 0-1000) point tags -> point Groundings in image pixels."""
    try:
        return list(_limit(_molmo_hits(_clip_text(text), image_size, default_label)))
    except Exception:  # noqa: BLE001 - a parser of model output must never take the app down
        log.exception("unexpected failure parsing Molmo output; returning no points")
        return []


def _molmo_hits(text: str, image_size: Size, default_label: str) -> Iterator[Grounding]:
    width, height = _valid_size(image_size)
    if width <= 0:
        return
    for match in _TAG.finditer(text):
        attrs = _attributes(match.group(2))
        label = attrs.get("alt") or _inner_text(text, match) or default_label
        if "coords" in attrs:
            for x, y in _molmo2_points(attrs["coords"]):
                yield Grounding(label=label, point=(x / 1000.0 * width, y / 1000.0 * height), source="molmo2")
            continue
        for x, y in _molmo1_points(attrs):
            yield Grounding(label=label, point=(x / 100.0 * width, y / 100.0 * height), source="molmo")
    cut = _TRUNCATED_MOLMO2.search(text)
    if cut is not None:  # generation stopped inside coords="...: keep the points that are complete
        # The number it stopped in may have lost digits: drop it unless a separator followed it.
        coords = re.sub(r"[0-9.]+$", "", cut.group(1))
        for x, y in _molmo2_points(coords):
            yield Grounding(
                label=default_label, point=(x / 1000.0 * width, y / 1000.0 * height), source="molmo2"
            )


def _molmo1_points(attrs: dict[str, str]) -> Iterator[tuple[float, float]]:
    """x/y, or x1/y1, x2/y2, ... in percent; a pair missing a coordinate or outside 0-100 is dropped."""
    indices = sorted(
        {m.group(1) for key in attrs if (m := re.fullmatch(r"[xy](\d*)", key))},
        key=lambda s: int(s) if s else 0,
    )
    for index in indices:
        x, y = _number(attrs.get(f"x{index}")), _number(attrs.get(f"y{index}"))
        if x is None or y is None or not (0.0 <= x <= 100.0 and 0.0 <= y <= 100.0):
            continue
        yield x, y


def _molmo2_points(coords: str) -> Iterator[tuple[float, float]]:
    """Molmo2 coords -> (x, y) on 0-1000, every frame's points (a single image has frame 1 only)."""
    for frame in _MOLMO2_FRAME.finditer(coords.strip()):
        for point in _MOLMO2_POINT.finditer(frame.group(2)):
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


# ------------------------------------------------------------------------------------------------ Qwen

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)(?:```|$)", re.DOTALL)
_BOX_KEYS = ("bbox_2d", "bbox", "box_2d", "box", "bboxes")
_POINT_KEYS = ("point_2d", "point", "points_2d")
_QWEN2_BOX = re.compile(
    r"(?:<\|object_ref_start\|>(.*?)<\|object_ref_end\|>)?\s*<\|box_start\|>\s*\(\s*("
    + _NUMBER
    + r")\s*,\s*("
    + _NUMBER
    + r")\s*\)\s*,\s*\(\s*("
    + _NUMBER
    + r")\s*,\s*("
    + _NUMBER
    + r")\s*\)\s*<\|box_end\|>",
    re.DOTALL,
)


def parse_qwen(
    text: str,
    image_size: Size,
    input_size: Size | None = None,
    *,
    coords: Coords = "pixels",
    default_label: str = "",
) -> list[Grounding]:
    """Qwen-style JSON boxes / points (or Qwen2-VL box tokens) -> Groundings in original-image pixels.

    image_size: (width, height) of the original image. input_size: (width, height) of the frame the model's
    coordinates refer to with coords="pixels" (Qwen2.5-VL: the processor's resized input; None means the
    original image). coords="norm1000": 0-1000 of each side (Qwen2-VL, Qwen3-VL); input_size is then unused.
    """
    try:
        return list(_limit(_qwen_hits(_clip_text(text), image_size, input_size, coords, default_label)))
    except Exception:  # noqa: BLE001
        log.exception("unexpected failure parsing Qwen grounding output; returning no boxes")
        return []


def _qwen_hits(
    text: str, image_size: Size, input_size: Size | None, coords: Coords, default_label: str
) -> Iterator[Grounding]:
    width, height = _valid_size(image_size)
    if width <= 0:
        return
    if coords == "norm1000":
        frame = (1000.0, 1000.0)
    else:
        frame = _valid_size(input_size) if input_size is not None else (width, height)
        if frame[0] <= 0:
            return
    sx, sy = width / frame[0], height / frame[1]

    token_boxes = list(_QWEN2_BOX.finditer(text))
    if token_boxes:  # Qwen2-VL's token form is always 0-1000
        for m in token_boxes:
            box = _frame_box([m.group(i) for i in range(2, 6)], (1000.0, 1000.0))
            if box is not None:
                label = " ".join((m.group(1) or "").split()) or default_label
                yield _scaled_box(box, width / 1000.0, height / 1000.0, label, "qwen2-tokens")
        return

    for item in _json_objects(text):
        label = _label(item) or default_label
        several = item.get("bboxes")
        if isinstance(several, list) and several and all(isinstance(b, (list, tuple)) for b in several):
            for raw in several:  # Qwen2-VL following a {"object", "bboxes": [[...], ...]} schema
                box = _frame_box(_flat(raw), frame)
                if box is not None:
                    yield _scaled_box(box, sx, sy, label, "qwen-json")
            continue
        raw_box = next((item[k] for k in _BOX_KEYS if k in item), None)
        if raw_box is not None:
            box = _frame_box(_flat(raw_box), frame)
            if box is not None:
                yield _scaled_box(box, sx, sy, label, "qwen-json")
            continue
        raw_point = next((item[k] for k in _POINT_KEYS if k in item), None)
        if raw_point is not None:
            values = [v for v in (_number(v) for v in _flat(raw_point)) if v is not None]
            if len(values) == 2 and len(_flat(raw_point)) == 2:
                x, y = values
                if 0.0 <= x <= frame[0] and 0.0 <= y <= frame[1]:
                    yield Grounding(label=label, point=(x * sx, y * sy), source="qwen-json")


_LABEL_KEYS = ("label", "name", "name_en", "object", "names", "category")


def _label(item: dict[str, Any]) -> str:
    """The object's name: "label", "name", Qwen3-VL's "name_en" or {"names": {"en": ...}}, Qwen2-VL's
    "object" ("" when none)."""
    for key in _LABEL_KEYS:
        value = item.get(key)
        if isinstance(value, dict):
            value = value.get("en") or next((v for v in value.values() if isinstance(v, str)), "")
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())[:100]
    return ""


def _scaled_box(
    box: tuple[float, float, float, float], sx: float, sy: float, label: str, source: str
) -> Grounding:
    x0, y0, x1, y1 = box
    scaled = Box(x0 * sx, y0 * sy, x1 * sx, y1 * sy)
    return Grounding(label=label, box=scaled, point=scaled.centre, source=source)


def _frame_box(values: list[object], frame: Size) -> tuple[float, float, float, float] | None:
    """Four numbers -> an ordered box clipped to the frame (the Qwen maintainers' advice: a box that
    overshoots the frame is clipped, not dropped); None when nothing of it is inside."""
    numbers = [n for n in (_number(v) for v in values) if n is not None]
    if len(values) != 4 or len(numbers) != 4:
        return None
    x0, y0, x1, y1 = numbers
    x0, x1 = min(x0, x1), max(x0, x1)
    y0, y1 = min(y0, y1), max(y0, y1)
    fw, fh = frame
    x0, x1 = max(0.0, x0), min(fw, x1)
    y0, y1 = max(0.0, y0), min(fh, y1)
    if x1 - x0 <= 0 or y1 - y0 <= 0:
        return None
    return x0, y0, x1, y1


def _json_objects(text: str) -> Iterator[dict[str, Any]]:
    """Every dict the text holds: a whole JSON document if it parses, else each complete {...} found."""
    bodies = [m.group(1) for m in _FENCE.finditer(text)] if "```" in text else []
    for body in bodies or [text]:
        whole = _loads(body.strip())
        if whole is not None:
            yield from _dicts(whole)
            continue
        yield from _recovered_objects(body)


def _dicts(value: object, depth: int = 0) -> Iterator[dict[str, Any]]:
    if depth > 8:  # grounding JSON is two levels deep; deeper nesting is not an answer
        return
    if isinstance(value, dict):
        nested = [v for v in value.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
        if nested and not any(k in value for k in _BOX_KEYS + _POINT_KEYS):
            for items in nested:  # {"objects": [{...}, ...]}
                yield from _dicts(items, depth + 1)
        else:
            yield value
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)):
                yield from _dicts(item, depth + 1)


MAX_RECOVERY_STARTS = 2_000  # "{" positions tried when the JSON is broken
MAX_OBJECT_CHARS = 20_000  # one grounding object is far shorter


def _recovered_objects(text: str) -> Iterator[dict[str, Any]]:
    """Every well-formed object with a box or point in broken JSON (truncated, an object opened twice):
    from each "{" the balanced span that parses, skipping past each one found, so an unclosed outer brace
    cannot hide the objects after it."""
    position, tries = 0, 0
    while tries < MAX_RECOVERY_STARTS:
        start = text.find("{", position)
        if start < 0:
            return
        tries += 1
        end = _balanced_end(text, start)
        value = _loads(text[start:end]) if end > 0 else None
        found = [d for d in _dicts(value)] if value is not None else []
        if any(k in d for d in found for k in _BOX_KEYS + _POINT_KEYS):
            yield from found
            position = end
        else:
            position = start + 1


def _balanced_end(text: str, start: int) -> int:
    """The index after the "}" that closes the "{" at `start` (honouring quoted strings); -1 if none
    within MAX_OBJECT_CHARS."""
    depth, quote, escaped = 0, "", False
    for i in range(start, min(len(text), start + MAX_OBJECT_CHARS)):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch == '"':
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _loads(fragment: str) -> object:
    """The JSON (or Python-literal) value of `fragment`, None when it is neither."""
    if not fragment or fragment[0] not in "[{":
        return None
    try:
        return json.loads(fragment)
    except (ValueError, RecursionError):
        pass
    try:  # Python-style dicts with single quotes, as small models sometimes write
        return ast.literal_eval(fragment)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None


# ------------------------------------------------------------------------------------------------ helpers


def _clip_text(text: object) -> str:
    if not isinstance(text, str):
        return ""
    return text[:MAX_TEXT_CHARS]


def _limit(hits: Iterable[Grounding]) -> Iterator[Grounding]:
    for i, hit in enumerate(hits):
        if i >= MAX_HITS:
            return
        yield hit


def _valid_size(size: object) -> tuple[float, float]:
    if not isinstance(size, (tuple, list)) or len(size) < 2:
        return (0.0, 0.0)
    width, height = _number(size[0]), _number(size[1])
    if width is None or height is None or width <= 0 or height <= 0:
        return (0.0, 0.0)
    return width, height


def _number(value: object) -> float | None:
    """A finite number from a JSON value: a number, or text such as " 12.5" or "40%"; None otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value.strip().rstrip("%")) if isinstance(value, str) else float(value)
    except (ValueError, OverflowError):  # an integer past float's range (JSON allows 1 followed by 400 zeros)
        return None
    return number if math.isfinite(number) else None


def _flat(value: object) -> list[object]:
    """[x1, y1, x2, y2] or [[x1, y1, x2, y2]] or [[x1, y1], [x2, y2]] -> a flat list."""
    if not isinstance(value, (list, tuple)):
        return [value]
    out: list[object] = []
    for v in value:
        out.extend(_flat(v) if isinstance(v, (list, tuple)) else [v])
    return out
