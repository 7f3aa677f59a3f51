"""RAcQUEt Table 1 / Appendix H: do single-referent answers describe the largest or centre-most referent?

Per response r of class B or C (one referent described), the paper maps r to a box bbox_r (text-prompted
SAM on the response), picks bbox_R = argmax_i IoU(bbox_r, bbox_i) over the question's annotated referent
boxes, and checks whether bbox_R is bbox_largest (largest box area) or bbox_center (box centre nearest the
image centre, Euclidean). `match_referent` is that argmax.

Model rate: the share of mapped responses whose bbox_R is the largest or the centre-most referent.
Random baseline (Section 4.4): "the probability of describing entities that are either the largest or
closest to the center when a referent is randomly selected from the set of possible referents", i.e.
per item p_i = |{largest} U {centre-most}| / n_referents_i, and the baseline rate is the mean of p_i.

McNemar (the paper reports p < 0.001 for every model, without printing its table): a McNemar test needs a
paired binary outcome per item, so we pair each item's model outcome (hit = bbox_R in the set) with the
outcome of one simulated random choice on the same item (a referent drawn uniformly with a seeded
generator; hit when it falls in the set). The 2 x 2 table is

                      random hit   random miss
        model hit         a             b
        model miss        c             d

and statsmodels.stats.contingency_tables.mcnemar tests b against c: the exact binomial test when
b + c < 25 (or exact=True), else the chi-square statistic with continuity correction. The table, the
seed and the simulated rate are all returned, so the test is reproducible and inspectable.

Ties: every box tied for the largest area (or the smallest centre distance) belongs to the set.
Responses that could not be mapped to a referent (chosen None) are left out and counted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from statsmodels.stats.contingency_tables import mcnemar

from assistant.regions import box_iou
from assistant.types import Box

NAN = float("nan")
EXACT_BELOW = 25  # discordant pairs under which McNemar's exact binomial form is used


@dataclass(frozen=True)
class SaliencyItem:
    """One class B/C response: the question's referent boxes and which of them the response describes.

    image_size is (width, height); chosen is an index into referents, or None when unmapped.
    """

    referents: Sequence[Box]
    image_size: tuple[int, int]
    chosen: int | None

    def __post_init__(self) -> None:
        if not self.referents:
            raise ValueError("a saliency item needs at least one referent box")
        if self.chosen is not None and not 0 <= self.chosen < len(self.referents):
            raise ValueError(f"chosen referent {self.chosen} is not among {len(self.referents)} boxes")


def largest_referents(boxes: Sequence[Box]) -> set[int]:
    """Indices of the box(es) with the largest area."""
    areas = [b.area for b in boxes]
    top = max(areas)
    return {i for i, a in enumerate(areas) if math.isclose(a, top)}


def centre_most_referents(boxes: Sequence[Box], image_size: tuple[int, int]) -> set[int]:
    """Indices of the box(es) whose centre is nearest the image centre (Euclidean)."""
    cx, cy = image_size[0] / 2.0, image_size[1] / 2.0
    dists = [math.hypot(b.centre[0] - cx, b.centre[1] - cy) for b in boxes]
    best = min(dists)
    return {i for i, d in enumerate(dists) if math.isclose(d, best)}


def salient_set(item: SaliencyItem) -> set[int]:
    return largest_referents(item.referents) | centre_most_referents(item.referents, item.image_size)


def _box_mask(box: Box, shape: tuple[int, int]) -> np.ndarray:
    """H x W bool: the pixels whose centres lie inside the box."""
    h, w = shape
    xs = np.arange(w) + 0.5
    ys = np.arange(h) + 0.5
    inside_x = (xs >= box.x0) & (xs <= box.x1)
    inside_y = (ys >= box.y0) & (ys <= box.y1)
    return inside_y[:, None] & inside_x[None, :]


def referent_ious(prediction: Box | np.ndarray, referents: Sequence[Box]) -> list[float]:
    """IoU of a predicted box, or a predicted H x W bool mask, with each referent box.

    A mask is compared with each box rasterised on the mask's pixel grid (pixel centres inside the box).
    """
    if isinstance(prediction, Box):
        return [box_iou(prediction, r) for r in referents]
    mask = np.asarray(prediction, dtype=bool)
    if mask.ndim != 2:
        raise ValueError(f"a predicted mask must be H x W, not shape {mask.shape}")
    out = []
    for r in referents:
        box = _box_mask(r, mask.shape)
        union = int(np.logical_or(mask, box).sum())
        out.append(int(np.logical_and(mask, box).sum()) / union if union else 0.0)
    return out


def match_referent(
    prediction: Box | np.ndarray | None, referents: Sequence[Box], min_iou: float = 0.0
) -> int | None:
    """Index of the referent box with the highest IoU with the prediction (Appendix H's bbox_R).

    None when there is no prediction, no referent, or the best IoU is 0 or below min_iou (the paper uses
    a plain argmax; a threshold lets a run refuse matches that barely overlap). Ties go to the lower index.
    """
    if prediction is None or not referents:
        return None
    ious = referent_ious(prediction, referents)
    best = int(np.argmax(ious))
    if ious[best] <= 0.0 or ious[best] < min_iou:
        return None
    return best


def mcnemar_test(table: Sequence[Sequence[int]], exact: bool | None = None) -> tuple[float, float, bool]:
    """McNemar on a 2 x 2 paired table [[a, b], [c, d]]: (statistic, p-value, whether exact was used).

    exact None: exact binomial when b + c < 25, else chi-square with continuity correction. Without any
    discordant pair there is no evidence either way: p = 1 (the chi-square form would divide by 0).
    """
    b, c = int(table[0][1]), int(table[1][0])
    use_exact = (b + c < EXACT_BELOW if exact is None else exact) or b + c == 0
    result = mcnemar(np.asarray(table), exact=use_exact, correction=True)
    return float(result.statistic), float(result.pvalue), use_exact


def saliency_analysis(
    items: Sequence[SaliencyItem], seed: int = 0, exact: bool | None = None
) -> dict[str, Any]:
    """Model vs random rates of describing the largest-or-centre-most referent, and McNemar's test.

    Returns n (mapped items), n_unmatched, model_rate, random_rate (the expected baseline, mean p_i),
    random_draw_rate (the simulated draws the test pairs with), table [[a, b], [c, d]], statistic,
    pvalue, exact (which form was used) and seed. Rates are fractions in [0, 1].
    """
    mapped = [it for it in items if it.chosen is not None]
    out: dict[str, Any] = {"n": len(mapped), "n_unmatched": len(items) - len(mapped), "seed": seed}
    if not mapped:
        return {
            **out,
            "model_rate": NAN,
            "random_rate": NAN,
            "random_draw_rate": NAN,
            "table": [[0, 0], [0, 0]],
            "statistic": NAN,
            "pvalue": NAN,
            "exact": exact,
        }
    rng = np.random.default_rng(seed)
    model_hits, random_hits, probs = [], [], []
    for it in mapped:
        hits = salient_set(it)
        model_hits.append(it.chosen in hits)
        probs.append(len(hits) / len(it.referents))
        random_hits.append(int(rng.integers(len(it.referents))) in hits)
    m, r = np.array(model_hits), np.array(random_hits)
    table = [[int(np.sum(m & r)), int(np.sum(m & ~r))], [int(np.sum(~m & r)), int(np.sum(~m & ~r))]]
    statistic, pvalue, use_exact = mcnemar_test(table, exact)
    return {
        **out,
        "model_rate": float(m.mean()),
        "random_rate": float(np.mean(probs)),
        "random_draw_rate": float(r.mean()),
        "table": table,
        "statistic": statistic,
        "pvalue": pvalue,
        "exact": use_exact,
    }
