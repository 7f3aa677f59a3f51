"""VQ-FocusAmbiguity Table 3: mAP (COCO segm), union IoU and max IoU of predicted focus masks.

The paper (Section 4.2, "Evaluation Metrics"): "First is the standard metric for instance segmentation:
mAP. We also employ union IoU and max IoU to analyze performance when models predict only one focus
region. We calculate union IoU as the IoU between the predicted mask and the union of all focus regions
[...]. We calculate max IoU as the largest mIoU score between the predicted mask and each focus region,
to see if the generated mask instead accurately captures a single focus region."

For predictions with any number of masks:
- union IoU = IoU(union of the predicted masks, union of the gold regions), as the paper defines it.
- max IoU, as the paper defines it, is per predicted mask: the best IoU over every (predicted mask, gold
  region) pair, so finding both of two regions exactly scores 1. `max_iou_of_union` is *our* extra reading
  (the union of the predicted masks against the best single region; it rewards one-region answers and
  scores 0.5 for finding both of two regions exactly); reports name it as ours. Both are averaged over
  examples ("mIoU": the mean over the dataset of each example's score).
- Conventions the paper does not need (its every example has >= 1 focus region): an example with no
  predicted mask scores 0 against non-empty gold; an example whose gold and prediction are both empty
  scores 1 (nothing to find, nothing claimed: assistant/iou.py's rule for two empty sets); a non-empty
  prediction against empty gold scores 0. Gold
  masks with no pixels are dropped (they are not regions); empty predicted masks stay (false positives).
- mAP is pycocotools' COCOeval(iouType="segm") stats[0]: AP averaged over IoU thresholds .50:.05:.95,
  all areas, up to 100 detections per image, one category ("focus"), one COCO image per example. With no
  predicted mask at all it is 0.0 (nothing is recalled); with no gold region anywhere it is NaN
  (COCOeval reports -1: AP is undefined without positives).
Masks are H x W boolean arrays in the example's image pixels.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pycocotools import mask as mask_utils
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

from assistant.evaluation import masks as mask_codec
from assistant.evaluation.records import ResponseRecord
from assistant.iou import mask_iou

NAN = float("nan")


@dataclass
class LocalisationExample:
    """One question's gold focus masks and the model's predicted masks with their confidence scores.

    shape: (H, W) of the image; gold_masks: K masks H x W bool; pred_masks: N masks H x W bool with
    pred_scores: N floats (higher = more confident; the order COCOeval ranks detections in).
    """

    shape: tuple[int, int]
    gold_masks: Sequence[np.ndarray]
    pred_masks: Sequence[np.ndarray] = field(default_factory=list)
    pred_scores: Sequence[float] | None = None  # None: every prediction scores 1.0

    def __post_init__(self) -> None:
        h, w = self.shape
        for name, masks in (("gold", self.gold_masks), ("predicted", self.pred_masks)):
            for m in masks:
                if np.shape(m) != (h, w):
                    raise ValueError(f"a {name} mask has shape {np.shape(m)}, not the image's {(h, w)}")
        if self.pred_scores is not None and len(self.pred_scores) != len(self.pred_masks):
            raise ValueError(f"{len(self.pred_masks)} predicted masks but {len(self.pred_scores)} scores")

    @property
    def scores(self) -> list[float]:
        return (
            [1.0] * len(self.pred_masks) if self.pred_scores is None else [float(s) for s in self.pred_scores]
        )

    @property
    def gold_regions(self) -> list[np.ndarray]:
        """Gold masks with at least one pixel."""
        return [np.asarray(m, dtype=bool) for m in self.gold_masks if np.any(m)]


def _union(masks: Sequence[np.ndarray], shape: tuple[int, int]) -> np.ndarray:
    out = np.zeros(shape, dtype=bool)
    for m in masks:
        out |= np.asarray(m, dtype=bool)
    return out


def union_iou(
    pred_masks: Sequence[np.ndarray], gold_masks: Sequence[np.ndarray], shape: tuple[int, int]
) -> float:
    """IoU(union of predicted masks, union of gold masks) for one example (masks H x W bool)."""
    return mask_iou(_union(pred_masks, shape), _union(gold_masks, shape))


def max_iou(
    pred_masks: Sequence[np.ndarray], gold_masks: Sequence[np.ndarray], shape: tuple[int, int]
) -> float:
    """The paper's max IoU for one example: the best IoU over all (predicted mask, gold region) pairs."""
    gold = [np.asarray(m, dtype=bool) for m in gold_masks if np.any(m)]
    if not gold:
        return 1.0 if not _union(pred_masks, shape).any() else 0.0
    if not pred_masks:
        return 0.0
    return max(mask_iou(np.asarray(p, dtype=bool), g) for p in pred_masks for g in gold)


def max_iou_of_union(
    pred_masks: Sequence[np.ndarray], gold_masks: Sequence[np.ndarray], shape: tuple[int, int]
) -> float:
    """Our extra reading (not the paper's): the union of the predicted masks against the best single gold
    region, for one example."""
    gold = [np.asarray(m, dtype=bool) for m in gold_masks if np.any(m)]
    pred_union = _union(pred_masks, shape)
    if not gold:
        return 1.0 if not pred_union.any() else 0.0
    return max(mask_iou(pred_union, g) for g in gold)


def _rle(mask: np.ndarray) -> dict:
    return mask_utils.encode(np.asfortranarray(np.asarray(mask, dtype=np.uint8)))


def mean_average_precision(examples: Sequence[LocalisationExample]) -> float:
    """COCO mask AP@[.50:.95] over all examples (pycocotools COCOeval, iouType="segm"), in [0, 1]."""
    images: list[dict[str, Any]] = []
    gold_anns: list[dict[str, Any]] = []
    dets: list[dict[str, Any]] = []
    for image_id, ex in enumerate(examples, start=1):
        h, w = ex.shape
        images.append({"id": image_id, "height": int(h), "width": int(w)})
        for m in ex.gold_regions:
            rle = _rle(m)
            gold_anns.append(
                {
                    "id": len(gold_anns) + 1,
                    "image_id": image_id,
                    "category_id": 1,
                    "segmentation": rle,
                    "area": float(mask_utils.area(rle)),
                    "bbox": mask_utils.toBbox(rle).tolist(),
                    "iscrowd": 0,
                }
            )
        for m, score in zip(ex.pred_masks, ex.scores, strict=True):
            dets.append({"image_id": image_id, "category_id": 1, "segmentation": _rle(m), "score": score})
    if not gold_anns:
        return NAN
    if not dets:
        return 0.0
    gt = COCO()
    gt.dataset = {"images": images, "annotations": gold_anns, "categories": [{"id": 1, "name": "focus"}]}
    # COCOeval prints its progress and table to stdout; a benchmark run keeps stdout for its own report
    with contextlib.redirect_stdout(io.StringIO()):
        gt.createIndex()
        dt = gt.loadRes(dets)
        ev = COCOeval(gt, dt, iouType="segm")
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    value = float(ev.stats[0])
    return value if value >= 0 else NAN


def localisation_metrics(examples: Sequence[LocalisationExample]) -> dict[str, float | int]:
    """mAP, mean union IoU and mean max IoU over examples (VQ-FocusAmbiguity Table 3), and our extra
    max IoU of the union, all in [0, 1]."""
    n = len(examples)
    if n == 0:
        return {
            "n": 0,
            "mAP": NAN,
            "union_iou": NAN,
            "max_iou": NAN,
            "max_iou_of_union": NAN,
            "n_no_prediction": 0,
            "n_empty_gold": 0,
        }
    unions = [union_iou(ex.pred_masks, ex.gold_masks, ex.shape) for ex in examples]
    maxes = [max_iou(ex.pred_masks, ex.gold_masks, ex.shape) for ex in examples]
    of_union = [max_iou_of_union(ex.pred_masks, ex.gold_masks, ex.shape) for ex in examples]
    return {
        "n": n,
        "mAP": mean_average_precision(examples),
        "union_iou": float(np.mean(unions)),
        "max_iou": float(np.mean(maxes)),
        "max_iou_of_union": float(np.mean(of_union)),
        "n_no_prediction": sum(1 for ex in examples if len(ex.pred_masks) == 0),
        "n_empty_gold": sum(1 for ex in examples if not ex.gold_regions),
    }


def localisation_iou(record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]) -> float | None:
    """Union IoU of a localisation record's predicted masks with the gold masks (None: nothing to compare)."""
    found = record.parts.get("localisation")
    size = record.gold.get("image_size")
    if not found or not size:
        return None
    h, w = int(size[0]), int(size[1])
    gold = [_fit(m, h, w) for m in mask_codec.decode(list(gold_masks))] if gold_masks else []
    predicted = [_fit(m, h, w) for m in mask_codec.decode(found["masks"])] if found["masks"] else []
    return union_iou(predicted, gold, (h, w))


def _fit(mask: np.ndarray, h: int, w: int) -> np.ndarray:
    """An H' x W' mask as h x w (nearest neighbour), for masks of a downscaled working image."""
    if mask.shape == (h, w):
        return mask.astype(bool)
    rows = (np.arange(h) * mask.shape[0] // h).clip(0, mask.shape[0] - 1)
    cols = (np.arange(w) * mask.shape[1] // w).clip(0, mask.shape[1] - 1)
    return mask[rows][:, cols].astype(bool)
