"""Segment Anything (segment-anything's SamPredictor, ViT-B / ViT-L / ViT-H) behind the Segmenter protocol.

One image embedding per image content (SamPredictor.set_image), cached in a small LRU and computable early in
a background thread (`prepare`); then one mask per point prompt, the points of one call batched through
`predict_torch` (B x 1 x 2: each point its own prompt, never one multi-point prompt that would merge the
objects; all in one batch on CUDA, batches of segment_common.CPU_PROMPTS_PER_BATCH on a CPU),
multimask output with the best-scoring mask per point.

Weights: `checkpoint` (a path), else $WHICHONE_SAM_CHECKPOINT, else <cache>/sam/<official file name>.
`checkpoint="random"` builds the real architecture with random weights: masks are noise but the compute is
the real one (tests, `whichone perf`). The official files: https://dl.fbaipublicfiles.com/segment_anything/
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PIL import Image

from models.compute import on_compute_thread
from models.errors import ModelError, ModelOutOfMemory, ModelUnavailable
from models.segment_common import (
    CachedEmbeddingSegmenter,
    EmbeddingCache,
    check_boxes,
    check_image,
    check_points,
    default_prompts_per_batch,
    prompt_chunk,
    torch_device,
)
from models.tiny import default_cache_dir

CHECKPOINT_ENV = "WHICHONE_SAM_CHECKPOINT"
CHECKPOINT_FILES = {
    "vit_b": "sam_vit_b_01ec64.pth",
    "vit_l": "sam_vit_l_0b3195.pth",
    "vit_h": "sam_vit_h_4b8939.pth",
}
DOWNLOAD_URL = "https://dl.fbaipublicfiles.com/segment_anything/"

if TYPE_CHECKING:
    import torch


@dataclass(frozen=True)
class SamEmbedding:
    """What SamPredictor.set_image leaves behind: features 1 x 256 x 64 x 64 and the two sizes (h, w)."""

    features: torch.Tensor
    original_size: tuple[int, int]
    input_size: tuple[int, int]


def default_checkpoint(variant: str) -> Path:

    return default_cache_dir() / "sam" / CHECKPOINT_FILES[variant]


class SamSegmenter(CachedEmbeddingSegmenter[SamEmbedding]):
    """SAM through segment-anything. `variant`: "vit_b", "vit_l" or "vit_h"."""

    def __init__(
        self,
        variant: str = "vit_b",
        checkpoint: str | os.PathLike[str] | None = None,
        *,
        device: str | None = None,
        cache_size: int = 4,
        prompts_per_batch: int | None = None,
        name: str | None = None,
    ) -> None:
        if variant not in CHECKPOINT_FILES:
            raise ModelUnavailable(
                f"unknown SAM variant {variant!r}; choose one of {', '.join(CHECKPOINT_FILES)}"
            )
        self.variant = variant
        self.random_weights = str(checkpoint) == "random"
        self.checkpoint = None if self.random_weights else self._resolve_checkpoint(checkpoint)
        self.name = name or f"sam-{variant.replace('_', '-')}{'-random' if self.random_weights else ''}"
        self._cache: EmbeddingCache[SamEmbedding] = EmbeddingCache(cache_size)
        self.encoder_calls = 0  # how many set_image calls ran (a cached or shared embedding does not count)
        self._count_lock = threading.Lock()
        self._load(device)
        self.prompts_per_batch = default_prompts_per_batch(self.device, prompts_per_batch)

    # ---------------------------------------------------------------- loading

    def _resolve_checkpoint(self, checkpoint: str | os.PathLike[str] | None) -> Path:
        source = checkpoint or default_checkpoint(self.variant)
        path = Path(source).expanduser()
        if not path.is_file():
            file = CHECKPOINT_FILES[self.variant]
            raise ModelUnavailable(
                f"SAM {self.variant} weights are not at {path}: download {DOWNLOAD_URL}{file} and pass "
                f"its path (checkpoint=, or ${CHECKPOINT_ENV}); checkpoint='random' builds random weights"
            )
        return path

    def _load(self, device: str | None) -> None:
        try:
            import torch
            from segment_anything import sam_model_registry
        except ImportError as error:
            raise ModelUnavailable(
                f"SAM needs torch and segment-anything: {error} (pip install whichone)"
            ) from error
        self._torch = torch
        self.device = torch_device(torch, device)
        # Random weights are the same in every run (tests, perf); the global RNG is left untouched.
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            model = sam_model_registry[self.variant]()  # the architecture; random until the checkpoint loads
        if self.checkpoint is not None:
            try:
                state = torch.load(self.checkpoint, map_location="cpu", weights_only=True)
                model.load_state_dict(state)
            except (RuntimeError, OSError, ValueError, KeyError) as error:
                text = str(error).strip()
                first = text.splitlines()[0][:160] if text else type(error).__name__
                raise ModelUnavailable(
                    f"{self.checkpoint.name} is not a SAM {self.variant} checkpoint that loads here: {first}"
                ) from error
        self._model = model.to(self.device).eval()

    # ---------------------------------------------------------------- embedding

    def _predictor(self) -> Any:
        # A fresh predictor per call: its state (features, sizes) is per image, so threads never share one.
        from segment_anything import SamPredictor

        return SamPredictor(self._model)

    @on_compute_thread
    def _embed(self, image: Image.Image) -> SamEmbedding:
        predictor = self._predictor()
        self._count_encoder_call()
        try:
            with self._torch.inference_mode():
                predictor.set_image(np.asarray(image), image_format="RGB")
        except self._torch.cuda.OutOfMemoryError as error:
            raise ModelOutOfMemory("SAM ran out of GPU memory computing the image embedding") from error
        return SamEmbedding(predictor.features, tuple(predictor.original_size), tuple(predictor.input_size))

    # ---------------------------------------------------------------- prompts

    def candidate_masks(
        self, image: Image.Image, points: np.ndarray, boxes: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """points N x 2 (x, y pixels), optional boxes N x 4 -> (masks N x 3 x H x W bool, scores N x 3).

        Each point (with its box, if given) is its own prompt; the prompts go through predict_torch in batches
        (all at once on CUDA, CPU_PROMPTS_PER_BATCH on a CPU), bounded by the memory of the full-size logits.
        """
        rgb = check_image(image, self.name)
        width, height = rgb.size
        pts = check_points(points, (width, height))
        bxs = check_boxes(boxes, len(pts), (width, height))
        if len(pts) == 0:
            return np.zeros((0, 3, height, width), dtype=bool), np.zeros((0, 3), dtype=np.float32)
        emb = self.embedding(rgb)  # fetched before the compute section: another thread may be computing it
        return self._decode(emb, pts, bxs, height, width)

    @on_compute_thread
    def _decode(
        self, emb: SamEmbedding, pts: np.ndarray, bxs: np.ndarray | None, height: int, width: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """candidate_masks' compute section: the mask decoder over the prompts, on the compute thread."""
        torch = self._torch
        predictor = self._predictor()
        predictor.features = emb.features
        predictor.original_size = emb.original_size
        predictor.input_size = emb.input_size
        predictor.is_image_set = True

        # postprocess_masks upsamples each of the 3 logits maps to the 1024 x 1024 input, then to H x W.
        chunk = prompt_chunk(self._model.image_encoder.img_size, height, width, self.prompts_per_batch)
        masks, scores = [], []
        try:
            with torch.inference_mode():
                for start in range(0, len(pts), chunk):
                    sl = slice(start, start + chunk)
                    coords = predictor.transform.apply_coords(pts[sl], emb.original_size)
                    coords_t = torch.as_tensor(coords, dtype=torch.float32, device=self.device)[:, None, :]
                    labels_t = torch.ones(coords_t.shape[:2], dtype=torch.int64, device=self.device)
                    boxes_t = None
                    if bxs is not None:
                        tb = predictor.transform.apply_boxes(bxs[sl], emb.original_size)
                        boxes_t = torch.as_tensor(tb, dtype=torch.float32, device=self.device)
                    m, s, _ = predictor.predict_torch(coords_t, labels_t, boxes_t, multimask_output=True)
                    masks.append(m.cpu().numpy())
                    scores.append(s.float().cpu().numpy())
        except torch.cuda.OutOfMemoryError as error:
            raise ModelOutOfMemory(f"SAM ran out of GPU memory for {len(pts)} prompts") from error
        except RuntimeError as error:
            raise ModelError(f"SAM failed on these prompts: {str(error).splitlines()[0][:160]}") from error
        return np.concatenate(masks).astype(bool), np.concatenate(scores)

    # ---------------------------------------------------------------- description

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "backend": "segment-anything",
            "variant": self.variant,
            "weights": "random" if self.random_weights else str(self.checkpoint),
            "device": self.device,
            "prompts_per_batch": self.prompts_per_batch or "all",
            "cached_images": len(self._cache),
            "encoder_calls": self.encoder_calls,
        }
