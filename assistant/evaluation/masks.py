"""COCO segmentations <-> boolean masks, through pycocotools.

A segmentation arrives as a COCO RLE ({"size": [h, w], "counts": str | list[int]}) or as polygons
([[x0, y0, x1, y1, ...], ...] in pixels). Everything is normalised to *compressed* RLE with a str `counts`,
which is JSON-friendly (it is what per-example reports and the response cache store).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from pycocotools import mask as mask_utils

Rle = dict[str, Any]  # {"size": [h, w], "counts": str}


class SegmentationError(ValueError):
    """A segmentation is neither a COCO RLE nor polygons, or does not fit the image."""


def _compressed(rle: dict[str, Any]) -> Rle:
    counts = rle["counts"]
    if isinstance(counts, bytes):
        counts = counts.decode("ascii")
    return {"size": [int(rle["size"][0]), int(rle["size"][1])], "counts": counts}


def to_rle(segmentation: Any, height: int | None = None, width: int | None = None) -> Rle:
    """One region's segmentation as compressed RLE.

    Polygons need the image size (height, width); an RLE carries its own and, when a size is given too,
    must agree with it.
    """
    if isinstance(segmentation, dict) and "segmentation" in segmentation:
        segmentation = segmentation["segmentation"]  # an annotation object rather than its segmentation
    if isinstance(segmentation, dict):
        if "size" not in segmentation or "counts" not in segmentation:
            raise SegmentationError("an RLE segmentation needs 'size' and 'counts'")
        h, w = int(segmentation["size"][0]), int(segmentation["size"][1])
        if height is not None and width is not None and (h, w) != (int(height), int(width)):
            raise SegmentationError(f"RLE size {h}x{w} does not match the image ({height}x{width})")
        counts = segmentation["counts"]
        if isinstance(counts, list):  # uncompressed RLE
            rle = mask_utils.frPyObjects({"size": [h, w], "counts": counts}, h, w)
        else:
            rle = {"size": [h, w], "counts": counts.encode("ascii") if isinstance(counts, str) else counts}
        return _compressed(rle)
    if isinstance(segmentation, (list, tuple)):
        if height is None or width is None:
            raise SegmentationError("polygon segmentations need the image size")
        polygons = (
            [list(map(float, p)) for p in segmentation]
            if segmentation and isinstance(segmentation[0], (list, tuple))
            else [list(map(float, segmentation))]
        )
        polygons = [p for p in polygons if len(p) >= 6]  # COCO: at least three points
        if not polygons:
            raise SegmentationError("a polygon needs at least three points")
        rles = mask_utils.frPyObjects(polygons, int(height), int(width))
        return _compressed(mask_utils.merge(rles))
    raise SegmentationError(f"unrecognised segmentation of type {type(segmentation).__name__}")


def encode_mask(mask: np.ndarray) -> Rle:
    """H x W bool -> compressed RLE."""
    if mask.ndim != 2:
        raise SegmentationError(f"a mask must be H x W; got shape {mask.shape}")
    return _compressed(mask_utils.encode(np.asfortranarray(mask.astype(np.uint8))))


def decode(rles: Sequence[Rle]) -> np.ndarray:
    """N compressed RLEs of one image -> N x H x W bool (N may be 0: shape 0 x 0 x 0)."""
    if not rles:
        return np.zeros((0, 0, 0), dtype=bool)
    coco = [{"size": r["size"], "counts": r["counts"].encode("ascii")} for r in rles]
    with warnings.catch_warnings():
        # pycocotools 2.0.x trips numpy 2's __array__(copy=...) deprecation inside its own decode
        warnings.simplefilter("ignore", DeprecationWarning)
        masks = mask_utils.decode(coco)  # H x W x N uint8
    return np.transpose(masks, (2, 0, 1)).astype(bool)
