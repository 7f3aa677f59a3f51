"""How well P(ambiguous) is calibrated, and what each verdict threshold would score (the one-pass
recognition's benchmark, task focus-recognition-probability).

For gold labels (True: the question is ambiguous) and the model's P(ambiguous) per example (None where the
model put no probability on Yes or No: undecided at every threshold):
- per threshold t in THRESHOLDS, the verdict "ambiguous" when P >= t, scored with VQ-FocusAmbiguity Table 2's
  metrics (assistant.evaluation.metrics.recognition_metrics: accuracy, weighted F1, positive rate over the
  decided examples, undecided rate over all);
- over the examples with a probability: ROC AUC (scikit-learn roc_auc_score; NaN with one gold class only),
  Brier score (brier_score_loss: mean squared error of P against the 0/1 label; 0 is perfect, 0.25 is a
  constant 0.5), and the expected calibration error over ECE_BINS equal-width bins (sum over bins of
  |mean P - share ambiguous| weighted by the bin's share of examples);
- the threshold with the best weighted F1 (the lowest such threshold on a tie).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from assistant.evaluation.papers.focus_ambiguity.metrics import recognition_metrics

THRESHOLDS = tuple(round(0.1 * i, 1) for i in range(1, 10))
ECE_BINS = 10


def expected_calibration_error(
    gold: Sequence[bool], probabilities: Sequence[float], bins: int = ECE_BINS
) -> float:
    """Sum over equal-width bins of |mean probability - share of gold positives| x the bin's share."""
    p = np.asarray(probabilities, dtype=float)
    y = np.asarray(gold, dtype=float)
    if p.size == 0:
        return math.nan
    index = np.minimum((p * bins).astype(int), bins - 1)  # P = 1.0 falls in the last bin
    total = 0.0
    for b in range(bins):
        inside = index == b
        if inside.any():
            total += inside.mean() * abs(p[inside].mean() - y[inside].mean())
    return float(total)


def calibration_metrics(gold: Sequence[bool], probabilities: Sequence[float | None]) -> dict[str, Any]:
    """See the module doc. Returns {"thresholds": {"0.1": recognition metrics, ...}, "auc", "brier", "ece",
    "best_threshold", "n", "n_scored"}."""
    from sklearn.metrics import brier_score_loss, roc_auc_score

    if len(gold) != len(probabilities):
        raise ValueError(f"calibration: {len(gold)} gold labels but {len(probabilities)} probabilities")
    sweep = {}
    for t in THRESHOLDS:
        verdicts = [
            "undecided" if p is None else ("ambiguous" if p >= t else "unambiguous") for p in probabilities
        ]
        sweep[f"{t:.1f}"] = recognition_metrics(gold, verdicts)  # string keys: the summary is JSON
    scored = [(g, float(p)) for g, p in zip(gold, probabilities, strict=True) if p is not None]
    y = [g for g, _ in scored]
    p = [q for _, q in scored]
    both_classes = len(set(y)) == 2
    f1 = {float(t): m["weighted_f1"] for t, m in sweep.items() if not math.isnan(float(m["weighted_f1"]))}
    return {
        "thresholds": sweep,
        "auc": float(roc_auc_score(y, p)) if both_classes else math.nan,
        "brier": float(brier_score_loss(y, p)) if scored else math.nan,
        "ece": expected_calibration_error(y, p),
        "best_threshold": max(f1, key=lambda t: (f1[t], -t)) if f1 else None,
        "n": len(gold),
        "n_scored": len(scored),
    }
