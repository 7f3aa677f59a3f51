"""Metrics every paper shares, as pure functions: gold labels and judged labels in, plain dicts out.

Conventions for every function here and in the papers' own metrics (papers/<paper>/metrics.py):
- Rates are fractions in [0, 1] (a report multiplies by 100 to print the papers' percentages).
- "unknown" is a judge's answer when it could not decide (an unparseable judgement, a rule that found no
  cue). It is never dropped silently: it is counted (`n_unknown`), given its own share, and it counts as
  a wrong answer wherever a metric compares with gold.
- An empty input gives n = 0 and NaN rates (a filter that leaves nothing is a fact, not a crash); inputs
  of different lengths raise ValueError.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from assistant.evaluation.records import UNKNOWN

__all__ = ["UNKNOWN", "agreement", "kappa_interval", "label_distribution", "rate", "rate_interval"]

NAN = float("nan")


def same_length(a: Sequence[object], b: Sequence[object], what: str) -> None:
    if len(a) != len(b):
        raise ValueError(f"{what}: gold and predicted differ in length ({len(a)} vs {len(b)})")


def rate(count: int, n: int) -> float:
    return count / n if n else NAN


def label_distribution(labels: Iterable[str], classes: Sequence[str], what: str) -> dict[str, Any]:
    labels = list(labels)
    bad = sorted({lab for lab in labels if lab not in classes and lab != UNKNOWN})
    if bad:
        raise ValueError(f"{what}: unexpected labels {bad}; expected {list(classes)} or {UNKNOWN!r}")
    counts = Counter(labels)
    n = len(labels)
    out: dict[str, Any] = {"n": n, "counts": {c: counts[c] for c in (*classes, UNKNOWN)}}
    for c in classes:
        out[c] = rate(counts[c], n)  # 0 where nothing was rated: tables show "-" (table_format.rated_pct)
    out[UNKNOWN] = rate(counts[UNKNOWN], n)
    out["n_unknown"] = counts[UNKNOWN]
    # a 95% bootstrap interval beside every share (lmms-eval reports one beside every metric)
    out["ci"] = {c: list(rate_interval([lab == c for lab in labels])) for c in (*classes, UNKNOWN)}
    return out


# --- judge agreement (Cohen's kappa against people) ---------------------------------------------------------


def agreement(gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str]) -> dict[str, Any]:
    """Cohen's kappa, accuracy and confusion matrix of a judge's labels against gold labels.

    `labels` are the task's classes (e.g. A, B, C); the judge may also answer "unknown", which is
    treated as one more category that gold never has: it always counts as a disagreement, in kappa
    (sklearn cohen_kappa_score over labels + ["unknown"]) and in accuracy. `kappa_decided` is kappa
    over the items the judge did decide, for comparison. Kappa is NaN where it is undefined (fewer than
    two categories in play, e.g. gold and judge agree that every item is class A: 0/0).

    confusion[i][j] counts gold labels[i] judged as (labels + ["unknown"])[j].
    """
    same_length(gold, predicted, "agreement")
    classes = list(labels)
    bad_gold = sorted({g for g in gold if g not in classes})
    if bad_gold:
        raise ValueError(f"gold labels {bad_gold} are not among {classes}")
    bad_pred = sorted({p for p in predicted if p not in classes and p != UNKNOWN})
    if bad_pred:
        raise ValueError(f"judged labels {bad_pred} are not among {classes} or {UNKNOWN!r}")
    columns = [*classes, UNKNOWN]
    n = len(gold)
    n_unknown = sum(p == UNKNOWN for p in predicted)
    out: dict[str, Any] = {"n": n, "unknown": n_unknown, "labels": columns}
    if n == 0:
        return {
            **out,
            "kappa": NAN,
            "kappa_decided": NAN,
            "accuracy": NAN,
            "confusion": [[0] * len(columns) for _ in classes],
        }
    full = confusion_matrix(list(gold), list(predicted), labels=columns)
    decided = [(g, p) for g, p in zip(gold, predicted, strict=True) if p != UNKNOWN]
    out["confusion"] = full[: len(classes)].astype(int).tolist()
    out["accuracy"] = sum(g == p for g, p in zip(gold, predicted, strict=True)) / n
    out["kappa"] = _kappa(list(gold), list(predicted), columns)
    out["kappa_decided"] = (
        _kappa([g for g, _ in decided], [p for _, p in decided], classes) if decided else NAN
    )
    return out


def _kappa(a: list[str], b: list[str], labels: list[str]) -> float:
    # sklearn returns replace_undefined_by (and warns) when fewer than two categories occur at all
    if len(set(a) | set(b)) < 2:
        return NAN
    value = float(cohen_kappa_score(a, b, labels=labels, replace_undefined_by=NAN))
    return value if not math.isinf(value) else NAN


# --- bootstrap intervals (lmms-eval reports a bootstrap error beside every metric) -----------------------

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0  # fixed: the same labels give the same interval on every machine


def bootstrap_interval(
    n: int,
    statistic: Any,
    confidence: float = 0.95,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float]:
    """Percentile bootstrap interval of `statistic(indices)` over `n` items resampled with replacement;
    (nan, nan) with no items or when the statistic is undefined on most resamples."""
    if n == 0:
        return NAN, NAN
    rng = np.random.default_rng(seed)
    values = [statistic(rng.integers(0, n, n)) for _ in range(resamples)]
    finite = np.array([v for v in values if not math.isnan(v)], dtype=float)
    if len(finite) < resamples / 2:
        return NAN, NAN
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return float(low), float(high)


def rate_interval(hits: Sequence[bool], confidence: float = 0.95) -> tuple[float, float]:
    """Bootstrap interval of the share of True in `hits` (a rate such as explicit, PASS, CoT mentions)."""
    values = np.asarray(hits, dtype=float)
    return bootstrap_interval(len(values), lambda idx: float(values[idx].mean()), confidence)


def kappa_interval(
    gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str], decided_only: bool = False
) -> tuple[float, float]:
    """95% bootstrap interval of Cohen's kappa as `agreement` computes it: over all items with "unknown"
    a disagreement, or (decided_only) over the items the judge decided."""
    columns = list(labels) if decided_only else [*labels, UNKNOWN]
    pairs = [(g, p) for g, p in zip(gold, predicted, strict=True) if p in columns]
    k = len(columns)
    # labels as indices, so that each resample's kappa is one bincount (sklearn's is 10 ms a call)
    codes = np.array([columns.index(g) * k + columns.index(p) for g, p in pairs], dtype=int)
    return bootstrap_interval(len(codes), lambda idx: _kappa_of_cells(codes[idx], k))


def _kappa_of_cells(cells: np.ndarray, k: int) -> float:
    """Cohen's kappa of a confusion matrix given as flat cell indices (gold * k + judged)."""
    table = np.bincount(cells, minlength=k * k).reshape(k, k).astype(float)
    n = table.sum()
    observed = np.trace(table) / n
    expected = float((table.sum(axis=1) * table.sum(axis=0)).sum()) / (n * n)
    return NAN if expected == 1 else float((observed - expected) / (1 - expected))
