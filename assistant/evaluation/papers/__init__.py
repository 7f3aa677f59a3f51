"""The papers whose evaluations whichone runs: one module each (its data, tasks, metrics and tables).

Adding a paper is adding one module here that defines `PAPER` (a benchmark.Paper) and naming it below.
"""

from __future__ import annotations

from assistant.evaluation.benchmark import LayoutFn, MetricsFn, Paper
from assistant.evaluation.papers import aqua, clearvqa, focus_ambiguity, racquet

PAPERS: tuple[Paper, ...] = (racquet.PAPER, focus_ambiguity.PAPER, aqua.PAPER, clearvqa.PAPER)


def metrics_for(kind: str) -> MetricsFn:
    """The metrics function of a task's metrics kind (each kind belongs to one paper)."""
    for paper in PAPERS:
        if kind in paper.metrics:
            return paper.metrics[kind]
    raise KeyError(f"no paper computes metrics {kind!r}")


def layout_for(kind: str) -> LayoutFn:
    """The table layout of a task's metrics kind."""
    for paper in PAPERS:
        if kind in paper.layouts:
            return paper.layouts[kind]
    raise KeyError(f"no paper lays out metrics {kind!r}")


def paper_of(task_name: str) -> Paper:
    """The paper whose module holds task `task_name`."""
    for paper in PAPERS:
        if any(task.name == task_name for task in paper.tasks):
            return paper
    raise KeyError(f"no paper has task {task_name!r}")
