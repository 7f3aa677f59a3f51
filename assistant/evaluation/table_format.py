"""How a paper's table shows its numbers (percentages, plain numbers, markdown rows)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from assistant.evaluation.records import ResultRow


def pct(value: Any) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    return f"{100.0 * float(value):.1f}"


def num(value: Any, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    return f"{100.0 * float(value):.{digits}f}"


def plain(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    return f"{float(value):.{digits}f}"


def md(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def metric_rows(results: Sequence[ResultRow], show: Callable[[Any], str], *keys: str) -> list[list[str]]:
    """One row per (model, prompt): its label, the metrics `keys` shown by `show`, n and errors."""
    return [
        [
            r.model,
            r.label,
            *(show(r.metrics.get(k)) for k in keys),
            str(r.metrics.get("n", 0)),
            str(r.errors),
        ]
        for r in results
    ]
