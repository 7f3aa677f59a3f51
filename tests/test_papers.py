"""One module per paper (assistant/evaluation/papers/): each paper owns its datasets, its tasks, the
metrics of its tasks' kinds and their tables, and nothing is owned twice."""

from __future__ import annotations

from collections import Counter

from assistant.evaluation.datasets import dataset_specs
from assistant.evaluation.papers import PAPERS, layout_for, metrics_for
from assistant.evaluation.tasks import TASKS


def test_every_task_is_served_whole_by_its_own_paper() -> None:
    for paper in PAPERS:
        own = {spec.name for spec in paper.datasets}
        for task in paper.tasks:
            assert task.dataset in own, (paper.name, task.name)
            assert task.metrics in paper.metrics and task.metrics in paper.layouts, (paper.name, task.name)
            assert metrics_for(task.metrics) is paper.metrics[task.metrics]
            assert layout_for(task.metrics) is paper.layouts[task.metrics]


def test_nothing_is_owned_by_two_papers() -> None:
    def twice(names: list[str]) -> list[str]:
        return [name for name, n in Counter(names).items() if n > 1]

    assert not twice([t.name for p in PAPERS for t in p.tasks])
    assert not twice([s.name for p in PAPERS for s in p.datasets])
    assert not twice([k for p in PAPERS for k in p.metrics])
    assert len(TASKS) == sum(len(p.tasks) for p in PAPERS) == 10
    assert set(dataset_specs()) == {
        "racquet-general",
        "racquet-bias",
        "aqua",
        "vq-focusambiguity",
        "clearvqa",
    }
    assert [p.name for p in PAPERS] == ["racquet", "vq-focusambiguity", "aqua", "clearvqa"]
