"""`whichone selfcheck`: the whole two-turn flow on every example photo, and a report a person can send.

Run as a user runs it (the console command in a subprocess) on the demo stack; its failure paths (a stack
that cannot load, a download the user declines) against an empty Hugging Face cache and a local server
speaking the Hub's API; the judging of expected outcomes on constructed replies.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from assistant.types import Candidates, Level, Region, Reply, Strategy, Verdict
from models.types import Box
from tests.hub_server import Hub, serve_hub
from ui.cli.selfcheck_examples import ExampleRun, Turn, found_count, judge
from ui.example_photos import example_photos

REPO = Path(__file__).resolve().parents[1]


def run_cli(
    *args: str, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "selfcheck", *args],
        cwd=REPO, env={**os.environ, **(env or {})}, input=stdin, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


@pytest.mark.slow
def test_the_demo_stack_runs_every_example_and_writes_a_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    done = run_cli("--stack", "demo", "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    photos = example_photos()
    lines = [line for line in done.stdout.splitlines() if re.match(r"\d+\. ", line)]
    assert [line.split(":")[0] for line in lines] == [f"{i}. {p.name}" for i, p in enumerate(photos, 1)]
    assert "vlm: tiny from built here" in done.stdout and "(answers are noise: not judged)" in done.stdout
    report = (out / "report.md").read_text()
    assert report.startswith("# whichone selfcheck: the demo stack")
    assert "**The answers are noise**" in report and "| torch |" in report and "| cuda |" in report
    for number, photo in enumerate(photos, 1):
        assert f'## {number}. {photo.name}: "{photo.question}"' in report
        overlay = out / f"{number}-{photo.path.stem}-overlay.png"
        assert Image.open(overlay).size[0] > 0 and f"]({overlay.name})" in report
    assert "| strategy answer | not judged |" in report  # noise is never judged
    assert "| the choice by number answers about region 1 | met |" in report  # the flow itself is
    assert "| hint: the one on the left |" in report
    # Only the bundled photos' overlays and the report: nothing of the user's own.
    assert sorted(p.suffix for p in out.iterdir()) == [".md"] + [".png"] * len(photos)


@pytest.mark.parametrize("offline", ["1", "0"])
def test_a_stack_that_cannot_load_is_one_line_exit_2_and_a_report_of_what_is_missing(
    tmp_path: Path, offline: str
) -> None:
    env = {"HF_HOME": str(tmp_path / "empty-hf"), "HF_HUB_OFFLINE": offline, "TRANSFORMERS_OFFLINE": offline}
    if offline == "0":  # the hub out of reach: a closed port
        env["HF_ENDPOINT"] = "http://127.0.0.1:9"
    done = run_cli("--stack", "cpu", "--out", str(tmp_path / "r"), env=env)
    assert done.returncode == 2
    errors = done.stderr.strip().splitlines()
    why = (
        "is not asked (HF_HUB_OFFLINE is set)" if offline == "1" else "(http://127.0.0.1:9) cannot be reached"
    )
    assert len(errors) == 1 and errors[0].startswith(
        f"error: the cpu stack could not load: the model hub {why}"
    )
    assert (
        "3 of its models are not here: smolvlm-256m (HuggingFaceTB/SmolVLM-256M-Instruct, about 0.51 GB)"
        in (errors[0])
    )
    assert errors[0].endswith(str(tmp_path / "r" / "report.md")) and "Traceback" not in done.stderr
    report = (tmp_path / "r" / "report.md").read_text()
    assert report.startswith("# whichone selfcheck: the cpu stack could not load")
    for name, repo, size in (
        ("smolvlm-256m", "HuggingFaceTB/SmolVLM-256M-Instruct", "0.51"),
        ("owlvit-b32", "google/owlvit-base-patch32", "0.61"),
        ("sam2-hiera-tiny", "facebook/sam2.1-hiera-tiny", "0.16"),
    ):
        assert f"| {name} | {repo} | about {size} GB | `whichone download {name}` |" in report
    assert "All of the stack's at once: `whichone download --stack cpu`." in report
    assert "`whichone serve --stack cpu-tiny`" in report and "HF_ENDPOINT" in report
    assert "--data sample" in report and "NAME`" not in report.replace("--model NAME", "")


def test_it_asks_before_downloading_and_a_no_downloads_nothing(tmp_path: Path) -> None:
    hub = Hub(
        repos={
            "HuggingFaceTB/SmolVLM-256M-Instruct": {"config.json": b"{}", "model.safetensors": b"w" * 5000},
            "google/owlvit-base-patch32": {"config.json": b"{}"},
            "facebook/sam2.1-hiera-tiny": {"config.json": b"{}"},
        }
    )
    env = {
        "HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "0", "TRANSFORMERS_OFFLINE": "0",
        "HF_HUB_DISABLE_XET": "1", "HF_HUB_DISABLE_TELEMETRY": "1",
    }  # fmt: skip
    with serve_hub(hub) as url:
        done = run_cli(
            "--stack", "cpu", "--out", str(tmp_path / "r"), env={**env, "HF_ENDPOINT": url}, stdin="n\n"
        )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "3 of the stack's repositories are not all here" in done.stdout
    assert "HuggingFaceTB/SmolVLM-256M-Instruct: 5.00 kB" in done.stdout
    assert "Download them now" in done.stdout
    assert done.stderr.strip().splitlines()[-1].startswith("error: nothing downloaded")
    assert not [path for path, _ in hub.gets if "/resolve/" in path]  # not one file fetched


# ---------------------------------------------------------------- judging, on constructed replies


def reply(strategy: Strategy, regions: int, text: str, found: int | None = None, chosen=None) -> Reply:
    marked = [
        Region(id=i + 1, box=Box(10.0 * i, 0, 10.0 * i + 8, 8), description=f"coin {i + 1}")
        for i in range(regions)
    ]
    return Reply(
        text=text,
        strategy=strategy,
        level=Level(list(Strategy).index(strategy)),
        candidates=Candidates(marked, (640, 480), found=found),
        explanation="",
        verdict=Verdict.AMBIGUOUS,
        resolved_region=chosen,
    )


def test_expected_outcomes_are_met_or_not_with_what_was_seen() -> None:
    photos = {p.file: p for p in example_photos()}
    cat = ExampleRun(
        photos["cat.jpg"], [Turn("first turn", reply(Strategy.ANSWER, 1, "Its eyes are yellow."), None, 1)]
    )
    assert [(c.what, c.met) for c in judge(cat, noise=False)] == [
        ("at most 12 candidates marked", True),
        ("strategy answer", True),
        ("1 candidates found (1 marked)", True),
        ("the answer says yellow or green or amber", True),
    ]
    wrong = ExampleRun(photos["cat.jpg"], [Turn("first turn", reply(Strategy.CLARIFY, 2, "Blue."), None, 1)])
    assert [c.met for c in judge(wrong, noise=False)] == [True, False, False, False]
    assert [c.met for c in judge(wrong, noise=True)] == [True, None, None, None]
    capped = reply(Strategy.CLARIFY, 12, "Which coin?", found=24)
    assert found_count(capped) == 24
    coins = ExampleRun(
        photos["coins.jpg"],
        [
            Turn("first turn", capped, None, 1),
            Turn("choice 1", reply(Strategy.ANSWER, 12, "Zeus.", chosen=1), None, 1),
            Turn("hint: the one on the left", reply(Strategy.ANSWER, 12, "Hera.", chosen=3), None, 1),
        ],
    )
    checks = {c.what: c for c in judge(coins, noise=False)}
    assert checks["24 candidates found (12 marked)"].met is True
    assert checks["the choice by number answers about region 1"].met is True
    failed = ExampleRun(photos["rocket.jpg"], [Turn("first turn", None, "ModelError: out of memory", 1)])
    assert not failed.ran and [(c.met, c.seen) for c in judge(failed, noise=False)] == [
        (False, "ModelError: out of memory")
    ]
