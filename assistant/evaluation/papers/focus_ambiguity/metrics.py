"""VQ-FocusAmbiguity's recognition numbers (Table 2); the conventions are assistant.evaluation.metrics'."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from sklearn.metrics import f1_score

from assistant.evaluation.metrics import NAN, rate, same_length
from assistant.types import Verdict


def _verdict(value: Verdict | str) -> Verdict:
    try:
        return Verdict(value)
    except ValueError:
        raise ValueError(f"not a verdict: {value!r} (expected ambiguous / unambiguous / undecided)") from None


def recognition_metrics(gold: Sequence[bool], predicted: Sequence[Verdict | str]) -> dict[str, float | int]:
    """Accuracy, weighted F1, positive rate and undecided rate (VQ-FocusAmbiguity Section 4.1, Table 2).

    gold[i] is True when question i is ambiguous (the dataset's label: more than one focus region);
    predicted[i] is the post-processed model output (ambiguous / unambiguous / undecided).

    How we read the paper: the undecided rate is "the fraction of all examples with undecided
    predictions"; accuracy, weighted F1 and positive rate are the "standard binary classification
    metrics", so over the examples with a binary (decided) prediction. This reading reproduces Table 2:
    with one share of ambiguous questions for the whole test set (~0.42) it fits every row but Molmo ZS
    within 0.25 pp, while counting undecided as wrong over all examples misses the rows with an
    undecided rate of 2% or more by up to 0.9 pp (tests/test_metrics.py checks two rows).
    - accuracy = correct / decided.
    - weighted F1 = sklearn f1_score(average="weighted") over the decided examples, weighted by their
      gold supports (a class absent from gold has weight 0; zero_division=0 silences sklearn's warning).
    - positive rate = ambiguous predictions / decided.
    - undecided rate = undecided predictions / n (all examples).
    With no decided prediction, accuracy, F1 and positive rate are NaN (shown as "-").
    The all-examples reading is given too, for comparison: `accuracy_all` and `weighted_f1_all` count an
    undecided prediction as a miss (a miss that lowers its gold class's recall and is a false positive of
    neither class), and `positive_rate_all` = ambiguous / n, so that `positive_rate_all`,
    `negative_rate_all` and `undecided_rate` sum to 1.
    """
    same_length(gold, predicted, "recognition")
    n = len(gold)
    verdicts = [_verdict(p) for p in predicted]
    counts = Counter(verdicts)
    n_pos, n_undecided = counts[Verdict.AMBIGUOUS], counts[Verdict.UNDECIDED]
    n_decided = n - n_undecided
    code = {Verdict.AMBIGUOUS: 1, Verdict.UNAMBIGUOUS: 0, Verdict.UNDECIDED: -1}
    y_true = np.array([1 if g else 0 for g in gold], dtype=int)
    y_pred = np.array([code[v] for v in verdicts], dtype=int)
    decided = y_pred >= 0
    out: dict[str, float | int] = {
        "n": n,
        "n_decided": n_decided,
        "n_gold_ambiguous": int(y_true.sum()),
        "n_positive": n_pos,
        "n_undecided": n_undecided,
        "accuracy": _accuracy(y_true[decided], y_pred[decided]),
        "weighted_f1": _weighted_f1(y_true[decided], y_pred[decided]),
        "positive_rate": rate(n_pos, n_decided),
        "undecided_rate": rate(n_undecided, n),
        "accuracy_all": _accuracy(y_true, y_pred),
        "weighted_f1_all": _weighted_f1(y_true, y_pred),
        "positive_rate_all": rate(n_pos, n),
        "negative_rate_all": rate(counts[Verdict.UNAMBIGUOUS], n),
    }
    return out


def _accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    return float(np.mean(y_true == y_pred)) if len(y_true) else NAN


def _weighted_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Weighted F1 over the two gold classes; a -1 (undecided) prediction counts for neither class."""
    if not len(y_true):
        return NAN
    return float(f1_score(y_true, y_pred, labels=[1, 0], average="weighted", zero_division=0))
