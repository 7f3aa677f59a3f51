"""A fifth, small paper-like benchmark that brings a task kind of its own (two pictures per item), whole in
this package: its dataset, task, scoring, judge question, aggregation, table, bars (paper.py) and its kind
(kinds.py). tests/test_new_paper.py registers it and runs it through the real runner on the tiny model:
nothing outside this package names it."""

from tests.toy_paper.paper import DATASET, PAPER, TASK, TASKS, said_count, write_sample

__all__ = ["DATASET", "PAPER", "TASK", "TASKS", "said_count", "write_sample"]
