"""Qwen3-VL through the real transformers classes on a tiny random checkpoint (models/families/qwen.py): as
the answering VLM and as its own pointer, whose boxes are read on Qwen3-VL's 0-1000 scale."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig
from assistant.types import Strategy
from models.base import GenerationSettings
from models.registry import create_vlm, get_spec
from models.vlm_pointer import VLMPointer

FAST = AssistantConfig(answer_settings=GenerationSettings(max_new_tokens=8))


@pytest.fixture(scope="module")
def qwen3(tmp_path_factory: pytest.TempPathFactory):
    return create_vlm("qwen3-vl-tiny", target_dir=tmp_path_factory.mktemp("q3") / "qwen3_vl", device="cpu")


def scene() -> Image.Image:
    image = Image.new("RGB", (640, 480), "white")
    draw = ImageDraw.Draw(image)
    for x in (60, 280, 500):
        draw.rectangle((x, 200, x + 80, 280), fill=(200, 30, 30))
    return image


def test_the_tiny_qwen3_vl_loads_like_real_weights_and_says_its_family(qwen3) -> None:
    info = qwen3.describe()
    assert info["backend"] == "transformers" and info["device"] == "cpu" and info["parameters"] < 1_000_000
    assert qwen3.grounding_family() == "qwen3-vl"
    assert type(qwen3._model).__name__ == "Qwen3VLForConditionalGeneration"
    for name in ("qwen3-vl-2b", "qwen3-vl-4b"):
        assert get_spec("vlm", name).hub_id.startswith("Qwen/Qwen3-VL-")


def test_qwen3_vl_as_the_answering_vlm_through_ask_and_resolve(qwen3) -> None:
    from models.blob_pointer import BlobPointer

    assistant = Assistant(qwen3, Grounder(BlobPointer()), FAST)
    reply, session = assistant.ask(scene(), "What colour is the square?")
    assert reply.strategy == Strategy.ENUMERATE and len(reply.candidates) == 3
    assert reply.model_calls["vlm"] >= 2 and reply.text
    second, session = assistant.resolve(session, 2)
    assert second.resolved_region == 2 and second.text.startswith("About ")


def test_qwen3_vl_as_its_own_pointer_reads_0_to_1000(qwen3) -> None:
    pointer = VLMPointer(qwen3, output="qwen", coords="pixels")  # the family overrides the configured scale
    reply = '```json\n[{"bbox_2d": [500, 500, 750, 1000], "label": "square"}]\n```'  # Qwen3-VL's real shape
    hits = pointer.parse(reply, scene(), "square")
    assert len(hits) == 1 and hits[0].box is not None
    assert (hits[0].box.x0, hits[0].box.y0, hits[0].box.x1, hits[0].box.y1) == (320.0, 240.0, 480.0, 480.0)
    # Through the pipeline: the tiny model's words are noise, so its grounding finds nothing, and it answers.
    assistant = Assistant(qwen3, Grounder(pointer), FAST)
    answered, _ = assistant.ask(scene(), "What colour is the square?")
    assert answered.model_calls["pointer"] == 1 and len(answered.candidates) == 0
    assert any("found no" in note for note in answered.candidates.notes)


def test_the_tiny_checkpoint_is_reused(tmp_path: Path) -> None:
    from models.families.qwen import TINY_QWEN3_VL
    from models.tiny import build_tiny

    first = build_tiny(TINY_QWEN3_VL, tmp_path / "q")
    stamp = (first / "config.json").stat().st_mtime
    assert (
        build_tiny(TINY_QWEN3_VL, tmp_path / "q") == first
        and (first / "config.json").stat().st_mtime == stamp
    )
