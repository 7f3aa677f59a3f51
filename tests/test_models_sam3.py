"""SAM 3 as the one-model grounder (models/sam3.py) on a tiny random checkpoint of the real classes
(models/tiny_sam3.py): the phrase in, every instance's mask, box and score out, through Assistant.ask and
resolve; and the one line a user without access to the gated checkpoint gets."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig
from models.base import Ability, GenerationSettings, can
from models.errors import ModelUnavailable
from models.registry import create_pointer

FAST = AssistantConfig(answer_settings=GenerationSettings(max_new_tokens=8))


@pytest.fixture(scope="module")
def sam3(tmp_path_factory: pytest.TempPathFactory):
    # threshold 0: a random model's scores are low; every one of its 20 queries is an instance
    return create_pointer("sam3-tiny", target_dir=tmp_path_factory.mktemp("sam3") / "sam3", threshold=0.0)


def photo() -> Image.Image:
    image = Image.new("RGB", (320, 240), "white")
    ImageDraw.Draw(image).ellipse((40, 60, 120, 140), fill=(200, 30, 30))
    return image


def test_instances_come_with_one_mask_each_best_first(sam3) -> None:
    assert can(sam3, Ability.INSTANCES)
    hits, masks = sam3.instances(photo(), "red cup")
    assert len(hits) == 20 and masks.shape == (20, 240, 320) and masks.dtype == bool
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    for hit in hits:
        assert hit.label == "red cup" and hit.box is not None and hit.point == hit.box.centre
        assert 0 <= hit.box.x0 <= hit.box.x1 <= 320 and 0 <= hit.box.y0 <= hit.box.y1 <= 240
    assert sam3.instances(photo(), "   ")[0] == []  # an empty phrase asks nothing


def test_sam3_grounds_through_ask_and_resolve_with_its_own_masks(sam3, tiny_vlm) -> None:
    assistant = Assistant(tiny_vlm, Grounder(sam3, None), FAST)  # no segmenter: SAM 3's masks are used
    reply, session = assistant.ask(photo(), "What colour is the cup?")
    regions = reply.candidates.regions
    assert 1 <= len(regions) <= 12 and reply.model_calls["pointer"] == 1
    assert any("kept the 12 highest-scoring" in n for n in reply.candidates.notes)
    assert all(r.mask is not None and r.mask.shape == (240, 320) for r in regions)
    chosen = regions[0].id
    second, session = assistant.resolve(session, chosen)
    assert second.resolved_region == chosen


def test_a_gated_checkpoint_without_access_is_one_clear_line(monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelUnavailable, match="gated on the Hugging Face Hub: ask for access"):
        create_pointer("sam3")
