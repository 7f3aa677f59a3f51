"""AQuA's numbers: strategic accuracy (Table 2, Fig. 5), factual consistency, PASS rate (Table 4); the
conventions are assistant.evaluation.metrics'."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from sklearn.metrics import confusion_matrix

from assistant.evaluation.metrics import NAN, UNKNOWN, label_distribution, rate, rate_interval, same_length
from assistant.types import STRATEGY_FOR_LEVEL, Level, Strategy

LEVELS = (0, 1, 2, 3)
_LEVEL_OF_STRATEGY = {s.value: int(level) for level, s in STRATEGY_FOR_LEVEL.items()}


def _level(value: int | Level | Strategy | str | None) -> int | None:
    """A level 0-3 from an int, a Level, a Strategy or its name; None for unknown."""
    if value is None or value == UNKNOWN:
        return None
    if isinstance(value, Strategy):
        return _LEVEL_OF_STRATEGY[value.value]
    if isinstance(value, str):
        if value in _LEVEL_OF_STRATEGY:
            return _LEVEL_OF_STRATEGY[value]
        if value.strip().isdigit():
            value = int(value.strip())
        else:
            raise ValueError(f"not a level or strategy: {value!r}")
    level = int(value)
    if level not in LEVELS:
        raise ValueError(f"AQuA levels are 0-3, not {level}")
    return level


def aqua_strategy_metrics(
    gold_levels: Sequence[int | Level], predicted: Sequence[int | Level | Strategy | str | None]
) -> dict[str, Any]:
    """Strategic accuracy per level and overall, unknown rate, 4 x 4 confusion matrix (AQuA 4.2, Fig. 5).

    predicted[i] is the level the judge maps response i to (a Strategy or its name works too: answer 0,
    infer 1, enumerate 2, clarify 3), or None / "unknown" when no level fits. As AQuA says, the metric is
    computed over all responses: unknown counts as wrong, and `unknown_per_level[l]` is how many
    responses to level-l questions were unknown.

    `confusion[g][p]` counts gold level g judged as level p (sklearn confusion_matrix, labels fixed to
    0..3, so the shape is 4 x 4 even when a level is absent). Unknown predictions are outside the matrix:
    row g sums to n_per_level[g] - unknown_per_level[g].
    """
    same_length(gold_levels, predicted, "AQuA strategy")
    gold = [_level(g) for g in gold_levels]
    if any(g is None for g in gold):
        raise ValueError("every gold AQuA item needs a level 0-3")
    pred = [_level(p) for p in predicted]
    n = len(gold)
    y_true = np.array(gold, dtype=int)
    y_pred = np.array([-1 if p is None else p for p in pred], dtype=int)
    per_level, n_per_level, unknown_per_level = {}, {}, {}
    for level in LEVELS:
        rows = y_true == level
        n_per_level[level] = int(rows.sum())
        unknown_per_level[level] = int((y_pred[rows] == -1).sum())
        per_level[level] = float(np.mean(y_pred[rows] == level)) if rows.any() else NAN
    matrix = confusion_matrix(y_true, y_pred, labels=list(LEVELS)) if n else np.zeros((4, 4), dtype=int)
    n_unknown = int((y_pred == -1).sum())
    return {
        "n": n,
        "overall": float(np.mean(y_true == y_pred)) if n else NAN,
        "overall_ci": list(rate_interval(list(y_true == y_pred))),
        "per_level": per_level,
        "per_level_ci": {lv: list(rate_interval(list(y_pred[y_true == lv] == lv))) for lv in LEVELS},
        "n_per_level": n_per_level,
        "n_unknown": n_unknown,
        "unknown_rate": rate(n_unknown, n),
        "unknown_per_level": unknown_per_level,
        "confusion": matrix.astype(int).tolist(),
        "labels": list(LEVELS),
    }


def factual_consistency(labels: Iterable[str]) -> dict[str, Any]:
    """Shares of grounded / ungrounded / unknown judgements over all responses (AQuA 4.2, Table 3 G/U)."""
    dist = label_distribution(labels, ("grounded", "ungrounded"), "factual consistency")
    return {**dist, "rate": dist["grounded"], "rate_ci": dist["ci"]["grounded"]}


def pass_rate(labels: Iterable[str]) -> dict[str, Any]:
    """PASS / n over all n two-turn items (AQuA Table 4); unknown judgements count as not passed."""
    dist = label_distribution(labels, ("PASS", "FAIL"), "PASS rate")
    return {**dist, "rate": dist["PASS"], "rate_ci": dist["ci"]["PASS"]}
