"""End to end through the grounding stage: a pointer (the blobs pointer, or a VLM pointer fed fixed strings
in the real Molmo2 / Qwen2.5-VL formats) -> random SAM ViT-B -> numbered regions with descriptions -> the
policy enumerates three candidates and asks about five; then clicks and bad input.

The VLM behind the fixed-string pointer is a stand-in that returns a prepared answer: the strings are what the
real models print, and everything after the model's text (parsing, rescaling, segmentation, regions, policy)
is the real code. SAM shares the session's random ViT-B and the cups image with tests/test_sam.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from PIL import Image

from assistant.errors import SessionError
from assistant.grounding import Grounder, select_masks
from assistant.policy import strategy_for
from assistant.types import Candidates, QuestionFocus, Region, Strategy, Verdict
from models.base import Ability, ChatMessage, GenerationSettings, ModelBase
from models.blob_pointer import BlobPointer
from models.types import Box, Grounding
from models.vlm_pointer import VLMPointer
from ui.cli.perf_scene import cup_centres


class FixedAnswerVLM(ModelBase):
    """A VisionLanguageModel stand-in that prints a prepared answer, optionally from a resized input frame."""

    name = "fixed"
    ABILITIES = frozenset({Ability.FRAME_SIZE})

    def __init__(self, answer: str, input_size: tuple[int, int] | None = None) -> None:
        self.answer = answer
        self.input_size = input_size
        self.prompts: list[str] = []

    def generate(self, messages: Sequence[ChatMessage], settings: GenerationSettings | None = None) -> str:
        self.prompts.append(messages[-1].text)
        assert messages[-1].images, "a pointer must send the image"
        return self.answer

    def generate_batch(self, conversations: Any, settings: GenerationSettings | None = None) -> list[str]:
        return [self.generate(c, settings) for c in conversations]

    def model_input_size(self, image: Image.Image) -> tuple[int, int]:
        return self.input_size or image.size

    def describe(self) -> dict[str, Any]:
        return {"name": self.name}


def focus(head: str, descriptors: tuple[str, ...] = ()) -> QuestionFocus:
    phrase = " ".join((*descriptors, head))
    return QuestionFocus(
        f"What is in the {phrase}?", f"the {phrase}", head, "singular", False, None, descriptors
    )


def molmo2_points(points: Sequence[tuple[float, float]], size: tuple[int, int], label: str) -> str:
    """Points as Molmo2 prints them: frame 1, then "index x y" on 0-1000, zero-padded to 3 digits."""
    w, h = size
    body = " ".join(
        f"{i} {round(x / w * 1000):03d} {round(y / h * 1000):03d}" for i, (x, y) in enumerate(points, 1)
    )
    return f'<points coords="1 {body}">{label}</points>'


@pytest.fixture(scope="module")
def grounder(sam_vit_b_random) -> Grounder:
    return Grounder(BlobPointer(), sam_vit_b_random)


def assert_well_formed(candidates: Candidates, n: int) -> None:
    assert len(candidates) == n
    assert [r.id for r in candidates.regions] == list(range(1, n + 1))
    xs = [r.box.centre[0] for r in candidates.regions]
    assert xs == sorted(xs)  # numbered left to right, as the overlay and the text list show them
    for region in candidates.regions:
        assert region.description.startswith("the ") and region.position
        assert region.box.area > 0


def test_blobs_then_sam_enumerates_three_red_cups(grounder, cups_image) -> None:
    candidates = grounder.candidates(cups_image, "red cup")
    assert_well_formed(candidates, 3)
    assert all(r.label == "red cup" and r.mask is not None for r in candidates.regions)
    assert [r.position for r in candidates.regions] == ["on the left", "in the centre", "on the right"]
    centres = cup_centres(*cups_image.size, 5)
    cup_w, cup_h = 320 / 6 * 0.7, 240 * 0.3
    for region, (x, y) in zip(candidates.regions, centres[::2], strict=True):
        # Each (random) mask is kept within its cup's box, grown by the 5% margin and the blob's pixel grid.
        assert region.box.contains(x, y)
        assert region.box.width <= cup_w * 1.1 + 6 and region.box.height <= cup_h * 1.1 + 6
    decision = strategy_for(focus("cup", ("red",)), Verdict.AMBIGUOUS, candidates)
    assert decision.strategy is Strategy.ENUMERATE and decision.referents == (1, 2, 3)


def test_blobs_then_sam_clarifies_five_cups(grounder, cups_image) -> None:
    candidates = grounder.candidates(cups_image, "cup")
    assert_well_formed(candidates, 5)
    assert [r.label for r in candidates.regions] == ["red cup", "blue cup", "red cup", "blue cup", "red cup"]
    assert candidates.regions[0].description.startswith("the red cup on the left")
    assert candidates.regions[4].description.startswith("the red cup on the right")
    decision = strategy_for(focus("cup"), Verdict.AMBIGUOUS, candidates)
    assert decision.strategy is Strategy.CLARIFY
    assert len(decision.referents) == 5


@pytest.mark.parametrize(("n", "strategy"), [(3, Strategy.ENUMERATE), (5, Strategy.CLARIFY)])
def test_molmo2_strings_then_sam(sam_vit_b_random, cups_image, n: int, strategy: Strategy) -> None:
    centres = cup_centres(*cups_image.size, 5)
    chosen = centres[::2] if n == 3 else centres
    vlm = FixedAnswerVLM("Sure. " + molmo2_points(chosen, cups_image.size, "cups") + " Those are the cups.")
    grounder = Grounder(VLMPointer(vlm, output="molmo"), sam_vit_b_random)
    candidates = grounder.candidates(cups_image, "cup")
    assert vlm.prompts == ["Point to every cup in the image."]
    assert_well_formed(candidates, n)
    for region, (x, y) in zip(candidates.regions, chosen, strict=True):
        assert region.box.contains(x, y) and region.label == "cups"
    assert strategy_for(focus("cup"), Verdict.AMBIGUOUS, candidates).strategy is strategy


def test_qwen_boxes_in_the_resized_frame_land_on_the_cups(sam_vit_b_random, cups_image) -> None:
    # Qwen2.5-VL saw the image at 160 x 120: its boxes are in that frame and must be scaled by 2.
    boxes = [
        (x / 2 - 10, y / 2 - 18, x / 2 + 10, y / 2 + 18) for x, y in cup_centres(*cups_image.size, 5)[:2]
    ]
    answer = "```json\n[\n" + ",\n".join(
        f'  {{"bbox_2d": {list(map(round, b))}, "label": "cup"}}' for b in boxes
    )
    vlm = FixedAnswerVLM(answer + "\n]\n```", input_size=(160, 120))
    candidates = Grounder(VLMPointer(vlm), sam_vit_b_random).candidates(cups_image, "cup")
    assert_well_formed(candidates, 2)
    for region, (x, y) in zip(candidates.regions, cup_centres(*cups_image.size, 5)[:2], strict=True):
        assert region.box.contains(x, y)
        assert region.box.width <= 2 * 20 * 1.1 + 2  # within the scaled box (plus the mask margin)
    assert strategy_for(focus("cup"), Verdict.AMBIGUOUS, candidates).strategy is Strategy.ENUMERATE


# ---------------------------------------------------------------- clicks


def test_click_inside_a_region_selects_it(grounder, cups_image) -> None:
    candidates = grounder.candidates(cups_image, "cup")
    x, y = cup_centres(*cups_image.size, 5)[3]
    same, region = grounder.region_from_click(cups_image, candidates, x, y)
    assert same is candidates and region.id == 4


def test_click_outside_every_region_segments_a_new_one(grounder, cups_image) -> None:
    candidates = grounder.candidates(cups_image, "cup")
    new_candidates, region = grounder.region_from_click(cups_image, candidates, 300.0, 20.0)
    assert len(new_candidates) == 6 and region.source == "click" and region.point == (300.0, 20.0)
    assert [r.id for r in new_candidates.regions] == [1, 2, 3, 4, 5, 6]
    assert region.box.contains(300.0, 20.0)
    # The new region may not swallow a cup already offered: its mask if SAM's was kept, else the small box
    # round the click that replaces a refused mask.
    for x, y in cup_centres(*cups_image.size, 5):
        assert not region.box.contains(x, y)
        assert region.mask is None or not region.mask[int(y), int(x)]
    with pytest.raises(SessionError, match="outside the photo"):
        grounder.region_from_click(cups_image, candidates, 400.0, 20.0)


def test_click_on_nested_regions_picks_the_smallest(cups_image) -> None:
    big = Region(id=1, box=Box(0, 0, 200, 200), label="table")
    small = Region(id=2, box=Box(50, 50, 80, 80), label="cup")
    candidates = Candidates([big, small], cups_image.size, "thing")
    _, region = Grounder(BlobPointer()).region_from_click(cups_image, candidates, 60, 60)
    assert region.label == "cup"


# ---------------------------------------------------------------- bad input: clear outcomes


def test_no_points_found_is_a_note_not_an_error(sam_vit_b_random, cups_image) -> None:
    vlm = FixedAnswerVLM("I do not see any giraffe in this image.")
    candidates = Grounder(VLMPointer(vlm, output="molmo"), sam_vit_b_random).candidates(cups_image, "giraffe")
    assert len(candidates) == 0 and "found no giraffe" in " ".join(candidates.notes)
    assert strategy_for(focus("giraffe"), Verdict.UNAMBIGUOUS, candidates).strategy is Strategy.ANSWER


def test_hundreds_of_points_are_capped_and_said(sam_vit_b_random, cups_image) -> None:
    rng = np.random.default_rng(0)
    pts = [(float(x), float(y)) for x, y in rng.uniform([5, 5], [315, 235], size=(300, 2))]
    vlm = FixedAnswerVLM(molmo2_points(pts, cups_image.size, "dots"))
    # A cap of 4 (the default is 12) keeps SAM's share of this test small; the rule is the same.
    grounder = Grounder(VLMPointer(vlm, output="molmo"), sam_vit_b_random, max_points=4)
    candidates = grounder.candidates(cups_image, "dot")
    assert 1 <= len(candidates) <= 4
    assert any("found 300 points; kept the 4" in note for note in candidates.notes)


def test_points_outside_the_image_are_dropped(sam_vit_b_random, cups_image) -> None:
    hits = [Grounding("cup", point=(80.0, 132.0)), Grounding("cup", point=(500.0, 20.0))]

    class Fixed:
        name = "fixed"

        def point(self, image: Image.Image, phrase: str) -> list[Grounding]:
            return hits

    candidates = Grounder(Fixed(), sam_vit_b_random).candidates(cups_image, "cup")
    assert len(candidates) == 1 and any("outside the image" in n for n in candidates.notes)


def test_image_too_small_for_sam_falls_back_to_boxes(sam_vit_b_random) -> None:
    tiny = Image.new("RGB", (6, 6), (255, 255, 255))
    vlm = FixedAnswerVLM('<point x="50" y="50" alt="dot">dot</point>')
    candidates = Grounder(VLMPointer(vlm, output="molmo"), sam_vit_b_random).candidates(tiny, "dot")
    assert len(candidates) == 1 and candidates.regions[0].mask is None
    assert any("Segmentation was skipped" in n and "too small" in n for n in candidates.notes)


def test_masks_that_merge_candidates_are_refused() -> None:
    # Two hits; candidate 0 of hit 0 covers both points (a merge), candidate 1 only its own.
    masks = np.zeros((2, 2, 10, 10), dtype=bool)
    masks[0, 0, :, :] = True
    masks[0, 1, 0:5, 0:5] = True
    masks[1, 0, 5:, 5:] = True
    scores = np.array([[0.9, 0.5], [0.8, 0.1]])
    hits = [Grounding("a", point=(2, 2)), Grounding("b", point=(7, 7))]
    chosen, chosen_scores, refused = select_masks(masks, scores, hits)
    assert refused == 0 and not chosen[0, 7, 7] and chosen[0, 2, 2] and chosen_scores[0] == pytest.approx(0.5)
    empty = np.zeros_like(masks)
    _, _, refused = select_masks(empty, scores, hits)
    assert refused == 2


def test_tiny_molmo2_pointer_runs_the_real_code_path(tmp_path, cups_image) -> None:
    """Molmo2 of the real transformers classes, built locally: prompt, processor, generate, parse."""
    from models.registry import create_pointer

    pointer = create_pointer("molmo2-tiny", vlm=None, target_dir=tmp_path / "molmo2", device="cpu")
    hits = pointer.point(cups_image, "cup")
    assert isinstance(pointer.last_output, str)  # the random model's text: noise, parsed without error
    assert all(0 <= h.point[0] <= 320 and 0 <= h.point[1] <= 240 for h in hits)
    assert pointer.describe()["vlm"]["backend"] == "transformers"


def test_the_assistant_with_sam_enumerates_then_clarifies_then_takes_a_click(
    tiny_vlm, sam_vit_b_random, cups_image
):
    """The whole first and second turn: tiny Qwen2.5-VL for the words, blobs + random SAM for the regions."""
    from assistant.pipeline import Assistant

    assistant = Assistant(tiny_vlm, Grounder(BlobPointer(), sam_vit_b_random))
    reply, _ = assistant.ask(cups_image, "What is in the red cup?")
    assert reply.strategy is Strategy.ENUMERATE and reply.referents == (1, 2, 3)
    assert all(r.mask is not None for r in reply.candidates.regions)
    assert reply.model_calls["segmenter"] == 1
    reply, session = assistant.ask(cups_image, "What colour is the cup?")
    assert reply.strategy is Strategy.CLARIFY and len(reply.candidates) == 5
    x, y = reply.candidates.regions[1].point  # the point the pointer found the second cup at
    second, session = assistant.resolve(session, (x, y))  # a click there picks region 2, no new segmentation
    assert second.resolved_region == 2 and "segmenter" not in second.model_calls
