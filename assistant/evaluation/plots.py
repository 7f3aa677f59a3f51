"""A run's plots: what each draws (`class_bars`, `confusion_panels`), shared by the PNG files and their
text twins in the benchmark tab, and the drawings themselves (`class_bars_png`, `confusion_png`).

- class bars (RAcQUEt Fig. 3 / Fig. 7): stacked horizontal bars of class shares, as the task's `bars`
  lays them out (its paper's module);
- confusion (AQuA Fig. 5): one matrix of counts per (model, prompt), gold rows by predicted columns,
  coloured by row share.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant.evaluation.benchmark import Bar, Task
from assistant.evaluation.records import RunSummary

if TYPE_CHECKING:
    from matplotlib.figure import Figure

COLOURS = ("#1b7837", "#fdb863", "#b2182b", "#bababa")  # explicit green, implicit amber, risk red, grey


@dataclass(frozen=True)
class ConfusionPanel:
    title: str  # "model (prompt)"
    counts: list[list[int]]  # gold rows x predicted columns
    rows: list[str]
    columns: list[str]


def class_bars(task: Task, summary: RunSummary) -> tuple[tuple[tuple[str, str], ...], list[Bar]]:
    """(segments, bars): the segments as (metrics key, name) and the bars the task draws (its paper says
    which: one per model and prompt, or per model and bias category); none for a task without bars."""
    return task.bars(summary) if task.bars is not None else ((), [])


def confusion_panels(summary: RunSummary) -> list[ConfusionPanel]:
    """One panel per (model, prompt) with answers whose metrics have a confusion matrix."""
    panels = []
    for r in summary.results:
        conf = r.metrics.get("confusion")
        if not conf or not r.metrics.get("n"):
            continue
        rows = r.metrics.get("confusion_rows") or [f"level {i}" for i in range(len(conf))]
        cols = r.metrics.get("confusion_columns") or [f"level {j}" for j in range(len(conf[0]))]
        counts = [[int(c) for c in row] for row in conf]
        panels.append(ConfusionPanel(f"{r.model} ({r.label})", counts, list(rows), list(cols)))
    return panels


# ------------------------------------------------------------------------------------------ drawing


def _pyplot():  # noqa: ANN202 - matplotlib.pyplot, imported lazily (a module has no useful type here)
    import matplotlib

    matplotlib.use("Agg")  # files only; never a window (servers and tests have no display)
    import matplotlib.pyplot as plt

    return plt


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=120)
    _pyplot().close(figure)
    return buffer.getvalue()


def class_bars_png(task: Task, summary: RunSummary) -> bytes | None:
    """Stacked horizontal bars of class shares (RAcQUEt Fig. 3 / Fig. 7); None when no bar has answers."""
    segments, bars = class_bars(task, summary)
    if not bars:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 0.6 * len(bars) + 1.4))
    for row, bar in enumerate(bars):
        left = 0.0
        for share, colour, (_key, name) in zip(bar.shares, COLOURS, segments, strict=True):
            width = 100.0 * (share or 0.0)
            ax.barh(row, width, left=left, color=colour, edgecolor="white", label=name if row == 0 else None)
            if width >= 6:
                dark = colour in ("#1b7837", "#b2182b")  # white figures on the dark green and red
                colour_of_text = "white" if dark else "black"
                ax.text(
                    left + width / 2,
                    row,
                    f"{width:.0f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color=colour_of_text,
                )
            left += width
    ax.set_yticks(range(len(bars)), [b.label for b in bars])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of responses")
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.25 if len(bars) < 4 else -0.12),
        ncol=4,
        fontsize=8,
        frameon=False,
    )
    ax.set_title(task.reproduces, fontsize=9)
    fig.tight_layout()
    return _png(fig)


def confusion_png(task: Task, summary: RunSummary) -> bytes | None:
    """One row-normalised confusion matrix with counts per (model, prompt) (AQuA Fig. 5); None when no
    panel has answers."""
    import numpy as np

    panels = confusion_panels(summary)
    if not panels:
        return None
    plt = _pyplot()
    cols = min(3, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.4 * rows), squeeze=False)
    for ax in axes.flat[len(panels) :]:
        ax.axis("off")
    for ax, panel in zip(axes.flat, panels, strict=False):
        matrix = np.asarray(panel.counts, dtype=float)
        totals = matrix.sum(axis=1, keepdims=True)
        share = np.divide(matrix, totals, out=np.zeros_like(matrix), where=totals > 0)
        ax.imshow(share, cmap="Blues", vmin=0, vmax=1)
        for (i, j), count in np.ndenumerate(matrix):
            colour = "white" if share[i, j] > 0.5 else "black"
            ax.text(j, i, f"{int(count)}", ha="center", va="center", color=colour, fontsize=8)
        ax.set_xticks(range(len(panel.columns)), panel.columns, fontsize=8)
        ax.set_yticks(range(len(panel.rows)), panel.rows, fontsize=8)
        ax.set_xlabel("predicted", fontsize=8)
        ax.set_ylabel("gold", fontsize=8)
        ax.set_title(panel.title, fontsize=9)
    fig.suptitle(f"{task.name}: {task.reproduces}", fontsize=10)
    fig.tight_layout()
    return _png(fig)
