"""The papers whose evaluations whichone runs: one module each (its data, tasks, scoring, aggregation and
tables).

Adding a paper is adding one module here that defines `PAPER` (a benchmark.Paper) and naming it below, or,
for a paper kept elsewhere (a plugin, a test's fixture), calling `register(PAPER)`: its datasets and tasks
are then found by name like the others'.
"""

from __future__ import annotations

from assistant.evaluation.benchmark import Paper
from assistant.evaluation.judgement import register_questions
from assistant.evaluation.papers import aqua, clearvqa, focus_ambiguity, racquet

PAPERS: list[Paper] = [racquet.PAPER, focus_ambiguity.PAPER, aqua.PAPER, clearvqa.PAPER]
for _paper in PAPERS:
    register_questions(*_paper.questions)


def register(paper: Paper) -> None:
    """Add a paper (or replace the one of the same name); task and dataset names must stay unique."""
    others = [p for p in PAPERS if p.name != paper.name]
    taken = {t.name for p in others for t in p.tasks} | {d.name for p in others for d in p.datasets}
    clash = sorted(taken & ({t.name for t in paper.tasks} | {d.name for d in paper.datasets}))
    if clash:
        raise ValueError(f"paper {paper.name}: another paper already has {', '.join(clash)}")
    register_questions(*paper.questions)
    PAPERS[:] = [*others, paper]


def paper_of(task_name: str) -> Paper:
    """The paper whose module holds task `task_name`."""
    for paper in PAPERS:
        if any(task.name == task_name for task in paper.tasks):
            return paper
    raise KeyError(f"no paper has task {task_name!r}")
