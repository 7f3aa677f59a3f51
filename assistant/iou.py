"""Intersection over union: one home for boxes and masks (regions, grounding, the benchmarks' metrics).

supervision computes it (`box_iou_batch`, `mask_iou_batch`); this module adds the one rule supervision
leaves open. **Two empty sets have IoU 1**: they are the same (empty) region. So two empty masks are one
region when deduplicating, and in the localisation metrics "nothing found where there is nothing to find"
scores 1 (VQ-FocusAmbiguity's union IoU of an empty prediction against an empty gold). An empty set
against a non-empty one has IoU 0. A box is empty when its area is zero.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from models.sv import supervision
from models.types import Box


def _sv():

    return supervision()


def box_iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a N x 4, b M x 4 (x0, y0, x1, y1) -> N x M IoU, with the empty-set rule of the module doc."""
    a = np.asarray(a, dtype=np.float64).reshape(-1, 4)
    b = np.asarray(b, dtype=np.float64).reshape(-1, 4)
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    out = np.nan_to_num(np.asarray(_sv().box_iou_batch(a, b), dtype=np.float64), nan=0.0)
    empty_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]) <= 0
    empty_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) <= 0
    out[np.outer(empty_a, empty_b)] = 1.0
    return out


def box_iou(a: Box, b: Box) -> float:
    """IoU of two boxes (see box_iou_matrix)."""
    return float(box_iou_matrix(np.array([a.as_list()]), np.array([b.as_list()]))[0, 0])


def mask_iou_matrix(a: np.ndarray | Sequence[np.ndarray], b: np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
    """a N x H x W, b M x H x W bool -> N x M IoU, with the empty-set rule of the module doc."""
    a = np.asarray(a, dtype=bool)
    b = np.asarray(b, dtype=bool)
    if a.ndim != 3 or b.ndim != 3 or a.shape[1:] != b.shape[1:]:
        raise ValueError(f"masks must be N x H x W of one size, not {a.shape} and {b.shape}")
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    out = np.nan_to_num(np.asarray(_sv().mask_iou_batch(a, b), dtype=np.float64), nan=0.0)
    out[np.outer(~a.any(axis=(1, 2)), ~b.any(axis=(1, 2)))] = 1.0
    return out


def mask_iou(a: np.ndarray, b: np.ndarray) -> float:
    """IoU of two H x W bool masks (see mask_iou_matrix)."""
    return float(mask_iou_matrix(np.asarray(a, dtype=bool)[None], np.asarray(b, dtype=bool)[None])[0, 0])
