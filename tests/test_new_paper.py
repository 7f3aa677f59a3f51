"""A new paper is one module: tests/toy_paper.py (a fifth, paper-like benchmark) is registered and then
runs through the real runner on the tiny model, the report (its table and bars), the run browser's
outcomes and labels and the tab's text twins, with no other file naming it or its task."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from assistant.evaluation import papers
from assistant.evaluation.datasets import dataset_specs
from assistant.evaluation.rule_judge import readable_text
from assistant.evaluation.runner import RunConfig, run_benchmark
from assistant.evaluation.runs import Run
from assistant.evaluation.tasks import all_tasks, get_task
from tests import toy_paper
from ui.bench_browser import BenchView, example_html
from ui.bench_results import plot_alt_text

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def registered() -> Iterator[None]:
    before = list(papers.PAPERS)
    papers.register(toy_paper.PAPER)
    yield
    papers.PAPERS[:] = before


def test_registering_a_paper_makes_its_task_and_dataset_known(registered) -> None:
    assert get_task(toy_paper.TASK) is toy_paper.TASKS[0]
    assert toy_paper.DATASET in dataset_specs()
    assert list(all_tasks())[-1] == toy_paper.TASK  # after the built-in papers' tasks
    with pytest.raises(ValueError, match="already has"):  # a name another paper owns is refused
        papers.register(replace(toy_paper.PAPER, name="another"))


def test_said_count_reads_digits_and_words() -> None:
    assert toy_paper.said_count("I see 3 squares.") == 3
    assert toy_paper.said_count("There are two red squares and 5 dots") == 2
    assert toy_paper.said_count("Some squares.") is None


def test_the_new_paper_runs_end_to_end(registered, bench_env, tmp_path: Path) -> None:
    table = toy_paper.write_sample(tmp_path / "squares")
    result = run_benchmark(
        RunConfig(
            task=toy_paper.TASK,
            models=["tiny"],
            judge="rules",
            data=str(table),
            out_dir=tmp_path / "out",
            cache_path=tmp_path / "cache.sqlite",
            max_new_tokens=8,
            progress=False,
        )
    )
    records = result.records
    assert len(records) == 6 and all(r.error is None for r in records)
    # the toy's own direct judgement, from the tiny model's real (noise) replies
    for r in records:
        said = toy_paper.said_count(r.response or "")
        assert r.judgement["count"] == ("unknown" if said is None else str(said))
    right = sum(r.judgement["count"] == str(r.gold["count"]) for r in records)
    # its own judge question, answered by the rule judge with the toy's rules, with the judge's reason
    # (the rule judge reads only the readable part of a reply: the tiny model's noise may hold debris)
    for r in records:
        readable, unreadable = readable_text(r.response or "")
        said = None if unreadable else toy_paper.said_count(readable)
        expected = "unknown" if said is None else "agrees" if said == r.gold["count"] else "disagrees"
        assert (
            r.judgement["toy_count_agrees"] == expected and r.judgement["toy_count_agrees_judge"] == "rules"
        )

    # its aggregation, in summary.json
    summary = json.loads((result.out_dir / "summary.json").read_text())
    (row,) = summary["results"]
    assert row["metrics"]["n"] == 6 and row["metrics"]["accuracy"] == pytest.approx(right / 6)
    # its table (report.py calls task.layout) and its bars (plots.py calls task.bars)
    table_md = (result.out_dir / "table.md").read_text()
    assert "### Squares counted right (%)" in table_md and "| tiny | Plain question |" in table_md
    assert "Judge: rules" in table_md or "judge: rules" in table_md.lower()
    assert (result.out_dir / "classes.png").stat().st_size > 0
    alt = plot_alt_text(result.task, result.summary, "classes_plot")
    assert alt.startswith("Stacked bars") and "tiny (Plain question): right" in alt

    # the run opened again: outcomes by the toy's rule, its judged and gold labels, its "right means"
    run = Run.open(result.out_dir)
    assert run.task is toy_paper.TASKS[0]
    assert run.outcomes.count("right") == right and run.outcomes.count("wrong") == 6 - right
    assert run.golds == [str(r.gold["count"]) for r in run.records]
    assert run.judging == "count"
    examples, note = run.examples()
    assert note == "" and len(examples) == 6
    view = BenchView.of_run(run, examples)
    page = example_html(view, 0)
    assert "the first number the response says is the number of squares" in page


def test_no_file_outside_the_module_names_the_new_paper() -> None:
    names = (toy_paper.TASK, toy_paper.DATASET, "toy_paper")
    outside = [
        str(path.relative_to(REPO))
        for folder in ("assistant", "models", "ui", "prompts", "scripts")
        for path in (REPO / folder).rglob("*.py")
        if any(name in path.read_text(encoding="utf-8") for name in names)
    ]
    assert outside == []
