"""Every benchmark task by name: the tasks of every paper (assistant/evaluation/papers/), in their order.

The types (Task, Variant, the closed sets of kinds) are in assistant.evaluation.benchmark; each paper's
module holds its own tasks.
"""

from __future__ import annotations

from assistant.evaluation.benchmark import KINDS, Judgement, MetricsKind, Task, TaskKind, Variant
from assistant.evaluation.papers import PAPERS

__all__ = ["KINDS", "TASKS", "Judgement", "MetricsKind", "Task", "TaskKind", "Variant", "get_task"]

TASKS: dict[str, Task] = {task.name: task for paper in PAPERS for task in paper.tasks}


def get_task(name: str) -> Task:
    task = TASKS.get(name)
    if task is None:
        raise KeyError(f"there is no task {name!r}; known: {', '.join(TASKS)}")
    return task
