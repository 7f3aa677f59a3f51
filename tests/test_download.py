"""`whichone download` against a local server speaking the Hub's file API (tests/hub_server.py): the files
and sizes a stack needs, an interrupted download finished by a rerun, a gated model and a missing one (one
line each), and an offline start from what was fetched."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hub_server import Hub, serve_hub

WEIGHTS = os.urandom(400_000)
REPOS = {
    "HuggingFaceTB/SmolVLM-256M-Instruct": {
        "config.json": b"{}",
        "tokenizer.json": b"{}",
        "model.safetensors": b"s",
    },
    "google/owlvit-base-patch32": {
        "config.json": b'{"model_type": "owlvit"}',
        "model.safetensors": WEIGHTS,
        "pytorch_model.bin": b"the same weights again",  # never fetched: the loaders read safetensors
        "merges.txt": b"#version",
    },
    "facebook/sam2.1-hiera-tiny": {"config.json": b"{}", "model.safetensors": b"m" * 1000},
    "Qwen/Qwen2.5-VL-3B-Instruct": {"config.json": b"{}"},
    "facebook/sam3": {"config.json": b"{}"},
}


def _run(url: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_TOKEN")
    }
    env.update(HF_ENDPOINT=url, HF_HOME=str(home), HF_HUB_DISABLE_XET="1", HF_HUB_DISABLE_TELEMETRY="1")
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "download", *args],
        cwd=Path(__file__).resolve().parents[1], env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.fixture
def hub() -> Hub:
    return Hub(repos={k: dict(v) for k, v in REPOS.items()}, gated={"facebook/sam3"})


def test_dry_run_lists_the_loader_files_and_sizes_and_downloads_nothing(hub: Hub, tmp_path: Path) -> None:
    with serve_hub(hub) as url:
        out = _run(url, tmp_path / "hf", "--stack", "cpu", "--dry-run")
    assert out.returncode == 0, out.stderr
    assert "google/owlvit-base-patch32: 3 files, 400.03 kB" in out.stdout
    assert "  model.safetensors  400.00 kB" in out.stdout and "pytorch_model.bin" not in out.stdout
    assert "total: 401.04 kB in 3 repositories; 401.04 kB not yet here" in out.stdout
    assert hub.gets == [] and not list((tmp_path / "hf").rglob("*.safetensors"))  # nothing downloaded


def test_an_interrupted_download_resumes_and_then_runs_offline(hub: Hub, tmp_path: Path) -> None:
    home = tmp_path / "hf"
    key = "google/owlvit-base-patch32/model.safetensors"
    hub.breaks[key] = 50  # every try of this run breaks off halfway
    with serve_hub(hub) as url:
        first = _run(url, home, "--stack", "cpu")
        assert first.returncode == 2
        lines = first.stderr.strip().splitlines()
        assert (
            lines[-1].startswith("error: could not download google/owlvit-base-patch32")
            and "resume" in lines[-1]
        )
        assert "Traceback" not in first.stderr
        hub.breaks[key] = 0
        hub.gets.clear()
        again = _run(url, home, "--stack", "cpu")
        assert again.returncode == 0, again.stderr
        # The rerun fetches only what is missing: the broken file (huggingface_hub 2.x resumes a broken
        # connection within a run, and keeps no partial file across runs) and the repository the first run
        # did not reach, never a file already whole.
        fetched = {path for path, _ in hub.gets}
        assert key in fetched and "facebook/sam2.1-hiera-tiny/model.safetensors" in fetched
        assert not [
            p
            for p in fetched
            if p.startswith("HuggingFaceTB/")
            or p.endswith(("config.json", "merges.txt"))
            and p.startswith("google/")
        ]
        third = _run(url, home, "--stack", "cpu")
        assert "0 B not yet here" in third.stdout
    # Offline, from what was fetched: the files are whole.
    code = (
        "from huggingface_hub import snapshot_download; import pathlib; "
        "from models.download import LOADER_FILES; "
        "p = pathlib.Path(snapshot_download('google/owlvit-base-patch32', allow_patterns=list(LOADER_FILES), "
        "local_files_only=True)); "
        "print((p / 'model.safetensors').stat().st_size, sorted(x.name for x in p.iterdir()))"
    )
    offline = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "HF_HOME": str(home), "HF_HUB_OFFLINE": "1"},
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert offline.returncode == 0, offline.stderr
    assert offline.stdout.strip() == f"{len(WEIGHTS)} ['config.json', 'merges.txt', 'model.safetensors']"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--stack", "gpu", "--dry-run"],
            "facebook/sam3 is gated on the Hugging Face Hub: ask for access at https://huggingface.co/facebook/sam3",
        ),
        (["owlv2-b16"], "google/owlv2-base-patch16-ensemble is not on"),
        (["sam-vit-b"], "is a plain file, not a Hub repository"),
        (["no-such-model"], "there is no model named 'no-such-model'"),
    ],
)
def test_refusals_are_one_line(hub: Hub, tmp_path: Path, args: list[str], message: str) -> None:
    with serve_hub(hub) as url:
        out = _run(url, tmp_path / "hf", *args)
    assert out.returncode == 2
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and message in last, out.stderr


def test_a_mirror_that_is_down_is_one_line(tmp_path: Path) -> None:
    out = _run("http://127.0.0.1:9", tmp_path / "hf", "--stack", "cpu")
    assert out.returncode == 2
    assert (
        out.stderr.strip().splitlines()[-1]
        == "error: the model hub (http://127.0.0.1:9) cannot be reached, so "
        "HuggingFaceTB/SmolVLM-256M-Instruct cannot be fetched: fetch it on a machine with internet and "
        "copy its Hugging Face cache here, or set HF_ENDPOINT to a mirror you can reach"
    )
    assert "resume" not in out.stderr  # nothing was being fetched


def test_local_stacks_need_no_download(tmp_path: Path) -> None:
    out = _run("http://127.0.0.1:9", tmp_path / "hf", "--stack", "cpu-tiny")
    assert out.returncode == 0 and "nothing to download" in out.stdout


def test_a_dry_run_offline_lists_what_it_would_fetch_from_the_catalog(tmp_path: Path) -> None:
    """Offline (HF_HUB_OFFLINE=1) or with the Hub out of reach, --dry-run still says what a stack needs,
    from the catalog, and what only the Hub can say; it never says sizes are unknown after giving them."""
    for url, offline in (("http://127.0.0.1:9", "0"), ("https://huggingface.co", "1")):
        env_home = tmp_path / f"hf-{offline}"
        code = (
            "import os, sys; os.environ['HF_HUB_OFFLINE'] = sys.argv[1]; "
            "from ui.cli import app; app(['download', '--stack', 'cpu', '--dry-run'])"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, offline],
            cwd=Path(__file__).resolve().parents[1],
            env={**os.environ, "HF_ENDPOINT": url, "HF_HOME": str(env_home)},
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        lines = out.stdout.strip().splitlines()
        why = (
            "the model hub (http://127.0.0.1:9) cannot be reached"
            if offline == "0"
            else "the model hub is not asked (HF_HUB_OFFLINE is set)"
        )
        assert lines[0] == f"{why}: the sizes below are whichone's catalog figures, not the Hub's file list."
        assert (
            lines[1] == "HuggingFaceTB/SmolVLM-256M-Instruct: about 0.51 GB of weights; not in the cache here"
        )
        assert lines[2] == "google/owlvit-base-patch32: about 0.61 GB of weights; not in the cache here"
        assert lines[4].startswith("total: about 1.28 GB in 3 repositories; 3 not in the cache. The exact")
        assert lines[5].startswith("To get them: `whichone download --stack cpu` on a machine with internet")
        assert "unknown" not in out.stdout and "Dry run cannot" not in out.stdout + out.stderr
