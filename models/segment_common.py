"""What every segmenter adapter shares: the embedding cache, input checks and the best-mask pick.

The image embedding is the expensive part of SAM (seconds on a CPU); prompts are cheap (tens of ms). So the
embedding is computed once per image content, possibly early and in a background thread, and kept in a small
LRU. A second caller asking for an embedding that is being computed waits for it instead of computing it
again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from types import ModuleType
from typing import Generic, TypeVar

import numpy as np
from PIL import Image

from models.base import Ability, ModelBase
from models.device import pick_device
from models.errors import ModelError
from models.pixels import image_digest

T = TypeVar("T")
E = TypeVar("E")

MIN_SIDE = 8  # SAM's encoder resizes anything up to 1024, but below this there is nothing to segment
MAX_SIDE = 8192  # masks come back at the original size: N x H x W; beyond this they stop fitting in memory
MASK_MEMORY_BYTES = 256 * 2**20  # float logits of one decoder chunk (N x 3 x (side² + H x W) x 4 B)
# Prompts decoded together on a CPU. The mask decoder attends over all 4096 image tokens once per prompt
# (B x 4096 x 256 floats a layer) and upsamples 3 logits maps a prompt to 1024 x 1024, so batching saves no
# work on a CPU; small batches keep those tensors in cache. Measured on 2 cores (vit_b, 5 points, 640 x
# 480): one call took 0.94-1.14x the time of 5 single calls across runs, no better in one batch of 5 than in
# batches of 2. On CUDA every prompt goes in one batch (bounded by MASK_MEMORY_BYTES), where batching pays.
CPU_PROMPTS_PER_BATCH = 2


def check_image(image: Image.Image, who: str) -> Image.Image:
    """The image as RGB, or a ModelError that says plainly why it cannot be segmented."""
    if not isinstance(image, Image.Image):
        raise ModelError(f"{who} needs a PIL image, got {type(image).__name__}")
    width, height = image.size
    if min(width, height) < MIN_SIDE:
        raise ModelError(
            f"the image is too small to segment ({width} x {height} pixels; {who} needs at least {MIN_SIDE})"
        )
    if max(width, height) > MAX_SIDE:
        raise ModelError(
            f"the image is too large to segment ({width} x {height} pixels; at most {MAX_SIDE} a side: "
            "scale it down first)"
        )
    return image if image.mode == "RGB" else image.convert("RGB")


def check_points(points: np.ndarray, image_size: tuple[int, int]) -> np.ndarray:
    """points N x 2 (x, y) -> float64 N x 2 clipped into the image; a ModelError for a wrong shape or NaN."""
    array = np.asarray(points, dtype=np.float64)
    if array.size == 0:
        return np.zeros((0, 2), dtype=np.float64)
    if array.ndim != 2 or array.shape[1] != 2:
        raise ModelError(f"points must be an N x 2 array of (x, y); got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ModelError("points must be finite numbers (got NaN or infinity)")
    width, height = image_size
    # A point on the far border (x == width) is the last pixel, as the pointers' 0-100% scales allow.
    array[:, 0] = np.clip(array[:, 0], 0.0, width - 1.0)
    array[:, 1] = np.clip(array[:, 1], 0.0, height - 1.0)
    return array


def check_boxes(boxes: np.ndarray | None, n: int, image_size: tuple[int, int]) -> np.ndarray | None:
    """boxes N x 4 (x0, y0, x1, y1) clipped into the image, or None."""
    if boxes is None:
        return None
    array = np.asarray(boxes, dtype=np.float64)
    if array.shape != (n, 4) or not np.isfinite(array).all():
        raise ModelError(f"boxes must be an N x 4 array matching the {n} points; got shape {array.shape}")
    width, height = image_size
    array[:, [0, 2]] = np.clip(array[:, [0, 2]], 0.0, float(width))
    array[:, [1, 3]] = np.clip(array[:, [1, 3]], 0.0, float(height))
    return array


def torch_device(torch: ModuleType, device: str | None) -> str:
    """The device asked for, else cuda > mps > cpu (models/device.py); ModelUnavailable for a device that
    is not here."""
    return pick_device(device)


def default_prompts_per_batch(device: str, prompts_per_batch: int | None) -> int | None:
    """The batch size asked for, else all prompts at once on CUDA (None), CPU_PROMPTS_PER_BATCH on a CPU."""
    return prompts_per_batch or (None if device.startswith("cuda") else CPU_PROMPTS_PER_BATCH)


def prompt_chunk(side: int, height: int, width: int, prompts_per_batch: int | None) -> int:
    """Prompts per decoder batch: 3 logits maps each, upsampled to side x side then to H x W (float32), within
    MASK_MEMORY_BYTES, and at most `prompts_per_batch` (None: no cap)."""
    chunk = max(1, MASK_MEMORY_BYTES // (3 * (side * side + height * width) * 4))
    return min(chunk, prompts_per_batch or chunk)


def pick_best(masks: np.ndarray, scores: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """masks N x K x H x W bool, scores N x K, points N x 2 -> (N x H x W, N): per point, the best-scoring
    candidate that contains its point, else the best-scoring non-empty one, else the best-scoring one."""
    n = masks.shape[0]
    if n == 0:
        return masks[:, 0] if masks.ndim == 4 else masks, np.zeros((0,), dtype=np.float32)
    height, width = masks.shape[2:]
    chosen = np.empty((n,), dtype=np.int64)
    for i in range(n):
        x = min(max(int(points[i, 0]), 0), width - 1)
        y = min(max(int(points[i, 1]), 0), height - 1)
        order = np.argsort(-scores[i], kind="stable")
        inside = [k for k in order if masks[i, k, y, x]]
        non_empty = [k for k in order if masks[i, k].any()]
        chosen[i] = (inside or non_empty or [int(order[0])])[0]
    rows = np.arange(n)
    return masks[rows, chosen], scores[rows, chosen].astype(np.float32)


class EmbeddingCache(Generic[T]):
    """A thread-safe LRU of computed values with one computation per key in flight.

    `get(key, compute)` returns the cached value, waits for a computation of the same key running in another
    thread, or runs `compute()` itself. A failed computation is not cached: every waiter gets its error and
    the next call tries again.
    """

    def __init__(self, capacity: int = 4) -> None:
        if capacity < 1:
            raise ValueError("the embedding cache must hold at least one image")
        self.capacity = capacity
        self._done: OrderedDict[Hashable, T] = OrderedDict()
        self._in_flight: dict[Hashable, Future[T]] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0  # computations started

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._done

    def __len__(self) -> int:
        with self._lock:
            return len(self._done)

    def in_flight(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._in_flight

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                self.hits += 1
                return self._done[key]
            future = self._in_flight.get(key)
            owner = future is None
            if owner:
                future = Future()
                self._in_flight[key] = future
                self.misses += 1
            else:
                self.hits += 1
        assert future is not None
        if not owner:
            return future.result()
        try:
            value = compute()
        except BaseException as error:
            with self._lock:
                self._in_flight.pop(key, None)
            future.set_exception(error)
            raise
        with self._lock:
            self._done[key] = value
            self._done.move_to_end(key)
            while len(self._done) > self.capacity:
                self._done.popitem(last=False)
            self._in_flight.pop(key, None)
        future.set_result(value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._done.clear()


class CachedEmbeddingSegmenter(ModelBase, Generic[E]):
    """The Segmenter methods every adapter shares around its own `_embed` and `candidate_masks`.

    A subclass sets `name`, `_cache` (an EmbeddingCache of its embedding type E), `encoder_calls` and
    `_count_lock`, and implements `_embed(rgb) -> E` and `candidate_masks(image, points, boxes)` ->
    (masks N x K x H x W bool, scores N x K).
    """

    ABILITIES = frozenset({Ability.MULTIMASK})

    name: str
    _cache: EmbeddingCache[E]
    encoder_calls: int
    _count_lock: threading.Lock

    def _embed(self, image: Image.Image) -> E:
        raise NotImplementedError

    def candidate_masks(
        self, image: Image.Image, points: np.ndarray, boxes: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def _count_encoder_call(self) -> None:
        with self._count_lock:
            self.encoder_calls += 1

    def embedding(self, image: Image.Image) -> E:
        """The image's embedding: cached, awaited if another thread is computing it, else computed now."""
        rgb = check_image(image, self.name)
        return self._cache.get(image_digest(rgb), lambda: self._embed(rgb))

    def prepare(self, image: Image.Image) -> None:
        """Compute and cache the embedding (blocking; run it in a thread to overlap other work)."""
        self.embedding(image)

    def is_prepared(self, image: Image.Image) -> bool:
        return image_digest(image if image.mode == "RGB" else image.convert("RGB")) in self._cache

    def segment_points(
        self, image: Image.Image, points: np.ndarray, boxes: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """points N x 2 -> (masks N x H x W bool, scores N): per point the best-scoring mask containing it."""
        masks, scores = self.candidate_masks(image, points, boxes)
        return pick_best(masks, scores, check_points(points, image.size))
