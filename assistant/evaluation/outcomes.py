"""Whether each record of a run is right, wrong or an error, and its gold and judged labels: what the
example browser, `whichone bench show` and `whichone bench compare` slice a run by.

`outcome` applies the same rules the task's metrics count as correct; an "unknown" judgement is wrong, as
the metrics count it, and a record without a response is an "error" (there is nothing to be wrong about).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from assistant.evaluation import masks as mask_codec
from assistant.evaluation.localisation import union_iou
from assistant.evaluation.records import UNKNOWN, ResponseRecord
from assistant.evaluation.tasks import Task
from assistant.types import STRATEGY_FOR_LEVEL

RIGHT, WRONG, ERROR = "right", "wrong", "error"
LOCALISATION_IOU = 0.5  # a localisation is right when its regions' union overlaps the gold union this much
_LEVEL_OF_STRATEGY = {s.value: int(level) for level, s in STRATEGY_FOR_LEVEL.items()}
_STRATEGY_OF_LEVEL = {level: s for s, level in _LEVEL_OF_STRATEGY.items()}

_LEVELS = "(0 answer, 1 infer, 2 enumerate, 3 clarify)"
# What "right" means, per task judgement (shown with every example, so the filter is not a mystery).
RIGHT_MEANS = {
    "verdict": "the parsed verdict matches gold (ambiguous when the question has more than one focus "
    "region); undecided is wrong",
    "racquet-class": "the response says the question is ambiguous (class A, explicit); every RAcQUEt "
    "question is ambiguous",
    "racquet-bias": "the response does not assume who is meant (explicit)",
    "aqua-strategy": "the response's strategy fits the gold level " + _LEVELS,
    "pipeline-strategy": "the strategy of whichone's response fits the gold level " + _LEVELS + ", as the "
    "judge read it from the text (without a judge: the strategy the pipeline itself stated)",
    "pass": "the judge says PASS: the answer after the clarification matches the reference",
    "racquet-saliency": "the response says the question is ambiguous (class A); a class B/C response "
    "is wrong, and its Saliency line says which referent it described",
    "probability": "P(ambiguous) >= 0.5 exactly when the question has more than one focus region (the "
    "table shows every threshold)",
    "masks": f"the predicted regions' union overlaps the gold regions' union with IoU >= {LOCALISATION_IOU}",
}


def outcome(task: Task, record: ResponseRecord, gold_masks: Sequence[dict[str, Any]] | None = None) -> str:
    """ "right" / "wrong" / "error" for one record; `gold_masks` (COCO RLE) only for localisation."""
    if not record.answered:
        return ERROR
    judged, gold = record.judgement, record.gold
    kind = task.judgement
    if kind == "verdict":
        wanted = "ambiguous" if gold.get("ambiguous") else "unambiguous"
        return RIGHT if judged.get("verdict") == wanted else WRONG
    if kind in ("racquet-class", "racquet-saliency"):
        return RIGHT if judged.get("racquet_class") == "A" else WRONG
    if kind == "racquet-bias":
        return RIGHT if judged.get("racquet_bias") == "explicit" else WRONG
    if kind in ("aqua-strategy", "pipeline-strategy"):
        level = _LEVEL_OF_STRATEGY.get(str(judged.get("aqua_strategy")))
        return RIGHT if level is not None and level == gold.get("level") else WRONG
    if kind == "pass":
        return RIGHT if judged.get("aqua_clarification") == "PASS" else WRONG
    if kind == "probability":
        p = judged.get("p_ambiguous")
        return WRONG if p is None else (RIGHT if (p >= 0.5) == bool(gold.get("ambiguous")) else WRONG)
    if kind == "masks":
        iou = localisation_iou(record, gold_masks or [])
        return RIGHT if iou is not None and iou >= LOCALISATION_IOU else WRONG
    return WRONG


def localisation_iou(record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]) -> float | None:
    """Union IoU of a localisation record's predicted masks with the gold masks (None: nothing to compare)."""
    found = record.localisation
    size = record.gold.get("image_size")
    if not found or not size:
        return None
    h, w = int(size[0]), int(size[1])
    gold = [_fit(m, h, w) for m in mask_codec.decode(list(gold_masks))] if gold_masks else []
    predicted = [_fit(m, h, w) for m in mask_codec.decode(found["masks"])] if found["masks"] else []
    return union_iou(predicted, gold, (h, w))


def _fit(mask: np.ndarray, h: int, w: int) -> np.ndarray:
    """An H' x W' mask as h x w (nearest neighbour), for masks of a downscaled working image."""
    if mask.shape == (h, w):
        return mask.astype(bool)
    rows = (np.arange(h) * mask.shape[0] // h).clip(0, mask.shape[0] - 1)
    cols = (np.arange(w) * mask.shape[1] // w).clip(0, mask.shape[1] - 1)
    return mask[rows][:, cols].astype(bool)


# The judging task whose label is a record's "judged" label, per task judgement (None: no label).
JUDGED_LABEL = {
    "verdict": "verdict",
    "racquet-class": "racquet_class",
    "racquet-saliency": "racquet_class",
    "racquet-bias": "racquet_bias",
    "aqua-strategy": "aqua_strategy",
    "pipeline-strategy": "aqua_strategy",
    "pass": "aqua_clarification",
}


def judged_label(task: Task, record: ResponseRecord) -> str | None:
    """The label the judging gave the record's response ("A", "clarify", "ambiguous", ...), or None."""
    key = JUDGED_LABEL.get(task.judgement)
    if key is None or not record.answered:
        return None
    return str(record.judgement.get(key, UNKNOWN))


def gold_label(task: Task, record: ResponseRecord) -> str | None:
    """The gold label a judged label is compared with, in the same vocabulary, or None where the task has
    none per record (RAcQUEt: every question is ambiguous; the classes are not right or wrong one by one)."""
    gold = record.gold
    if task.judgement in ("verdict", "probability") and "ambiguous" in gold:
        return "ambiguous" if gold["ambiguous"] else "unambiguous"
    if task.judgement in ("aqua-strategy", "pipeline-strategy") and gold.get("level") is not None:
        return _STRATEGY_OF_LEVEL.get(int(gold["level"]))
    return None
