"""The `whichone` console script, run as a user runs it (a subprocess), on a real photo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.corpus import corpus

WHICHONE = [sys.executable, "-m", "ui.cli"]


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 180) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})}
    return subprocess.run(
        [*WHICHONE, *args], capture_output=True, text=True, timeout=timeout, env=full_env, check=False
    )


@pytest.fixture(scope="module")
def coffee(tmp_path_factory) -> Path:
    """scikit-image's coffee photo (a real photo of a cup, shipped inside the package)."""
    from skimage import data

    path = tmp_path_factory.mktemp("photos") / "coffee.png"
    Image.fromarray(data.coffee()).save(path)
    return path


@pytest.fixture(scope="module")
def cli_env(tiny_model_dir: Path) -> dict[str, str]:
    # The tiny checkpoint is built once per test session; point the CLI's cache at it.
    cache = tiny_model_dir.parent.parent
    link = cache / "tiny" / "qwen2_5_vl"
    if not link.exists():
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(tiny_model_dir)
    return {"WHICHONE_CACHE_DIR": str(cache), "WHICHONE_STACK": "demo"}


def test_ask_json_on_a_real_photo(coffee: Path, cli_env) -> None:
    proc = run("ask", str(coffee), "What colour is the cup?", "--model", "tiny", "--json", env=cli_env)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["strategy"] in ("answer", "infer", "enumerate", "clarify")
    assert out["level"] in (0, 1, 2, 3)
    assert out["verdict"] in ("ambiguous", "unambiguous", "undecided")
    assert out["focus"]["head"] == "cup"
    assert isinstance(out["reply"], str) and out["reply"]
    assert out["model"]["backend"] == "transformers" and out["model"]["device"] == "cpu"
    assert out["model_calls"]["vlm"] >= 2 and out["model_calls"]["pointer"] == 1
    assert isinstance(out["candidates"], list) and out["explanation"]


def test_ask_then_choose_in_one_run(tmp_path: Path, cli_env) -> None:
    from tests.test_pipeline import scene

    path = tmp_path / "cups.png"
    scene(5).save(path)
    proc = run(
        "ask", str(path), "What colour is the cup?", "--model", "tiny", "--pointer", "blobs",
        "--choose", "2", "--json", env=cli_env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["strategy"] == "clarify" and len(out["candidates"]) == 5
    assert out["second_turn"]["resolved_region"] == 2
    assert out["second_turn"]["reply"].startswith("About the blue")
    text = run(
        "ask", str(path), "What colour is the cup?", "--model", "tiny", "--pointer", "blobs", env=cli_env
    )
    assert "strategy: clarify (level 3)" in text.stdout and "  1: the red" in text.stdout


def test_focus_json() -> None:
    proc = run("focus", "What is the emotional person on the left wearing?", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"focus", "head", "number", "pronoun", "descriptors", "non_visual_descriptors"}
    assert out["head"] == "person" and out["number"] == "singular" and out["pronoun"] is False
    assert "emotional" in out["non_visual_descriptors"] and "on the left" in out["descriptors"]


def test_models_lists_the_registry() -> None:
    proc = run("models")
    assert proc.returncode == 0
    for name in ("tiny", "qwen2.5-vl-3b", "smolvlm-256m", "openai", "vlm-boxes", "blobs", "sam-vit-b"):
        assert name in proc.stdout


BAD = [c for c in corpus() if c[2] == "error"]


@pytest.mark.parametrize(("name", "data", "expect"), BAD, ids=[c[0] for c in BAD])
def test_bad_images_exit_2_with_one_line(tmp_path: Path, name: str, data: bytes, expect: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    # The image is checked before any model loads, so these fail fast.
    proc = run("ask", str(path), "What is it?", "--model", "tiny", "--pointer", "blobs", timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["focus", "   "], "Please type a question"),
        (["focus", "x" * 10_000], "10,000 characters"),
        (["ask", "missing.jpg", "What is it?"], "no image file"),
        (["ask", "IMG", "What is it?", "--model", "nope"], "there is no vlm named 'nope'"),
        (["ask", "IMG", "What is it?", "--model", "qwen2.5-vl-3b"], "Qwen/Qwen2.5-VL-3B-Instruct"),
        (["ask", "IMG", "What is it?", "--click", "a,b"], "--click takes X,Y"),
        (["ask", "IMG", "What is it?", "--recognition-prompt", "bogus"], "unknown recognition prompt"),
    ],
)
def test_user_errors_exit_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    from tests.test_pipeline import scene

    img = tmp_path / "img.png"
    scene(2).save(img)
    proc = run(*[str(img) if a == "IMG" else a for a in args], timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr


def test_server_down_exits_2(tmp_path: Path) -> None:
    from tests.test_pipeline import scene

    img = tmp_path / "img.png"
    scene(2).save(img)
    env = {"WHICHONE_OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "WHICHONE_OPENAI_MODEL": "m"}
    proc = run(
        "ask",
        str(img),
        "What is it?",
        "--model",
        "openai",
        "--pointer",
        "blobs",
        "--segmenter",
        "none",
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "not reachable" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_judge_agreement_on_the_papers_examples() -> None:
    proc = run("judge-agreement", "--judge", "rules", "--task", "racquet_class")
    assert proc.returncode == 0, proc.stderr
    assert "n=18" in proc.stdout and "kappa=" in proc.stdout
    assert "gold \\ judged" in proc.stdout


def test_serve_console_script_starts_the_app_from_any_folder(tmp_path: Path, cli_env) -> None:
    """`whichone serve` as installed (the console script), run outside the repo, answers HTTP."""
    import socket
    import time
    import urllib.request

    script = Path(sys.executable).parent / "whichone"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        **cli_env,
        "WHICHONE_MODEL": "tiny",
        "WHICHONE_POINTER": "blobs",
        "HF_HUB_OFFLINE": "1",
    }
    proc = subprocess.Popen(
        [str(script), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        deadline, status = time.monotonic() + 120, None
        while time.monotonic() < deadline and proc.poll() is None and status != 200:
            time.sleep(1)
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    status = response.status
            except OSError:
                pass
        assert status == 200, proc.stdout.read() if proc.poll() is not None else "no answer in 120 s"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode in (0, -15)  # SIGTERM stops it cleanly


def test_the_whole_bad_input_corpus_through_the_cli(tmp_path: Path, cli_env, monkeypatch) -> None:
    """Every corpus image with a plain question, and every corpus question with a good photo, through the
    console script's own entry point (typer's runner, in this process: no interpreter start per input).
    Crashes (an exception out of the command, or an exit status other than 0 and 2) must be 0; run with
    -s to see the message each input gets."""
    from typer.testing import CliRunner

    from tests.corpus import BAD_QUESTIONS
    from ui.cli import app

    for key, value in cli_env.items():
        monkeypatch.setenv(key, value)
    base = ["--model", "tiny", "--pointer", "blobs", "--json"]
    runs: list[tuple[str, list[str], str]] = []
    for name, data, expect in corpus():
        path = tmp_path / name
        path.write_bytes(data)
        runs.append((name, ["ask", str(path), "What colour is the square?", *base], expect))
    good = tmp_path / "ok.png"
    for question, error in BAD_QUESTIONS:
        runs.append((repr(question[:30]), ["ask", str(good), question, *base], "error" if error else "ok"))
    runner = CliRunner()
    crashes, rows = 0, []
    for label, args, expect in runs:
        result = runner.invoke(app, args)
        crashed = result.exit_code not in (0, 2) or (
            result.exception is not None and not isinstance(result.exception, SystemExit)
        )
        crashes += crashed
        if result.exit_code == 0:
            shown = "answered: " + json.loads(result.stdout)["strategy"]
        else:
            shown = (result.stderr or result.stdout).strip().splitlines()[-1][:100]
        rows.append((label, result.exit_code, shown))
        assert not crashed, (label, result.exit_code, result.output)
        assert result.exit_code == (0 if expect == "ok" else 2), (label, shown)
        if result.exit_code == 2:
            assert shown.startswith("error: ") and "Traceback" not in result.output
    print(f"\nCLI corpus: {len(runs)} inputs, {crashes} crashes")
    for label, code, shown in rows:
        print(f"  {label:<34} exit {code}  {shown}")


def test_serve_stopped_while_it_starts_exits_cleanly(tmp_path: Path, cli_env) -> None:
    """SIGTERM as soon as the port accepts, while launch() still checks its own URL: a clean stop (exit 0,
    no traceback, the RAM folder gone), not a failure. Before, the handler closed the server under
    launch(), which then raised httpx.ConnectError and the process exited 1."""
    import re
    import socket
    import time

    script = Path(sys.executable).parent / "whichone"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, **cli_env, "HF_HUB_OFFLINE": "1"}
    # a folder of its own, whatever this process was given
    env.pop("GRADIO_TEMP_DIR", None)
    proc = subprocess.Popen(
        [str(script), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.01)
    proc.terminate()
    out = proc.communicate(timeout=60)[0]
    assert proc.returncode == 0 and "Traceback" not in out, out[-2000:]
    folder = re.search(r"uploads are kept in (\S+)", out)
    assert folder is not None and not Path(folder.group(1)).exists()
