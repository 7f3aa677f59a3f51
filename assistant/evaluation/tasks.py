"""Every benchmark task by name: the tasks of every paper (assistant/evaluation/papers/), in their order.

The types (Task, Variant, Scoring) are in assistant.evaluation.benchmark, the kinds in
assistant.evaluation.kinds; each paper's package holds its own tasks.
"""

from __future__ import annotations

from assistant.evaluation.benchmark import Scoring, Task, Variant
from assistant.evaluation.papers import PAPERS

__all__ = ["Scoring", "Task", "Variant", "all_tasks", "get_task"]


def all_tasks() -> dict[str, Task]:
    """Every paper's tasks by name (a registered paper's included)."""
    return {task.name: task for paper in PAPERS for task in paper.tasks}


def get_task(name: str) -> Task:
    tasks = all_tasks()
    task = tasks.get(name)
    if task is None:
        raise KeyError(f"there is no task {name!r}; known: {', '.join(tasks)}")
    return task
