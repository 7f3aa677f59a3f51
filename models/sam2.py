"""SAM 2.1 through transformers (Sam2Model), the lighter segmenter for CPU machines.

Hiera-tiny (facebook/sam2.1-hiera-tiny; 31M parameters in transformers' Sam2Model) computes its image
embedding several times faster than SAM ViT-B on a CPU (see `whichone perf`), with the same prompt
interface: one mask per point prompt, batched, multimask output with the best-scoring mask per point. The
embedding (three feature levels) is cached per image content like models/sam.py does, and can be computed
early in a background thread.

`checkpoint`: a hub id or local directory of a Sam2Model (default facebook/sam2.1-hiera-tiny, loaded from
the local Hugging Face cache; downloaded only when online), or "random": the hiera-tiny architecture
(transformers' Sam2Config defaults) with random weights, for tests and `whichone perf`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from PIL import Image

from models.compute import on_compute_thread
from models.errors import ModelError, ModelOutOfMemory, ModelUnavailable
from models.hub import load_pretrained
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

SAM2_HIERA_TINY = "facebook/sam2.1-hiera-tiny"

if TYPE_CHECKING:
    import torch


@dataclass(frozen=True)
class Sam2Embedding:
    """Sam2Model.get_image_embeddings output (3 levels: 1 x 32 x 256², 1 x 64 x 128², 1 x 256 x 64²) and
    the original (height, width)."""

    levels: list[torch.Tensor]
    original_size: tuple[int, int]


class Sam2Segmenter(CachedEmbeddingSegmenter[Sam2Embedding]):
    def __init__(
        self,
        checkpoint: str = SAM2_HIERA_TINY,
        *,
        device: str | None = None,
        cache_size: int = 4,
        prompts_per_batch: int | None = None,
        name: str | None = None,
    ) -> None:
        self.random_weights = checkpoint == "random"
        self.checkpoint = checkpoint
        self.name = name or ("sam2-hiera-tiny-random" if self.random_weights else "sam2-hiera-tiny")
        self._cache: EmbeddingCache[Sam2Embedding] = EmbeddingCache(cache_size)
        self.encoder_calls = 0
        self._count_lock = threading.Lock()
        self._load(device)
        self.prompts_per_batch = default_prompts_per_batch(self.device, prompts_per_batch)

    def _load(self, device: str | None) -> None:
        try:
            import torch
            from transformers import Sam2Config, Sam2ImageProcessor, Sam2Model, Sam2Processor
        except ImportError as error:
            raise ModelUnavailable(f"SAM 2 needs torch and transformers>=5: {error}") from error
        self._torch = torch
        self.device = torch_device(torch, device)
        if self.random_weights:
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(0)
                model = Sam2Model(Sam2Config())
            self._processor = Sam2Processor(image_processor=Sam2ImageProcessor())
        else:
            self._processor, model = load_pretrained(
                Sam2Processor, Sam2Model, self.checkpoint, what="SAM 2", hint="or pick sam-vit-b"
            )
        self._model = cast(Any, model).to(self.device).eval()

    # ---------------------------------------------------------------- embedding

    @on_compute_thread
    def _embed(self, image: Image.Image) -> Sam2Embedding:
        torch = self._torch
        self._count_encoder_call()
        inputs = self._processor(images=image, return_tensors="pt")
        try:
            with torch.inference_mode():
                levels = self._model.get_image_embeddings(inputs["pixel_values"].to(self.device))
        except torch.cuda.OutOfMemoryError as error:
            raise ModelOutOfMemory("SAM 2 ran out of GPU memory computing the image embedding") from error
        return Sam2Embedding(list(levels), (image.size[1], image.size[0]))

    # ---------------------------------------------------------------- prompts

    def candidate_masks(
        self, image: Image.Image, points: np.ndarray, boxes: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """points N x 2, optional boxes N x 4 -> (masks N x 3 x H x W bool, scores N x 3); one prompt each."""
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
        self, emb: Sam2Embedding, pts: np.ndarray, bxs: np.ndarray | None, height: int, width: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """candidate_masks' compute section: the mask decoder over the prompts, on the compute thread."""
        torch = self._torch
        # post_process_masks upsamples the 3 low-res 256 x 256 logits maps a prompt to H x W.
        chunk = prompt_chunk(256, height, width, self.prompts_per_batch)
        masks, scores = [], []
        try:
            for start in range(0, len(pts), chunk):
                sl = slice(start, start + chunk)
                # One image, len(chunk) objects, one point per object: [[[[x, y]], [[x, y]], ...]].
                kwargs: dict[str, Any] = {
                    "input_points": [[[[float(x), float(y)]] for x, y in pts[sl]]],
                    "input_labels": [[[1] for _ in pts[sl]]],
                }
                if bxs is not None:
                    kwargs["input_boxes"] = [[[float(v) for v in b] for b in bxs[sl]]]
                prompt = self._processor(
                    original_sizes=[list(emb.original_size)], return_tensors="pt", **kwargs
                )
                with torch.inference_mode():
                    out = self._model(
                        image_embeddings=emb.levels,
                        multimask_output=True,
                        **{k: prompt[k].to(self.device) for k in kwargs},
                    )
                full = self._processor.post_process_masks(out.pred_masks.cpu(), [list(emb.original_size)])[0]
                masks.append(full.numpy().astype(bool))  # objects x 3 x H x W
                scores.append(out.iou_scores[0].float().cpu().numpy())  # objects x 3
        except torch.cuda.OutOfMemoryError as error:
            raise ModelOutOfMemory(f"SAM 2 ran out of GPU memory for {len(pts)} prompts") from error
        except (RuntimeError, ValueError) as error:
            raise ModelError(f"SAM 2 failed on these prompts: {str(error).splitlines()[0][:160]}") from error
        return np.concatenate(masks), np.concatenate(scores)

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "backend": "transformers",
            "model": "random hiera-tiny" if self.random_weights else self.checkpoint,
            "device": self.device,
            "prompts_per_batch": self.prompts_per_batch or "all",
            "cached_images": len(self._cache),
            "encoder_calls": self.encoder_calls,
        }
