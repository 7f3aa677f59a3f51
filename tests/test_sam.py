"""The segmenters on random weights of their real architectures (no download): one mask per point, the
embedding cache, background preparation and bad input.

SAM ViT-B's embedding costs ~13 s on two cores, so every ViT-B test shares the session's segmenter and the
cups image (one set_image in the whole session, also reused by tests/test_grounding_e2e.py).
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from PIL import Image

from models.errors import ModelError, ModelUnavailable
from models.segment_common import EmbeddingCache, pick_best
from ui.cli.perf_scene import cup_centres


@pytest.fixture(scope="module")
def cup_points(cups_image: Image.Image) -> np.ndarray:
    return np.array(cup_centres(*cups_image.size, 5))


def test_one_mask_per_point_batched(sam_vit_b_random, cups_image, cup_points) -> None:
    width, height = cups_image.size
    masks, scores = sam_vit_b_random.candidate_masks(cups_image, cup_points)
    assert masks.shape == (5, 3, height, width) and masks.dtype == bool
    assert scores.shape == (5, 3) and np.isfinite(scores).all()
    best, best_scores = sam_vit_b_random.segment_points(cups_image, cup_points)
    assert best.shape == (5, height, width) and best_scores.shape == (5,)
    for i, (x, y) in enumerate(cup_points.astype(int)):
        inside = [k for k in range(3) if masks[i, k, y, x]]
        if inside:  # the pick is the best-scoring candidate that contains the point
            k = max(inside, key=lambda k: scores[i, k])
            assert np.array_equal(best[i], masks[i, k]) and best_scores[i] == pytest.approx(scores[i, k])
    # Each point is its own prompt: one multi-point prompt would give five identical masks.
    assert len({m.tobytes() for m in best}) == 5
    # A point alone gives the same mask as in the batch (batching changes nothing but the speed).
    alone, _ = sam_vit_b_random.segment_points(cups_image, cup_points[2:3])
    agreement = (alone[0] == best[2]).mean()
    assert agreement > 0.999
    assert sam_vit_b_random.encoder_calls == 1  # every call above reused the one embedding


def test_embedding_cached_by_content(sam_vit_b_random, cups_image, cup_points) -> None:
    sam_vit_b_random.prepare(cups_image)
    calls = sam_vit_b_random.encoder_calls
    same_pixels = cups_image.copy()  # another object, same content
    assert sam_vit_b_random.is_prepared(same_pixels)
    start = time.perf_counter()
    sam_vit_b_random.segment_points(same_pixels, cup_points[:1])
    click_s = time.perf_counter() - start
    assert sam_vit_b_random.encoder_calls == calls
    assert click_s < 5.0  # a click on an embedded image is prompt decoding only (~0.1 s here)
    assert sam_vit_b_random.describe()["encoder_calls"] == calls


def test_box_prompts_and_points_outside_are_clipped(sam_vit_b_random, cups_image, cup_points) -> None:
    width, height = cups_image.size
    boxes = np.array([[x - 20, y - 30, x + 20, y + 30] for x, y in cup_points])
    masks, scores = sam_vit_b_random.candidate_masks(cups_image, cup_points, boxes)
    assert masks.shape == (5, 3, height, width)
    outside = np.array([[-50.0, 10.0], [width + 100.0, height + 100.0]])
    masks, scores = sam_vit_b_random.segment_points(cups_image, outside)
    assert masks.shape == (2, height, width) and scores.shape == (2,)


def test_bad_input_is_a_clear_error(sam_vit_b_random, cups_image) -> None:
    with pytest.raises(ModelError, match="too small"):
        sam_vit_b_random.segment_points(Image.new("RGB", (4, 300)), np.array([[1.0, 1.0]]))
    with pytest.raises(ModelError, match="too large"):
        sam_vit_b_random.prepare(Image.new("RGB", (9000, 16)))
    with pytest.raises(ModelError, match="N x 2"):
        sam_vit_b_random.segment_points(cups_image, np.zeros((3, 3)))
    with pytest.raises(ModelError, match="finite"):
        sam_vit_b_random.segment_points(cups_image, np.array([[np.nan, 3.0]]))
    with pytest.raises(ModelError, match="PIL image"):
        sam_vit_b_random.prepare(np.zeros((10, 10, 3)))  # type: ignore[arg-type]


def test_no_points_costs_no_embedding(sam_vit_b_random) -> None:
    calls = sam_vit_b_random.encoder_calls
    fresh = Image.new("RGB", (64, 48), (10, 200, 30))
    masks, scores = sam_vit_b_random.segment_points(fresh, np.zeros((0, 2)))
    assert masks.shape == (0, 48, 64) and scores.shape == (0,)
    assert sam_vit_b_random.encoder_calls == calls


def test_checkpoint_errors_say_what_to_do(tmp_path, monkeypatch) -> None:
    import torch

    from models.registry import create_segmenter
    from models.sam import SamSegmenter

    monkeypatch.setenv("WHICHONE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("WHICHONE_SAM_CHECKPOINT", raising=False)
    with pytest.raises(
        ModelUnavailable, match=r"download https://dl\.fbaipublicfiles\.com/.*sam_vit_b_01ec64\.pth"
    ):
        SamSegmenter("vit_b")
    monkeypatch.setenv("WHICHONE_SAM_CHECKPOINT", str(tmp_path / "nowhere.pth"))
    with pytest.raises(ModelUnavailable, match="nowhere.pth"):  # the registry hands the variable on
        create_segmenter("sam-vit-b")
    with pytest.raises(ModelUnavailable, match="unknown SAM variant"):
        SamSegmenter("vit_x", "random")
    wrong = tmp_path / "wrong.pth"
    torch.save({"not_a_sam_weight": torch.zeros(2)}, wrong)
    with pytest.raises(ModelUnavailable, match="not a SAM vit_b checkpoint"):
        SamSegmenter("vit_b", wrong)


def test_registry_builds_segmenters_by_name() -> None:
    from models.registry import create_segmenter, list_models

    names = {s.name for s in list_models("segmenter")}
    assert {"sam-vit-b", "sam-vit-l", "sam-vit-h", "sam2-hiera-tiny"} <= names
    with pytest.raises(ModelUnavailable, match="unknown SAM variant|weights are not at|there is no"):
        create_segmenter("sam-vit-x")


# ---------------------------------------------------------------- the embedding cache and background work


def test_cache_computes_once_for_concurrent_callers() -> None:
    cache: EmbeddingCache[object] = EmbeddingCache(capacity=2)
    release, started = threading.Event(), threading.Event()
    computed: list[int] = []

    def slow() -> object:
        started.set()
        release.wait(5)
        computed.append(1)
        return object()

    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(cache.get("img", slow))) for _ in range(6)]
    for t in threads:
        t.start()
    assert started.wait(5) and cache.in_flight("img")
    release.set()
    for t in threads:
        t.join(5)
    assert len(computed) == 1 and len(results) == 6 and len({id(r) for r in results}) == 1
    assert cache.misses == 1 and cache.hits == 5


def test_cache_is_a_bounded_lru_and_does_not_keep_failures() -> None:
    cache: EmbeddingCache[str] = EmbeddingCache(capacity=2)
    cache.get("a", lambda: "A")
    cache.get("b", lambda: "B")
    cache.get("a", lambda: "A2")  # a is now the most recent
    cache.get("c", lambda: "C")  # evicts b
    assert "a" in cache and "c" in cache and "b" not in cache and len(cache) == 2

    def boom() -> str:
        raise ModelError("embedding failed")

    with pytest.raises(ModelError):
        cache.get("d", boom)
    assert "d" not in cache and not cache.in_flight("d")
    assert cache.get("d", lambda: "D") == "D"  # the next call tries again


def test_pick_best_prefers_a_mask_containing_the_point() -> None:
    masks = np.zeros((2, 3, 4, 4), dtype=bool)
    masks[0, 0, 0, 0] = True  # best score, but does not contain the point (3, 3)
    masks[0, 1, 3, 3] = True
    masks[1, 2, 1, 1] = True  # point 2 lies in no candidate: the best-scoring non-empty one
    scores = np.array([[0.9, 0.5, 0.1], [0.9, 0.8, 0.2]])
    best, best_scores = pick_best(masks, scores, np.array([[3.0, 3.0], [0.0, 0.0]]))
    assert best[0, 3, 3] and best_scores[0] == pytest.approx(0.5)
    assert best[1, 1, 1] and best_scores[1] == pytest.approx(0.2)


def test_sam2_light_segmenter_prepares_in_background(cups_image, cup_points) -> None:
    """The grounder starts the embedding on upload and returns at once; the next call waits for it."""
    from assistant.grounding import Grounder
    from models.blob_pointer import BlobPointer
    from models.sam2 import Sam2Segmenter

    seg = Sam2Segmenter("random", device="cpu")
    image = cups_image.copy()
    image.putpixel((1, 1), (1, 2, 3))  # new content: nothing cached
    grounder = Grounder(BlobPointer(), seg)
    start = time.perf_counter()
    future = grounder.prepare(image)
    assert future is not None and time.perf_counter() - start < 1.0  # returned before the embedding ran
    masks, scores = seg.segment_points(image, cup_points)  # waits for the background embedding
    future.result(60)
    assert masks.shape == (5, *image.size[::-1]) and scores.shape == (5,)
    assert seg.encoder_calls == 1 and seg.is_prepared(image)
    assert seg.describe()["prompts_per_batch"] == 2  # on a CPU
    grounder.close()
