"""The Benchmark tab's inspection parts without a browser: slice buttons and their picks (malformed picks
included), the radios' counts, a compared view's side-by-side details, finding and opening runs (public
mode keeps a visitor to their own session's runs and keeps no labels), and summary.json read back."""

from __future__ import annotations

import json
import os
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import gradio as gr
import pytest

from assistant.errors import WhichoneError
from assistant.evaluation.records import ResponseRecord, ResultRow, RunSummary
from assistant.evaluation.report import write_report
from assistant.evaluation.runs import Run, Slice, find_runs
from assistant.evaluation.tasks import get_task
from ui.bench_browser import BenchView, example_html
from ui.bench_inspect import InspectHandlers, checked_folder, page, recent_choices
from ui.bench_slices import ALL, choices, read_pick, slice_of, slices_html

TASK = get_task("aqua-strategy")


def record(i: str, level: int, judged: str | None, model: str = "m", variant: str = "base") -> ResponseRecord:
    answered = judged is not None
    return ResponseRecord(
        model=model,
        variant=variant,
        id=i,
        source="aqua",
        split="test",
        question=f"What is on table {i}?",
        gold={"level": level},
        response=f"reply {i}" if answered else None,
        error=None if answered else "model: timed out",
        judgement={"aqua_strategy": judged, "aqua_strategy_reason": "a cue"} if answered else {},
    )


def a_run(folder: Path, records: list[ResponseRecord]) -> Path:
    summary = RunSummary([ResultRow("m", "base", "Base", len(records), 0, 0, {"n": len(records)})], {})
    summary.task, summary.dataset, summary.data = TASK.name, "aqua", "/nonexistent/aqua"
    summary.models = sorted({r.model for r in records})  # as the runner writes it
    write_report(folder, TASK, records, summary, {"model_calls": 0})
    return folder


RECORDS = [
    record("1", 0, "answer"),  # gold answer, judged answer
    record("2", 3, "answer"),  # gold clarify, judged answer
    record("3", 3, "clarify"),  # gold clarify, judged clarify
    record("4", 3, "answer"),  # gold clarify, judged answer
    record("5", 1, None),  # an error
]


class Buttons(HTMLParser):
    """The slice buttons of the panel: (aria-label, data-wh-slice)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "button":
            self.found.append((values.get("aria-label") or "", values.get("data-wh-slice") or ""))


def test_every_count_is_a_button_whose_pick_shows_exactly_its_records(tmp_path: Path) -> None:
    run = Run.open(a_run(tmp_path / "run", RECORDS))
    view = BenchView.of_run(run, {})
    parser = Buttons()
    parser.feed(slices_html(view))
    labels = dict(parser.found)
    assert labels["gold clarify, judged answer: 2 records"]
    assert "gold answer, judged answer: 1 record" in labels and "Outcome error: 1 record" in labels
    for name, data in parser.found:
        chosen = read_pick(data + "#123")
        assert chosen is not None, data
        count = int(re.search(r": (\d+) records?$", name).group(1))
        assert len(view.shown(chosen)) == count, name
    ids = [
        view.records[i].id for i in view.shown(read_pick(labels["gold clarify, judged answer: 2 records"]))
    ]
    assert ids == ["2", "4"]


@pytest.mark.parametrize(
    "text",
    ["", "#1", '{"gold": "A"', "[1, 2]", '"gold"', "null#5", '{"gold": 3}', "{not json}#9"],
)
def test_a_malformed_pick_is_no_slice_or_drops_what_it_cannot_read(text: str) -> None:
    chosen = read_pick(text)
    assert chosen is None or chosen == Slice()  # never an exception, never an invented filter


def test_unknown_keys_in_a_pick_are_ignored() -> None:
    assert read_pick('{"gold": "A", "folder": "/etc", "unknown": true}#1') == Slice(gold="A", unknown=True)


def test_radio_choices_carry_counts_and_all_keeps_every_record(tmp_path: Path) -> None:
    view = BenchView.of_run(Run.open(a_run(tmp_path / "run", RECORDS)), {})
    options = choices(view)
    assert options["outcome"] == [
        ("all (5)", ALL),
        ("right (2)", "right"),
        ("wrong (2)", "wrong"),
        ("error (1)", "error"),
    ]
    assert options["gold"][0] == ("all (5)", ALL) and ("clarify (3)", "clarify") in options["gold"]
    assert slice_of(ALL, ALL, "answer", ALL, "", False, "  table 2 ") == Slice(
        judged="answer", word="table 2"
    )


def test_a_compared_view_shows_both_runs_side_by_side(tmp_path: Path) -> None:
    mine = Run.open(a_run(tmp_path / "a", RECORDS))
    other_records = [record(r.id, int(r.gold["level"]), "clarify", model="n") for r in RECORDS]
    theirs = Run.open(a_run(tmp_path / "b", other_records))
    view = BenchView.of_run(mine, {}).compared_with(theirs)
    assert len(view.partner) == 5
    differ = view.shown(Slice(), disagree=True)
    # 1 and 2 and 4 judged differently; 3 alike; 5 an error here, judged there
    assert [view.records[i].id for i in differ] == ["1", "2", "4", "5"]
    html = example_html(view, 1)
    assert '<th scope="col">This run (m)</th>' in html and '<th scope="col">Compared run (n)</th>' in html
    assert "reply 2" in html and "aqua_strategy: answer" in html and "aqua_strategy: clarify" in html
    assert "Judge&#x27;s reason (aqua_strategy)" in html
    with pytest.raises(WhichoneError, match="different tasks"):
        BenchView.of_run(mine, {}).compared_with(
            Run(tmp_path, get_task("racquet-general"), {}, [record("1", 0, "A")])
        )


def test_the_page_of_an_empty_slice_says_so_and_offers_no_label(tmp_path: Path) -> None:
    view = BenchView.of_run(Run.open(a_run(tmp_path / "run", RECORDS)), {})
    slider, line, _, _, details, label = page(view, 1, Slice(gold="infer", judged="clarify"), False)
    assert "No examples in this slice (gold infer, judged clarify)" in line and details == ""
    assert label["interactive"] is False


def test_summary_json_reads_back_as_the_summary_written(tmp_path: Path) -> None:
    folder = a_run(tmp_path / "run", RECORDS)
    data = json.loads((folder / "summary.json").read_text())
    back = RunSummary.from_json(data)
    assert back.to_json() == {k: v for k, v in data.items() if k != "run"}
    assert back.results[0].label == "Base" and back.data == "/nonexistent/aqua"


def test_find_runs_lists_finished_runs_newest_first(tmp_path: Path) -> None:
    old = a_run(tmp_path / "x" / "old", RECORDS[:1])
    new = a_run(tmp_path / "y" / "new", RECORDS[:2])
    os.utime(old / "summary.json", (time.time() - 100, time.time() - 100))
    (tmp_path / "z").mkdir()
    (tmp_path / "z" / "summary.json").write_text("{}")  # no responses.jsonl: not a run
    assert find_runs([tmp_path, tmp_path / "absent"]) == [new.resolve(), old.resolve()]
    labels = [label for label, _ in recent_choices([tmp_path])]
    assert labels[0].startswith("aqua-strategy, m, 2 records, ") and labels[0].endswith(f"({new.resolve()})")


def test_opening_a_folder_that_is_no_run_says_why_and_keeps_the_page(tmp_path: Path) -> None:
    handlers = InspectHandlers(lambda request: tmp_path / "session")
    out = handlers.open_run(str(tmp_path), gr.Request(session_hash="s"))
    assert out[0].startswith('<div role="status"') and "is not a finished run" in out[0]
    assert all(isinstance(o, dict) and o.get("__type__") == "update" and len(o) == 1 for o in out[1:])
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "responses.jsonl").write_text("{not json\n")
    (tmp_path / "bad" / "summary.json").write_text("{}")
    assert "cannot read the run" in handlers.open_run(str(tmp_path / "bad"), None)[0]


def test_public_mode_opens_only_the_sessions_runs_and_keeps_no_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WHICHONE_PUBLIC", "1")
    session = tmp_path / "session"
    mine = a_run(session / "aqua-strategy" / "tiny", RECORDS)
    assert checked_folder(str(mine), session) == mine
    for outside in (str(tmp_path), str(session / ".." / "elsewhere"), "/etc", "~"):
        with pytest.raises(WhichoneError, match="only the runs made in this browser session"):
            checked_folder(outside, session)
    view = BenchView.of_run(Run.open(mine), {})
    handlers = InspectHandlers(lambda request: session)
    kept = handlers.keep_label("clarify", 1, ALL, ALL, ALL, ALL, ALL, False, "", False, view)
    assert "keeps no labels" in kept and not (mine / "labels.jsonl").exists()
