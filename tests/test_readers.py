"""models.readers on what real models wrote: the 24 published replies of ../shared/datasets/real-model-outputs
(Qwen2.5-VL, Qwen2-VL, Qwen3-VL, Molmo, Molmo2, PaliGemma, Florence-2), the `parse-grounding` command, and
replies in every bad shape."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from models.families import family_table
from models.families.qwen import qwen2_5_vl_frame
from models.readers import read_grounding
from tests.ui_support import REPO
from ui.cli import app
from ui.cli.ask import FAMILY_NAMES

CORPUS = REPO.parent / "shared" / "datasets" / "real-model-outputs" / "corpus.jsonl"


def corpus() -> list[dict]:
    if not CORPUS.exists():
        pytest.skip(f"the real-model-outputs corpus is not at {CORPUS}")
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def read_right(case: dict) -> bool:
    expected = case["expected"]
    tolerance = case.get("tolerance_px", 1.0) + 1e-6
    got = read_grounding(
        case["raw"], case["family"], case["image_size"], case.get("model_input_size")
    ).to_json()
    found = got["boxes"] if expected["kind"] == "boxes" else got["points"]
    wanted = expected["boxes"] if expected["kind"] == "boxes" else expected["points"]
    if not (len(found) == len(wanted) == expected["count"]):
        return False
    if any(
        abs(a - b) > tolerance for f, w in zip(found, wanted, strict=True) for a, b in zip(f, w, strict=True)
    ):
        return False
    return "labels" not in expected or got["labels"] == expected["labels"]


def test_the_real_replies_are_read_right(capsys) -> None:
    cases = corpus()
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    wrong = []
    for case in cases:
        total[case["family"]] += 1
        if read_right(case):
            right[case["family"]] += 1
        else:
            wrong.append(case["id"])
    with capsys.disabled():
        print("\ncorpus: " + ", ".join(f"{f} {right[f]} of {total[f]}" for f in total) + f"; wrong: {wrong}")
    assert len(cases) == 24 and sum(right.values()) >= 23, wrong
    assert set(total) == set(family_table().names()) == set(FAMILY_NAMES)


def test_qwen2_5_vl_frames_follow_the_processors_resize_rule() -> None:
    cases = [c for c in corpus() if c["family"] == "qwen2.5-vl"]
    assert cases
    for case in cases:
        assert list(qwen2_5_vl_frame(case["image_size"])) == case["model_input_size"], case["id"]


def test_broken_qwen3_json_keeps_every_well_formed_object() -> None:
    case = next(c for c in corpus() if c["id"] == "q3-anime-malformed-json")
    got = read_grounding(case["raw"], "qwen3-vl", case["image_size"]).to_json()
    assert got["labels"] == case["expected"]["labels"]  # all 9, the one after the doubled "{" included


def test_a_box_overshooting_the_frame_is_clipped_not_dropped() -> None:
    # Qwen2.5-VL on a 640 x 465 photo reads a 644 x 476 frame; the model wrote past its right edge.
    got = read_grounding('[{"bbox_2d": [600, 10, 700, 100], "label": "edge"}]', "qwen2.5-vl", (640, 465))
    assert got.to_json()["boxes"] == [[596.27, 9.77, 640.0, 97.69]]


def run_cli(raw: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["parse-grounding", *args], input=raw)
    return result.exit_code, result.stdout, result.stderr


def test_parse_grounding_prints_original_image_pixels() -> None:
    case = next(c for c in corpus() if c["id"] == "q3-tool-call-zoom-bbox")
    code, out, err = run_cli(case["raw"], "--family", "qwen3-vl", "--image-size", "2460", "1612")
    assert code == 0, err
    got = json.loads(out)
    assert set(got) == {"boxes", "points", "labels", "notes"}
    assert got["labels"] == ["main hanging sign for Hop Inn"] and got["points"] == []
    assert all(abs(a - b) <= 0.6 for a, b in zip(got["boxes"][0], case["expected"]["boxes"][0], strict=True))
    # --input-size: the frame the server resized to, when it is not the processor's default
    code, out, _ = run_cli(
        '[{"bbox_2d": [10, 10, 50, 50], "label": "x"}]',
        "--family", "qwen2.5-vl", "--image-size", "200", "100", "--input-size", "100", "50",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["boxes"] == [[20.0, 20.0, 100.0, 100.0]]


@pytest.mark.parametrize(
    ("raw", "family", "note"),
    [
        ("", "qwen3-vl", "the reply is empty"),
        ("I cannot see any cup.", "molmo2", "no molmo2 boxes or points"),
        ("x" * 300_000, "qwen2.5-vl", "only the first 200,000 were read"),
        ("[" * 5000 + "]" * 5000, "qwen3-vl", "no qwen3-vl boxes"),
        ('[{"bbox_2d": [NaN, -5, 1e308, "x"]}]', "qwen3-vl", "no qwen3-vl boxes"),
        (
            '{"a": {"a": {"a": {"a": {"a": {"a": {"a": {"a": {"a": {"a": {}}}}}}}}}}}',
            "qwen2-vl",
            "no qwen2-vl",
        ),
        ("<loc9999><loc-1><loc0000> cat", "paligemma", "no paligemma boxes"),
        ("<loc_1><loc_2> car", "florence-2", "no florence-2 boxes"),
    ],
)
def test_bad_replies_give_an_empty_reading_with_a_note(raw: str, family: str, note: str) -> None:
    reading = read_grounding(raw, family, (640, 480))
    assert reading.groundings == [] and any(note in n for n in reading.notes), reading.notes


def test_thousands_of_boxes_are_capped_with_a_note() -> None:
    raw = json.dumps([{"bbox_2d": [i % 900, 10, i % 900 + 50, 60], "label": "dot"} for i in range(3000)])
    reading = read_grounding(raw, "qwen3-vl", (1000, 1000))
    assert len(reading.groundings) == 500 and any("first 500" in n for n in reading.notes)


def test_bad_command_lines_print_one_line() -> None:
    code, _, err = run_cli("[]", "--family", "gemini", "--image-size", "10", "10")
    assert code == 2 and "unknown family 'gemini'" in err and len(err.strip().splitlines()) == 1
    code, _, err = run_cli("[]", "--family", "molmo", "--image-size", "0", "10")
    assert code == 2 and "image size" in err


def test_the_apps_vlm_pointer_reads_every_qwen_and_molmo_reply_as_parse_grounding_does() -> None:
    """One reader: the pointer the app asks (a served model behind the real OpenAI-compatible adapter,
    whose family the setting gives) gets the same boxes and points as `whichone parse-grounding`."""
    from PIL import Image

    from models.openai_vlm import OpenAICompatibleVLM
    from models.vlm_pointer import VLMPointer

    checked = 0
    for case in corpus():
        family = family_table().named(case["family"])
        if family.pointer is None:
            continue  # not grounding output a VLM pointer asks for
        served = {"base_url": "http://127.0.0.1:9/v1", "api_key": "-", "max_image_side": None}
        vlm = OpenAICompatibleVLM(case["model"], grounding=family, **served)
        output = family.pointer.output
        image = Image.new("RGB", tuple(case["image_size"]))
        hits = VLMPointer(vlm, output=output).parse(case["raw"], image)
        reading = read_grounding(case["raw"], family, case["image_size"], vlm.model_input_size(image))
        assert [(h.label, h.point, h.box) for h in hits] == [
            (g.label, g.point, g.box) for g in reading.groundings
        ], case["id"]
        checked += 1
    assert checked == 21
