"""The model registry and the built-in catalog: names, lazy imports, defaults, factories."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from models import registry
from models.base import ChatMessage, GenerationSettings
from models.errors import ModelUnavailable

VLM_NAMES = {"tiny", "qwen2.5-vl-3b", "qwen2.5-vl-7b", "smolvlm-256m", "openai"}


def test_catalog_lists_the_vlms() -> None:
    specs = {s.name: s for s in registry.list_models("vlm")}
    assert set(specs) >= VLM_NAMES
    assert specs["qwen2.5-vl-3b"].hub_id == "Qwen/Qwen2.5-VL-3B-Instruct"
    assert specs["qwen2.5-vl-7b"].hub_id == "Qwen/Qwen2.5-VL-7B-Instruct"
    assert specs["smolvlm-256m"].hub_id == "HuggingFaceTB/SmolVLM-256M-Instruct"
    assert specs["qwen2.5-vl-3b"].needs_gpu and not specs["smolvlm-256m"].needs_gpu
    assert all(s.kind == "vlm" and s.description for s in specs.values())
    assert {s.name for s in registry.list_models()} >= VLM_NAMES


def test_unknown_name_lists_known_names() -> None:
    with pytest.raises(ModelUnavailable) as caught:
        registry.create_vlm("gpt-17-vision")
    message = str(caught.value)
    assert "'gpt-17-vision'" in message
    assert all(name in message for name in VLM_NAMES)


def test_listing_does_not_import_torch() -> None:
    code = (
        "import sys, models.registry as r; names = [s.name for s in r.list_models()]; "
        "assert 'tiny' in names, names; "
        "heavy = [m for m in ('torch', 'transformers', 'openai') if m in sys.modules]; "
        "assert not heavy, heavy"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_default_vlm_name(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    monkeypatch.setenv("WHICHONE_MODEL", "tiny")
    assert registry.default_vlm_name() == "tiny"
    monkeypatch.delenv("WHICHONE_MODEL")
    expected = "qwen2.5-vl-3b" if torch.cuda.is_available() else "smolvlm-256m"
    assert registry.default_vlm_name() == expected
    assert expected in {s.name for s in registry.list_models("vlm")}


def test_tiny_factory_loads_like_real_weights(tiny_model_dir: Path, tiny_vlm) -> None:
    vlm = registry.create_vlm("tiny", target_dir=tiny_model_dir, device="cpu")
    info = vlm.describe()
    assert (info["name"], info["backend"], info["quantisation"]) == ("tiny", "transformers", "none")
    conv = [ChatMessage("user", "Which one?")]
    settings = GenerationSettings(max_new_tokens=6)
    assert vlm.generate(conv, settings) == tiny_vlm.generate(conv, settings)


def test_openai_factory_builds_without_a_request() -> None:
    vlm = registry.create_vlm("openai", base_url="http://127.0.0.1:9/v1", model="m", max_retries=0)
    assert vlm.describe()["backend"] == "openai"
    assert vlm.name == "openai:m"


@pytest.mark.parametrize(
    ("name", "hub_id"),
    [
        ("qwen2.5-vl-3b", "Qwen/Qwen2.5-VL-3B-Instruct"),
        ("smolvlm-256m", "HuggingFaceTB/SmolVLM-256M-Instruct"),
    ],
)
def test_hub_models_offline_say_how_to_get_them(
    monkeypatch: pytest.MonkeyPatch, name: str, hub_id: str
) -> None:
    from huggingface_hub import try_to_load_from_cache

    if isinstance(try_to_load_from_cache(hub_id, "config.json"), str):
        pytest.skip(f"{hub_id} is in the local cache; this test is about a machine without it")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelUnavailable, match=f"hf download {hub_id}"):
        registry.create_vlm(name, device="cpu")
