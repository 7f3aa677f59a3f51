"""RAcQUEt's numbers: class distribution (Fig. 3, 4), CoT mentions (G.3), bias (Fig. 7); the conventions are
assistant.evaluation.metrics'."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from assistant.evaluation.metrics import label_distribution

RACQUET_CLASSES = ("A", "B", "C")
BIAS_CLASSES = ("explicit", "stereotypical", "anti-stereotypical")


def class_distribution(labels: Iterable[str]) -> dict[str, Any]:
    """Shares of RAcQUEt classes A (explicit), B (implicit), C (high risk) among n responses (Fig. 3).

    The denominator is every response, unknown included, so A + B + C + unknown = 1: a judge that fails
    to classify a response lowers no class silently; its failures are shown as their own share.
    """
    return label_distribution(labels, RACQUET_CLASSES, "RAcQUEt classes")


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
    dist = label_distribution(labels, ("YES", "NO"), "CoT mentions")
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
    out = {c: label_distribution(labels, BIAS_CLASSES, f"bias ({c})") for c, labels in by_category.items()}
    out["all"] = label_distribution(pooled, BIAS_CLASSES, "bias")
    return out
