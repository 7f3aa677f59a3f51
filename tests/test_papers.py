"""One package per paper (assistant/evaluation/papers/<paper>/): each paper owns its datasets, its tasks and
what they carry (scoring, aggregation, table, bars, metrics, judge questions), and nothing is owned twice."""

from __future__ import annotations

import inspect
from collections import Counter

from assistant.evaluation import benchmark
from assistant.evaluation.datasets import dataset_specs
from assistant.evaluation.papers import PAPERS, judge_questions
from assistant.evaluation.papers.aqua.paper import PASS_AFTER_HINT
from assistant.evaluation.papers.racquet.judge import COT_MENTION, RESPONSE_CLASS
from assistant.evaluation.tasks import all_tasks


def _home(fn: object) -> str:
    """The paper package (or shared module) a function is defined in."""
    name = inspect.getmodule(fn).__name__  # type: ignore[union-attr]
    inside = name.removeprefix("assistant.evaluation.papers.")
    return name if inside == name else "assistant.evaluation.papers." + inside.split(".")[0]


def test_every_task_is_served_whole_by_its_own_paper() -> None:
    for paper in PAPERS:
        own = {spec.name for spec in paper.datasets}
        module = _home(paper.tasks[0].aggregate)
        assert module.startswith("assistant.evaluation.papers."), module
        for task in paper.tasks:
            assert task.dataset in own, (paper.name, task.name)
            for fn in (task.aggregate, task.layout, *([task.bars] if task.bars else [])):
                assert _home(fn) == module, (paper.name, task.name, fn)
            scoring = task.scoring
            if scoring is PASS_AFTER_HINT and module.endswith(".clearvqa"):
                continue  # ClearVQA is scored by AQuA's Table 4 rule, imported from AQuA's package by name
            for fn in (scoring.is_right, scoring.direct, scoring.judge_input, scoring.gold_label):
                assert _home(fn) in (module, benchmark.__name__), (paper.name, task.name, fn)


def test_nothing_is_owned_by_two_papers() -> None:
    def twice(names: list[str]) -> list[str]:
        return [name for name, n in Counter(names).items() if n > 1]

    assert not twice([t.name for p in PAPERS for t in p.tasks])
    assert not twice([s.name for p in PAPERS for s in p.datasets])
    assert len(all_tasks()) == sum(len(p.tasks) for p in PAPERS) == 10
    assert set(dataset_specs()) == {
        "racquet-general",
        "racquet-bias",
        "aqua",
        "vq-focusambiguity",
        "clearvqa",
    }
    assert [p.name for p in PAPERS] == ["racquet", "vq-focusambiguity", "aqua", "clearvqa"]


def test_a_scoring_asks_its_prompts_questions_once_each() -> None:
    racquet_general = all_tasks()["racquet-general"]
    # CoT prompt: G.3's question; the task carries the paper's JudgeQuestion objects themselves
    assert racquet_general.judge_questions == (RESPONSE_CLASS, COT_MENTION)
    direct_only = racquet_general.scoring.questions([racquet_general.variant("direct")])
    assert [q.name for q in direct_only] == ["racquet_class"]
    assert all_tasks()["focus-recognition"].judge_questions == ()  # the verdict is parsed, no judge


def test_the_judge_questions_are_read_from_the_papers() -> None:
    # nothing is registered on import: the map is the papers' own questions, in PAPERS' order, and every
    # question a task asks is one of them (the very object)
    known = judge_questions()
    assert list(known) == [q.name for paper in PAPERS for q in paper.questions]
    for task in all_tasks().values():
        assert all(known[q.name] is q for q in task.judge_questions), task.name


def test_a_task_carries_its_paper() -> None:
    for paper in PAPERS:
        assert all(task.paper is paper for task in paper.tasks), paper.name
