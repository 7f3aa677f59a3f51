"""Opening finished runs again (issue 24, the CLI part): `whichone bench show RUN` slices a run made by the
CLI by gold label, judged label (a confusion cell), outcome, prompt and word, and exports the slice;
`whichone bench compare RUN_A RUN_B` pairs two runs' records on the same examples. Nothing is rerun."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.evaluation.records import ResponseRecord
from assistant.evaluation.runs import Run, Slice, compare
from ui.cli import app

# The tiny model's replies are noise: short is enough, and the rules read none of them, which fails a run by
# default (--max-unknown-rate); these tests read the run's files, so they accept it.
FAST = ["--max-new-tokens", "8", "--no-progress", "--max-unknown-rate", "1"]


def bench(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["bench", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two runs of aqua-strategy made by the CLI on the bundled sample: the Base and the CoT prompt."""
    root = tmp_path_factory.mktemp("runs")
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WHICHONE_CACHE_DIR", str(root / "cache"))
        mp.setenv("WHICHONE_OFFLINE", "1")
        for variant in ("base", "cot"):
            args = ["run", "aqua-strategy", "--model", "tiny", "--variant", variant, "--data", "sample"]
            args += ["--out", str(root / variant), "--cache", str(root / "cache.sqlite"), *FAST]
            code, _, err = bench(*args)
            assert code == 0, err
            out[variant] = root / variant
    return out


def test_show_slices_a_run_made_by_the_cli_and_exports_the_slice(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    code, out, err = bench("show", str(runs["base"]))
    assert code == 0, err
    assert out.startswith(f"aqua-strategy run in {runs['base']}: 5 records; all records: 5")
    assert "gold: clarify 2, answer 1, infer 1, enumerate 1" in out
    # a confusion cell: gold clarify, judged as whatever the rule judge made of the first clarify record
    run = Run.open(runs["base"])
    cell = next(run.judged[i] for i, g in enumerate(run.golds) if g == "clarify")
    export = tmp_path / "cell.jsonl"
    code, out, err = bench(
        "show", str(runs["base"]), "--gold", "clarify", "--judged", str(cell), "--export", str(export)
    )
    assert code == 0, err
    count = int(re.search(r"gold clarify, judged \S+: (\d+)", out).group(1))
    lines = [json.loads(x) for x in export.read_text().splitlines()]
    assert count == len(lines) >= 1 and all(r["gold"] == "clarify" and r["judged"] == cell for r in lines)
    assert {"question", "response", "image", "outcome"} <= set(lines[0])
    csv_file = tmp_path / "all.csv"
    code, out, _ = bench("show", str(runs["base"]), "--word", "coin", "--export", str(csv_file))
    rows = list(csv.DictReader(csv_file.open()))
    assert code == 0 and len(rows) == 2 and all("coin" in r["question"].lower() for r in rows)


def test_compare_pairs_two_prompts_on_the_same_examples(runs: dict[str, Path], tmp_path: Path) -> None:
    code, out, err = bench(
        "compare", str(runs["base"]), str(runs["cot"]), "--export", str(tmp_path / "d.csv")
    )
    assert code == 0, err
    assert out.startswith(
        "5 records on the same example and prompt (0 only in A, 0 only in B); judged alike on"
    )
    a, b = Run.open(runs["base"]), Run.open(runs["cot"])
    result = compare(a, b)
    differ = len(result.disagreements())
    assert f"differ on {differ}" in out
    assert len(list(csv.DictReader((tmp_path / "d.csv").open()))) == differ


def test_bad_run_folders_are_one_line(tmp_path: Path) -> None:
    code, _, err = bench("show", str(tmp_path))
    assert (
        code == 2
        and err.strip()
        == f"error: {tmp_path} is not a finished run: it needs responses.jsonl and summary.json"
    )
    code, _, err = bench("show")
    assert code == 2 and "Missing argument 'RUN'" in err
    code, _, err = bench("compare", str(tmp_path))
    assert code == 2 and "Missing argument 'RUN_B'" in err


def test_a_generated_run_of_5000_items_slices_by_every_field(tmp_path: Path) -> None:
    """The counts of each slice on a generated run (its speed: scripts/runs_speed.py)."""
    from scripts.runs_speed import generated_run

    folder = generated_run(tmp_path / "big", 5000)
    run = Run.open(folder)
    assert len(run.records) == 5000
    assert len(run.slice(Slice(gold="clarify"))) == 1250
    # every other clarify item judged right, less the 25 of them that are errors (no judged label)
    assert len(run.slice(Slice(gold="clarify", judged="clarify"))) == 625 - 25
    assert len(run.slice(Slice(outcome="error"))) == 50
    assert len(run.slice(Slice(word="umbrella"))) == 2500
    assert isinstance(run.records[0], ResponseRecord)


def test_a_marked_judgement_becomes_a_label_judge_agreement_reads(runs: dict[str, Path]) -> None:
    run = Run.open(runs["base"])
    first = run.records[0]
    code, out, err = bench("mark", str(runs["base"]), first.id, "--label", "answer")
    assert code == 0, err
    labels = runs["base"] / "labels.jsonl"
    assert f"kept in {labels}" in out
    item = json.loads(labels.read_text().splitlines()[-1])
    assert item["task"] == "aqua_strategy" and item["gold"] == "answer" and item["response"] == first.response
    # the printed command runs as printed
    command = re.search(r"measure a judge on it: whichone (.+)$", out.strip()).group(1).split()
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 0, result.output
    assert "judge rules on aqua_strategy: n=1" in result.output
    code, _, err = bench("mark", str(runs["base"]), first.id, "--label", "maybe")
    assert code == 2 and "aqua_strategy labels are answer, infer, enumerate, clarify; not 'maybe'" in err
    code, _, err = bench("mark", str(runs["base"]), "no-such-id", "--label", "answer")
    assert code == 2 and "no record 'no-such-id'" in err


def test_a_localisation_run_is_right_or_wrong_by_its_overlap_with_the_datasets_gold(tmp_path: Path) -> None:
    """Localisation records carry no gold masks: `show` reads them from the dataset the run names, and
    counts a record right by union IoU >= 0.5 (as the tab and the paper's metric do)."""
    from assistant.evaluation.datasets import load_dataset
    from assistant.evaluation.papers.focus_ambiguity.localisation import localisation_iou

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WHICHONE_CACHE_DIR", str(tmp_path / "cache"))
        mp.setenv("WHICHONE_OFFLINE", "1")
        folder = tmp_path / "loc"
        args = [
            "run",
            "focus-localisation",
            "--model",
            "blobs",
            "--segmenter",
            "none",
            "--variant",
            "focus-phrase",
        ]
        code, _, err = bench(*args, "--data", "sample", "--out", str(folder), "--no-progress")
        assert code == 0, err
        examples = {e.key: e for e in load_dataset("vq-focusambiguity", "sample").examples}
        run = Run.open(folder)
        ious = [localisation_iou(r, examples[r.key].gold["focus_regions"]) for r in run.records]
        right = sum(1 for v in ious if v is not None and v >= 0.5)
        code, out, err = bench("show", str(folder))
    assert code == 0, err
    counted = re.search(r"^outcome: (.+)$", out, re.M).group(1)
    assert (f"right {right}" in counted or right == 0) and (
        f"wrong {len(ious) - right}" in counted or right == len(ious)
    ), (counted, ious)


def test_a_record_no_judge_looked_at_is_unjudged_not_wrong() -> None:
    from assistant.evaluation.outcomes import ERROR, UNJUDGED, WRONG, outcome
    from assistant.evaluation.records import ResponseRecord
    from assistant.evaluation.tasks import all_tasks

    task = all_tasks()["aqua-strategy"]
    key = task.scoring.judged_label
    assert key is not None
    answered = ResponseRecord(model="tiny", variant="default", id="1", response="It is a cup.")
    assert outcome(task, answered) == UNJUDGED  # `--judge none`: nobody said it was wrong
    failed = ResponseRecord(
        model="tiny",
        variant="default",
        id="1",
        response="It is a cup.",
        judgement={f"{key}_error": "timeout"},
    )
    assert outcome(task, failed) == WRONG  # a judge that failed counts unknown, as the metrics count it
    assert outcome(task, ResponseRecord(model="tiny", variant="default", id="1", error="model: x")) == ERROR


def test_compare_counts_every_judgement_a_record_carries(runs: dict[str, Path], tmp_path: Path) -> None:
    """A label beside the main one that flips (as a CoT mention would) is a difference, named by judging."""
    import shutil

    flipped = tmp_path / "flipped"
    shutil.copytree(runs["base"], flipped)
    path = flipped / "responses.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    for line in lines:  # the same extra label on every record, flipped on the first
        line["judgement"]["racquet_cot"] = "NO"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    again = tmp_path / "again"
    shutil.copytree(flipped, again)
    lines[0]["judgement"]["racquet_cot"] = "YES"
    (again / "responses.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    code, out, err = bench("compare", str(flipped), str(again))
    assert code == 0, err
    assert "judged alike on 4, differ on 1" in out and "judgements that differ: racquet_cot 1" in out


def test_a_run_whose_every_reply_is_unknown_exits_non_zero_by_default(tmp_path: Path) -> None:
    """With no --max-unknown-rate, a judging that read no reply at all is no result: exit 1, files kept."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WHICHONE_CACHE_DIR", str(tmp_path / "cache"))
        mp.setenv("WHICHONE_OFFLINE", "1")
        args = ["run", "aqua-strategy", "--model", "tiny", "--variant", "base", "--data", "sample"]
        args += ["--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache.sqlite")]
        code, out, err = bench(*args, "--max-new-tokens", "8", "--no-progress")
    assert code == 1 and "aqua_strategy: all 5 judgements unknown" in err
    assert "| tiny |" in out and (tmp_path / "out" / "summary.json").is_file()


def test_max_unknown_rate_makes_a_run_of_unreadable_replies_exit_non_zero(tmp_path: Path) -> None:
    """The tiny model's replies are noise: the rule judge leaves them unknown, and a limit fails the run."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WHICHONE_CACHE_DIR", str(tmp_path / "cache"))
        mp.setenv("WHICHONE_OFFLINE", "1")
        args = ["run", "aqua-strategy", "--model", "tiny", "--variant", "base", "--data", "sample"]
        args += ["--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache.sqlite"), *FAST]
        code, out, err = bench(*args, "--max-unknown-rate", "0.5")
    assert code == 1 and "over --max-unknown-rate 0.5" in err
    assert (tmp_path / "out" / "summary.json").is_file()  # the run's files are kept, to read why


def test_a_judging_that_read_no_reply_is_no_result_and_the_page_says_so() -> None:
    from assistant.evaluation.report import rate_limit_failures, unread_judgings

    def judged(i: str, label: str) -> ResponseRecord:
        return ResponseRecord(
            model="m", variant="base", id=i, response="x", judgement={"aqua_strategy": label, "cot": "YES"}
        )

    unread = [judged("1", "unknown"), judged("2", "unknown")]
    assert unread_judgings(unread) == [("aqua_strategy", 2)]
    assert rate_limit_failures(unread, None, None) == [
        "aqua_strategy: all 2 judgements unknown (the judge could read no reply; --max-unknown-rate 1 "
        "accepts that)"
    ]
    assert rate_limit_failures(unread, 1.0, None) == []  # the user accepted it
    one_read = [*unread, judged("3", "infer")]
    assert unread_judgings(one_read) == [] and rate_limit_failures(one_read, None, None) == []
    # a record whose model failed is not a judgement: it counts under --max-error-rate, not here
    failed = ResponseRecord(model="m", variant="base", id="4", error="model: timeout")
    assert unread_judgings([failed]) == []
