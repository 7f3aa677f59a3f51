"""A new paper is one package: tests/toy_paper/ (a fifth, paper-like benchmark with a task kind of its own,
two pictures per item) is registered and then runs through the real runner on the tiny model, the report
(its table and bars), the run browser's outcomes, labels and its kind's rows, and the tab's text twins,
with no other file naming it, its task or its kind. The shared code it runs through names no kind, paper
or gold field, and docs/architecture.md's recipes are the steps it took."""

from __future__ import annotations

import ast
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
    # its kind asked with both pictures, and its part is in every record and every responses.jsonl line
    assert all(r.parts["pair"]["pictures"] == 2 for r in records)
    lines = [json.loads(line) for line in (result.out_dir / "responses.jsonl").read_text().splitlines()]
    assert [line["pair"]["second"] for line in lines] == [f"{i}b.png" for i in range(6)]
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
    assert "the first number the response says is the number of squares in both pictures" in page
    assert "<th>Pictures</th>" in page or "Pictures" in page  # its kind's row


def test_no_file_outside_the_package_names_the_new_paper_or_its_kind() -> None:
    names = (toy_paper.TASK, toy_paper.DATASET, "toy_paper", "two-pictures", "TwoPictures", "second_photo")
    outside = [
        str(path.relative_to(REPO))
        for folder in ("assistant", "models", "ui", "prompts", "scripts")
        for path in (REPO / folder).rglob("*.py")
        if any(name in path.read_text(encoding="utf-8") for name in names)
    ]
    assert outside == []


# the modules that run every paper: they call the task, its scoring and its kind, and name none of them
SHARED = (
    "assistant/evaluation/runner.py",
    "assistant/evaluation/records.py",
    "assistant/evaluation/scoring.py",
    "assistant/evaluation/report.py",
    "assistant/evaluation/outcomes.py",
    "ui/benchmark_tab.py",
    *[str(p.relative_to(REPO)) for p in sorted((REPO / "ui").glob("bench_*.py"))],
    "ui/cli/bench.py",
)
KIND_NAMES = ("vqa", "two-turn", "pipeline", "localise", "saliency", "probability")
PAPER_NAMES = ("racquet", "aqua", "focusambiguity", "focus_ambiguity", "clearvqa")
GOLD_FIELDS = ("hint", "level", "referents", "focus_regions", "clarified_answer", "clear_question")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants (a docstring may cite a paper; code may not name one)."""
    bodies = [n for n in ast.walk(tree) if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)]
    return {
        id(n.body[0].value)
        for n in bodies
        if n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)
    }


def test_the_shared_code_names_no_kind_paper_or_gold_field() -> None:
    """No string literal in the runner, records, scoring, report and Benchmark tab is a kind's name, a gold
    field or names a paper; no attribute is a kind's part (`record.localisation`), no import is a paper's."""
    found = []
    for name in SHARED:
        tree = ast.parse((REPO / name).read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                text = node.value.lower()
                if text in KIND_NAMES or text in GOLD_FIELDS or any(p in text for p in PAPER_NAMES):
                    found.append((name, node.lineno, node.value))
            if isinstance(node, ast.Attribute) and node.attr in ("pipeline", "localisation", "saliency"):
                found.append((name, node.lineno, node.attr))
            if isinstance(node, ast.ImportFrom) and ".papers." in str(node.module):
                found.append((name, node.lineno, node.module))
    assert found == []


def test_the_recipes_in_the_architecture_doc_are_what_the_toy_did() -> None:
    """docs/architecture.md's "Adding a paper" and "Adding a task kind" name the steps and hooks the toy
    paper uses, and every hook they name is one `Kind` has."""
    from assistant.evaluation.kinds import Kind

    doc = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    paper = doc.split("\n## Adding a paper\n", 1)[1].split("\n## ", 1)[0]
    kind = doc.split("\n## Adding a task kind\n", 1)[1].split("\n## ", 1)[0]
    assert "tests/toy_paper/" in paper and "tests/toy_paper/kinds.py" in kind
    for step in ("PAPERS", "register", "Paper(", "Task(", "Scoring(", "JudgeQuestion", "DatasetSpec"):
        assert step in paper, step
    hooks = ("answer", "parts", "detail_rows", "prepare", "after_judging", "predicted_masks", "RunContext")
    for hook in hooks:
        assert f"`{hook}" in kind, hook
        assert hook == "RunContext" or hasattr(Kind, hook), hook
    toy_kind = (REPO / "tests" / "toy_paper" / "kinds.py").read_text(encoding="utf-8")
    assert (
        "class TwoPictures(Kind)" in toy_kind and "def answer" in toy_kind and "def detail_rows" in toy_kind
    )
