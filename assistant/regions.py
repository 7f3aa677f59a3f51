"""Candidate regions: saliency as AQuA defines it, spatial words, numbering, descriptions, hints and clicks.

Saliency (AQuA, Section 3): saliency = 0.7 * area term + 0.3 * centre term, salient when > 0.6.
- Centre term: 1 - d / d_max, where d is the distance from the region's box centre to the image centre
  and d_max is half the image diagonal (the distance from the centre to a corner). 1 at the centre, 0 in
  a corner.
- Area term: AQuA calls it the "area ratio". Taken as region area / image area, no two objects could pass
  0.6 together (each would need > 43% of the image), yet AQuA's levels 2 and 3 count 2-3 and 5+ salient
  boxes. So by default we normalise by the largest candidate's area ("largest": the biggest candidate has
  term 1); "image" keeps the raw ratio. Region area is the mask's pixel count, else the box area.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from assistant.iou import box_iou, mask_iou
from assistant.types import Candidates, Region
from models.types import Box, Grounding

AREA_WEIGHT = 0.7
CENTRE_WEIGHT = 0.3
SALIENT_THRESHOLD = 0.6


AreaNorm = Literal["largest", "image"]  # the area term relative to the largest region or the image


@dataclass(frozen=True)
class SaliencyConfig:
    threshold: float = SALIENT_THRESHOLD
    area_norm: AreaNorm = "largest"
    area_weight: float = AREA_WEIGHT
    centre_weight: float = CENTRE_WEIGHT

    def __post_init__(self) -> None:
        if self.area_norm not in ("largest", "image"):
            raise ValueError(f"area_norm must be 'largest' or 'image', not {self.area_norm!r}")


def centre_term(box: Box, image_size: tuple[int, int]) -> float:
    """1 - (distance of the box centre to the image centre) / (half the image diagonal), in [0, 1]."""
    width, height = image_size
    cx, cy = box.centre
    d = math.hypot(cx - width / 2.0, cy - height / 2.0)
    d_max = math.hypot(width / 2.0, height / 2.0)
    return max(0.0, 1.0 - d / d_max) if d_max > 0 else 0.0


def saliency(area_term: float, centre: float, config: SaliencyConfig = SaliencyConfig()) -> float:
    return config.area_weight * area_term + config.centre_weight * centre


def position_words(box: Box, image_size: tuple[int, int]) -> str:
    """Where a box is, in thirds of the image: "on the left", "at the top right", "in the centre"."""
    width, height = image_size
    cx, cy = box.centre
    horizontal = "left" if cx < width / 3 else "right" if cx > 2 * width / 3 else ""
    vertical = "top" if cy < height / 3 else "bottom" if cy > 2 * height / 3 else ""
    if horizontal and vertical:
        return f"at the {vertical} {horizontal}"
    if horizontal:
        return f"on the {horizontal}"
    if vertical:
        return f"at the {vertical}"
    return "in the centre"


def size_words(area_term: float, area_ratio: float, is_largest: bool, n_regions: int) -> str:
    """A size cue that helps tell candidates apart; empty when it would not."""
    if n_regions > 1 and is_largest:
        return "the largest"
    if area_ratio >= 0.25:
        return "large"
    if n_regions > 1 and area_term < 0.2:
        return "small, in the background"
    if area_ratio < 0.01:
        return "small"
    return ""


def describe(label: str, position: str, size: str) -> str:
    noun = label.strip() or "object"
    text = f"the {noun} {position}"
    return f"{text}, {size}" if size else text


def reading_rows(regions: Sequence[Region]) -> list[list[Region]]:
    """The regions in reading order: rows from the top (a region joins a row when its centre lies within
    half the row's mean height of the row's mean centre), each row left to right."""
    rows: list[list[Region]] = []
    for region in sorted(regions, key=lambda r: r.box.centre[1]):
        if rows:
            row = rows[-1]
            mean_y = sum(r.box.centre[1] for r in row) / len(row)
            mean_h = sum(r.box.height for r in row) / len(row)
            if abs(region.box.centre[1] - mean_y) <= 0.5 * mean_h:
                row.append(region)
                continue
        rows.append([region])
    return [sorted(row, key=lambda r: r.box.centre[0]) for row in rows]


def number_regions(regions: Sequence[Region], image_size: tuple[int, int]) -> list[Region]:
    """Stable numbering in reading order, as the list says: row by row from the top (rows clustered by
    position), each row left to right; ids start at 1. The overlay and the text list share these ids."""
    ordered = [region for row in reading_rows(regions) for region in row]
    return [replace(region, id=i) for i, region in enumerate(ordered, start=1)]


def score_regions(
    regions: Sequence[Region], image_size: tuple[int, int], config: SaliencyConfig = SaliencyConfig()
) -> list[Region]:
    """Fill area ratio, area term, centre term, saliency, position and description of each region."""
    width, height = image_size
    image_area = float(width * height) or 1.0
    areas = [_area(r) for r in regions]
    largest = max(areas, default=0.0)
    # "the largest" only helps tell regions apart when one clearly is: 20% bigger than the runner-up.
    runner_up = sorted(areas)[-2] if len(areas) > 1 else 0.0
    clearly_largest = largest > 1.2 * runner_up
    out: list[Region] = []
    for region, area in zip(regions, areas, strict=True):
        ratio = area / image_area
        term = ratio if config.area_norm == "image" else (area / largest if largest > 0 else 0.0)
        centre = centre_term(region.box, image_size)
        score = saliency(term, centre, config)
        position = position_words(region.box, image_size)
        size = size_words(term, ratio, clearly_largest and area == largest, len(regions))
        out.append(
            replace(
                region,
                area_ratio=ratio,
                area_term=term,
                centre_term=centre,
                saliency=score,
                salient=score > config.threshold,
                position=position,
                description=describe(region.label, position, size),
            )
        )
    return _disambiguate(out)


_ORDINAL_WORDS = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
]


def _disambiguate(regions: list[Region]) -> list[Region]:
    """Regions whose descriptions would read the same get their place appended in the list's own reading
    order ("the blue cup on the left, second from the left"; "..., row 2, third from the left" when they
    stand in more than one row), so the text list alone tells them apart and agrees with the numbers."""
    rows = reading_rows(regions)
    place = {id(r): (number, rank) for number, row in enumerate(rows, 1) for rank, r in enumerate(row)}
    counts: dict[str, int] = {}
    for region in regions:
        counts[region.description] = counts.get(region.description, 0) + 1
    out = []
    for region in regions:
        if counts[region.description] > 1:
            row_number, n = place[id(region)]
            ordinal = _ORDINAL_WORDS[n] if n < len(_ORDINAL_WORDS) else f"number {n + 1}"
            where = f"{ordinal} from the left"
            same = [r for r in regions if r.description == region.description]
            if len({place[id(r)][0] for r in same}) > 1:
                where = f"row {row_number}, {where}"
            region = replace(region, description=f"{region.description}, {where}")
        out.append(region)
    return out


def build_candidates(
    hits: Sequence[Grounding],
    image_size: tuple[int, int],
    *,
    masks: np.ndarray | None = None,
    mask_scores: np.ndarray | None = None,
    phrase: str = "",
    config: SaliencyConfig = SaliencyConfig(),
    dedupe_iou: float = 0.7,
    max_regions: int = 12,
    notes: Sequence[str] = (),
) -> Candidates:
    """Grounding hits (and optionally one mask per hit: N x H x W bool) -> numbered, scored Candidates.

    A hit with neither a usable mask nor a box gets a small box around its point (5% of the shorter
    side), so a point-only pointer without a segmenter still yields clickable regions.
    """
    width, height = image_size
    notes = list(notes)
    regions: list[Region] = []
    for i, hit in enumerate(hits):
        mask = None
        if masks is not None and i < len(masks) and masks[i].any():
            mask = masks[i].astype(bool)
        box = Box.from_mask(mask) if mask is not None else hit.box
        if box is None and hit.point is not None:
            r = 0.05 * min(width, height)
            px, py = hit.point
            box = Box(px - r, py - r, px + r, py + r)
        if box is None:
            continue
        box = box.clip(width, height)
        if box.area <= 0:
            continue
        score = float(mask_scores[i]) if mask_scores is not None and i < len(mask_scores) else hit.score
        regions.append(
            Region(id=0, box=box, label=hit.label, point=hit.point, mask=mask, score=score, source=hit.source)
        )
    dropped = len(hits) - len(regions)
    if dropped:
        notes.append(f"{dropped} of {len(hits)} hits had no usable box or mask and were dropped.")
    before = len(regions)
    regions = dedupe(regions, dedupe_iou)
    if len(regions) < before:
        notes.append(f"{before - len(regions)} overlapping duplicates were merged.")
    found = len(regions)
    if found > max_regions:
        notes.append(f"Kept the {max_regions} highest-scoring of {found} candidates.")
        regions = sorted(regions, key=lambda r: -r.score)[:max_regions]
    regions = number_regions(score_regions(regions, image_size, config), image_size)
    return Candidates(regions=regions, image_size=image_size, phrase=phrase, notes=notes, found=found)


def dedupe(regions: Sequence[Region], threshold: float = 0.7) -> list[Region]:
    """Drop regions overlapping a higher-scoring one by IoU > threshold (mask IoU when both have masks)."""
    kept: list[Region] = []
    for region in sorted(regions, key=lambda r: -r.score):
        if all(_iou(region, other) <= threshold for other in kept):
            kept.append(region)
    return kept


def region_at(candidates: Candidates, x: float, y: float) -> Region | None:
    """The region under a click: whose mask (else box) contains (x, y); the smallest when nested."""
    xi, yi = int(x), int(y)
    hits = []
    for region in candidates.regions:
        if region.mask is not None:
            h, w = region.mask.shape
            inside = 0 <= yi < h and 0 <= xi < w and bool(region.mask[yi, xi])
        else:
            inside = region.box.contains(x, y)
        if inside:
            hits.append(region)
    return min(hits, key=_area, default=None)


# --- typed hints -------------------------------------------------------------------------------------

_NUMBER_WORDS = {
    "one": 1, "first": 1, "1st": 1, "two": 2, "second": 2, "2nd": 2, "three": 3, "third": 3, "3rd": 3,
    "four": 4, "fourth": 4, "4th": 4, "five": 5, "fifth": 5, "5th": 5, "six": 6, "sixth": 6, "6th": 6,
    "seven": 7, "seventh": 7, "eight": 8, "eighth": 8, "nine": 9, "ninth": 9, "ten": 10, "tenth": 10,
}  # fmt: skip
_ORDINALS = {
    k: v for k, v in _NUMBER_WORDS.items() if not k.isalpha() or k.endswith(("st", "nd", "rd", "th"))
}


# "second from the left", "second one from the left", "second blue one from the left", "second car from..."
_ORDINAL_FROM_SIDE = re.compile(
    rf"\b({'|'.join(_ORDINALS)}) (?:(?:\w+ )?one |\w+ )?from (?:the )?(left|right|top|bottom)\b"
)

# Hints whose place words say where the choice is NOT, or where it is relative to another candidate: left
# to the model with the candidate list rather than read as "the left one".
_NEGATIONS = frozenset({"not", "isn", "isnt", "except", "other", "besides", "nor", "neither"})
_RELATION = re.compile(
    r"\b(?:next to|beside|behind|near|in front of|between|above|below|under)\s+(?:the|a|an|number|\d)\b"
)

# Two regions tie for a spatial word when their positions differ by less than this fraction of the
# image: with four cups in a 2 x 2 grid, "the cup on the left" fits both left-hand cups, not the first.
SPATIAL_TIE = 0.1
# ... and for a size word when their sizes differ by at most this fraction ("the largest" of equal cups).
SIZE_TIE = 0.1


def regions_for_hint(candidates: Candidates, hint: str) -> list[Region]:
    """The regions a typed hint or a question's descriptor fits, by numbers and spatial words; [] when
    the words do not decide. Several when they fit equally well ("on the left" in a 2 x 2 grid).

    Understood: "2", "number 2", "#2", "the second one", "the second from the left / right",
    "left(most)", "right(most)", "top", "bottom", "middle"/"centre", combinations ("top left"),
    "largest"/"biggest", "smallest", "tallest", "closest"/"front" (largest), "far"/"back" (smallest).
    """
    regions = candidates.regions
    if not regions:
        return []
    text = " " + re.sub(r"[^a-z0-9# ]+", " ", hint.lower()) + " "
    if set(text.split()) & _NEGATIONS or _RELATION.search(text):
        # "not the left one", "not number 2", "the one next to the left one": the words do not name the
        # choice by themselves
        return []

    def by_id(n: int) -> list[Region]:
        region = candidates.by_id(n)
        return [region] if region is not None else []

    # Explicit number: "2", "#2", "number 2", "region 2", "option two"
    m = re.search(r"(?:#|\bnumber |\bno |\bregion |\boption |\bcandidate )?\b(\d{1,3})\b", text)
    if m and not re.search(r"\d+\s*(?:st|nd|rd|th)\b", text):
        return by_id(int(m.group(1)))
    for word, n in _NUMBER_WORDS.items():
        if re.search(rf"\b(?:number|option|region|candidate) {word}\b", text):
            return by_id(n)
    # "the second from the left", "third from the right", "the second car from the left"
    m = _ORDINAL_FROM_SIDE.search(text)
    if m:
        n = _ORDINALS[m.group(1)]
        ordered = _ordered(regions, m.group(2))
        return [ordered[n - 1]] if n <= len(ordered) else []
    words = set(text.split())
    horizontal = _first(words, {"left": "left", "leftmost": "left", "right": "right", "rightmost": "right"})
    vertical = _first(words, {"top": "top", "upper": "top", "above": "top", "bottom": "bottom",
                              "lower": "bottom", "below": "bottom"})  # fmt: skip
    middle = bool(words & {"middle", "centre", "center", "central"})
    if horizontal or vertical or middle:
        return _spatial_pick(candidates, horizontal, vertical, middle)
    if words & {"largest", "biggest", "closest", "nearest", "front", "foreground"}:
        return _extreme(regions, _area, largest=True)
    if words & {"smallest", "tiniest", "farthest", "furthest", "back", "background"}:
        return _extreme(regions, _area, largest=False)
    if words & {"tallest", "highest"}:
        return _extreme(regions, lambda r: r.box.height, largest=True)
    if words & {"shortest"}:
        return _extreme(regions, lambda r: r.box.height, largest=False)
    if words & {"only", "it", "that"} and len(regions) == 1:
        return [regions[0]]
    # A bare ordinal: "the second one", "first"
    for word in words:
        if word in _ORDINALS:
            return by_id(_ORDINALS[word])
    return []


def regions_matching_position(candidates: Candidates, spatial_phrase: str) -> list[Region]:
    """Regions a locating descriptor of the question picks out ("on the left" -> the leftmost one, or
    the leftmost few when they are level), numbered order."""
    return sorted(regions_for_hint(candidates, spatial_phrase), key=lambda r: r.id)


def _spatial_pick(
    candidates: Candidates, horizontal: str | None, vertical: str | None, middle: bool
) -> list[Region]:
    """The regions nearest the named side or corner: the best, and any within SPATIAL_TIE of it."""
    width, height = candidates.image_size

    def cost(region: Region) -> float:
        cx, cy = region.box.centre
        nx, ny = cx / width, cy / height
        total = 0.0
        if horizontal == "left":
            total += nx
        elif horizontal == "right":
            total += 1 - nx
        elif middle:
            total += abs(nx - 0.5)
        if vertical == "top":
            total += ny
        elif vertical == "bottom":
            total += 1 - ny
        elif middle and not horizontal:
            total += abs(ny - 0.5)
        return total

    best = min(cost(r) for r in candidates.regions)
    return [r for r in candidates.regions if cost(r) - best < SPATIAL_TIE]


def _extreme(regions: Sequence[Region], size: Callable[[Region], float], largest: bool) -> list[Region]:
    """The largest (or smallest) regions by `size`: the extreme one and any within SIZE_TIE of it."""
    sizes = [float(size(r)) for r in regions]
    best = max(sizes) if largest else min(sizes)
    return [r for r, v in zip(regions, sizes, strict=True) if abs(v - best) <= SIZE_TIE * abs(best)]


def _ordered(regions: Sequence[Region], side: str) -> list[Region]:
    index = {"left": 0, "right": 0, "top": 1, "bottom": 1}[side]
    reverse = side in ("right", "bottom")
    return sorted(regions, key=lambda r: r.box.centre[index], reverse=reverse)


def _first(words: set[str], mapping: dict[str, str]) -> str | None:
    return next((value for key, value in mapping.items() if key in words), None)


def _area(region: Region) -> float:
    return float(region.mask.sum()) if region.mask is not None else region.box.area


def _iou(a: Region, b: Region) -> float:
    if a.mask is not None and b.mask is not None and a.mask.shape == b.mask.shape:
        return mask_iou(a.mask, b.mask)
    return box_iou(a.box, b.box)
