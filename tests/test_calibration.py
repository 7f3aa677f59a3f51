"""The one-pass recognition's calibration benchmark: metrics against hand-computed values, and
`whichone bench focus-recognition-probability` end to end (then from the cache)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from assistant.evaluation.papers.focus_ambiguity.calibration import (
    THRESHOLDS,
    calibration_metrics,
    expected_calibration_error,
)
from tests.test_cli_bench import _bench, _calls


def test_metrics_against_hand_computed_values() -> None:
    gold = [True, True, False, False]
    p = [0.9, 0.6, 0.4, 0.1]
    m = calibration_metrics(gold, p)
    assert m["auc"] == pytest.approx(1.0)  # every ambiguous question above every unambiguous one
    assert m["brier"] == pytest.approx((0.1**2 + 0.4**2 + 0.4**2 + 0.1**2) / 4)  # 0.085
    # one example a bin: 0.25 x (|0.9-1| + |0.6-1| + |0.4-0| + |0.1-0|)
    assert m["ece"] == pytest.approx(0.25 * (0.1 + 0.4 + 0.4 + 0.1))
    assert m["thresholds"]["0.5"]["accuracy"] == pytest.approx(1.0)
    assert m["thresholds"]["0.7"]["accuracy"] == pytest.approx(0.75)  # 0.6 falls below: one miss
    assert m["thresholds"]["0.4"]["positive_rate"] == pytest.approx(0.75)
    assert m["best_threshold"] == 0.5  # 0.5 and 0.6 both score F1 1; the lower one is kept
    assert list(m["thresholds"]) == [f"{t:.1f}" for t in THRESHOLDS]


def test_no_probability_is_undecided_at_every_threshold() -> None:
    m = calibration_metrics([True, False, True], [0.8, None, None])
    assert m["n_scored"] == 1 and math.isnan(m["auc"])  # one gold class among the scored
    for t in m["thresholds"].values():
        assert t["undecided_rate"] == pytest.approx(2 / 3)


def test_a_perfectly_calibrated_bin_has_no_error() -> None:
    gold = [True, False] * 50
    assert expected_calibration_error(gold, [0.5] * 100) == pytest.approx(0.0)
    assert expected_calibration_error(gold, [1.0] * 100) == pytest.approx(0.5)


def test_bench_focus_recognition_probability_then_cached(bench_env, bench_data, tmp_path: Path) -> None:
    args = [
        "run", "focus-recognition-probability", "--model", "smolvlm-tiny", "--limit", "10",
        "--data", str(bench_data["vqfa"]), "--out", str(tmp_path / "out"),
        "--cache", str(tmp_path / "cache.sqlite"), "--no-progress",
    ]  # fmt: skip
    code, out, err = _bench(*args)
    assert code == 0, err
    assert "| Model | Threshold | Acc. | F1 | Pos. | UR | n | Errors |" in out
    assert len(re.findall(r"\| smolvlm-tiny \| P >= 0\.\d", out)) == len(THRESHOLDS)
    assert "ROC AUC" in out and "Brier score" in out and "expected calibration error" in out
    assert _calls(out) == (10, 0)
    records = [json.loads(line) for line in (tmp_path / "out" / "responses.jsonl").read_text().splitlines()]
    assert all(0.0 <= r["judgement"]["p_ambiguous"] <= 1.0 for r in records)
    code, again, err = _bench(*args)
    assert code == 0, err
    assert _calls(again) == (0, 10)
    assert again.split("examples:")[0] == out.split("examples:")[0]
