"""models.parsing on real output shapes of Molmo v1, Molmo2 and Qwen2.5-VL, and on malformed variants.

Expected values are computed by hand from each format's definition (Molmo v1: percent of width/height;
Molmo2: 0-1000 of width/height; Qwen2.5-VL: pixels of the resized input, scaled by original / input size).
"""

from __future__ import annotations

import pytest

from models.families.molmo import parse_molmo
from models.families.qwen import parse_qwen
from models.parsing import MAX_HITS

SIZE = (640, 480)  # original image (width, height)
INPUT = (320, 240)  # the Qwen processor's resized input: coordinates scale by 2


def points(hits):
    return [(h.label, round(h.point[0], 1), round(h.point[1], 1)) for h in hits]


def boxes(hits):
    return [(h.label, h.box.as_list()) for h in hits]


MOLMO_CASES = [
    # Molmo v1, as the model card and demo print it.
    ('<point x="61.5" y="40.6" alt="cup">cup</point>', [("cup", 393.6, 194.9)]),
    (
        '<points x1="26.0" y1="67.5" x2="44.2" y2="40.5" alt="people">people</points>',
        [("people", 166.4, 324.0), ("people", 282.9, 194.4)],
    ),
    # v1 variants: single quotes, attributes in another order, self-closing, text around, no alt.
    ("<point x='10' y='20' alt='cup'>cup</point>", [("cup", 64.0, 96.0)]),
    ('<point alt="cup" y="20" x="10">cup</point>', [("cup", 64.0, 96.0)]),
    ('<point x="10" y="20" alt="cup"/>', [("cup", 64.0, 96.0)]),
    ('Sure. <point x="50" y="50" alt="dog">dog</point> That is the dog.', [("dog", 320.0, 240.0)]),
    ('<point x="25" y="75">red mug</point>', [("red mug", 160.0, 360.0)]),
    ('<point x="25" y="75"/>', [("thing", 160.0, 360.0)]),  # no label at all: the phrase asked about
    # v1 malformed: a pair missing its y, values outside 0-100, not numbers, an unclosed attribute.
    (
        '<points x1="26.0" y1="67.5" x2="44.2" alt="people">people</points>',
        [("people", 166.4, 324.0)],
    ),
    ('<point x="150" y="20" alt="cup">cup</point>', []),
    ('<point x="-3" y="20" alt="cup">cup</point>', []),
    ('<point x="ten" y="20" alt="cup">cup</point>', []),
    ('<point x="10" y="2', []),
    # Two tags in one answer: both read, in order.
    (
        '<point x="10" y="10" alt="cup">cup</point> and <point x="90" y="90" alt="cup">cup</point>',
        [("cup", 64.0, 48.0), ("cup", 576.0, 432.0)],
    ),
    # Molmo2: frame 1, then index x y on 0-1000 (zero-padded), as the model card shows it.
    (
        '<points coords="1 1 461 527 2 481 521">cups</points>',
        [("cups", 295.0, 253.0), ("cups", 307.8, 250.1)],
    ),
    (
        '<points coords="1 1 098 629 2 162 629;2 1 142 418">boats</points>',
        [("boats", 62.7, 301.9), ("boats", 103.7, 301.9), ("boats", 90.9, 200.6)],
    ),
    ('<points alt="cups" coords="1 1 461 527">cups</points>', [("cups", 295.0, 253.0)]),
    ("<points coords='1 1 500 500'>cup</points>", [("cup", 320.0, 240.0)]),
    ('<points coords="1 1 500 500"/>', [("thing", 320.0, 240.0)]),
    # Molmo2 malformed: a missing coordinate (the next point re-synchronises), out of range, truncated.
    ('<points coords="1 1 461 2 481 521">cups</points>', [("cups", 307.8, 250.1)]),
    ('<points coords="1 1 461 527 2 1481 521">cups</points>', [("cups", 295.0, 253.0)]),
    ('<points coords="1 1 461 527 2 48', [("thing", 295.0, 253.0)]),
    ('<points coords="1 1 461 527', []),  # 527 may have been cut: nothing certain remains
    # No points at all.
    ("There are no cups in this image.", []),
    ("", []),
    ("<points>cups</points>", []),
]


@pytest.mark.parametrize(("text", "expected"), MOLMO_CASES)
def test_molmo_formats(text: str, expected: list) -> None:
    assert points(parse_molmo(text, SIZE, default_label="thing")) == expected


QWEN_CASES = [
    # Qwen2.5-VL's grounding cookbook shape: a fenced JSON list, absolute pixels of the resized input.
    (
        '```json\n[\n\t{"bbox_2d": [35, 14, 100, 80], "label": "cup"},\n\t{"bbox_2d": [200, 120, 300, 200], '
        '"label": "cup"}\n]\n```',
        [("cup", [70.0, 28.0, 200.0, 160.0]), ("cup", [400.0, 240.0, 600.0, 400.0])],
    ),
    ('[{"bbox_2d": [10, 20, 30, 40], "label": "mug"}]', [("mug", [20.0, 40.0, 60.0, 80.0])]),
    # A single object, not a list; Python-style single quotes; text around; a wrapper object.
    ('{"bbox_2d": [10, 20, 30, 40], "label": "cup"}', [("cup", [20.0, 40.0, 60.0, 80.0])]),
    ("[{'bbox_2d': [10, 20, 30, 40], 'label': 'cup'}]", [("cup", [20.0, 40.0, 60.0, 80.0])]),
    (
        'The cups are {"bbox_2d": [10, 20, 30, 40], "label": "cup"} and {"bbox_2d": [50, 60, 70, 80], '
        '"label": "cup"}.',
        [("cup", [20.0, 40.0, 60.0, 80.0]), ("cup", [100.0, 120.0, 140.0, 160.0])],
    ),
    ('{"objects": [{"bbox_2d": [10, 20, 30, 40], "label": "cup"}]}', [("cup", [20.0, 40.0, 60.0, 80.0])]),
    # Truncated generation: the complete first object is kept, the cut second one dropped.
    ('```json\n[{"bbox_2d": [1, 2, 3, 4], "label": "a"}, {"bbox_2d": [5, 6', [("a", [2.0, 4.0, 6.0, 8.0])]),
    # Corners swapped are reordered; an overshoot is clipped to the frame (the Qwen maintainers' advice), a
    # box wholly outside or 3 numbers are dropped.
    ('[{"bbox_2d": [30, 40, 10, 20], "label": "cup"}]', [("cup", [20.0, 40.0, 60.0, 80.0])]),
    ('[{"bbox_2d": [300, 200, 322, 241], "label": "cup"}]', [("cup", [600.0, 400.0, 640.0, 480.0])]),
    ('[{"bbox_2d": [10, 20, 3000, 40], "label": "cup"}]', [("cup", [20.0, 40.0, 640.0, 80.0])]),
    ('[{"bbox_2d": [400, 300, 500, 400], "label": "cup"}]', []),
    ('[{"bbox_2d": [10, 20, 30], "label": "cup"}]', []),
    ('[{"bbox_2d": [10, 20, 10, 40], "label": "cup"}]', []),  # zero width
    ('[{"bbox_2d": ["10", "20", "30", "40"], "label": "cup"}]', [("cup", [20.0, 40.0, 60.0, 80.0])]),
    ('[{"bbox_2d": [10, 20, NaN, 40], "label": "cup"}]', []),
    # No label: the phrase asked about.
    ('[{"bbox_2d": [10, 20, 30, 40]}]', [("thing", [20.0, 40.0, 60.0, 80.0])]),
    ("[]", []),
    ("I cannot see any cup.", []),
]


@pytest.mark.parametrize(("text", "expected"), QWEN_CASES)
def test_qwen_boxes(text: str, expected: list) -> None:
    assert boxes(parse_qwen(text, SIZE, INPUT, default_label="thing")) == expected


def test_qwen_box_hits_carry_their_centre_as_point() -> None:
    [hit] = parse_qwen('[{"bbox_2d": [10, 20, 30, 40], "label": "cup"}]', SIZE, INPUT)
    assert hit.point == (40.0, 60.0)


def test_qwen_points_and_fences_without_closing() -> None:
    hits = parse_qwen(
        '```json\n[{"point_2d": [100, 50], "label": "cup"}, {"point_2d": [400, 5]}]', SIZE, INPUT
    )
    assert points(hits) == [("cup", 200.0, 100.0)]  # the second point is outside the 320-wide input


def test_qwen_without_input_size_reads_original_pixels() -> None:
    assert boxes(parse_qwen('[{"bbox_2d": [10, 20, 30, 40], "label": "c"}]', SIZE)) == [
        ("c", [10.0, 20.0, 30.0, 40.0])
    ]


def test_qwen_norm1000_and_qwen2_box_tokens() -> None:
    text = '[{"bbox_2d": [100, 250, 500, 1000], "label": "cup"}]'
    assert boxes(parse_qwen(text, SIZE, coords="norm1000")) == [("cup", [64.0, 120.0, 320.0, 480.0])]
    tokens = "<|object_ref_start|>the cup<|object_ref_end|><|box_start|>(100,200),(300,400)<|box_end|>"
    assert boxes(parse_qwen(tokens, SIZE)) == [("the cup", [64.0, 96.0, 192.0, 192.0])]


@pytest.mark.parametrize(
    "text",
    [
        None,
        42,
        "<points coords=",
        "{" * 5000,
        "[" * 5000 + "]" * 5000,
        '<point x="1e400" y="1">a</point>',
        "\x00<>",
    ],
)
def test_never_raises_on_garbage(text, caplog: pytest.LogCaptureFixture) -> None:
    assert parse_molmo(text, SIZE) == []
    assert parse_qwen(text, SIZE, INPUT) == []
    assert "unexpected failure" not in caplog.text  # handled as bad input, not by the last-resort guard


@pytest.mark.parametrize("size", [(0, 480), (640, -1), (float("nan"), 3), None, ("a", "b")])
def test_bad_image_size_gives_nothing(size) -> None:
    assert parse_molmo('<point x="10" y="10">a</point>', size) == []
    assert parse_qwen('[{"bbox_2d": [1, 2, 3, 4]}]', size) == []


def test_hundreds_of_points_are_bounded() -> None:
    coords = " ".join(f"{i} {100 + i % 800:03d} {200 + i % 700:03d}" for i in range(1, 1201))
    hits = parse_molmo(f'<points coords="1 {coords}">dots</points>', SIZE)
    assert len(hits) == MAX_HITS
    assert all(0 <= h.point[0] <= SIZE[0] and 0 <= h.point[1] <= SIZE[1] for h in hits)


def test_a_number_past_floats_range_drops_its_box_only() -> None:
    # JSON allows integers of any length; float() of one past ~1.8e308 raises OverflowError, which
    # used to cost the whole reply its boxes
    huge = "1" + "0" * 400
    text = (
        f'[{{"bbox_2d": [{huge}, 2, 30, 40], "label": "a"}}, {{"bbox_2d": [10, 2, 30, 40], "label": "cup"}}]'
    )
    hits = parse_qwen(text, (100, 100))
    boxes = [(h.label, (h.box.x0, h.box.y0, h.box.x1, h.box.y1)) for h in hits if h.box is not None]
    assert boxes == [("cup", (10.0, 2.0, 30.0, 40.0))] and len(hits) == 1
