"""How a paper's table shows its numbers (percentages, plain numbers, markdown rows)."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence

from assistant.evaluation.records import ResultRow


def finite(value: object) -> float | None:
    """A number a table can show: None for what is not one (None, NaN, inf, text)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):  # numpy's scalars are Real too
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def pct(value: object) -> str:
    """A share as a percentage, one decimal ("-" for none)."""
    number = finite(value)
    return "-" if number is None else f"{100.0 * number:.1f}"


def rated_pct(shares: Mapping[str, object] | None, key: str) -> str:
    """A share of judged labels (a metrics distribution: n, n_unknown, a share per label) as a percentage;
    "-" where nothing was rated (every judgement unknown), not "0.0" beside "unknown 100.0"."""
    if not shares or not shares.get("n") or shares.get("n_unknown") == shares.get("n"):
        return "-"
    return pct(shares.get(key))


def num(value: object, digits: int = 2) -> str:
    """A 0-1 score x100 with `digits` decimals (VQ-FocusAmbiguity Table 3's scale)."""
    number = finite(value)
    return "-" if number is None else f"{100.0 * number:.{digits}f}"


def plain(value: object, digits: int = 3) -> str:
    number = finite(value)
    return "-" if number is None else f"{number:.{digits}f}"


def md(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def metric_rows(results: Sequence[ResultRow], show: Callable[[object], str], *keys: str) -> list[list[str]]:
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
