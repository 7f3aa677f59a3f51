"""Open-vocabulary detectors as pointers: a phrase in, one hit per detected instance out (box, centre point,
score, the phrase as label) in original-image pixels.

The models are transformers' own classes (`AutoModelForZeroShotObjectDetection`: OWL-ViT, OWLv2, Grounding
DINO, MM-Grounding-DINO), their boxes come from their processors' `post_process_grounded_object_detection`,
and supervision takes it from there: `sv.Detections.from_transformers`, class-agnostic non-maximum
suppression (`with_nms`) and box clipping. Nothing here decodes a box by hand.

How the focus phrase becomes the detector's query (`detector_query`, tested in tests/test_detectors.py):
- the whole phrase, never the head noun alone: the descriptors that reach it ("red cup") are the ones a
  pixel can show (assistant.pipeline.grounding_phrase drops the others), and a head noun alone would make
  every cup a candidate for "the red cup";
- OWL-ViT / OWLv2 take a list of queries per image; ours has one, in the "a photo of a ..." form the OWL
  models were trained and documented with;
- Grounding DINO wants lower case and a final period ("red cup.").

Settings with their defaults: `threshold` (OWL 0.1, as the transformers docs use; Grounding DINO 0.3 for
boxes and `text_threshold` 0.25), `nms_iou` 0.5. The cap on hits is the grounder's `max_points` (12): it
keeps the best by score and says so in the candidates' notes, so it lives in one place.

`checkpoint` "random" builds the published architecture of `family` from transformers' default config with
random weights (the same compute as the real model; `whichone perf`).
"""

from __future__ import annotations

import threading
from typing import Any, Literal, get_args

import numpy as np
from PIL import Image

from models.base import Ability, ModelBase
from models.compute import on_compute_thread
from models.errors import ModelError, ModelOutOfMemory, ModelUnavailable, first_line
from models.hub import load_pretrained
from models.owl_parts import OwlImage, encode_image, owl_detect
from models.pixels import image_digest
from models.quantise import CPU_QUANTISATIONS, CpuQuantisation, int8_dynamic
from models.segment_common import EmbeddingCache, check_image, torch_device
from models.sv import supervision
from models.tiny_detectors import bert_tokenizer, clip_tokenizer
from models.types import Box, Grounding

DetectorFamily = Literal["owlvit", "owlv2", "grounding-dino"]
DETECTOR_FAMILIES: tuple[DetectorFamily, ...] = get_args(DetectorFamily)
# config.model_type -> family (MM-Grounding-DINO is read exactly as Grounding DINO is).
_FAMILY_OF_MODEL_TYPE: dict[str, DetectorFamily] = {
    "owlvit": "owlvit",
    "owlv2": "owlv2",
    "grounding-dino": "grounding-dino",
    "mm-grounding-dino": "grounding-dino",
}
DEFAULT_THRESHOLD: dict[DetectorFamily, float] = {"owlvit": 0.1, "owlv2": 0.1, "grounding-dino": 0.3}
MAX_QUERY_CHARS = 120

OWLVIT_B32 = "google/owlvit-base-patch32"
OWLV2_B16 = "google/owlv2-base-patch16-ensemble"
GROUNDING_DINO_TINY = "IDEA-Research/grounding-dino-tiny"
MM_GROUNDING_DINO_TINY = "openmmlab-community/mm_grounding_dino_tiny_o365v1_goldg_v3det"


def detector_query(family: DetectorFamily, phrase: str) -> str:
    """The text a detector of `family` is given for `phrase` ("" when there is nothing to look for)."""
    words = " ".join(str(phrase or "").split())[:MAX_QUERY_CHARS].strip(" .")
    if not words:
        return ""
    if family == "grounding-dino":
        return words.lower() + "."
    return f"a photo of a {words}"


class DetectorPointer(ModelBase):
    """Pointer over an open-vocabulary detector; see the module doc. Thread-safe (one forward at a time).

    The OWL families read a photo ahead (`prepare_image`, on upload: models/owl_parts.py); a question then
    costs their text encoder and class head only. Grounding DINO mixes text and image in every layer, so
    it has nothing to prepare."""

    ABILITIES = frozenset({Ability.PREPARE_IMAGE})

    def __init__(
        self,
        checkpoint: str,
        *,
        family: DetectorFamily | None = None,
        device: str | None = None,
        threshold: float | None = None,
        text_threshold: float = 0.25,
        nms_iou: float = 0.5,
        quantise: CpuQuantisation = "auto",
        name: str | None = None,
    ) -> None:
        if family is not None and family not in DETECTOR_FAMILIES:
            raise ModelUnavailable(f"unknown detector family {family!r}; choose one of {DETECTOR_FAMILIES}")
        if quantise not in CPU_QUANTISATIONS:
            raise ModelUnavailable(f"unknown quantisation {quantise!r}; choose one of {CPU_QUANTISATIONS}")
        if checkpoint == "random" and family is None:
            raise ModelUnavailable("a random detector needs its family")
        if not 0.0 <= nms_iou <= 1.0:
            raise ModelUnavailable(f"nms_iou must be within 0 and 1, got {nms_iou}")
        self.checkpoint = str(checkpoint)
        self.text_threshold = float(text_threshold)
        self.nms_iou = float(nms_iou)
        self._lock = threading.Lock()
        self._images: EmbeddingCache[OwlImage] = EmbeddingCache(4)
        self._load(family, device, quantise)
        self.threshold = float(threshold if threshold is not None else DEFAULT_THRESHOLD[self.family])
        self.name = name or f"{self.family}{'-random' if self.checkpoint == 'random' else ''}"

    # ---------------------------------------------------------------- loading

    def _load(self, family: DetectorFamily | None, device: str | None, quantise: CpuQuantisation) -> None:
        try:
            import torch
            from transformers import AutoModelForZeroShotObjectDetection, AutoProcessor
        except ImportError as error:
            raise ModelUnavailable(f"detectors need torch and transformers>=5: {error}") from error
        self._torch = torch
        self.device = torch_device(torch, device)
        if self.checkpoint == "random":
            assert family is not None
            model, self._processor = _random_detector(family)
        else:
            self._processor, model = load_pretrained(
                AutoProcessor,
                AutoModelForZeroShotObjectDetection,
                self.checkpoint,
                what="zero-shot detector",
                hint="`whichone stacks` lists what each stack needs",
            )
        model_type = str(getattr(model.config, "model_type", ""))
        found = _FAMILY_OF_MODEL_TYPE.get(model_type)
        if found is None:
            raise ModelUnavailable(
                f"{self.checkpoint} is a {model_type or 'model'}, not an OWL or DINO detector"
            )
        self.family: DetectorFamily = found
        model = model.to(self.device).eval()
        on_cpu = not str(self.device).startswith("cuda")
        self.quantisation = "int8" if quantise == "int8" or (quantise == "auto" and on_cpu) else "none"
        if self.quantisation == "int8":
            if not on_cpu:
                raise ModelUnavailable("int8 dynamic quantisation runs on the CPU only; use quantise='none'")
            model = int8_dynamic(model)
        self._model = model
        text_config = getattr(model.config, "text_config", None)
        self._max_text_tokens = int(
            getattr(model.config, "max_text_len", 0) or getattr(text_config, "max_position_embeddings", 16)
        )

    # ---------------------------------------------------------------- detection

    def detect(self, image: Image.Image, phrase: str) -> Any:
        """Every instance of `phrase` as `sv.Detections` (xyxy in original-image pixels, confidence), after
        the threshold and class-agnostic NMS, best first. Raises ModelError on a model failure."""

        sv = supervision()

        rgb = check_image(image, self.name)
        query = detector_query(self.family, phrase)
        if not query:
            return sv.Detections.empty()
        # The photo's part is fetched before the compute section: the grounder's background worker may be
        # computing it, queued on the compute thread (models/compute.py), which the section must not wait on.
        photo = None if self.family == "grounding-dino" else self._photo_part(rgb)
        return self._detect(rgb, query, photo)

    @on_compute_thread
    def _detect(self, rgb: Image.Image, query: str, photo: OwlImage | None) -> Any:
        """detect()'s compute section: the phrase's part (Grounding DINO: the whole model), the
        post-processing and NMS, all on the compute thread (their small parallel regions too)."""
        sv = supervision()
        torch = self._torch
        target = [(rgb.height, rgb.width)]
        try:
            # Cut to the text encoder's length (OWL: 16 tokens): a long phrase loses its end, not the call.
            if photo is None:
                inputs = self._processor(
                    images=rgb,
                    text=query,
                    truncation=True,
                    max_length=self._max_text_tokens,
                    return_tensors="pt",
                ).to(self.device)
                with self._lock, torch.inference_mode():
                    outputs = self._model(**inputs)
                found = self._processor.post_process_grounded_object_detection(
                    outputs,
                    inputs["input_ids"],
                    threshold=self.threshold,
                    text_threshold=self.text_threshold,
                    target_sizes=target,
                )[0]
            else:
                found = self._processor.post_process_grounded_object_detection(
                    self._owl_outputs(photo, query),
                    threshold=self.threshold,
                    target_sizes=target,
                    text_labels=[[query]],
                )[0]
        except torch.cuda.OutOfMemoryError as error:
            raise ModelOutOfMemory(f"{self.name} ran out of GPU memory") from error
        except (RuntimeError, ValueError, IndexError) as error:
            raise ModelError(f"{self.name} failed on this image: {first_line(error)}") from error
        scores = found["scores"].float().cpu()
        # One query: every hit is of class 0 (Grounding DINO's labels are the matched words, not ids).
        detections = sv.Detections.from_transformers(
            {
                "scores": scores,
                "labels": torch.zeros(len(scores), dtype=torch.long),
                "boxes": found["boxes"].float().cpu(),
            }
        )
        finite = np.isfinite(detections.xyxy).all(axis=1) & np.isfinite(detections.confidence)
        detections = detections[finite]
        if len(detections) == 0:
            return detections
        detections.xyxy = sv.clip_boxes(detections.xyxy, (rgb.width, rgb.height))
        sides = detections.xyxy[:, 2:] - detections.xyxy[:, :2]
        detections = detections[(sides >= 1.0).all(axis=1)]  # a box under a pixel wide outlines nothing
        detections = detections.with_nms(threshold=self.nms_iou, class_agnostic=True)
        return detections[np.argsort(-detections.confidence, kind="stable")]

    def prepare_image(self, image: Image.Image) -> None:
        """Read the photo ahead (OWL: its image encoder and box head, cached for the last 4 photos); a
        no-op for Grounding DINO. Blocking: run it in a background thread, as the grounder does; its errors
        are raised (the grounder logs them; the question's own call meets them again)."""
        if self.family == "grounding-dino":
            return
        self._photo_part(check_image(image, self.name))

    def _photo_part(self, rgb: Image.Image) -> OwlImage:
        """An OWL photo's part: from the cache, awaited if another thread is computing it, else computed
        now (on the compute thread); its errors as the ModelError kinds."""
        try:
            return self._images.get(image_digest(rgb), lambda: self._encode(rgb))
        except self._torch.cuda.OutOfMemoryError as error:
            raise ModelOutOfMemory(f"{self.name} ran out of GPU memory") from error
        except (RuntimeError, ValueError, IndexError) as error:
            if isinstance(error, ModelError):
                raise
            raise ModelError(f"{self.name} failed on this image: {first_line(error)}") from error

    @on_compute_thread
    def _encode(self, rgb: Image.Image) -> OwlImage:
        pixels = self._processor(images=rgb, return_tensors="pt")["pixel_values"].to(self.device)
        with self._lock, self._torch.inference_mode():
            return encode_image(self._model, pixels)

    def _owl_outputs(self, photo: OwlImage, query: str) -> Any:
        """An OWL detector's output for `query` on the photo's part (`_photo_part`): its phrase's part."""
        text = self._processor(
            text=[[query]], truncation=True, max_length=self._max_text_tokens, return_tensors="pt"
        ).to(self.device)
        with self._lock, self._torch.inference_mode():
            return owl_detect(self._model, photo, text["input_ids"], text["attention_mask"])

    def point(self, image: Image.Image, phrase: str) -> list[Grounding]:
        """The detections as hits (box, its centre, score), best first; the label is the phrase."""
        label = " ".join(str(phrase or "").split())
        detections = self.detect(image, phrase)
        hits = []
        for (x0, y0, x1, y1), score in zip(detections.xyxy, detections.confidence, strict=True):
            box = Box(float(x0), float(y0), float(x1), float(y1))
            hits.append(Grounding(label=label, point=None, box=box, score=float(score), source=self.name))
        return hits

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "backend": "transformers",
            "model_id": "random " + self.family if self.checkpoint == "random" else self.checkpoint,
            "device": str(self.device),
            "quantisation": self.quantisation,
            "threshold": self.threshold,
            "parameters": sum(p.numel() for p in self._model.parameters()),
        }


def _random_detector(family: DetectorFamily) -> tuple[Any, Any]:
    """The published architecture of `family` (transformers' default config) with random weights, and its
    real processor over a small local tokenizer (the compute does not depend on the vocabulary).

    Every Linear layer is drawn from normal(0, 0.02) with zero bias, as BERT-style models start: a fresh
    OWL-ViT as transformers initialises it saturates its box head (every box comes out (0, 0, 0, 1), empty
    after post-processing), whereas these weights give boxes on the patch grid with middling scores, so the
    post-processing, NMS and the segmenter get boxes to work on. The compute is the same."""
    import torch
    import transformers as tf

    model: Any
    processor: Any
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        if family == "owlvit":
            model = tf.OwlViTForObjectDetection(tf.OwlViTConfig())
            processor = tf.OwlViTProcessor(
                image_processor=tf.OwlViTImageProcessor(), tokenizer=clip_tokenizer()
            )
        elif family == "owlv2":
            model = tf.Owlv2ForObjectDetection(tf.Owlv2Config())
            processor = tf.Owlv2Processor(
                image_processor=tf.Owlv2ImageProcessor(), tokenizer=clip_tokenizer()
            )
        else:
            model = tf.GroundingDinoForObjectDetection(tf.GroundingDinoConfig())
            processor = tf.GroundingDinoProcessor(
                image_processor=tf.GroundingDinoImageProcessor(), tokenizer=bert_tokenizer()
            )
        for layer in model.modules():
            if isinstance(layer, torch.nn.Linear):
                torch.nn.init.normal_(layer.weight, std=0.02)
                if layer.bias is not None:
                    torch.nn.init.zeros_(layer.bias)
    return model, processor
