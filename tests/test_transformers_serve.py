"""The OpenAI adapter's end-to-end path against a server we did not write: `transformers serve`
(transformers' own OpenAI-compatible server) serving the tiny local SmolVLM checkpoint on the CPU.

A reply with an image, the same reply streamed, a batch in flight, P(Yes) from the server's answer (its
logprobs, or its short reply where it gives none), `whichone ask` through the `server` code path with the
model discovered from the server, and a benchmark run with 4 requests in flight."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from models.base import ChatMessage, GenerationSettings, answer_probabilities
from models.errors import ModelError
from models.openai_vlm import OpenAICompatibleVLM

pytestmark = [pytest.mark.slow]
REPO = Path(__file__).resolve().parents[1]
TRANSFORMERS_CLI = Path(sys.executable).parent / "transformers"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """`transformers serve <tiny SmolVLM folder>` on a free port; yields its /v1 base URL."""
    pytest.importorskip("accelerate")  # transformers serve places the model with accelerate
    if not TRANSFORMERS_CLI.exists():
        pytest.skip("the transformers CLI is not installed")
    from models.tiny import build_tiny
    from models.tiny_smolvlm import TINY_SMOLVLM

    folder = build_tiny(TINY_SMOLVLM)
    port = _free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    command = [str(TRANSFORMERS_CLI), "serve", str(folder), "--device", "cpu", "--host", "127.0.0.1"]
    proc = subprocess.Popen(
        [*command, "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                pytest.fail(f"transformers serve exited: {proc.stdout.read() if proc.stdout else ''}")
            try:
                with urllib.request.urlopen(url + "/v1/models", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("transformers serve did not answer within 180 s")
                time.sleep(1)
        yield url + "/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _photo() -> Image.Image:
    return Image.new("RGB", (96, 64), (200, 30, 30))


SETTINGS = GenerationSettings(max_new_tokens=8, temperature=0.0)


def test_a_reply_about_a_photo_and_the_same_reply_streamed(served: str) -> None:
    vlm = OpenAICompatibleVLM(base_url=served, timeout=120, max_retries=0)
    messages = [ChatMessage("user", "What colour is the cup?", [_photo()])]
    reply = vlm.generate(messages, SETTINGS)
    assert isinstance(reply, str) and reply.strip()
    assert vlm.describe()["model_id"].endswith("smolvlm")  # discovered from the server's /v1/models
    pieces = list(vlm.generate_stream(messages, SETTINGS))
    assert len(pieces) >= 2 and "".join(pieces).strip() == reply.strip()  # greedy: the same reply


def test_a_batch_in_flight_keeps_its_order(served: str) -> None:
    vlm = OpenAICompatibleVLM(base_url=served, timeout=120, max_retries=0, max_concurrency=4)
    batch = [[ChatMessage("user", f"Say {word}.", [_photo()])] for word in ("one", "two", "three", "four")]
    replies = vlm.generate_batch(batch, SETTINGS)
    assert replies == [vlm.generate(m, SETTINGS) for m in batch]  # greedy, so each alone gives the same


def test_a_prompt_longer_than_the_servers_context_says_why(served: str) -> None:
    """The server refuses it with HTTP 400 and FastAPI's {"detail": ...}: the error carries that reason (the
    prompt's length against the model's), not just the status code."""
    import transformers
    from packaging.version import Version

    if Version(transformers.__version__) < Version("5.25"):
        pytest.skip("transformers serve checks a prompt's length against the model's context from 5.25 on")
    vlm = OpenAICompatibleVLM(base_url=served, timeout=120, max_retries=0)
    with pytest.raises(ModelError, match=r"HTTP 400: .*tokens.*8192") as caught:
        vlm.generate([ChatMessage("user", "word " * 9000)], SETTINGS)
    assert "Error code" not in str(caught.value)


def test_p_yes_from_the_servers_answer(served: str) -> None:
    vlm = OpenAICompatibleVLM(base_url=served, timeout=120, max_retries=0)
    messages = [ChatMessage("user", "Is this question ambiguous? Answer Yes or No.", [_photo()])]
    found = answer_probabilities(vlm, messages, ("Yes", "No"))
    assert found.source in ("logprobs", "generated")  # the tiny model's words are noise: either may come
    assert not found.probabilities or abs(sum(found.probabilities.values()) - 1.0) < 1e-6


def test_whichone_ask_through_the_served_model(served: str, tmp_path: Path) -> None:
    photo = tmp_path / "photo.png"
    image = Image.new("RGB", (160, 120), "white")
    for x0, colour in ((10, (220, 0, 0)), (90, (0, 0, 220))):
        for x in range(x0, x0 + 50):
            for y in range(30, 90):
                image.putpixel((x, y), colour)
    image.save(photo)
    env = {k: v for k, v in os.environ.items() if not k.startswith("WHICHONE_")}
    env.update(WHICHONE_OPENAI_BASE_URL=served, HF_HUB_OFFLINE="1")
    out = subprocess.run(
        [sys.executable, "-m", "ui.cli", "ask", str(photo), "What colour is the square?",
         "--model", "openai", "--pointer", "blobs", "--segmenter", "none", "--json"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    reply = json.loads(out.stdout)
    assert (
        reply["strategy"] in ("answer", "infer", "enumerate", "clarify") and reply["stack"]["vlm"] == "openai"
    )


@pytest.mark.parametrize("stack", ["llamacpp", "ollama"])
def test_the_local_server_stacks_through_a_real_server(served: str, stack: str, tmp_path: Path) -> None:
    """The llamacpp and ollama stacks' VLM against a server we did not write, as a user runs them (the
    stack's own local pointer and segmenter swapped for their tiny random twins: no download here)."""
    photo = tmp_path / "photo.png"
    Image.new("RGB", (160, 120), (200, 30, 30)).save(photo)
    served_id = json.load(urllib.request.urlopen(served + "/models", timeout=10))["data"][0]["id"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("WHICHONE_")}
    # llama-server serves one model (asked for by what /v1/models lists); Ollama is told which
    env.update(WHICHONE_LLAMACPP_BASE_URL=served, WHICHONE_OLLAMA_BASE_URL=served, HF_HUB_OFFLINE="1")
    env.update(WHICHONE_OLLAMA_MODEL=served_id)
    out = subprocess.run(
        [sys.executable, "-m", "ui.cli", "ask", str(photo), "What colour is the square?",
         "--stack", stack, "--pointer", "owlvit-random-tiny", "--segmenter", "sam2-random-tiny", "--json"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    reply = json.loads(out.stdout)
    assert reply["stack"]["name"] == stack and reply["stack"]["vlm"] == stack
    assert reply["model"]["backend"] == stack and reply["model"]["model_id"] == served_id
    assert reply["model"]["base_url"] == served and reply["reply"].strip()


def test_a_benchmark_run_with_four_requests_in_flight(
    served: str, bench_env: Path, bench_data: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """focus-recognition over the served model, 4 in flight: every item answered, then all from the
    cache."""
    from typer.testing import CliRunner

    from ui.cli import app

    monkeypatch.setenv("WHICHONE_OPENAI_BASE_URL", served)
    data = str(bench_data["vqfa"])
    args = ["bench", "run", "focus-recognition", "--model", "openai", "--limit", "8", "--data", data,
            "--concurrency", "4", "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache.sqlite"),
            "--max-new-tokens", "8", "--no-progress"]  # fmt: skip
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.stdout + first.stderr
    # 8 questions x the paper's 5 prompts, every one answered by the server
    assert "examples: 8; items: 40; errors: 0" in first.stdout, first.stdout[-1500:]
    assert "model calls: 40 (cache hits: 0)" in first.stdout
    again = CliRunner().invoke(app, args)
    assert "model calls: 0 (cache hits: 40)" in again.stdout


def test_the_llm_judge_on_the_served_model_counts_what_it_cannot_read_as_unknown(
    served: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`whichone judge-agreement --judge openai` on the held-out CoT set: the paper's rubric goes to the
    server, every reply is read (the tiny model's noise: mostly unknown), and kappa is printed."""
    from typer.testing import CliRunner

    from assistant.evaluation.papers.racquet.labelled import HELDOUT_LABELLED
    from ui.cli import app

    monkeypatch.setenv("WHICHONE_OPENAI_BASE_URL", served)
    args = [
        "judge-agreement",
        "--judge",
        "openai",
        "--labelled",
        str(HELDOUT_LABELLED),
        "--task",
        "racquet_cot",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stdout + result.stderr
    first = result.stdout.splitlines()[1]
    assert first.startswith("judge llm:openai on racquet_cot: n=24, coverage=") and "unknown=" in first
