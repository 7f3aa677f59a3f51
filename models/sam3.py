"""SAM 3 through transformers (Sam3Model / Sam3Processor) as a one-model grounder: a text phrase in, every
instance's mask, box and score out, in one forward pass.

`Sam3Pointer` is a Pointer (its hits are the instances: box, centre point, score, the phrase as label) and
an InstancePointer: `instances` also gives one mask per hit, which assistant.grounding.Grounder uses instead
of asking a segmenter. Post-processing is transformers' own (`post_process_instance_segmentation`).

facebook/sam3 is gated on the Hugging Face Hub: a user without access gets one line saying how to ask for it.
`checkpoint`: a hub id or a local directory (models/tiny_sam3.py builds a tiny random one for tests), or
"random": the published architecture (transformers' Sam3Config defaults) with random weights, for
`whichone perf`.
"""

from __future__ import annotations

import threading
from typing import Any, cast

import numpy as np
from PIL import Image

from models.base import Ability, ModelBase
from models.compute import on_compute_thread
from models.errors import ModelError, ModelOutOfMemory, ModelUnavailable
from models.hub import gated_help, load_pretrained
from models.segment_common import check_image, torch_device
from models.types import Box, Grounding

SAM3_ID = "facebook/sam3"


class Sam3Pointer(ModelBase):
    """Phrase -> instances (box, centre, score, mask) with SAM 3; see the module doc."""

    ABILITIES = frozenset({Ability.INSTANCES})

    def __init__(
        self,
        checkpoint: str = SAM3_ID,
        *,
        device: str | None = None,
        threshold: float = 0.4,
        mask_threshold: float = 0.5,
        name: str | None = None,
    ) -> None:
        self.checkpoint = str(checkpoint)
        self.threshold = float(threshold)
        self.mask_threshold = float(mask_threshold)
        self.name = name or ("sam3-random" if self.checkpoint == "random" else "sam3")
        self._lock = threading.Lock()  # one forward at a time: the model is shared by all sessions
        self._load(device)

    def _load(self, device: str | None) -> None:
        try:
            import torch
            from transformers import Sam3Config, Sam3Model, Sam3Processor
        except ImportError as error:
            raise ModelUnavailable(
                f"SAM 3 needs torch and transformers>=5 with Sam3Model: {error}"
            ) from error
        self._torch = torch
        self.device = torch_device(torch, device)
        if self.checkpoint == "random":
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(0)
                model = Sam3Model(Sam3Config())
            self._processor = None  # perf only: it feeds tensors itself
        else:
            self._processor, model = load_pretrained(
                Sam3Processor, Sam3Model, self.checkpoint, what="SAM 3", hint=gated_help(self.checkpoint)
            )
        self._model = cast(Any, model).to(self.device).eval()

    @on_compute_thread
    def instances(self, image: Image.Image, phrase: str) -> tuple[list[Grounding], np.ndarray]:
        """Every instance of `phrase`: hits (box, centre point, score; best first) and masks N x H x W bool
        at the image's size."""
        rgb = check_image(image, self.name)
        phrase = " ".join(str(phrase or "").split())
        if not phrase or self._processor is None:
            return [], np.zeros((0, rgb.height, rgb.width), dtype=bool)
        torch = self._torch
        inputs = self._processor(images=rgb, text=phrase, return_tensors="pt").to(self.device)
        try:
            with self._lock, torch.inference_mode():
                outputs = self._model(**inputs)
        except torch.cuda.OutOfMemoryError as error:
            raise ModelOutOfMemory("SAM 3 ran out of GPU memory") from error
        except (RuntimeError, ValueError) as error:
            raise ModelError(f"SAM 3 failed on this image: {str(error).splitlines()[0][:200]}") from error
        found = self._processor.post_process_instance_segmentation(
            outputs,
            threshold=self.threshold,
            mask_threshold=self.mask_threshold,
            target_sizes=inputs["original_sizes"].tolist(),
        )[0]
        scores = found["scores"].float().cpu().numpy()
        boxes = found["boxes"].float().cpu().numpy()
        masks = found["masks"].bool().cpu().numpy()
        order = np.argsort(-scores, kind="stable")
        hits = []
        for i in order:
            x0, y0, x1, y1 = (float(v) for v in boxes[i])
            x0, x1 = max(0.0, min(rgb.width, x0)), max(0.0, min(rgb.width, x1))
            y0, y1 = max(0.0, min(rgb.height, y0)), max(0.0, min(rgb.height, y1))
            box = Box(x0, y0, x1, y1)
            hits.append(
                Grounding(label=phrase, point=box.centre, box=box, score=float(scores[i]), source=self.name)
            )
        return hits, masks[order] if len(order) else np.zeros((0, rgb.height, rgb.width), dtype=bool)

    def point(self, image: Image.Image, phrase: str) -> list[Grounding]:
        return self.instances(image, phrase)[0]

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "backend": "transformers",
            "model_id": self.checkpoint,
            "device": str(self.device),
            "parameters": sum(p.numel() for p in self._model.parameters()),
        }
