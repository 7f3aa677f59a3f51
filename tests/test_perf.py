"""`whichone perf`: its report on fixed figures, and its one-line errors (the timings themselves are
measured by running the command, not asserted in tests)."""

from __future__ import annotations

import json
import os
import platform

import pytest

from models.memory import release_free_memory, resident
from tests.test_cli import run
from ui.cli.perf import format_report
from ui.cli.perf_check import (
    Targets,
    check_stack,
    failed,
    outcomes,
    previous_run,
    saved_path,
    verdict_lines,
)
from ui.cli.perf_memory import StageMemory, format_stages


def parts(typing: float, embedding: float, recognition: float, masks: float) -> dict[str, float]:
    names = ("typing_s", "embedding_s", "recognition_s", "pointer_and_masks_s")
    return dict(zip(names, (typing, embedding, recognition, masks), strict=True))


def figures(ratio: float) -> dict:
    return {
        "image": "640x480",
        "segmenter_name": "sam-vit-b",
        "k": 5,
        "a": {
            "embedding_s": 13.0,
            "first_query_s": 13.06,
            "further_click_s": 13.06 / ratio,
            "ratio": ratio,
            "required_ratio": 100.0,
        },
        "b": {
            "parts_alone": parts(3.0, 13.0, 0.5, 0.4),
            "sequential_s": 16.9,
            "parts_in_turn": parts(3.0, 14.0, 0.6, 0.4),
            "sum_of_parts_s": 18.0,
            "wall_s": 14.5,
            "saved_s": 3.5,
            "regions": 5,
            "vlm": "tiny",
        },
        "c": {
            "batched_s": 0.30,
            "singles_s": 0.31,
            "batched_over_singles": 0.30 / 0.31,
            "prompts_per_batch": 2,
        },
        "d": {
            "light": "sam2-hiera-tiny",
            "light_embedding_s": 3.2,
            "light_second_embedding_s": 3.1,
            "main_embedding_s": 13.0,
            "speedup": 13.0 / 3.2,
            "light_click_s": 0.08,
            "main_click_s": 0.06,
        },
        "memory": {"peak_rss_mib": 2048.0, "python_peak_mib": 12.5},
    }


def test_report_states_each_figure_and_whether_a_is_met() -> None:
    text = format_report(figures(217.7))
    assert "further click 60 ms  ->  218x cheaper (required >= 100x: met)" in text
    assert "sum of its parts 18.00 s; wall time 14.50 s; overlap saved 3.50 s (5 regions" in text
    assert "= 16.90 s" in text  # the parts one after another
    assert "(c) 5 points: batched 300 ms vs one by one 310 ms  ->  ratio 0.97" in text
    assert "prompts per decoder call: 2)" in text
    assert "(d) lighter segmenter sam2-hiera-tiny: embedding 3.20 s vs 13.00 s (4.1x faster" in text
    assert text.endswith("peak memory: 2048 MiB resident; Python allocations 12.5 MiB")
    assert "NOT met" in format_report(figures(80.0))


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--k", "0"], "--k must be between 1 and 64"), (["--size", "big"], "--size takes WIDTHxHEIGHT")],
)
def test_bad_options_exit_2_with_one_line(args: list[str], message: str) -> None:
    proc = run("perf", *args, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


# ---------------------------------------------------------------- `whichone perf --stack`: targets and runs


def stack_figures(first: float, second: float, word: float, peak: float, cpu: float = 1.0) -> dict:
    stage = {"wall_s": 1.0, "cpu_s": cpu, "peak_gib": peak, "calls": 1, "after_gib": peak}
    return {
        "stack": "cpu",
        "first_turn_s": first,
        "second_turn_s": second,
        "first_word_s": word,
        "peak_rss_gib": peak,
        "stages": {"recognition (VLM)": {**stage, "allocator_free_gib": 0.0}},
    }


def test_each_target_is_met_or_missed_and_only_the_checked_ones_fail_the_run() -> None:
    figures = stack_figures(1.9, 1.3, 1.0, 2.6)
    every = outcomes(figures, Targets(), "all")
    assert [(r.label, r.met) for r in every] == [
        ("first turn", True),
        ("second turn", False),
        ("first word", True),
        ("peak memory", False),
    ]
    assert [r.label for r in failed(every)] == ["second turn", "peak memory"]
    assert [r.label for r in failed(outcomes(figures, Targets(), "memory"))] == ["peak memory"]
    assert failed(outcomes(figures, Targets(max_peak_gib=3.0), "memory")) == []
    assert failed(outcomes(figures, Targets(), "none")) == []
    lines = verdict_lines(outcomes(figures, Targets(), "memory"))
    assert any("second turn" in line and "MISSED (not checked)" in line for line in lines)
    assert any("peak memory" in line and "2.60 GiB" in line and "MISSED" in line for line in lines)


def test_a_figure_that_was_not_measured_misses_its_target() -> None:
    figures = {**stack_figures(1.0, 1.0, 1.0, 1.0), "second_turn_s": None}
    assert [r.label for r in failed(outcomes(figures, Targets(), "all"))] == ["second turn"]


def test_a_run_is_saved_and_the_next_one_prints_itself_beside_it(tmp_path) -> None:
    first_lines, missed = check_stack(stack_figures(1.5, 1.0, 0.9, 2.0, cpu=1.0), Targets(), "all", tmp_path)
    assert missed == [] and "compared with the previous run: none saved yet" in first_lines
    saved = json.loads(saved_path("cpu", tmp_path).read_text())
    assert saved["figures"]["peak_rss_gib"] == 2.0 and saved["targets"]["max_peak_gib"] == 2.5
    lines, missed = check_stack(stack_figures(1.5, 1.0, 0.9, 2.7, cpu=2.0), Targets(), "memory", tmp_path)
    assert missed == ["peak memory"]
    text = "\n".join(lines)
    assert "peak memory     2.00 ->    2.70 GiB (+0.70)" in text
    assert "stage recognition (VLM): peak +0.70 GiB, CPU +1.00 s" in text


def test_an_unreadable_saved_run_is_no_previous_run(tmp_path) -> None:
    path = saved_path("cpu", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert previous_run(path) is None
    lines, _ = check_stack(stack_figures(1.0, 1.0, 1.0, 1.0), Targets(), "all", tmp_path)
    assert "none saved yet" in "\n".join(lines) and previous_run(path) is not None


def test_an_unknown_check_exits_2_with_one_line() -> None:
    proc = run("perf", "--stack", "cpu-tiny", "--check", "some", timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--check takes one of all, memory, none" in lines[0]


def test_the_stage_recorder_keeps_each_open_stages_peak_and_the_cpu_time() -> None:
    memory = StageMemory()
    with memory.stage("outer"):
        memory._note(5 * 2**30)
        with memory.stage("inner"):
            memory._note(7 * 2**30)
            start = os.times()
            while os.times().user - start.user < 0.05:  # CPU time, counted in 10 ms ticks: burn 5 of them
                sum(i * i for i in range(10_000))
        memory._note(6 * 2**30)
    stages = memory.as_dict()
    assert stages["outer"]["peak_gib"] == 7 and stages["inner"]["peak_gib"] == 7
    assert stages["outer"]["calls"] == 1 and stages["inner"]["cpu_s"] > 0
    assert memory.peak == 7 * 2**30
    assert format_stages(stages)[1].split()[:2] == ["outer", "1"]


def test_freed_memory_goes_back_and_resident_memory_is_read() -> None:
    # 250 MiB of heap blocks below glibc's mmap threshold, every other one freed: holes that the heap
    # cannot give back from its top, as a model call's freed activations are
    blocks = [bytearray(b"x" * 65536) for _ in range(4000)]
    kept = blocks[1::2]
    del blocks
    before = resident()
    release_free_memory()
    after = resident()
    assert 0 < after.rss <= after.peak and after.allocator_free >= 0
    if platform.libc_ver()[0] == "glibc":
        assert before.rss - after.rss > 100 * 2**20  # of the 125 MiB freed
    assert len(kept) == 2000
