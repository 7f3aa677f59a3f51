"""Stacks (models/catalog.py): every named preset resolves to registered models, parts override, the
cpu-tiny stack builds the cpu stack's classes, and the CLI lists and uses them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from models import registry
from models.catalog import STACKS, ModelChoice, default_stack_name, get_stack, resolve_choice
from models.errors import ModelUnavailable

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", sorted(STACKS))
def test_every_stack_names_registered_models(name: str) -> None:
    choice = STACKS[name].choice
    registry.get_spec("vlm", choice.vlm)
    registry.get_spec("pointer", choice.pointer)
    if choice.segmenter is not None:
        registry.get_spec("segmenter", choice.segmenter)


def test_the_required_stacks_exist_and_the_default_follows_cuda() -> None:
    assert {"cpu", "gpu", "server", "cpu-tiny"} <= set(STACKS)
    assert default_stack_name(cuda=False) == "cpu" and default_stack_name(cuda=True) == "gpu"
    assert get_stack("gpu").choice.pointer == "sam3"  # SAM 3: the gpu stack's one-model grounder
    assert get_stack("cpu").download_gigabytes > 0 and get_stack("cpu-tiny").downloads == ()


def test_parts_override_the_stack_and_none_means_boxes_only() -> None:
    assert resolve_choice("cpu") == ("cpu", ModelChoice("smolvlm-256m", "owlvit-b32", "sam2-hiera-tiny"))
    name, choice = resolve_choice("cpu", pointer="grounding-dino-tiny", segmenter="none")
    assert name == "cpu" and choice == ModelChoice("smolvlm-256m", "grounding-dino-tiny", None)
    assert resolve_choice("demo", vlm="  ", segmenter="")[1] == STACKS["demo"].choice
    with pytest.raises(ModelUnavailable, match="no stack named 'laptop'.*cpu"):
        resolve_choice("laptop")


def test_the_cpu_tiny_stack_builds_the_cpu_stacks_classes(tmp_path: Path, monkeypatch) -> None:
    from models.detectors import DetectorPointer
    from models.sam2 import Sam2Segmenter

    monkeypatch.setenv("WHICHONE_CACHE_DIR", str(tmp_path))
    tiny = STACKS["cpu-tiny"].choice
    vlm = registry.create_vlm(tiny.vlm, device="cpu")
    pointer = registry.create_pointer(tiny.pointer, vlm=vlm)
    segmenter = registry.create_segmenter(tiny.segmenter)
    assert type(vlm._model).__name__ == "Idefics3ForConditionalGeneration"  # SmolVLM-256M's class
    assert vlm.describe()["quantisation"] == "int8"  # as smolvlm-256m on a CPU
    assert isinstance(pointer, DetectorPointer) and pointer.family == "owlvit"  # owlvit-b32's family
    assert isinstance(segmenter, Sam2Segmenter)  # sam2-hiera-tiny's class


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})},
    )


def test_whichone_stacks_lists_model_ids_and_download_sizes() -> None:
    out = _cli("stacks")
    assert out.returncode == 0, out.stderr
    for name, stack in STACKS.items():
        assert f"{name}" in out.stdout
        for download in stack.downloads:
            assert download.source in out.stdout
    assert "1.28 GB to download" in out.stdout  # SmolVLM-256M + OWL-ViT B/32 + SAM 2.1 tiny
    assert "(default here)" in out.stdout


def test_ask_json_reports_the_stack_and_the_probability(tmp_path: Path) -> None:
    from PIL import Image

    photo = tmp_path / "photo.png"
    Image.new("RGB", (160, 120), (200, 180, 150)).save(photo)
    env = {"WHICHONE_CACHE_DIR": str(tmp_path / "cache")}
    out = _cli("ask", str(photo), "What colour is the cup?", "--stack", "cpu-tiny", "--json", env=env)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["stack"] == {
        "name": "cpu-tiny",
        "vlm": "smolvlm-tiny",
        "pointer": "owlvit-random-tiny",
        "segmenter": "sam2-random-tiny",
    }
    assert 0.0 <= data["ambiguity_probability"] <= 1.0
    assert data["verdict"] == ("ambiguous" if data["ambiguity_probability"] >= 0.5 else "unambiguous")
    assert data["verdict_raw"].startswith("P(ambiguous) = ")
    overridden = _cli(
        "ask", str(photo), "What colour is the cup?", "--stack", "cpu-tiny", "--segmenter", "none", "--json",
        "--threshold", "0", env=env,
    )  # fmt: skip
    data = json.loads(overridden.stdout)
    assert data["stack"]["segmenter"] is None and data["verdict"] == "ambiguous"


def test_an_unknown_stack_is_one_line_and_status_2() -> None:
    out = _cli("ask", "nothing.png", "Which one?", "--stack", "laptop")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1].startswith("error: ")
