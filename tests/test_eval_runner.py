"""The benchmark runner: cached responses (a rerun makes 0 model calls), per-image failures, resume after
SIGTERM / SIGKILL equal to an uninterrupted run, and the report files. Real tiny model throughout."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from assistant.evaluation import papers, scoring
from assistant.evaluation.cache import ResponseCache, cached_pointer, cached_vlm
from assistant.evaluation.records import ResponseRecord, ResultRow, RunSummary
from assistant.evaluation.report import markdown_table
from assistant.evaluation.rule_judge import rule_judge
from assistant.evaluation.runner import RunConfig, RunError, run_benchmark, select_examples
from assistant.evaluation.tasks import get_task
from models.base import Ability, ChatMessage, GenerationSettings, abilities_of, can
from tests import eval_fixtures as fx
from tests.chat_server import JSONHandler, serve
from tests.test_openai_vlm import ChatServer, chat_server  # noqa: F401  (a real chat-completions server)

REPO = Path(__file__).resolve().parents[1]
FAST = 8  # new tokens per reply: the tiny model's text is noise either way, and short keeps tests quick


def _config(bench_data, tmp_path: Path, **kw) -> RunConfig:
    defaults = dict(
        task="racquet-general",
        models=["tiny"],
        judge="rules",
        data=str(bench_data["general"]),
        limit=6,
        out_dir=tmp_path / "out",
        cache_path=tmp_path / "cache.sqlite",
        max_new_tokens=FAST,
        progress=False,
        batch_size=4,
    )
    defaults.update(kw)
    return RunConfig(**defaults)


def _comparable(out_dir: Path) -> tuple[list[dict], dict]:
    records = [json.loads(line) for line in (out_dir / "responses.jsonl").read_text().splitlines()]
    summary = json.loads((out_dir / "summary.json").read_text())
    summary.pop("run")
    return records, summary


# ------------------------------------------------------------------------------------------ the cache


def test_cache_key_covers_model_prompt_image_and_settings(tiny_vlm, tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    model = cached_vlm(tiny_vlm, cache)
    image, other = fx.scene(1), fx.scene(2)
    settings = GenerationSettings(max_new_tokens=FAST)
    conv = [ChatMessage("user", "What color is the cup?", [image])]
    first = model.generate(conv, settings)
    assert (model.calls, model.hits) == (1, 0)
    assert model.generate([ChatMessage("user", "What color is the cup?", [image.copy()])], settings) == first
    assert (model.calls, model.hits) == (1, 1)  # same pixels -> same key
    variants = [
        [ChatMessage("user", "What color is the mug?", [image])],  # prompt text
        [ChatMessage("user", "What color is the cup?", [other])],  # image bytes
        [ChatMessage("system", "What color is the cup?", [image])],  # role
    ]
    keys = {model.key(c, settings) for c in [conv, *variants]}
    keys.add(model.key(conv, GenerationSettings(max_new_tokens=FAST + 1)))  # settings
    keys.add(model.key(conv, GenerationSettings(max_new_tokens=FAST, seed=5)))
    assert len(keys) == 6
    renamed = cached_vlm(tiny_vlm, cache)
    renamed.identity = {**renamed.identity, "quantisation": "nf4"}  # another identity of the model
    assert renamed.key(conv, settings) != model.key(conv, settings)
    # batches: hits are served, only misses reach the model, and results stay in order
    replies = model.generate_batch([variants[0], conv, variants[1]], settings)
    assert replies[1] == first and (model.calls, model.hits) == (3, 2)
    cache.close()
    assert len(ResponseCache(tmp_path / "c.sqlite")) == 3  # committed: another connection sees them


# the method each ability promises
METHOD_OF = {
    Ability.STREAM: "generate_stream",
    Ability.FRAME_SIZE: "model_input_size",
    Ability.GROUNDING_FAMILY: "grounding_family",
    Ability.PREPARE_IMAGE: "prepare_image",
    Ability.ANSWER_SCORES: "answer_probabilities",
    Ability.INSTANCES: "instances",
    Ability.MULTIMASK: "candidate_masks",
}


def _has_methods(obj: object) -> bool:
    """Every ability `obj` claims has its method on the object's class, found without __getattr__."""
    import inspect

    return all(inspect.getattr_static(obj, METHOD_OF[a], None) is not None for a in abilities_of(obj))


def test_a_cached_model_has_exactly_the_abilities_of_the_model_it_wraps(tiny_vlm, tmp_path: Path) -> None:
    """The benchmark's cache wrappers: the box pointer asks a wrapped Qwen for its frame size and grounding
    family, the pipeline asks it to prepare an image, the grounder asks a wrapped SAM 3 for its instances.
    The wrapper must say yes exactly when the wrapped object can, on every Python version."""
    from models.base import Describing, stream_generate
    from models.registry import create_pointer

    cache = ResponseCache(tmp_path / "c.sqlite")
    model = cached_vlm(tiny_vlm, cache)
    for ability in (Ability.FRAME_SIZE, Ability.GROUNDING_FAMILY, Ability.PREPARE_IMAGE):
        assert can(model, ability) == can(tiny_vlm, ability), ability
    assert can(tiny_vlm, Ability.FRAME_SIZE) and can(tiny_vlm, Ability.GROUNDING_FAMILY)
    assert _has_methods(model) and _has_methods(tiny_vlm)
    image = fx.scene(1)
    assert model.model_input_size(image) == tiny_vlm.model_input_size(image)
    assert model.grounding_family() == tiny_vlm.grounding_family()

    # Streaming is not forwarded: a stream from the wrapper is its cached reply, not a call past the cache.
    assert can(tiny_vlm, Ability.STREAM) and not can(model, Ability.STREAM)
    conversation = [ChatMessage("user", "What color is the cup?", [image])]
    settings = GenerationSettings(max_new_tokens=FAST)
    reply = model.generate(conversation, settings)
    assert "".join(stream_generate(model, conversation, settings)) == reply
    assert (model.calls, model.hits) == (1, 1)

    blobs = cached_pointer(create_pointer("blobs"), cache)  # a pointer with none of the abilities
    assert not can(blobs, Ability.INSTANCES) and abilities_of(blobs) == frozenset()
    assert isinstance(blobs, Describing) and blobs.describe()["name"] == blobs.pointer.name
    sam3 = create_pointer("sam3-tiny", target_dir=tmp_path / "sam3", threshold=0.0)
    wrapped = cached_pointer(sam3, cache)
    assert can(wrapped, Ability.INSTANCES) and _has_methods(wrapped) and isinstance(wrapped, Describing)
    assert wrapped.describe() == sam3.describe()
    hits, masks = wrapped.instances(image, "cup")
    assert len(hits) == len(masks)


def test_rerun_is_served_from_the_cache_with_zero_model_calls(bench_env, bench_data, tmp_path: Path) -> None:
    first = run_benchmark(_config(bench_data, tmp_path))
    assert first.model_calls == len(first.records) == 6 * 3  # 6 examples x direct / clarification / CoT
    assert first.cache_hits == 0
    first_files = _comparable(first.out_dir)
    second = run_benchmark(_config(bench_data, tmp_path))
    assert second.model_calls == 0 and second.cache_hits == 18
    assert _comparable(second.out_dir) == first_files
    run = json.loads((second.out_dir / "summary.json").read_text())["run"]
    assert run["model_calls"] == 0 and run["calls_by_model"] == {"tiny": 0}
    # another generation setting is another answer: the cache is not consulted for it
    third = run_benchmark(_config(bench_data, tmp_path, max_new_tokens=FAST + 2, variants=["direct"]))
    assert third.model_calls == 6


def test_records_judgements_and_report_files(bench_env, bench_data, tmp_path: Path) -> None:
    result = run_benchmark(_config(bench_data, tmp_path, limit=None, variants=["direct", "cot"]))
    by_id = {}
    for r in result.records:
        by_id.setdefault(r.id, []).append(r)
    # the fixture's last image is never served (404): its questions fail alone, the run goes on
    failed = [r for r in result.records if r.error]
    assert failed and all("HTTP 404" in r.error and r.response is None for r in failed)
    ok = [r for r in result.records if not r.error]
    assert all(r.judgement["racquet_class"] in ("A", "B", "C", "unknown") for r in ok)
    assert all(("racquet_cot" in r.judgement) == (r.variant == "cot") for r in ok)
    assert all(r.turns[0]["role"] == "user" and r.turns[1]["text"] == r.response for r in ok)
    cot = next(r for r in ok if r.variant == "cot")
    assert cot.turns[0]["text"].endswith(
        "Please explain your reasoning step by step before providing the final answer."
    )
    summary = result.summary
    assert [(g.variant, g.n) for g in summary.results] == [("direct", 20), ("cot", 20)]
    for group in summary.results:
        m = group.metrics
        assert group.errors == len(failed) // 2
        assert m["n"] == 20 - group.errors
        assert abs(m["A"] + m["B"] + m["C"] + m["unknown"] - 1.0) < 1e-9
        shares = {
            c: sum(1 for r in ok if r.variant == group.variant and r.judgement["racquet_class"] == c) / m["n"]
            for c in "ABC"
        }
        assert shares == pytest.approx({c: m[c] for c in "ABC"})
    assert "cot_mentions" in summary.results[1].metrics
    # responses.jsonl is the records as typed: read back, each line is the record the run returned
    lines = (result.out_dir / "responses.jsonl").read_text().splitlines()
    assert [ResponseRecord.from_json(json.loads(line)) for line in lines] == result.records
    written = json.loads((result.out_dir / "summary.json").read_text())
    assert written["results"] == [row.to_json() for row in summary.results] and written["n_examples"] == 20
    table = (result.out_dir / "table.md").read_text()
    assert "| Model | Prompt | Explicit (A) | Implicit (B) | High risk (C) |" in table
    assert "| tiny | CoT |" in table and "| tiny | Direct |" in table
    with Image.open(result.out_dir / "classes.png") as im:
        assert im.format == "PNG" and im.size[0] > 300
    assert sum(1 for _ in (result.out_dir / "responses.jsonl").open()) == 40


def test_seeded_sample_and_bad_options() -> None:
    items = list(range(50))
    a, b = select_examples(items, 10, seed=3), select_examples(items, 10, seed=3)
    assert a == b and a == sorted(a) and len(set(a)) == 10
    assert select_examples(items, 10, seed=4) != a
    assert select_examples(items, None, seed=0) == items
    with pytest.raises(RunError, match="no task 'nope'"):
        run_benchmark(RunConfig(task="nope", models=["tiny"]))
    with pytest.raises(RunError, match="no variant 'zero'"):
        run_benchmark(RunConfig(task="racquet-general", models=["tiny"], variants=["zero"]))


# ---------------------------------------------------------------------------------- resume after a kill


def _bench_command(bench_data, out: Path, cache: Path) -> list[str]:
    return [
        sys.executable, "-m", "ui.cli", "bench", "run", "racquet-general", "--model", "tiny",
        "--judge", "rules", "--variant", "direct", "--data", str(bench_data["general"]),
        "--out", str(out), "--cache", str(cache), "--max-new-tokens", str(FAST), "--batch-size", "2",
        "--no-progress", "--max-unknown-rate", "1",  # the tiny model's noise: the rules read none of it
    ]  # fmt: skip


def _rows(cache: Path) -> int:
    if not cache.exists():
        return 0
    db = sqlite3.connect(cache, timeout=5)
    try:
        return int(db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
    except sqlite3.OperationalError:  # the table is not created yet
        return 0
    finally:
        db.close()


def _start_and_kill(command: list[str], cache: Path, sig: int, after_rows: int) -> tuple[int, str, int]:
    """Run `command`; once the cache holds `after_rows` responses, send `sig`. -> (rc, stderr, rows)."""
    proc = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ}
    )
    deadline = time.monotonic() + 240
    try:
        while _rows(cache) < after_rows and proc.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError("the benchmark subprocess made no progress in time")
            time.sleep(0.05)
        assert proc.poll() is None, "the run finished before it could be interrupted"
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err, _rows(cache)


@pytest.mark.slow
def test_resume_after_sigterm_and_sigkill_equals_an_uninterrupted_run(
    bench_env, bench_data, tmp_path: Path
) -> None:
    # Reference: the whole run without interruption, in its own cache.
    reference = run_benchmark(
        _config(
            bench_data,
            tmp_path / "ref",
            limit=None,
            variants=["direct"],
            batch_size=2,
            out_dir=tmp_path / "ref" / "out",
        )
    )
    total = reference.model_calls
    assert total == 19  # 20 questions, one of whose image answers 404

    cache, out = tmp_path / "resumed.sqlite", tmp_path / "resumed"
    command = _bench_command(bench_data, out, cache)
    rc, err, after_term = _start_and_kill(command, cache, signal.SIGTERM, after_rows=2)
    assert rc == 130, err
    assert "interrupted" in err and "run the same command again to resume" in err
    assert 2 <= after_term < total and not (out / "summary.json").exists()

    rc, err, after_kill = _start_and_kill(command, cache, signal.SIGKILL, after_rows=after_term + 4)
    assert rc == -signal.SIGKILL
    assert after_term + 4 <= after_kill < total  # the first run's answers were kept, more were added

    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300, env={**os.environ})
    assert done.returncode == 0, done.stderr
    # only what was not finished was asked again
    assert f"model calls: {total - after_kill} (cache hits: {after_kill})" in done.stdout
    assert _rows(cache) == total
    assert _comparable(out) == _comparable(reference.out_dir)


# ------------------------------------------------------------------------------------------ every task runs


def test_racquet_bias_by_category(bench_env, bench_data, tmp_path: Path) -> None:
    result = run_benchmark(
        _config(bench_data, tmp_path, task="racquet-bias", data=str(bench_data["bias"]), limit=None)
    )
    assert result.model_calls == 32  # 2 images x (5 + 6 + 5) adjectives
    metrics = result.summary.results[0].metrics
    assert {k: metrics[k]["n"] for k in metrics} == {
        "gender": 10,
        "ethnicity": 12,
        "disability": 10,
        "all": 32,
    }
    for m in metrics.values():
        assert abs(m["explicit"] + m["stereotypical"] + m["anti-stereotypical"] + m["unknown"] - 1) < 1e-9
    first = result.records[0]
    assert first.gold["stereotyped_group"] and first.judgement["racquet_bias"]
    assert "| tiny | gender |" in (result.out_dir / "table.md").read_text()
    assert (result.out_dir / "classes.png").is_file()


def test_aqua_strategy_levels_and_confusion(bench_env, bench_data, tmp_path: Path) -> None:
    result = run_benchmark(
        _config(
            bench_data,
            tmp_path,
            task="aqua-strategy",
            data=str(bench_data["aqua"]),
            limit=8,
            variants=["base", "strategy"],
        )
    )
    assert result.model_calls == 16
    for group in result.summary.results:
        m = group.metrics
        assert m["n"] == 8 and sum(m["n_per_level"].values()) == 8
        assert len(m["confusion"]) == 4 and sum(map(sum, m["confusion"])) == 8 - m["n_unknown"]
        labels = [r.judgement["aqua_strategy"] for r in result.records if r.variant == group.variant]
        assert set(labels) <= {"answer", "infer", "enumerate", "clarify", "unknown"}
        # the rule judge cannot see images: the factual-consistency column is there, every item unknown
        assert m["factual"]["unknown"] == 1.0 and m["factual"]["n"] == 8
    assert any("factual consistency not judged" in n for n in result.notes)
    table = (result.out_dir / "table.md").read_text()
    assert "| Model | Prompt | Level 0 | Level 1 | Level 2 | Level 3 | Overall |" in table
    assert (result.out_dir / "confusion.png").is_file()


def test_two_turn_clarification_on_aqua_and_clearvqa(bench_env, bench_data, tmp_path: Path) -> None:
    aqua = run_benchmark(
        _config(
            bench_data,
            tmp_path / "a",
            task="aqua-clarification",
            data=str(bench_data["aqua"]),
            limit=None,
            out_dir=tmp_path / "a" / "out",
        )
    )
    assert len(aqua.records) == 5 and aqua.model_calls == 10  # level-3 items only; two turns each
    rec = aqua.records[0]
    assert [t["role"] for t in rec.turns] == ["user", "assistant", "user", "assistant"]
    assert rec.turns[2]["text"] == "I mean the one on the left." and rec.response == rec.turns[3]["text"]
    assert rec.judgement["aqua_clarification"] in ("PASS", "FAIL", "unknown")
    assert aqua.summary.results[0].metrics["n"] == 5
    clear = run_benchmark(
        _config(
            bench_data,
            tmp_path / "c",
            task="clearvqa-clarification",
            data=str(bench_data["clearvqa"]),
            limit=None,
            out_dir=tmp_path / "c" / "out",
        )
    )
    assert len(clear.records) == 6 and clear.model_calls == 12
    # the clarified question, with the short-answer instruction VQA-accuracy scoring needs (as LLaVA's eval)
    second = clear.records[0].turns[2]["text"]
    assert second == "What color is the cup on the left? Answer the question using a single word or phrase."
    table = (clear.out_dir / "table.md").read_text()
    header = "| PASS rate | Unknown | VQA accuracy | Exact match | VQA accuracy, both normalised (ours) |"
    assert header in table
    own = clear.summary.results[0].metrics["clearvqa"]
    assert (
        own["n"] == 6 and 0.0 <= own["vqa_accuracy"] <= own["exact_match"] <= 1.0 or own["exact_match"] == 0
    )


def test_focus_localisation_with_the_blob_pointer(bench_env, bench_data, tmp_path: Path) -> None:
    config = _config(
        bench_data,
        tmp_path,
        task="focus-localisation",
        models=["blobs"],
        judge=None,
        data=str(bench_data["vqfa"]),
        limit=6,
        segmenter="none",
    )
    result = run_benchmark(config)
    assert result.model_calls == 6
    m = result.summary.results[0].metrics
    assert m["n"] == 6 and 0.0 <= m["union_iou"] <= 1.0 and 0.0 <= m["max_iou"] <= 1.0
    assert all(r.parts["localisation"]["masks"] for r in result.records)  # the scenes' shapes are found
    assert "| Approach | Prompt | mAP | union IoU | max IoU |" in (result.out_dir / "table.md").read_text()
    again = run_benchmark(config)
    assert again.model_calls == 0 and again.summary == result.summary


def test_llm_judge_calls_are_cached_too(bench_env, bench_data, tmp_path: Path) -> None:
    config = _config(
        bench_data, tmp_path, judge="tiny", limit=3, variants=["direct", "cot"], judge_max_new_tokens=8
    )
    first = run_benchmark(config)
    calls = json.loads((first.out_dir / "summary.json").read_text())["run"]["calls_by_model"]
    # the judge classifies 6 responses and judges the 3 CoT ones for multiple referents
    assert calls == {"tiny": 6, "judge:tiny": 9}
    assert first.summary.judge == "llm:tiny"
    second = run_benchmark(config)
    assert second.model_calls == 0 and second.records == first.records


def test_llm_judgements_are_auditable_and_the_suggested_command_runs(
    bench_env, bench_data, tmp_path: Path
) -> None:
    """Each record keeps the judge model's whole text, the prompt it read and the judge's name; the table's
    "measure it" command runs as printed (it said `--judge llm:tiny` before, which the CLI refuses)."""
    import re

    from typer.testing import CliRunner

    from assistant.evaluation.judges import LABELLED_SETS
    from ui.cli import app

    config = _config(bench_data, tmp_path, judge="tiny", limit=2, variants=["cot"], judge_max_new_tokens=8)
    result = run_benchmark(config)
    lines = [json.loads(x) for x in (result.out_dir / "responses.jsonl").read_text().splitlines()]
    judged = [line["judgement"] for line in lines if not line["error"]]
    assert judged
    for j in judged:
        for judging, prompt in (
            ("racquet_class", "racquet_judge_rubric"),
            ("racquet_cot", "racquet_judge_cot"),
        ):
            assert j[f"{judging}_judge"] == "llm:tiny" and j[f"{judging}_prompt"] == prompt
            assert isinstance(j[f"{judging}_text"], str)
            assert j[judging] in ("A", "B", "C", "unknown", "yes", "no")
    table = (result.out_dir / "table.md").read_text()
    command = re.search(r"`(whichone judge-agreement [^`]+)`", table)
    assert command, table
    labelled = tmp_path / "labelled.jsonl"
    labelled.write_text("".join(LABELLED_SETS[0][1][0].read_text().splitlines(keepends=True)[:2]))
    args = command.group(1).replace("FILE", str(labelled)).split()[1:]
    assert args[:3] == ["judge-agreement", "--judge", "tiny"]
    run = CliRunner().invoke(app, args)
    assert run.exit_code == 0, run.output
    assert "judge llm:tiny on" in run.output and "kappa=" in run.output


def test_whichone_pipeline_as_the_model_on_aqua(bench_env, bench_data, tmp_path: Path) -> None:
    config = _config(
        bench_data,
        tmp_path,
        task="whichone-strategy",
        judge="none",  # the task's default is the rule judge: "none" asks for the self-reported strategy
        data=str(bench_data["aqua"]),
        limit=8,
        pointer="blobs",
    )
    result = run_benchmark(config)
    assert len(result.records) == 8 and not [r for r in result.records if r.error]
    for r in result.records:
        assert r.parts["pipeline"]["strategy"] in ("answer", "infer", "enumerate", "clarify")
        # no judge: the pipeline's own strategy is all there is, and each record says so
        assert r.judgement["pipeline_strategy"] == r.parts["pipeline"]["strategy"]
        assert r.judgement["aqua_strategy"] == r.parts["pipeline"]["strategy"]
        assert r.judgement["strategy_source"] == "self-reported"
        assert r.parts["pipeline"]["level"] == ["answer", "infer", "enumerate", "clarify"].index(
            r.parts["pipeline"]["strategy"]
        )
    m = result.summary.results[0].metrics
    assert m["n"] == 8 and m["n_unknown"] == 0 and sum(map(sum, m["confusion"])) == 8
    assert m["strategy_source"] == "self-reported"
    table = (result.out_dir / "table.md").read_text()
    assert "SELF-REPORTED strategy (no judge), not comparable with AQuA rows" in table
    assert "Overall (self-reported)" not in table and "run with --judge rules or an LLM judge" in table
    calls = json.loads((result.out_dir / "summary.json").read_text())["run"]["calls_by_model"]
    assert calls["tiny"] >= 8 and calls["pointer:blobs"] == 8  # one recognition call and one pointing each
    again = run_benchmark(config)
    assert again.model_calls == 0 and again.records == result.records


def test_whichone_strategy_with_a_judge_is_judged_from_the_response_text(
    bench_env, bench_data, tmp_path: Path
) -> None:
    config = _config(
        bench_data,
        tmp_path,
        task="whichone-strategy",
        judge="rules",
        data=str(bench_data["aqua"]),
        limit=8,
        pointer="blobs",
    )
    result = run_benchmark(config)
    rules = rule_judge()  # what --judge rules names: the rules and their gate
    levels = {"answer": 0, "infer": 1, "enumerate": 2, "clarify": 3}
    assert len(result.records) == 8 and not [r for r in result.records if r.error]
    for r in result.records:
        judged = r.judgement
        # the strategy is read from the reply text, as aqua-strategy's responses are ...
        text = {"question": r.question, "response": r.response}
        assert judged["aqua_strategy"] == rules.judge(papers.question("aqua_strategy"), text).label
        # ... and the pipeline's own is kept beside it
        assert judged["pipeline_strategy"] == r.parts["pipeline"]["strategy"]
        assert judged["strategy_source"] == "judged"
    m = result.summary.results[0].metrics
    right = sum(levels.get(r.judgement["aqua_strategy"]) == r.gold["level"] for r in result.records)
    stated = sum(levels[r.judgement["pipeline_strategy"]] == r.gold["level"] for r in result.records)
    assert m["overall"] == pytest.approx(right / 8)
    assert m["self_reported"]["overall"] == pytest.approx(stated / 8)
    assert m["strategy_source"] == "judged"
    table = (result.out_dir / "table.md").read_text()
    assert "the strategy judged from the response text, as for every AQuA row" in table
    assert "| Overall | Overall (self-reported) | Unk |" in table
    assert any("factual consistency not judged" in n for n in result.notes)  # rules have no eyes


def _record(model: str, level: int, judged: str | None, stated: str, **judgement: str) -> ResponseRecord:
    verdicts = {"pipeline_strategy": stated, **judgement}
    if judged is not None:
        verdicts["aqua_strategy"] = judged
    return ResponseRecord(
        model,
        "whichone",
        f"{level}",
        "aqua",
        "test",
        gold={"level": level},
        response="...",
        judgement=verdicts,
    )


def test_judged_and_self_reported_strategy_side_by_side_hand_computed() -> None:
    task = get_task("whichone-strategy")
    records = [
        _record("m", 0, "answer", "answer", strategy_source="judged"),
        _record("m", 1, "answer", "infer", strategy_source="judged"),
        _record("m", 2, "enumerate", "enumerate", strategy_source="judged"),
        # a failed judge call: unknown, with its error, and counted
        _record("m", 3, "unknown", "clarify", strategy_source="judged", aqua_strategy_error="timeout"),
    ]
    summary = scoring.summarise(task, records, ["m"], task.variants)
    group = summary.results[0]
    m = group.metrics
    # judged: levels 0 and 2 right of 4; self-reported: all 4 right
    assert m["overall"] == 0.5 and m["self_reported"]["overall"] == 1.0
    assert m["n_unknown"] == 1 and m["unknown_rate"] == 0.25 and m["per_level"][3] == 0.0
    assert group.judge_errors == 1 and summary.judge_errors == {"aqua_strategy": 1}
    table = markdown_table(task, replace(summary, judge="rules"))
    assert (
        # factual consistency: nothing rated (the rule judge cannot see images), so "-" beside unknown 100.0
        "| m | whichone pipeline | 100.0 | 0.0 | 100.0 | 0.0 | 50.0 | 100.0 | 25.0 | - | 100.0 | 4 | 0 |"
        in table
    ), table
    assert "Judge failures: 1 judgement(s) could not be made (aqua_strategy: 1)" in table


def _summary(row: ResultRow) -> RunSummary:
    return RunSummary([row], {})


def test_every_judged_metric_shows_its_unknowns_in_the_table() -> None:
    racquet = {
        "n": 4,
        "A": 0.25,
        "B": 0.25,
        "C": 0.25,
        "unknown": 0.25,
        "cot_mentions": {"n": 4, "rate": 0.5, "unknown": 0.25, "n_unknown": 1},
    }
    summary = _summary(ResultRow("m", "x", "CoT", 4, 0, 0, racquet))
    table = markdown_table(get_task("racquet-general"), summary)
    assert "| Mentions multiple referents (CoT) | CoT unknown | n | Errors |" in table
    assert "| m | CoT | 25.0 | 25.0 | 25.0 | 25.0 | 50.0 | 25.0 | 4 | 0 |" in table
    aqua = {
        "n": 4,
        "overall": 0.75,
        "per_level": {"0": 1.0, "1": 1.0, "2": 1.0, "3": 0.0},
        "unknown_rate": 0.25,
        "factual": {"n": 4, "rate": 0.5, "unknown": 0.5, "n_unknown": 2},
    }
    summary = _summary(ResultRow("m", "x", "Base", 4, 1, 0, aqua))
    table = markdown_table(get_task("aqua-strategy"), summary)
    assert "| Factual consistency | Factual unknown | n | Errors |" in table
    assert "| m | Base | 100.0 | 100.0 | 100.0 | 0.0 | 75.0 | 25.0 | 50.0 | 50.0 | 4 | 1 |" in table
    passed = {"n": 8, "rate": 0.375, "unknown": 0.125, "n_unknown": 1}
    summary = _summary(ResultRow("m", "x", "Base", 4, 0, 0, passed))
    table = markdown_table(get_task("aqua-clarification"), summary)
    assert "| Model | Prompt | PASS rate | Unknown | n | Errors |" in table
    assert "| m | Base | 37.5 | 12.5 | 8 | 0 |" in table


# ------------------------------------------------------------------------------------------ a failing judge


class _JudgeServer(JSONHandler):
    """An LLM judge behind the OpenAI-compatible API: "CLASS B" for the RAcQUEt rubric, except HTTP 500 for
    the questions about a sign, and no answer in time (a timeout) for the CoT-mention prompt. With
    `broken` set, every request gets HTTP 500. `posts` counts the requests."""

    posts = 0
    broken = False
    lock = threading.Lock()  # requests of a batch arrive on concurrent handler threads

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.lock:  # a bare += lost a count once in CI (15 of 16 requests counted)
            type(self).posts += 1
        text = body["messages"][-1]["content"]
        text = text if isinstance(text, str) else " ".join(p.get("text", "") for p in text)
        if type(self).broken or ("Annotate this" in text and "What does the sign say?" in text):
            self._send(500, {"error": {"message": "the judge broke", "type": "server_error"}})
            return
        if "YOUR ANNOTATION:" in text:
            time.sleep(1.5)  # past the client's 0.5 s timeout
        reply = "The response names one referent by its place. CLASS B"
        choice = {"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}
        completion = {"id": "j", "object": "chat.completion", "created": 0, "model": "judge-model"}
        self._send(200, {**completion, "choices": [choice]})


def _judge_server_env(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("WHICHONE_OPENAI_BASE_URL", url)
    monkeypatch.setenv("WHICHONE_OPENAI_MODEL", "judge-model")
    monkeypatch.setenv("WHICHONE_OPENAI_TIMEOUT", "0.5")
    monkeypatch.setenv("WHICHONE_OPENAI_MAX_RETRIES", "0")


def test_failing_llm_judge_calls_mark_their_items_unknown_and_the_run_writes_its_report(
    bench_env, bench_data, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    handler = type("Handler", (_JudgeServer,), {"posts": 0, "broken": False})
    with serve(handler) as url:
        _judge_server_env(monkeypatch, url)
        # 8 examples (seed 0): ids 1, 4, 6, 8, 12, 13, 15, 19; 4 and 12 ask about a sign, 19's image is
        # missing (404). Each prompt: 7 answered; the rubric fails for the 2 sign questions; every CoT
        # mention judgement times out.
        result = run_benchmark(
            _config(bench_data, tmp_path, judge="openai", limit=8, variants=["direct", "cot"])
        )
    answered = [r for r in result.records if not r.error]
    assert len(result.records) == 16 and len(answered) == 14
    for r in answered:
        judged = r.judgement
        if r.question == "What does the sign say?":
            assert judged["racquet_class"] == "unknown" and "HTTP 500" in judged["racquet_class_error"]
        else:
            assert judged["racquet_class"] == "B" and "racquet_class_error" not in judged
        if r.variant == "cot":
            assert judged["racquet_cot"] == "unknown"
            assert "did not answer within 0.5 s" in judged["racquet_cot_error"]
    direct, cot = result.summary.results
    assert (direct.n, direct.errors, direct.judge_errors) == (8, 1, 2)
    assert (cot.n, cot.errors, cot.judge_errors) == (8, 1, 7)
    for group in (direct, cot):
        m = group.metrics
        assert m["n"] == 7 and m["counts"] == {"A": 0, "B": 5, "C": 0, "unknown": 2}
    assert cot.metrics["cot_mentions"]["n_unknown"] == 7 and cot.metrics["cot_mentions"]["rate"] == 0
    assert result.summary.judge_errors == {"racquet_class": 4, "racquet_cot": 7}
    # the report is written, and says what failed
    summary = json.loads((result.out_dir / "summary.json").read_text())
    assert summary["judge_errors"] == {"racquet_class": 4, "racquet_cot": 7}
    assert any("11 judgement(s) failed and count as unknown" in n for n in summary["run"]["notes"])
    assert sum(1 for _ in (result.out_dir / "responses.jsonl").open()) == 16
    table = (result.out_dir / "table.md").read_text()
    # shares of the 7 answered: B 5/7, unknown 2/7; CoT mentions: none rated ("-"), unknown 7 of 7
    assert "| tiny | Direct | 0.0 | 71.4 | 0.0 | 28.6 | - | - | 7 | 1 |" in table
    assert "| tiny | CoT | 0.0 | 71.4 | 0.0 | 28.6 | - | 100.0 | 7 | 1 |" in table
    assert "Judge failures: 11 judgement(s) could not be made (racquet_class: 4, racquet_cot: 7)" in table


def test_a_judge_that_keeps_failing_is_not_asked_again(
    bench_env, bench_data, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    handler = type("Handler", (_JudgeServer,), {"posts": 0, "broken": True})
    with serve(handler) as url:
        _judge_server_env(monkeypatch, url)
        # 12 examples, 11 answered (19's image is missing), judged in batches of 2
        result = run_benchmark(
            _config(bench_data, tmp_path, judge="openai", limit=12, variants=["direct"], batch_size=2)
        )
    errors = [r.judgement["racquet_class_error"] for r in result.records if not r.error]
    assert len(errors) == 11
    # each failed batch of 2 is asked again item by item: 4 requests and 2 failures a batch, until
    # JUDGE_FAILURE_LIMIT (8) failures in a row; the last 3 items are not sent
    assert scoring.JUDGE_FAILURE_LIMIT == 8 and handler.posts == 16
    assert all("HTTP 500" in e for e in errors[:8])
    assert all(e.startswith("not judged: the judge's last 8 calls failed") for e in errors[8:])
    m = result.summary.results[0].metrics
    assert m["n"] == 11 and m["n_unknown"] == 11 and result.summary.judge_errors == {"racquet_class": 11}
    assert (result.out_dir / "table.md").is_file()


# ------------------------------------------------------------------------------------------ a server model


def test_server_model_gets_bounded_concurrent_requests_each_cached(
    bench_env,
    bench_data,
    chat_server: ChatServer,  # noqa: F811  (the fixture imported above)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WHICHONE_OPENAI_BASE_URL", chat_server.url)
    monkeypatch.setenv("WHICHONE_OPENAI_MODEL", "served-model")
    chat_server.mode, chat_server.sleep_s = "sleep", 0.2
    config = _config(bench_data, tmp_path, models=["openai"], limit=8, variants=["direct"], concurrency=3)
    result = run_benchmark(config)
    assert result.model_calls == 7 and len(chat_server.requests) == 7  # 8 examples, one image answers 404
    assert 1 < chat_server.max_in_flight <= 3  # concurrent, and bounded by --concurrency
    ok = [r for r in result.records if not r.error]
    assert all(r.response == "reply to: " + r.question for r in ok)
    again = run_benchmark(config)
    assert again.model_calls == 0 and len(chat_server.requests) == 7 and again.records == result.records
    # a failing server: every item records the error, the run still finishes, and nothing is cached
    chat_server.mode = "status"
    failed = run_benchmark(_config(bench_data, tmp_path, models=["openai"], limit=4, variants=["cot"]))
    assert failed.model_calls == 0 and all(r.error for r in failed.records)
    assert all(r.error.startswith(("model:", "example")) for r in failed.records)
