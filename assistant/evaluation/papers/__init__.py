"""The papers whose evaluations whichone runs: one package each (its data, tasks, judge questions and rules,
scoring, metrics, aggregation and tables), listed in `PAPERS`: the one table that names them.

Adding a paper is adding one package here whose `__init__` exports `PAPER` (a benchmark.Paper) and naming it
in `PAPERS`, or, for a paper kept elsewhere (a plugin, a test's fixture), calling `register(PAPER)`: its
datasets, tasks and judge questions are then found by name like the others'. Importing this package
registers nothing: the judge questions are read from the papers when asked for (`judge_questions`).
"""

from __future__ import annotations

from assistant.evaluation.benchmark import Paper
from assistant.evaluation.judgement import JudgeError, JudgeQuestion
from assistant.evaluation.papers import aqua, clearvqa, focus_ambiguity, racquet
from assistant.evaluation.papers.racquet import labelled as racquet_labelled

PAPERS: list[Paper] = [racquet.PAPER, focus_ambiguity.PAPER, aqua.PAPER, clearvqa.PAPER]

# The labelled set a judge is measured on when none is named, and the question its lines ask when they name
# none; and the papers' own dev / regression sets (the judges add the shared ones).
DEFAULT_LABELLED = racquet_labelled.PAPER_LABELLED
DEFAULT_QUESTION = racquet_labelled.PAPER_LABELLED_QUESTION
REGRESSION_SETS = (racquet_labelled.PAPER_LABELLED, racquet_labelled.HELDOUT_LABELLED)


def register(paper: Paper) -> None:
    """Add a paper (or replace the one of the same name); task, dataset and judge question names must stay
    unique."""
    others = [p for p in PAPERS if p.name != paper.name]
    taken = {t.name for p in others for t in p.tasks} | {d.name for p in others for d in p.datasets}
    clash = sorted(taken & ({t.name for t in paper.tasks} | {d.name for d in paper.datasets}))
    if clash:
        raise ValueError(f"paper {paper.name}: another paper already has {', '.join(clash)}")
    _questions_of([*others, paper])
    PAPERS[:] = [*others, paper]


def _questions_of(papers: list[Paper]) -> dict[str, JudgeQuestion]:
    found: dict[str, JudgeQuestion] = {}
    for paper in papers:
        for q in paper.questions:
            known = found.get(q.name)
            if known is not None and known is not q:
                raise ValueError(f"two judge questions are named {q.name!r}")
            found[q.name] = q
    return found


def judge_questions() -> dict[str, JudgeQuestion]:
    """Every judge question of the papers by name (read from `PAPERS` at each call)."""
    return _questions_of(PAPERS)


def question(name: str) -> JudgeQuestion:
    """The judge question `name` (a name read from a labelled file, a run or the command line); JudgeError
    with the known ones when no paper has it."""
    known = judge_questions()
    found = known.get(name)
    if found is None:
        raise JudgeError(f"unknown judging task {name!r}; known: {', '.join(known)}")
    return found
