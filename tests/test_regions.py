"""Saliency (hand-computed), spatial words, numbering, de-duplication, hints and clicks."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.iou import box_iou, mask_iou
from assistant.regions import (
    SaliencyConfig,
    build_candidates,
    centre_term,
    position_words,
    region_at,
    regions_for_hint,
)
from models.types import Box, Grounding

W, H = 640, 480


def one_region_for_hint(candidates, hint: str):
    """The one region a hint names, or None when it names none or several equally."""
    matches = regions_for_hint(candidates, hint)
    return matches[0] if len(matches) == 1 else None


def test_centre_term_hand_computed() -> None:
    assert centre_term(Box(300, 220, 340, 260), (W, H)) == pytest.approx(1.0)
    assert centre_term(Box(0, 0, 0, 0), (W, H)) == pytest.approx(0.0)
    # centre (160, 120): distance to (320, 240) is 200; half diagonal is 400 -> 1 - 0.5
    assert centre_term(Box(140, 100, 180, 140), (W, H)) == pytest.approx(0.5)


def test_saliency_hand_computed_both_normalisations() -> None:
    hits = [Grounding("cup", box=Box(240, 180, 400, 300)), Grounding("cup", box=Box(140, 100, 180, 140))]
    # big: area 160*120 = 19200, centred; small: 40*40 = 1600, centre term 0.5
    cands = build_candidates(hits, (W, H))
    big, small = sorted(cands.regions, key=lambda r: -r.box.area)
    assert big.saliency == pytest.approx(0.7 * 1.0 + 0.3 * 1.0)
    assert small.saliency == pytest.approx(0.7 * (1600 / 19200) + 0.3 * 0.5)
    assert big.salient and not small.salient
    assert small.area_ratio == pytest.approx(1600 / (W * H))
    raw = build_candidates(hits, (W, H), config=SaliencyConfig(area_norm="image"))
    big_raw = max(raw.regions, key=lambda r: r.box.area)
    assert big_raw.saliency == pytest.approx(0.7 * 19200 / (W * H) + 0.3)
    assert not big_raw.salient  # 0.34 < 0.6: why "largest" is the default


def test_mask_area_used_when_present() -> None:
    mask = np.zeros((H, W), bool)
    mask[200:210, 300:310] = True  # 100 px inside a big box
    hits = [Grounding("a", box=Box(0, 0, 640, 480))]
    cands = build_candidates(hits, (W, H), masks=mask[None])
    region = cands.regions[0]
    assert region.box == Box(300, 200, 310, 210)
    assert region.area_ratio == pytest.approx(100 / (W * H))


@pytest.mark.parametrize(
    ("box", "words"),
    [
        ((10, 200, 50, 240), "on the left"),
        ((600, 200, 630, 240), "on the right"),
        ((300, 10, 340, 50), "at the top"),
        ((300, 430, 340, 470), "at the bottom"),
        ((10, 10, 50, 50), "at the top left"),
        ((600, 430, 630, 470), "at the bottom right"),
        ((300, 220, 340, 260), "in the centre"),
    ],
)
def test_position_words(box: tuple[float, float, float, float], words: str) -> None:
    assert position_words(Box(*box), (W, H)) == words


def test_descriptions_and_numbering_in_reading_order() -> None:
    """Row by row from the top (the small dog high up is a row of its own), each row left to right."""
    hits = [
        Grounding("dog", box=Box(500, 200, 620, 300), score=0.9),
        Grounding("dog", box=Box(20, 200, 200, 400), score=0.8),
        Grounding("dog", box=Box(300, 20, 330, 40), score=0.7),
    ]
    cands = build_candidates(hits, (W, H), phrase="dog")
    assert [r.id for r in cands.regions] == [1, 2, 3]
    assert [r.box.x0 for r in cands.regions] == [300, 20, 500]
    assert cands.regions[0].description == "the dog at the top, small, in the background"
    assert cands.regions[1].description == "the dog on the left, the largest"
    assert cands.regions[2].description == "the dog on the right"


def test_a_grid_is_numbered_row_by_row_and_its_ordinals_agree() -> None:
    """A 2 x 3 grid of alike coins, rows slightly uneven (as on a photo): 1-3 the top row left to right,
    4-6 the second; the ordinals that tell alike ones apart count within the row."""
    hits = [  # all in the centre third across: alike descriptions, told apart by row and place
        Grounding("coin", box=Box(x, y + (x % 7), x + 40, y + 40 + (x % 7)))
        for y in (200, 150)
        for x in (340, 240, 290)
    ]
    cands = build_candidates(hits, (W, H), phrase="coin")
    centres = [(round(r.box.centre[0]), r.box.y0 < 190) for r in cands.regions]
    assert [top for _, top in centres] == [True, True, True, False, False, False]
    assert [x for x, _ in centres[:3]] == sorted(x for x, _ in centres[:3])
    assert [x for x, _ in centres[3:]] == sorted(x for x, _ in centres[3:])
    assert cands.regions[3].description.endswith("row 2, first from the left"), cands.regions[3].description
    for region in cands.regions:
        if "from the left" in region.description:
            rank = ["first", "second", "third"][(region.id - 1) % 3]
            assert f"{rank} from the left" in region.description, region.description


def test_numbering_top_to_bottom_for_stacked() -> None:
    hits = [Grounding("book", box=Box(300, 300, 340, 340)), Grounding("book", box=Box(300, 100, 340, 140))]
    cands = build_candidates(hits, (W, H))
    assert [r.box.y0 for r in cands.regions] == [100, 300]


def test_dedupe_by_iou_keeps_higher_score_and_notes_it() -> None:
    hits = [
        Grounding("cup", box=Box(100, 100, 200, 200), score=0.5),
        Grounding("cup", box=Box(102, 101, 201, 202), score=0.9),
        Grounding("cup", box=Box(400, 100, 500, 200), score=0.7),
    ]
    cands = build_candidates(hits, (W, H))
    assert len(cands) == 2
    assert any(r.score == 0.9 for r in cands.regions) and not any(r.score == 0.5 for r in cands.regions)
    assert any("merged" in n for n in cands.notes)


def test_cap_and_unusable_hits_are_noted() -> None:
    hits = [Grounding("x", box=Box(i * 20, 0, i * 20 + 10, 10), score=i / 30) for i in range(30)]
    hits.append(Grounding("x"))  # neither point nor box
    cands = build_candidates(hits, (W, H), max_regions=12)
    assert len(cands) == 12
    assert any("1 of 31 hits" in n for n in cands.notes)
    assert any("Kept the 12 highest-scoring of 30" in n for n in cands.notes)


def test_point_only_hits_get_a_small_box_and_out_of_image_points_are_clipped() -> None:
    hits = [Grounding("cup", point=(100, 100)), Grounding("cup", point=(5000, 5000))]
    cands = build_candidates(hits, (W, H))
    assert len(cands) == 1
    b = cands.regions[0].box
    assert b.contains(100, 100) and b.width == pytest.approx(0.1 * H)


def test_ious() -> None:
    assert box_iou(Box(0, 0, 10, 10), Box(5, 0, 15, 10)) == pytest.approx(50 / 150)
    a = np.zeros((4, 4), bool)
    b = np.zeros((4, 4), bool)
    a[:2] = True
    b[1:3] = True
    assert mask_iou(a, b) == pytest.approx(4 / 12)
    assert (
        mask_iou(np.zeros((2, 2), bool), np.zeros((2, 2), bool)) == 1.0
    )  # assistant/iou.py: two empty sets are one region


def three_in_a_row():
    hits = [Grounding("cup", box=Box(x, 200, x + 80, 280)) for x in (40, 280, 520)]
    return build_candidates(hits, (W, H))


@pytest.mark.parametrize(
    ("hint", "expected"),
    [
        ("2", 2),
        ("number 3", 3),
        ("#1", 1),
        ("option two", 2),
        ("the one on the left", 1),
        ("leftmost", 1),
        ("the right one", 3),
        ("the middle one", 2),
        ("the one in the center", 2),
        ("second from the left", 2),
        ("the first one from the right", 3),
        ("the third one", 3),
        ("no idea", None),
        ("the red one", None),
        ("not the left one", None),  # negated: left to the model with the list
        ("not number 2", None),
        ("the one next to the left one", None),  # relative to another candidate
        ("the cup between 1 and 3", None),
        ("the one above", None),  # not a relation, but the three are level: "above" fits all of them
        ("7", None),
    ],
)
def test_one_region_for_hint(hint: str, expected: int | None) -> None:
    region = one_region_for_hint(three_in_a_row(), hint)
    assert (region.id if region else None) == expected


def test_region_for_hint_sizes_and_corners() -> None:
    hits = [
        Grounding("cup", box=Box(10, 10, 60, 60)),
        Grounding("cup", box=Box(500, 350, 630, 470)),
        Grounding("cup", box=Box(280, 200, 300, 220)),
    ]
    cands = build_candidates(hits, (W, H))
    by_x0 = {r.box.x0: r.id for r in cands.regions}
    assert one_region_for_hint(cands, "the biggest").id == by_x0[500]
    assert one_region_for_hint(cands, "the smallest one").id == by_x0[280]
    assert one_region_for_hint(cands, "top left").id == by_x0[10]
    assert one_region_for_hint(cands, "bottom right").id == by_x0[500]


def test_click_selects_smallest_containing_region() -> None:
    outer = np.zeros((H, W), bool)
    outer[100:400, 100:500] = True
    inner = np.zeros((H, W), bool)
    inner[200:260, 250:330] = True
    hits = [Grounding("person", point=(300, 250)), Grounding("shirt", point=(290, 230))]
    cands = build_candidates(hits, (W, H), masks=np.stack([outer, inner]), dedupe_iou=0.9)
    assert region_at(cands, 290, 230).label == "shirt"
    assert region_at(cands, 120, 120).label == "person"
    assert region_at(cands, 5, 5) is None
    assert region_at(cands, 639, 479) is None


def test_descriptions_that_would_repeat_get_their_rank_from_the_left() -> None:
    hits = [Grounding("cup", box=Box(x, 200, x + 60, 260)) for x in (10, 120, 290, 420, 560)]
    cands = build_candidates(hits, (W, H))
    descriptions = [r.description for r in cands.regions]
    assert len(set(descriptions)) == 5
    assert descriptions[0] == "the cup on the left, first from the left"
    assert descriptions[1] == "the cup on the left, second from the left"
    assert descriptions[2] == "the cup in the centre"
