"""The benchmark tab's parts without a browser: right / wrong / error per record, the plots in words, the
example picture with gold and predicted regions, and the run handler (real runner, tiny model, the app's
ModelPool) with its progress reports, cached rerun and one-line errors."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import numpy as np
import pytest

from assistant.evaluation import masks as mask_codec
from assistant.evaluation.datasets import load_dataset
from assistant.evaluation.records import ResponseRecord, ResultRow, RunSummary
from assistant.evaluation.runner import RunConfig, RunResult
from assistant.evaluation.runs import Slice
from assistant.evaluation.tasks import get_task
from tests import eval_fixtures as fx
from ui.bench_browser import BenchView, example_html, example_picture, position_line
from ui.bench_handlers import BenchmarkHandlers, _done_line
from ui.bench_results import (
    ERROR,
    RIGHT,
    WRONG,
    confusion_alt_text,
    confusion_markdown,
    outcome,
    plot_alt_text,
)
from ui.engine import ModelPool


def _record(judgement: dict, gold: dict, **kw) -> ResponseRecord:
    base = {
        "model": "m",
        "variant": "v",
        "id": "1",
        "source": "s",
        "split": "test",
        "question": "What colour is the cup?",
        "response": "red",
        "judgement": judgement,
        "gold": gold,
    }
    return ResponseRecord(**{**base, **kw})


def _summary(model: str, label: str, metrics: dict) -> RunSummary:
    return RunSummary([ResultRow(model, "v", label, int(metrics["n"]), 0, 0, metrics)], {})


@pytest.mark.parametrize(
    ("task", "judgement", "gold", "expected"),
    [
        ("focus-recognition", {"verdict": "ambiguous"}, {"ambiguous": True}, RIGHT),
        ("focus-recognition", {"verdict": "unambiguous"}, {"ambiguous": False}, RIGHT),
        ("focus-recognition", {"verdict": "undecided"}, {"ambiguous": False}, WRONG),
        ("focus-recognition", {"verdict": "ambiguous"}, {"ambiguous": False}, WRONG),
        ("racquet-general", {"racquet_class": "A"}, {}, RIGHT),
        ("racquet-general", {"racquet_class": "C"}, {}, WRONG),
        ("racquet-general", {"racquet_class": "unknown"}, {}, WRONG),
        ("racquet-bias", {"racquet_bias": "explicit"}, {"bias_category": "gender"}, RIGHT),
        ("racquet-bias", {"racquet_bias": "anti-stereotypical"}, {"bias_category": "gender"}, WRONG),
        ("aqua-strategy", {"aqua_strategy": "enumerate"}, {"level": 2}, RIGHT),
        ("aqua-strategy", {"aqua_strategy": "clarify"}, {"level": 2}, WRONG),
        ("aqua-strategy", {}, {"level": 0}, "unjudged"),  # no judge looked: not counted wrong
        ("whichone-strategy", {"aqua_strategy": "answer"}, {"level": 0}, RIGHT),
        # judged from the text (unreadable: unknown), not the pipeline's own stated strategy
        (
            "whichone-strategy",
            {"aqua_strategy": "unknown", "pipeline_strategy": "answer"},
            {"level": 0},
            WRONG,
        ),
        ("aqua-clarification", {"aqua_clarification": "PASS"}, {"level": 3}, RIGHT),
        ("aqua-clarification", {"aqua_clarification": "FAIL"}, {"level": 3}, WRONG),
    ],
)
def test_outcome_follows_each_tasks_metric(task: str, judgement: dict, gold: dict, expected: str) -> None:
    assert outcome(get_task(task), _record(judgement, gold)) == expected


def test_a_record_without_a_response_is_an_error_not_wrong() -> None:
    task = get_task("racquet-general")
    assert outcome(task, _record({}, {}, response=None, error="example 1: image unavailable")) == ERROR


def test_localisation_is_right_when_the_regions_overlap_gold() -> None:
    task = get_task("focus-localisation")
    gold = np.zeros((40, 60), dtype=bool)
    gold[10:30, 10:30] = True
    near = np.zeros_like(gold)
    near[12:30, 10:30] = True  # IoU 0.9
    far = np.zeros_like(gold)
    far[0:10, 40:60] = True

    def rec(pred: np.ndarray) -> dict:
        found = {"phrase": "cup", "masks": [mask_codec.encode_mask(pred)], "scores": [1.0]}
        return _record({"n_predicted": 1}, {"image_size": [40, 60]}, parts={"localisation": found})

    gold_rle = [mask_codec.encode_mask(gold)]
    assert outcome(task, rec(near), gold_rle) == RIGHT
    assert outcome(task, rec(far), gold_rle) == WRONG


def test_confusion_alt_text_and_tables_list_every_cell() -> None:
    task = get_task("focus-recognition")
    metrics = {
        "n": 9,
        "confusion": [[3, 1, 2], [0, 2, 1]],
        "confusion_rows": ["ambiguous", "unambiguous"],
        "confusion_columns": ["ambiguous", "unambiguous", "undecided"],
    }
    summary = _summary("tiny", "ZS", metrics)
    alt = plot_alt_text(task, summary, "confusion_plot")
    assert alt == confusion_alt_text(task, summary)
    assert (
        "tiny (ZS): gold ambiguous: predicted ambiguous 3, predicted unambiguous 1, predicted undecided 2; "
        "gold unambiguous: predicted ambiguous 0, predicted unambiguous 2, predicted undecided 1." in alt
    )
    table = confusion_markdown(task, summary)
    assert "| ambiguous | 3 | 1 | 2 |" in table and "| unambiguous | 0 | 2 | 1 |" in table
    # AQuA's matrices carry no labels: levels 0-3
    aqua = _summary("m", "Base", {"n": 1, "confusion": [[1, 0], [0, 0]]})
    assert "gold level 0: predicted level 0 1, predicted level 1 0" in confusion_alt_text(task, aqua)


def test_class_bars_alt_text_gives_each_bars_shares() -> None:
    task = get_task("racquet-general")
    m = {"n": 4, "A": 0.25, "B": 0.5, "C": 0.25, "unknown": 0.0}
    summary = _summary("tiny", "Direct", m)
    alt = plot_alt_text(task, summary, "classes_plot")
    assert "tiny (Direct): explicit (A) 25%, implicit (B) 50%, high risk (C) 25%, unknown 0%" in alt


def test_picture_draws_gold_outlines_and_predicted_regions(tmp_path: Path) -> None:
    folder = fx.make_focus_ambiguity(tmp_path / "vqfa", n=3)
    examples = load_dataset("vq-focusambiguity", str(folder)).examples
    example = examples[1]  # two or three gold regions
    h, w = example.gold["image_size"]
    pred = np.zeros((h, w), dtype=bool)
    pred[60:100, 100:150] = True
    found = {"phrase": "cup", "masks": [mask_codec.encode_mask(pred)], "scores": [0.9]}
    record = _record(
        {"n_predicted": 1},
        example.gold_for_report(),
        id=example.id,
        source=example.source,
        split=example.split,
        parts={"localisation": found},
    )
    view = BenchView(get_task("focus-localisation"), [record], {example.key: example}, tmp_path)
    picture, alt = example_picture(view, record)
    n_gold = len(example.gold["focus_regions"])
    assert picture.size == (640, 480)  # 160 x 120 shown 4x, so labels stay legible
    assert f"with {n_gold} gold focus region(s) outlined" in alt and "1 predicted region(s)" in alt
    pixels = np.asarray(picture)
    gold0 = mask_codec.decode(example.gold["focus_regions"][:1])[0]
    ys, xs = np.nonzero(gold0)
    assert tuple(pixels[ys.min() * 4, (xs.min() + xs.max()) * 2]) == (0, 0, 0)  # the black edge band
    assert "union IoU" in example_html(view, 0) and "Localisation" in example_html(view, 0)


def test_position_line_and_filter_count_wrong_only() -> None:
    task = get_task("racquet-general")
    records = [
        _record({"racquet_class": "A"}, {}, id="1"),
        _record({"racquet_class": "B"}, {}, id="2"),
        _record({}, {}, id="3", response=None, error="image unavailable"),
    ]
    view = BenchView(task, records, {}, Path("."))
    wrong = Slice(outcome="wrong")
    assert view.shown() == [0, 1, 2] and view.shown(wrong) == [1]
    assert (
        position_line(view, 1, wrong)
        == "Example 1 of 1 (outcome wrong). 3 example-prompt pairs: 1 right, 1 wrong, 1 errors."
    )
    assert position_line(view, 1, Slice(judged="C")).startswith("No examples in this slice (judged C).")
    details = example_html(view, 2, picture_error="cannot be shown: image unavailable")
    assert "<strong>error</strong>" in details and "image unavailable" in details


def test_tally_counts_example_prompt_pairs_not_examples() -> None:
    # two examples, each asked with two prompts: four records, which are not four examples
    records = [
        _record({"racquet_class": c}, {}, id=i, variant=v)
        for (i, v), c in zip(
            [("1", "direct"), ("2", "direct"), ("1", "cot"), ("2", "cot")], "AACB", strict=True
        )
    ]
    view = BenchView(get_task("racquet-general"), records, {}, Path("."))
    assert view.tally() == "4 example-prompt pairs: 2 right, 2 wrong, 0 errors."


def test_done_line_says_how_many_judgements_failed() -> None:
    task = get_task("racquet-general")
    records = [_record({"racquet_class": "unknown", "racquet_class_error": "HTTP 500"}, {}), _record({}, {})]
    summary = RunSummary([], {"racquet_class": 1}, n_examples=2, variants=["direct"])
    result = RunResult(task, records, summary, 2, 0, Path("out"))
    config = RunConfig(task=task.name, models=["tiny"])
    line = _done_line(result, config)
    assert "Files in out. 1 judgement(s) failed and count as unknown." in line, line
    # the only judgement is unknown: the page says the table holds no result (the CLI exits 1 on it)
    unread = "Not a result: the judge could read none of the answers for racquet_class (all 1 unknown)."
    assert line.endswith(unread), line
    records[1] = _record({"racquet_class": "B"}, {})
    line = _done_line(RunResult(task, records, summary, 2, 0, Path("out")), config)
    assert line.endswith("count as unknown.") and "Not a result" not in line, line


def test_run_handler_progress_pool_reuse_cached_rerun_and_errors(bench_env: Path, bench_data) -> None:
    pool = ModelPool()
    handlers = BenchmarkHandlers(pool)
    reports: list[tuple] = []

    def progress(value, desc=None, **_kw) -> None:
        reports.append((value, desc))

    request = gr.Request(session_hash="test-session")
    form = (
        "racquet-general",
        "tiny",
        "rules",
        2,
        str(bench_data["general"]),
        ["direct"],
        4,
        0,
        "none",
        "blobs",
    )
    out = handlers.run(*form, request, progress)
    status, view = out[0], out[5]
    assert "Done: racquet-general with tiny, 2 answers" in status and "2 model calls" in status, status
    assert reports[-1] == ((2, 2), "tiny: 2 of 2 answered")  # the bar reaches the end
    assert view.out_dir == bench_env / "bench" / "ui" / "test-session" / "racquet-general" / "tiny"
    assert (view.out_dir / "responses.jsonl").is_file()
    assert [m.name for m in pool.loaded() if m.kind == "vlm"] == ["tiny"]
    tiny = pool.vlm("tiny")
    again = handlers.run(*form, request, progress)
    assert " 0 model calls, 2 answers from the cache" in again[0]
    assert pool.vlm("tiny") is tiny  # loaded once, for both runs

    bad = handlers.run("racquet-general", "tiny", "rules", "many", *form[4:], request, progress)
    assert bad[0].count("Error:") == 1 and "the limit must be a whole number" in bad[0]
    assert all(isinstance(o, dict) and o.get("__type__") == "update" for o in bad[1:])  # the rest kept
    unknown = handlers.run("no-such-task", *form[1:], request, progress)
    assert "there is no task &#x27;no-such-task&#x27;" in unknown[0]  # escaped HTML


def test_a_tab_run_where_every_answer_failed_is_an_error_not_done(
    bench_env: Path, bench_data, tmp_path
) -> None:
    import json

    data = tmp_path / "racquet_general.jsonl"
    lines = [
        {"id": i, "image_url": f"{bench_data['base_url']}/img/gone_{i}.jpg", "question": "What is it?"}
        for i in range(3)
    ]
    data.write_text("".join(json.dumps(line) + "\n" for line in lines))
    handlers = BenchmarkHandlers(ModelPool())
    form = ("racquet-general", "tiny", "rules", 3, str(data), ["direct"], 4, 0, "none", "blobs")
    out = handlers.run(*form, gr.Request(session_hash="all-failed"), lambda *a, **k: None)
    status, table = out[0], out[1]
    assert "Error: Every one of the 3 answers failed, so the run has no result" in status, status
    assert "Done" not in status
    assert "**Warning: all 3 items failed**" in table


def test_dataset_errors_name_the_data_field_not_a_command_line_option(monkeypatch) -> None:
    from ui.bench_handlers import web_words

    cli = "VQ-FocusAmbiguity is distributed from https://x (no fixed download link); download it there and "
    said = web_words(cli + "pass --data FOLDER (or the archive's URL).")
    assert "--data" not in said and "put a local copy's path (or URL) in the Data field above" in said
    said = web_words("could not download AQuA (offline); pass --data PATH to a local copy.")
    assert (
        said == "could not download AQuA (offline); put a local copy's path (or URL) in the Data field above."
    )
    monkeypatch.setenv("WHICHONE_PUBLIC", "1")
    said = web_words("could not download AQuA (offline); pass --data PATH to a local copy.")
    assert said.endswith("; this public demo runs on the published data only.")


def test_without_the_published_data_the_tab_runs_the_bundled_sample_and_says_so(
    bench_env: Path, monkeypatch
) -> None:
    monkeypatch.setenv("WHICHONE_OFFLINE", "1")  # AQuA's published data cannot be had
    handlers = BenchmarkHandlers(ModelPool())
    form = ("aqua-strategy", "tiny", "rules", 5, "", ["base"], 4, 0, "none", "blobs")
    out = handlers.run(*form, gr.Request(session_hash="offline-sample"), lambda *a, **k: None)
    status, table, view = out[0], out[1], out[5]
    assert "The published data could not be had (AQuA comes from Hugging Face" in status, status
    assert "so this ran on the bundled sample (5 photos), not the paper&#x27;s data" in status
    assert "Done: aqua-strategy with tiny, 5 answers" in status and "Error" not in status
    assert "**Data: the bundled sample (5 photos), not the paper's data" in table
    assert len(view.records) == 5
    # typed by hand, and on a public demo too (it is bundled, not a server file)
    monkeypatch.setenv("WHICHONE_PUBLIC", "1")
    monkeypatch.setenv("WHICHONE_ALLOWED_MODELS", "tiny,blobs")
    form = ("clearvqa-clarification", "tiny", "rules", 4, "sample", ["base"], 4, 0, "none", "blobs")
    out = handlers.run(*form, gr.Request(session_hash="public-sample"), lambda *a, **k: None)
    assert out[0].count("Done: clearvqa-clarification") == 1 and "could not be had" not in out[0], out[0]
