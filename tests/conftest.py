"""Shared pytest fixtures. Each helper appends its own section; do not rewrite others' fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# No test may reach a model hub: fail fast instead of retrying DNS for minutes.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

# Models take their configuration from WHICHONE_* through the assistant's settings (models/config.py), as
# in the CLI and the app, which install them as they start; a test of models/ alone is configured the same.
from assistant.settings import install  # noqa: E402

install()

# ---------------------------------------------------------------- models: tiny local checkpoints


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny Qwen2.5-VL (real transformers classes, random weights) built once per test session."""
    from models.families.qwen import TINY_QWEN2_5_VL
    from models.tiny import build_tiny

    return build_tiny(TINY_QWEN2_5_VL, tmp_path_factory.mktemp("tiny") / "qwen2_5_vl")


@pytest.fixture(scope="session")
def tiny_vlm(tiny_model_dir: Path):
    """An HFVisionLanguageModel on the tiny checkpoint, loaded the way real weights are (CPU, float32)."""
    from models.hf_vlm import HFVisionLanguageModel

    return HFVisionLanguageModel(str(tiny_model_dir), name="tiny", device="cpu")


# ---------------------------------------------------------------- benchmark (assistant.evaluation)


@pytest.fixture(scope="session")
def bench_cache_root(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path) -> Path:
    """A WHICHONE_CACHE_DIR for benchmark runs whose tiny/qwen2_5_vl is the session's tiny checkpoint,
    so `create_vlm("tiny")` inside a run (or a `whichone bench` subprocess) does not build it again."""
    root = tmp_path_factory.mktemp("whichone-cache")
    (root / "tiny").mkdir()
    (root / "tiny" / "qwen2_5_vl").symlink_to(tiny_model_dir, target_is_directory=True)
    return root


@pytest.fixture
def bench_env(bench_cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the benchmark's caches (tiny model, downloaded images) at the session's cache root."""
    monkeypatch.setenv("WHICHONE_CACHE_DIR", str(bench_cache_root))
    monkeypatch.delenv("WHICHONE_OFFLINE", raising=False)
    return bench_cache_root


@pytest.fixture(scope="session")
def bench_data(tmp_path_factory: pytest.TempPathFactory):
    """Small datasets in the published formats (tests/eval_fixtures.py), RAcQUEt's images over HTTP.

    Yields {"racquet": folder, "general": jsonl, "bias": jsonl, "vqfa": folder, "aqua": folder,
    "clearvqa": folder, "base_url": str}.
    """
    from tests import eval_fixtures as fx

    root = tmp_path_factory.mktemp("bench-data")
    (root / "racquet").mkdir()
    with fx.serve_folder(root / "racquet") as base:
        paths = fx.make_racquet(root / "racquet", base, n_images=12, missing=1)
        yield {
            "racquet": root / "racquet",
            "general": paths["general"],
            "bias": paths["bias"],
            "vqfa": fx.make_focus_ambiguity(root / "vqfa", n=24),
            "aqua": fx.make_aqua(root / "aqua", n_per_level=5),
            "clearvqa": fx.make_clearvqa(root / "clearvqa", n=6),
            "base_url": base,
        }


# ---------------------------------------------------------------- grounding: random SAM and a synthetic scene

RED, BLUE = (200, 30, 30), (30, 60, 200)


@pytest.fixture(scope="session")
def sam_vit_b_random():
    """SAM ViT-B of the real architecture with random weights (no download). Its embedding takes ~13 s on
    two cores, so tests share this one segmenter and the cups image below (cached by content)."""
    from models.sam import SamSegmenter

    return SamSegmenter("vit_b", "random", device="cpu")


@pytest.fixture(scope="session")
def cups_image():
    """320 x 240: five cups in a row, red, blue, red, blue, red, on a plain light background."""
    from ui.cli.perf_scene import cups_scene

    return cups_scene(320, 240, n=5, colours=(RED, BLUE))
