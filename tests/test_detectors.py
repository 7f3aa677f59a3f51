"""Open-vocabulary detector pointers (models/detectors.py) on tiny random checkpoints of the real classes:
query wording, transformers' post-processing + supervision's NMS, box-prompted SAM 2.1 masks, and the
whole turn through Assistant.ask / resolve with each detector."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assistant.grounding import Grounder, select_masks
from assistant.iou import box_iou
from assistant.pipeline import Assistant, AssistantConfig
from assistant.types import Strategy
from models.detectors import DetectorPointer, detector_query
from models.errors import ModelError, ModelUnavailable
from models.sam2 import Sam2Segmenter
from models.tiny import build_tiny
from models.tiny_detectors import TINY_DETECTOR_RECIPES, TINY_DETECTORS
from models.tiny_sam2 import TINY_SAM2
from models.types import Box, Grounding

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(scope="module")
def detector_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("detectors")
    return {kind: build_tiny(TINY_DETECTOR_RECIPES[kind], root / kind) for kind in TINY_DETECTORS}


@pytest.fixture(scope="module")
def sam2_tiny(tmp_path_factory: pytest.TempPathFactory) -> Sam2Segmenter:
    return Sam2Segmenter(str(build_tiny(TINY_SAM2, tmp_path_factory.mktemp("sam2") / "sam2")), device="cpu")


def _scene() -> Image.Image:
    rng = np.random.default_rng(3)
    return Image.fromarray(rng.integers(0, 255, (240, 320, 3), dtype=np.uint8))


# ---------------------------------------------------------------- the query


@pytest.mark.parametrize(
    ("family", "phrase", "query"),
    [
        ("owlvit", "red cup", "a photo of a red cup"),
        ("owlv2", "  red   cup ", "a photo of a red cup"),
        ("grounding-dino", "Red Cup", "red cup."),
        ("grounding-dino", "red cup.", "red cup."),
        ("owlvit", "", ""),
        ("grounding-dino", " . ", ""),
    ],
)
def test_the_phrase_becomes_each_detectors_query(family, phrase, query) -> None:
    assert detector_query(family, phrase) == query


def test_a_long_phrase_is_cut_before_it_becomes_a_query() -> None:
    assert len(detector_query("owlvit", "cup " * 500)) <= len("a photo of a ") + 120


# ---------------------------------------------------------------- detection


@pytest.mark.parametrize("kind", TINY_DETECTORS)
def test_each_detector_gives_boxes_in_image_pixels_best_first_after_nms(kind, detector_dirs) -> None:
    pointer = DetectorPointer(str(detector_dirs[kind]), threshold=0.0, device="cpu")
    assert pointer.family == ("grounding-dino" if "dino" in kind else kind)
    image = _scene()
    hits = pointer.point(image, "red cup")
    assert hits, "threshold 0 keeps every box the model scores"
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    for hit in hits:
        assert hit.label == "red cup" and hit.source == pointer.name and hit.point is None
        assert 0 <= hit.box.x0 < hit.box.x1 <= 320 and 0 <= hit.box.y0 < hit.box.y1 <= 240
        assert hit.box.width >= 1 and hit.box.height >= 1
    for i, a in enumerate(hits):  # class-agnostic NMS left no pair above its IoU
        assert all(box_iou(a.box, b.box) <= pointer.nms_iou + 1e-6 for b in hits[i + 1 :])
    info = pointer.describe()
    assert info["quantisation"] == "int8" and info["device"] == "cpu"


@pytest.mark.parametrize("kind", ["owlvit", "owlv2"])
@pytest.mark.parametrize("phrase", ["red cup", "person on the left with a very long description of a hat"])
def test_an_owl_detector_read_in_two_parts_gives_what_one_forward_gives(kind, phrase, detector_dirs) -> None:
    """The photo's part (prepared on upload) and the phrase's part give the logits and boxes of the model's
    own forward on the same inputs, and so the same hits."""
    import torch

    pointer = DetectorPointer(str(detector_dirs[kind]), threshold=0.0, device="cpu", quantise="none")
    image, query = _scene(), detector_query(pointer.family, phrase)
    inputs = pointer._processor(
        images=image,
        text=[[query]],
        truncation=True,
        max_length=pointer._max_text_tokens,
        return_tensors="pt",
    )
    with torch.inference_mode():
        whole = pointer._model(**inputs)
    hits_before = pointer.point(image, phrase)  # the photo read now, in the call
    assert pointer._images.misses == 1
    pointer.prepare_image(image)  # as on upload: already there, not read again
    assert pointer._images.misses == 1
    parts = pointer._owl_outputs(pointer._photo_part(image), query)  # as detect() passes it
    torch.testing.assert_close(parts.logits, whole.logits)
    torch.testing.assert_close(parts.pred_boxes, whole.pred_boxes)
    assert pointer.point(image, phrase) == hits_before


def test_the_grounder_prepares_the_detector_and_the_segmenter_on_upload(detector_dirs, sam2_tiny) -> None:
    pointer = DetectorPointer(str(detector_dirs["owlvit"]), threshold=0.0, device="cpu")
    grounder = Grounder(pointer, sam2_tiny)
    image = _scene()
    future = grounder.prepare(image, owner="a")
    assert future is not None
    future.result(timeout=120)
    assert pointer._images.misses == 1 and sam2_tiny.is_prepared(image)
    grounder.candidates(image, "red cup")
    assert pointer._images.misses == 1  # the question did not read the photo again
    grounder.close()


def test_a_higher_threshold_keeps_fewer_boxes(detector_dirs) -> None:
    image = _scene()
    every = DetectorPointer(str(detector_dirs["grounding-dino"]), threshold=0.0).point(image, "cup")
    sure = DetectorPointer(str(detector_dirs["grounding-dino"]), threshold=0.9999).point(image, "cup")
    assert len(sure) <= len(every)
    assert all(h.score >= 0.9999 for h in sure)


@pytest.mark.parametrize(
    "phrase", ["", "   ", "tasse rouge", "红色的杯子", "cup " * 300, "<|endoftext|> cup"]
)
def test_empty_foreign_long_or_odd_phrases_never_crash(phrase, detector_dirs) -> None:
    for kind in ("owlvit", "grounding-dino"):
        hits = DetectorPointer(str(detector_dirs[kind]), threshold=0.0).point(_scene(), phrase)
        assert isinstance(hits, list)
        if not phrase.strip():
            assert hits == []


def test_a_detector_that_is_not_downloaded_says_how_to_get_it(monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelUnavailable, match="not downloaded here.*hf download"):
        DetectorPointer("google/owlvit-base-patch32")


def test_a_folder_that_is_not_a_detector_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable):
        DetectorPointer(str(tmp_path))
    with pytest.raises(ModelUnavailable, match="family"):
        DetectorPointer("random")


def test_too_small_an_image_is_a_model_error(detector_dirs) -> None:
    with pytest.raises(ModelError, match="too small"):
        DetectorPointer(str(detector_dirs["owlvit"])).point(Image.new("RGB", (4, 4)), "cup")


# ---------------------------------------------------------------- box prompts and the mask rules


def test_a_box_only_hit_keeps_a_mask_that_fits_its_box_even_without_its_centre() -> None:
    """A ring: box-prompted SAM outlines it, its centre is not on it. A point hit would refuse that mask."""
    height, width = 100, 100
    ring = np.zeros((height, width), dtype=bool)
    ring[20:80, 20:80] = True
    ring[35:65, 35:65] = False
    masks, scores = ring[None, None], np.array([[0.9]], dtype=np.float32)
    box_hit = Grounding("ring", point=(50.0, 50.0), box=Box(20, 20, 80, 80), score=0.7)
    kept, _, refused = select_masks(masks, scores, [box_hit], box_only=[True])
    assert refused == 0 and kept[0].sum() == ring.sum()
    _, _, refused_as_point = select_masks(masks, scores, [box_hit], box_only=[False])
    assert refused_as_point == 1
    # A box-only hit refuses a mask that fills a small part of its box.
    speck = np.zeros((height, width), dtype=bool)
    speck[45:55, 45:55] = True
    _, _, refused_speck = select_masks(speck[None, None], scores, [box_hit], box_only=[True])
    assert refused_speck == 1


class _RecordingSam2(Sam2Segmenter):
    """The real tiny SAM 2.1, remembering the box prompts it was given."""

    boxes_seen: list[np.ndarray | None]

    def candidate_masks(self, image, points, boxes=None):
        self.boxes_seen.append(None if boxes is None else np.asarray(boxes))
        return super().candidate_masks(image, points, boxes)


def test_detector_boxes_prompt_sam2_and_the_detector_score_reaches_the_region(
    detector_dirs, tmp_path
) -> None:
    segmenter = _RecordingSam2(str(build_tiny(TINY_SAM2, tmp_path / "sam2")), device="cpu")
    segmenter.boxes_seen = []
    pointer = DetectorPointer(str(detector_dirs["grounding-dino"]), threshold=0.0)
    image = _scene()
    hits = pointer.point(image, "cup")
    candidates = Grounder(pointer, segmenter).candidates(image, "cup")
    assert segmenter.boxes_seen and segmenter.boxes_seen[0] is not None
    assert len(segmenter.boxes_seen[0]) == min(len(hits), 12)
    best = max(h.score for h in hits)
    for region in candidates.regions:
        # The pointer's confidence times the mask's quality; a box region carries the confidence alone.
        assert 0.0 <= region.score <= best + 1e-6
        if region.mask is None:
            assert any(abs(region.score - h.score) < 1e-6 for h in hits)


def test_hundreds_of_boxes_are_capped_with_a_note(detector_dirs) -> None:
    class Many:
        name = "many"

        def point(self, image, phrase):
            rng = np.random.default_rng(0)
            out = []
            for _ in range(300):
                x, y = rng.uniform(0, 280), rng.uniform(0, 200)
                out.append(Grounding(phrase, None, Box(x, y, x + 30, y + 30), float(rng.uniform()), "many"))
            return out

    candidates = Grounder(Many()).candidates(_scene(), "cup")
    assert len(candidates.regions) <= 12
    assert any("kept the 12 highest-scoring" in note for note in candidates.notes)


# ---------------------------------------------------------------- the whole turn


@pytest.fixture(scope="module")
def smol(tmp_path_factory: pytest.TempPathFactory):
    from models.registry import create_vlm

    return create_vlm("smolvlm-tiny", target_dir=tmp_path_factory.mktemp("smol") / "smolvlm", device="cpu")


@pytest.mark.parametrize("kind", TINY_DETECTORS)
def test_ask_and_resolve_with_each_tiny_detector_and_tiny_sam2(kind, detector_dirs, sam2_tiny, smol) -> None:
    pointer = DetectorPointer(str(detector_dirs[kind]), threshold=0.0)
    assistant = Assistant(smol, Grounder(pointer, sam2_tiny), AssistantConfig())
    reply, session = assistant.ask(_scene(), "What colour is the cup?")
    assert reply.candidates.regions, reply.candidates.notes
    assert all(r.source == pointer.name for r in reply.candidates.regions)
    assert reply.ambiguity_probability is not None and 0.0 <= reply.ambiguity_probability <= 1.0
    assert reply.model_calls["pointer"] == 1 and reply.model_calls["vlm"] >= 1
    second, session = assistant.resolve(session, reply.candidates.regions[0].id)
    assert second.strategy is Strategy.ANSWER and second.resolved_region == reply.candidates.regions[0].id
    assert second.text.startswith(f"About {reply.candidates.regions[0].description}")


def test_a_detector_that_finds_nothing_answers_about_the_whole_photo(detector_dirs, smol) -> None:
    pointer = DetectorPointer(str(detector_dirs["mm-grounding-dino"]), threshold=1.0)  # nothing passes
    assistant = Assistant(smol, Grounder(pointer), AssistantConfig(ambiguity_threshold=1.0))
    reply, _ = assistant.ask(_scene(), "What colour is the cup?")
    assert reply.candidates.regions == []
    assert any("found no cup" in note for note in reply.candidates.notes)
    assert reply.strategy is Strategy.ANSWER
