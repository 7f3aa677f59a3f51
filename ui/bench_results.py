"""A benchmark run's results in words: whether each record is right or wrong, and the plots as text.

`outcome` says, per record of responses.jsonl, "right", "wrong" or "error" (no response to judge), by the
same rules the task's metrics count as correct; an "unknown" judgement is wrong, as the metrics count it.
`plot_alt_text` is the alt text of the report's plot; `confusion_markdown` is the confusion matrices as
tables, shown next to the picture (the results table is already the class-bars plot's text twin).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from assistant.evaluation import masks as mask_codec
from assistant.evaluation.localisation import union_iou
from assistant.evaluation.plots import class_bars, confusion_panels
from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.tasks import Task
from assistant.types import STRATEGY_FOR_LEVEL

RIGHT, WRONG, ERROR = "right", "wrong", "error"
LOCALISATION_IOU = 0.5  # a localisation is right when its regions' union overlaps the gold union this much
_LEVEL_OF_STRATEGY = {s.value: int(level) for level, s in STRATEGY_FOR_LEVEL.items()}

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


# ------------------------------------------------------------------------------------------ plots as text


def confusion_alt_text(task: Task, summary: RunSummary) -> str:
    """The confusion-matrix picture in words: every cell's count, gold row by predicted column."""
    panels = confusion_panels(summary)
    if not panels:
        return f"{task.name}: no confusion matrix (no judged examples)."
    parts = []
    for p in panels:
        cells = "; ".join(
            f"gold {row}: "
            + ", ".join(f"predicted {col} {n}" for col, n in zip(p.columns, line, strict=True))
            for row, line in zip(p.rows, p.counts, strict=True)
        )
        parts.append(f"{p.title}: {cells}.")
    return f"Confusion matrices of {task.name}, counts of gold (rows) by predicted (columns). " + " ".join(
        parts
    )


def confusion_markdown(task: Task, summary: RunSummary) -> str:
    """The confusion matrices as Markdown tables (the same counts the picture shows)."""
    blocks = []
    for p in confusion_panels(summary):
        header = "| gold \\ predicted | " + " | ".join(p.columns) + " |"
        rule = "|---|" + "|".join("---" for _ in p.columns) + "|"
        lines = [
            f"| {row} | " + " | ".join(str(n) for n in line) + " |"
            for row, line in zip(p.rows, p.counts, strict=True)
        ]
        blocks.append(f"**{p.title}**\n\n" + "\n".join([header, rule, *lines]))
    return "\n\n".join(blocks)


def class_bars_alt_text(task: Task, summary: RunSummary) -> str:
    """The stacked class bars in words: each bar's shares (the results table has the same numbers)."""
    segments, bars = class_bars(task, summary)
    if not bars:
        return f"{task.name}: no bars (no judged examples)."
    names = [name[0].lower() + name[1:] for _, name in segments]  # "explicit (A)", as in a sentence
    text = "; ".join(
        f"{bar.label}: " + ", ".join(f"{n} {_pct(v)}" for n, v in zip(names, bar.shares, strict=True))
        for bar in bars
    )
    return (
        f"Stacked bars of response classes (% of responses) per model and prompt. {text}. "
        "The table gives the same numbers."
    )


def plot_alt_text(task: Task, summary: RunSummary, plot: str) -> str:
    """Alt text for the report's plot file `plot` ("classes_plot" or "confusion_plot")."""
    if plot == "confusion_plot":
        return confusion_alt_text(task, summary)
    return class_bars_alt_text(task, summary)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100.0 * value:.0f}%"
