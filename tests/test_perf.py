"""`whichone perf`: its report on fixed figures, and its one-line errors (the timings themselves are
measured by running the command, not asserted in tests)."""

from __future__ import annotations

import pytest

from assistant.perf import format_report
from tests.test_cli import run


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
