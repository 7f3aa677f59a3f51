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
outcome of one simulated random choice on the same item (a referent drawn uniformly; hit when it falls in
the set). Each draw comes from a generator seeded by (seed, the item's key), so a seed gives the same
draw for an example in every run, whatever else was mapped, and for every model. The 2 x 2 table is

                      random hit   random miss
        model hit         a             b
        model miss        c             d

and statsmodels.stats.contingency_tables.mcnemar tests b against c: the exact binomial test when
b + c < 25 (or exact=True), else the chi-square statistic with continuity correction. The table, the
seed and the simulated rate are all returned, so the test is reproducible and inspectable.

Ties: every box tied for the largest area (or the smallest centre distance) belongs to the set.
Responses that could not be mapped to a referent (chosen None) are left out and counted.

The benchmark task (racquet-saliency) does Appendix H's mapping with a registered pointer in place of
text-prompted SAM: `map_response` takes the pointer's hits for the response text, `saliency_metrics`
turns a run's records into the Table 1 numbers and `table1_layout` lays them out as Table 1.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from statsmodels.stats.contingency_tables import mcnemar

from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.table_format import finite, pct
from assistant.iou import box_iou, mask_iou
from models.types import Box, Grounding

NAN = float("nan")
EXACT_BELOW = 25  # discordant pairs under which McNemar's exact binomial form is used
SINGLE_REFERENT = ("B", "C")  # RAcQUEt classes whose responses describe one referent (Implicit, High Risk)


@dataclass(frozen=True)
class SaliencyItem:
    """One class B/C response: the question's referent boxes and which of them the response describes.

    image_size is (width, height); chosen is an index into referents, or None when unmapped. key names
    the item (an example's key) for its random draw; None: its position among the mapped items.
    """

    referents: Sequence[Box]
    image_size: tuple[int, int]
    chosen: int | None
    key: str | None = None

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
    An empty prediction matches nothing (IoU 0 with every referent).
    """
    if isinstance(prediction, Box):
        return [box_iou(prediction, r) if prediction.area > 0 else 0.0 for r in referents]
    mask = np.asarray(prediction, dtype=bool)
    if mask.ndim != 2:
        raise ValueError(f"a predicted mask must be H x W, not shape {mask.shape}")
    if not mask.any():
        return [0.0] * len(referents)
    return [mask_iou(mask, _box_mask(r, mask.shape)) for r in referents]


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


def random_pick(seed: int, key: str, n: int) -> int:
    """The simulated uniform choice among n referents for item `key`: seeded by (seed, key) alone, so it
    does not depend on the order of items, on which others were mapped, or on the model."""
    digest = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")
    return int(np.random.default_rng([seed % 2**64, digest]).integers(n))


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
    random_draw_rate (the simulated draws the test pairs with, see `random_pick`), table [[a, b], [c, d]],
    statistic, pvalue, exact (which form was used) and seed. Rates are fractions in [0, 1].
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
    model_hits, random_hits, probs = [], [], []
    for index, it in enumerate(mapped):
        hits = salient_set(it)
        model_hits.append(it.chosen in hits)
        probs.append(len(hits) / len(it.referents))
        key = it.key if it.key is not None else str(index)
        random_hits.append(random_pick(seed, key, len(it.referents)) in hits)
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


# ------------------------------------------------------------------------------------------ the task


def _box(values: Sequence[float]) -> Box:
    return Box(*(float(v) for v in values))


def map_response(
    hits: Sequence[Grounding],
    referents: Sequence[Sequence[float]],
    image_size: tuple[int, int],
    scale: float = 1.0,
) -> dict[str, Any]:
    """Appendix H for one class B/C response: the pointer's hits for the response text -> bbox_R.

    bbox_r is the box of the highest-scoring hit (the pointer's first among equals), the one object the
    response describes; bbox_R is the referent with the highest IoU with it (`match_referent`). A hit
    with a point and no box (a Molmo pointer) maps to the smallest referent containing the point, as a
    click picks the innermost region. `scale` is working-image pixels per original pixel (hits come in the
    working image's pixels, referents and image_size in the original's). The result (JSON-ready, boxes in
    original pixels) has chosen (None: unmapped, with `unmapped` saying why), ious, largest, centre_most
    and hit (chosen is largest or centre-most).
    """
    boxes = [_box(b) for b in referents]
    out: dict[str, Any] = {
        "image_size": [int(image_size[0]), int(image_size[1])],
        "largest": sorted(largest_referents(boxes)),
        "centre_most": sorted(centre_most_referents(boxes, image_size)),
        "box": None,
        "point": None,
        "ious": None,
        "chosen": None,
        "hit": None,
    }
    if not hits:
        return {**out, "unmapped": "no pointer hit"}
    best = max(range(len(hits)), key=lambda i: (hits[i].score, -i))
    hit = hits[best]
    if hit.box is not None:
        b = hit.box
        box = Box(b.x0 / scale, b.y0 / scale, b.x1 / scale, b.y1 / scale)
        ious = referent_ious(box, boxes)
        chosen = match_referent(box, boxes)
        out.update(
            box=[round(v, 1) for v in (box.x0, box.y0, box.x1, box.y1)], ious=[round(v, 4) for v in ious]
        )
    elif hit.point is not None:
        x, y = hit.point[0] / scale, hit.point[1] / scale
        inside = [i for i, r in enumerate(boxes) if r.contains(x, y)]
        chosen = min(inside, key=lambda i: (boxes[i].area, i)) if inside else None
        out["point"] = [round(x, 1), round(y, 1)]
    else:  # pragma: no cover - a Grounding has a point or a box
        chosen = None
    if chosen is None:
        return {**out, "unmapped": "no referent under the pointer's hit"}
    hit_set = set(out["largest"]) | set(out["centre_most"])
    return {**out, "chosen": chosen, "hit": chosen in hit_set}


def saliency_metrics(records: Sequence[ResponseRecord], seed: int = 0) -> dict[str, Any]:
    """Table 1's numbers for one (model, prompt) from a run's answered records.

    Every record has a RAcQUEt class judgement; the class B/C ones carry "saliency" (`map_response`, or
    {"unmapped": reason} when pointing failed). Adds to `saliency_analysis`'s keys: n_responses (judged),
    n_single (class B or C), classes (count per class), unmapped (count per reason); n_unmatched counts
    the B/C responses that were not mapped.
    """
    classes: dict[str, int] = {}
    items: list[SaliencyItem] = []
    unmapped: dict[str, int] = {}
    for r in records:
        label = str(r.judged("racquet_class"))
        classes[label] = classes.get(label, 0) + 1
        if label not in SINGLE_REFERENT:
            continue
        found = r.parts.get("saliency") or {"unmapped": "not pointed"}
        if found.get("chosen") is None:
            reason = str(found.get("unmapped") or "unmapped")
            unmapped[reason] = unmapped.get(reason, 0) + 1
            continue
        referents = [_box(b) for b in r.gold["referents"]]
        size = (int(found["image_size"][0]), int(found["image_size"][1]))
        items.append(SaliencyItem(referents, size, int(found["chosen"]), key=r.key))
    out = saliency_analysis(items, seed=seed)
    n_single = sum(classes.get(c, 0) for c in SINGLE_REFERENT)
    return {
        **out,
        "n_responses": len(records),
        "n_single": n_single,
        "n_unmatched": n_single - out["n"],
        "classes": dict(sorted(classes.items())),
        "unmapped": dict(sorted(unmapped.items())),
    }


def _p(value: object) -> str:
    number = finite(value)
    return "-" if number is None else "< 0.001" if number < 0.001 else f"{number:.3f}"


def table1_layout(summary: RunSummary) -> tuple[str, list[str], list[list[str]], list[str]]:
    """(title, header, rows, notes) of Table 1: one column per model (and prompt, when several), rows
    Responses and Random as the paper prints them, then the test and the counts behind them."""
    results = summary.results
    several = len({r.variant for r in results}) > 1
    header = ["", *(f"{r.model} ({r.label})" if several else str(r.model) for r in results)]
    ms = [r.metrics for r in results]

    def unmapped(m: Mapping[str, Any]) -> str:
        why = m.get("unmapped") or {}
        detail = ", ".join(f"{reason}: {n}" for reason, n in why.items())
        return f"{m.get('n_unmatched', 0)}" + (f" ({detail})" if detail else "")

    def single(m: Mapping[str, Any]) -> str:
        classes = ", ".join(f"{label}: {n}" for label, n in (m.get("classes") or {}).items())
        return f"{m.get('n_single', 0)} / {m.get('n_responses', 0)}" + (f" ({classes})" if classes else "")

    rows = [
        ["Responses (% of mapped B/C)", *(pct(m.get("model_rate")) for m in ms)],
        ["Random (%)", *(pct(m.get("random_rate")) for m in ms)],
        ["McNemar p", *(_p(m.get("pvalue")) for m in ms)],
        ["McNemar table [[a, b], [c, d]]", *(str(m.get("table", "-")) for m in ms)],
        ["B/C responses mapped to a referent", *(str(m.get("n", 0)) for m in ms)],
        ["B/C responses not mapped", *(unmapped(m) for m in ms)],
        ["B/C of judged responses (classes)", *(single(m) for m in ms)],
        ["Errors (no answer)", *(str(r.errors) for r in results)],
    ]
    seed = summary.seed
    notes = [
        f"Responses: the share of class B/C (Implicit, High Risk) responses whose referent is the largest "
        f"or the centre-most of the question's referent boxes (Appendix H). Each response text is the "
        f"phrase for pointer `{summary.pointer or '?'}`; the box of its best hit (a point: the "
        "smallest referent box containing it) is matched to the referent box with the highest IoU.",
        "Random: the expected share when a referent is picked uniformly (per item |largest U centre-most| "
        "/ number of referents, averaged).",
        f"McNemar: each mapped item's outcome is paired with one simulated uniform pick, drawn from a "
        f"generator seeded by --seed ({seed}) and the example's id, so the test is deterministic given the "
        "seed and every model meets the same draws. a: both hit, b: model only, c: random only, d: neither; "
        f"exact binomial when b + c < {EXACT_BELOW}, else chi-square with continuity correction.",
    ]
    title = (
        "RAcQUEt Table 1: % of Implicit and High Risk responses describing the largest or centre-most "
        "referent, against a random baseline"
    )
    return title, header, rows, notes


def describe_mapping(found: Mapping[str, Any]) -> str:
    """One line for a record's "saliency" (the benchmark tab's example view)."""
    if found.get("chosen") is None:
        return f"not mapped: {found.get('unmapped') or 'unknown reason'}"
    chosen = int(found["chosen"])
    what = [
        name
        for name, members in (("largest", found.get("largest")), ("centre-most", found.get("centre_most")))
        if chosen in (members or [])
    ]
    by = f"box {found['box']}" if found.get("box") else f"point {found.get('point')}"
    kind = " and ".join(what) if what else "neither largest nor centre-most"
    return f"pointer {by} -> referent {chosen + 1} ({kind})"
