"""Which path decided each judgement (issue 32): the rules where they are sure, the named model for the
rest (`--judge rules+MODEL`), counted per path in a real bench run with the tiny checkpoint, and in
`whichone judge-agreement --json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.evaluation.judges import LLMJudge, RuleJudge, RulesFirstJudge, create_judge, judge_agreement
from assistant.evaluation.papers import question
from tests.test_transformers_serve import served  # noqa: F401  (the fixture: transformers serve, tiny SmolVLM)
from ui.cli import app

# The tiny model's replies are noise: short is enough, and the rules read none of them, which fails a run by
# default (--max-unknown-rate); these tests read the run's files, so they accept it.
FAST = ["--max-new-tokens", "8", "--no-progress", "--max-unknown-rate", "1"]


def test_bench_rules_then_tiny_reports_how_many_items_each_path_decided(
    bench_env, bench_data, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    args = [
        "bench",
        "run",
        "racquet-general",
        "--model",
        "tiny",
        "--judge",
        "rules+tiny",
        "--variant",
        "direct",
    ]
    args += ["--limit", "6", "--data", str(bench_data["general"]), "--out", str(out), *FAST]
    args += ["--cache", str(tmp_path / "cache.sqlite")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stdout + result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["judge"] == "rules+tiny"
    paths = summary["judge_paths"]
    assert set(paths) == {"racquet_class"}  # the direct prompt: no CoT mention to judge
    records = [json.loads(x) for x in (out / "responses.jsonl").read_text().splitlines()]
    answered = [r for r in records if r["response"] is not None and not r["error"]]
    for judging, counts in paths.items():
        assert set(counts) <= {"rules", "llm:tiny"}
        assert sum(counts.values()) == len(answered)
        # every record names its path, and the count per path is the records'
        named = [r["judgement"][f"{judging}_path"] for r in answered]
        assert sum(p.startswith("rules") for p in named) == counts.get("rules", 0)
        assert sum(p.startswith("llm:tiny") for p in named) == counts.get("llm:tiny", 0)
    line = next(x for x in result.stdout.splitlines() if x.startswith("decided by: "))
    assert "racquet_class" in line


def test_rules_first_sends_only_what_the_rules_leave_to_the_model(bench_env) -> None:
    judge = create_judge("rules+tiny")
    assert isinstance(judge, RulesFirstJudge) and judge.name == "rules+tiny"
    items = [
        {"question": "What color is the dog?", "response": "Which dog do you mean?"},  # rules: asks
        {"question": "What color is the dog?", "response": "\ufffd\ufffd"},  # unreadable: the model
    ]
    judged = judge.judge_many(question("racquet_class"), items)
    assert judged[0].label == "A" and judged[0].path.startswith("rules")
    assert judged[1].path.startswith("llm:tiny") and "rules abstained" in judged[1].reason
    assert judged[1].prompt == question("racquet_class").prompt  # the paper's own judge prompt


def test_a_question_that_needs_the_image_goes_to_the_vlm_judge_and_says_so(bench_env) -> None:
    from PIL import Image

    judge = create_judge("rules+tiny")
    item = {
        "question": "What is on the table?",
        "response": "A red cup.",
        "image": Image.new("RGB", (32, 32)),
    }
    judged = judge.judge_many(question("aqua_factual"), [item])
    assert judged[0].path.startswith("llm:tiny") and "needs the image" in judged[0].reason
    assert isinstance(judge.llm, LLMJudge)


def test_judge_agreement_json_per_question(tmp_path: Path) -> None:
    labelled = tmp_path / "set.jsonl"
    rows = [
        {"task": "racquet_cot", "question": "What color is the dog?", "response": r, "gold": g}
        for r, g in [("The dogs are brown.", "YES"), ("It is brown.", "NO"), ("Which dog?", "YES")] * 4
    ]
    labelled.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    result = CliRunner().invoke(app, ["judge-agreement", "--labelled", str(labelled), "--json"])
    assert result.exit_code == 0, result.stdout
    report = json.loads(result.stdout)
    assert report["labelled"]["name"] == "set.jsonl" and report["labelled"]["n"] == 12
    assert len(report["labelled"]["sha256"]) == 64
    cot = report["questions"]["racquet_cot"]
    for key in ("n", "coverage", "kappa", "kappa_decided", "kappa_ci", "kappa_decided_ci", "confusion"):
        assert key in cot
    assert [i["id"] for i in cot["items"]] == list(range(12))  # file order
    assert all(i["path"].startswith("rules") for i in cot["items"])
    low, high = cot["kappa_ci"]
    assert low <= cot["kappa"] <= high


def test_a_labelled_line_with_an_unknown_label_or_task_is_named(tmp_path: Path) -> None:
    labelled = tmp_path / "bad.jsonl"
    good = {"task": "racquet_cot", "question": "q?", "response": "r", "gold": "YES"}
    for bad, said in [({**good, "gold": "MAYBE"}, "gold 'MAYBE'"), ({**good, "task": "nope"}, "'nope'")]:
        labelled.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
        result = CliRunner().invoke(app, ["judge-agreement", "--labelled", str(labelled), "--json"])
        assert result.exit_code != 0
        assert "bad.jsonl line 2" in result.output and said in result.output


def test_agreement_counts_unknown_as_a_miss_and_separately_on_decided() -> None:
    class Abstains:
        name = "abstains"

        def judge_many(self, task, items):
            return [RuleJudge().judge(task, it) for it in items]

        def judge(self, task, item):
            return RuleJudge().judge(task, item)

    items = [
        {"task": "racquet_cot", "question": "What color is the dog?", "response": r, "gold": g}
        for r, g in [("The dogs are brown.", "YES"), ("It is brown.", "NO"), ("...", "NO")]
    ]
    found = judge_agreement(Abstains(), items, "racquet_cot")
    assert found["unknown"] == 1 and abs(found["coverage"] - 2 / 3) < 1e-9
    assert found["kappa_decided"] == 1.0 and found["kappa"] < 1.0


@pytest.mark.slow
def test_rules_then_a_model_behind_transformers_serve(
    served: str,  # noqa: F811  (the fixture imported above)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--judge rules+openai` against a server we did not write: transformers' own OpenAI-compatible
    server, serving the tiny SmolVLM; the rules decide the English replies, the served model the rest."""
    monkeypatch.setenv("WHICHONE_OPENAI_BASE_URL", served)
    monkeypatch.setenv("WHICHONE_OPENAI_TIMEOUT", "300")
    labelled = tmp_path / "set.jsonl"
    rows = [
        ("Which dog do you mean?", "A"),
        ("The dog is brown.", "C"),
        ("Le chien à gauche est brun, celui de droite est noir.", "A"),
        ("El perro es marrón.", "C"),
    ]
    labelled.write_text(
        "\n".join(
            json.dumps(
                {"task": "racquet_class", "question": "What color is the dog?", "response": r, "gold": g}
            )
            for r, g in rows
        )
        + "\n"
    )
    args = ["judge-agreement", "--judge", "rules+openai", "--labelled", str(labelled), "--json"]
    result = CliRunner().invoke(app, [*args, "--max-new-tokens", "16"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)["questions"]["racquet_class"]
    assert found["paths"] == {"rules": 2, "llm:openai": 2}
    assert [i["path"].split(":")[0] for i in found["items"]] == ["rules", "rules", "llm", "llm"]
