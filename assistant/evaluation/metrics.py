"""The papers' metrics as pure functions: inputs are gold labels and judged labels, outputs plain dicts.

Conventions for every function here:
- Rates are fractions in [0, 1] (a report multiplies by 100 to print the papers' percentages).
- "unknown" is a judge's answer when it could not decide (an unparseable judgement, a rule that found no
  cue). It is never dropped silently: it is counted (`n_unknown`), given its own share, and it counts as
  a wrong answer wherever a metric compares with gold.
- An empty input gives n = 0 and NaN rates (a filter that leaves nothing is a fact, not a crash); inputs
  of different lengths raise ValueError.

Localisation (mAP, union IoU, max IoU) lives in `assistant.evaluation.localisation` and the saliency
analysis (RAcQUEt Table 1) in `assistant.evaluation.saliency`; both are re-exported here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from sklearn.metrics import cohen_kappa_score, confusion_matrix, f1_score

from assistant.evaluation.localisation import (
    LocalisationExample,
    localisation_metrics,
    max_iou,
    max_iou_of_union,
    mean_average_precision,
    union_iou,
)
from assistant.evaluation.records import UNKNOWN
from assistant.evaluation.saliency import (
    SaliencyItem,
    centre_most_referents,
    largest_referents,
    match_referent,
    saliency_analysis,
)
from assistant.types import STRATEGY_FOR_LEVEL, Level, Strategy, Verdict

__all__ = [
    "UNKNOWN",
    "LocalisationExample",
    "SaliencyItem",
    "agreement",
    "aqua_strategy_metrics",
    "bias_distribution",
    "centre_most_referents",
    "class_distribution",
    "class_distribution_by_model",
    "cot_mention_rate",
    "factual_consistency",
    "largest_referents",
    "localisation_metrics",
    "match_referent",
    "max_iou",
    "max_iou_of_union",
    "mean_average_precision",
    "pass_rate",
    "recognition_metrics",
    "saliency_analysis",
    "union_iou",
]

NAN = float("nan")
RACQUET_CLASSES = ("A", "B", "C")
BIAS_CLASSES = ("explicit", "stereotypical", "anti-stereotypical")
LEVELS = (0, 1, 2, 3)
_LEVEL_OF_STRATEGY = {s.value: int(level) for level, s in STRATEGY_FOR_LEVEL.items()}


def _same_length(a: Sequence[object], b: Sequence[object], what: str) -> None:
    if len(a) != len(b):
        raise ValueError(f"{what}: gold and predicted differ in length ({len(a)} vs {len(b)})")


def _rate(count: int, n: int) -> float:
    return count / n if n else NAN


# --- VQ-FocusAmbiguity Table 2: recognition ---------------------------------------------------------------


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
    _same_length(gold, predicted, "recognition")
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
        "positive_rate": _rate(n_pos, n_decided),
        "undecided_rate": _rate(n_undecided, n),
        "accuracy_all": _accuracy(y_true, y_pred),
        "weighted_f1_all": _weighted_f1(y_true, y_pred),
        "positive_rate_all": _rate(n_pos, n),
        "negative_rate_all": _rate(counts[Verdict.UNAMBIGUOUS], n),
    }
    return out


def _accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    return float(np.mean(y_true == y_pred)) if len(y_true) else NAN


def _weighted_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Weighted F1 over the two gold classes; a -1 (undecided) prediction counts for neither class."""
    if not len(y_true):
        return NAN
    return float(f1_score(y_true, y_pred, labels=[1, 0], average="weighted", zero_division=0))


# --- RAcQUEt: class distribution (Fig. 3, 4), CoT mentions (G.3), bias (Fig. 7) --------------------------


def _distribution(labels: Iterable[str], classes: Sequence[str], what: str) -> dict[str, Any]:
    labels = list(labels)
    bad = sorted({lab for lab in labels if lab not in classes and lab != UNKNOWN})
    if bad:
        raise ValueError(f"{what}: unexpected labels {bad}; expected {list(classes)} or {UNKNOWN!r}")
    counts = Counter(labels)
    n = len(labels)
    out: dict[str, Any] = {"n": n, "counts": {c: counts[c] for c in (*classes, UNKNOWN)}}
    for c in classes:
        out[c] = _rate(counts[c], n)  # 0 where nothing was rated: tables show "-" (table_format.rated_pct)
    out[UNKNOWN] = _rate(counts[UNKNOWN], n)
    out["n_unknown"] = counts[UNKNOWN]
    # a 95% bootstrap interval beside every share (lmms-eval reports one beside every metric)
    out["ci"] = {c: list(rate_interval([lab == c for lab in labels])) for c in (*classes, UNKNOWN)}
    return out


def class_distribution(labels: Iterable[str]) -> dict[str, Any]:
    """Shares of RAcQUEt classes A (explicit), B (implicit), C (high risk) among n responses (Fig. 3).

    The denominator is every response, unknown included, so A + B + C + unknown = 1: a judge that fails
    to classify a response lowers no class silently; its failures are shown as their own share.
    """
    return _distribution(labels, RACQUET_CLASSES, "RAcQUEt classes")


def class_distribution_by_model(records: Iterable[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """(model, class label) pairs -> {model: class_distribution}, models in first-seen order."""
    by_model: dict[str, list[str]] = {}
    for model, label in records:
        by_model.setdefault(model, []).append(label)
    return {model: class_distribution(labels) for model, labels in by_model.items()}


def cot_mention_rate(labels: Iterable[str]) -> dict[str, Any]:
    """Share of CoT responses that mention multiple referents at any reasoning step (RAcQUEt G.3, Fig. 4).

    labels are the judge's "YES" / "NO" / "unknown"; rate = YES / n over all n responses.
    """
    dist = _distribution(labels, ("YES", "NO"), "CoT mentions")
    return {**dist, "rate": dist["YES"], "rate_ci": dist["ci"]["YES"]}


def bias_distribution(records: Iterable[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """(bias category, label) pairs -> shares of explicit / stereotypical / anti-stereotypical (Fig. 7).

    Categories are "gender", "ethnicity", "disability" (any string is kept as given); "all" pools them.
    Each category's shares are over all its responses, unknown included (see class_distribution).
    """
    by_category: dict[str, list[str]] = {}
    pooled: list[str] = []
    for category, label in records:
        by_category.setdefault(category, []).append(label)
        pooled.append(label)
    out = {c: _distribution(labels, BIAS_CLASSES, f"bias ({c})") for c, labels in by_category.items()}
    out["all"] = _distribution(pooled, BIAS_CLASSES, "bias")
    return out


# --- AQuA: strategic accuracy (Table 2, Fig. 5), factual consistency, PASS rate (Table 4) -----------------


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
    _same_length(gold_levels, predicted, "AQuA strategy")
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
        "unknown_rate": _rate(n_unknown, n),
        "unknown_per_level": unknown_per_level,
        "confusion": matrix.astype(int).tolist(),
        "labels": list(LEVELS),
    }


def factual_consistency(labels: Iterable[str]) -> dict[str, Any]:
    """Shares of grounded / ungrounded / unknown judgements over all responses (AQuA 4.2, Table 3 G/U)."""
    dist = _distribution(labels, ("grounded", "ungrounded"), "factual consistency")
    return {**dist, "rate": dist["grounded"], "rate_ci": dist["ci"]["grounded"]}


def pass_rate(labels: Iterable[str]) -> dict[str, Any]:
    """PASS / n over all n two-turn items (AQuA Table 4); unknown judgements count as not passed."""
    dist = _distribution(labels, ("PASS", "FAIL"), "PASS rate")
    return {**dist, "rate": dist["PASS"], "rate_ci": dist["ci"]["PASS"]}


# --- judge agreement (RAcQUEt Section 3: Cohen's kappa against people) ------------------------------------


def agreement(gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str]) -> dict[str, Any]:
    """Cohen's kappa, accuracy and confusion matrix of a judge's labels against gold labels.

    `labels` are the task's classes (e.g. A, B, C); the judge may also answer "unknown", which is
    treated as one more category that gold never has: it always counts as a disagreement, in kappa
    (sklearn cohen_kappa_score over labels + ["unknown"]) and in accuracy. `kappa_decided` is kappa
    over the items the judge did decide, for comparison. Kappa is NaN where it is undefined (fewer than
    two categories in play, e.g. gold and judge agree that every item is class A: 0/0).

    confusion[i][j] counts gold labels[i] judged as (labels + ["unknown"])[j].
    """
    _same_length(gold, predicted, "agreement")
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
