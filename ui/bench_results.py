"""A benchmark run's results in words: whether each record is right or wrong, and the plots as text.

`outcome` (assistant/evaluation/outcomes.py) says, per record, "right", "wrong" or "error".
`plot_alt_text` is the alt text of the report's plot; `confusion_markdown` is the confusion matrices as
tables, shown next to the picture (the results table is already the class-bars plot's text twin).
"""

from __future__ import annotations

from assistant.evaluation.outcomes import (  # noqa: F401 - the browser and its tests read them from here
    ERROR,
    RIGHT,
    WRONG,
    outcome,
)
from assistant.evaluation.plots import class_bars, confusion_panels
from assistant.evaluation.records import RunSummary
from assistant.evaluation.tasks import Task

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
