"""The grounding stage: pointer hits -> one mask per point -> numbered candidate regions; clicks -> regions.

`Grounder.prepare(image)` starts the segmenter's image embedding in a background thread and returns at
once, so the expensive part (seconds on a CPU) overlaps the user typing and the VLM's recognition call.
`candidates(image, phrase)` then asks the pointer, caps the hits, segments every point as its own prompt
(batched) and builds Candidates with assistant.regions. `region_from_click` maps a click to the region whose
mask contains it (the smallest when nested), or segments a new region from the clicked point.

Mask checks (why a SAM mask may be refused and the hit's box or a small box round its point used instead):
a mask is clipped to its hit's box (grown by `box_margin`) when the pointer gave one, and must not reach
another hit's point (that would merge two candidates into one). A hit the pointer gave a point for must lie
inside its mask; a box-only hit (a detector's) prompts SAM with its box and centre, and its mask must fit
the box instead (the mask's own box overlaps it by IoU >= `box_fit_iou`): a detector's centre need not lie
on the object (a ring, a person with arms out). Among SAM's three multimask outputs the best-scoring one that
passes is taken.

A region's score is the pointer's confidence times the mask's predicted quality (a box region: the
pointer's confidence alone), so a detector's score orders, caps and dedupes the candidates.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Literal, cast

import numpy as np
from PIL import Image

from assistant.errors import SessionError
from assistant.iou import box_iou
from assistant.regions import (
    SaliencyConfig,
    build_candidates,
    number_regions,
    region_at,
    score_regions,
)
from assistant.types import Candidates, Region
from models.base import (
    Ability,
    ImagePreparingModel,
    InstancePointer,
    MultimaskSegmenter,
    Pointer,
    Segmenter,
    can,
)
from models.errors import ModelError
from models.memory import release_free_memory
from models.types import Box, Grounding

log = logging.getLogger(__name__)

CLICK_SOURCE = "click"
NEAR_FRACTION = 0.02  # of the image diagonal: how close a mask may come to another candidate's point


@dataclass(frozen=True)
class GroundingConfig:
    max_points: int = 12  # more hits than this are cut to the highest-scoring ones, with a note
    box_margin: float = 0.05  # a mask may reach this fraction of its box's size beyond the box
    box_fit_iou: float = 0.5  # a box-only hit's mask must have a box overlapping the hit's by this IoU
    dedupe_iou: float = 0.7  # masks overlapping more than this are one candidate
    saliency: SaliencyConfig = SaliencyConfig()
    # AQuA scores saliency on bounding boxes ("two to three bounding boxes above the threshold"), so the
    # area term uses each region's box by default; "mask" uses the mask's pixel count instead.
    saliency_area: Literal["box", "mask"] = "box"

    def __post_init__(self) -> None:
        if self.saliency_area not in ("box", "mask"):
            raise ValueError(f"saliency_area must be 'box' or 'mask', not {self.saliency_area!r}")


class Grounder:
    """The grounding stage the pipeline calls. `segmenter` None: regions are the pointer's boxes/points."""

    def __init__(
        self,
        pointer: Pointer,
        segmenter: Segmenter | None = None,
        max_points: int = 12,
        *,
        config: GroundingConfig | None = None,
    ) -> None:
        self.pointer = pointer
        self.segmenter = segmenter
        self.config = replace(config or GroundingConfig(), max_points=max_points)
        if self.config.max_points < 1:
            raise ValueError("max_points must be at least 1")
        self._executor: ThreadPoolExecutor | None = None
        # Each owner's (session's) latest prepare, cancelled if still queued when that owner sends another
        # photo. Owners are kept apart: one user's new upload never drops another user's queued embedding.
        self._pending: dict[object, Future[None]] = {}
        self._executor_lock = threading.Lock()

    # ---------------------------------------------------------------- background embedding

    def prepare(self, image: Image.Image, owner: object = None) -> Future[None] | None:
        """Start reading `image` in the background: the pointer's part that does not depend on the phrase
        (an OWL detector's image encoder, models/owl_parts.py), then the segmenter's embedding; returns
        immediately.

        A later `candidates` or `region_from_click` on the same image waits for it instead of computing it
        again. Errors surface there (prepare only logs them). `owner` (e.g. a session id): a new photo of
        the same owner cancels its previous one if that has not started. Returns the Future, or None
        when neither model has anything to prepare.
        """
        if self.segmenter is None and not can(self.pointer, Ability.PREPARE_IMAGE):
            return None
        with self._executor_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="whichone-embed")
            previous = self._pending.pop(owner, None)
            if previous is not None:
                previous.cancel()  # a photo replaced before its turn came: do not embed it at all
            self._pending = {k: f for k, f in self._pending.items() if not f.done()}
            future = self._executor.submit(self._prepare_now, image)
            self._pending[owner] = future
        future.add_done_callback(_log_failure)
        return future

    def _prepare_now(self, image: Image.Image) -> None:
        if can(self.pointer, Ability.PREPARE_IMAGE):
            try:
                cast(ImagePreparingModel, self.pointer).prepare_image(image)
            except ModelError as exc:  # the question's own pointer call meets (and reports) it again
                log.warning("reading the photo ahead for the pointer failed: %s", exc)
        if self.segmenter is not None:
            self.segmenter.prepare(image)
        release_free_memory()  # what the encodings freed, back to the system while the user types

    def close(self) -> None:
        """Stop the background worker (pending embeddings are dropped)."""
        with self._executor_lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None

    # ---------------------------------------------------------------- candidates

    def candidates(self, image: Image.Image, phrase: str) -> Candidates:
        """Pointer -> cap -> one mask per point -> build_candidates; only the pointer may raise ModelError."""
        size = image.size
        notes: list[str] = []
        found_masks: dict[int, np.ndarray] = {}
        if can(self.pointer, Ability.INSTANCES):  # SAM 3: its own mask per instance, in the same call
            raw, raw_masks = cast(InstancePointer, self.pointer).instances(image, phrase)
            found_masks = {id(hit): mask for hit, mask in zip(raw, raw_masks, strict=True)}
        else:
            raw = self.pointer.point(image, phrase)
        hits, box_only = self._usable_hits(raw, size, notes)
        if not hits:
            notes.append(f"The pointer found no {phrase or 'candidate'} in the image.")
            return Candidates([], size, phrase, notes)
        masks = scores = None
        if found_masks and all(id(h) in found_masks for h in hits):
            masks = np.stack([found_masks[id(h)] for h in hits])
            scores = np.array([h.score for h in hits], dtype=np.float32)
        elif self.segmenter is not None:
            try:
                masks, mask_scores = self._masks(image, hits, notes, box_only)
                # A refused (empty) mask falls back to the hit's box: the pointer's score alone for it.
                quality = np.where(masks.any(axis=(1, 2)), mask_scores, 1.0)
                scores = np.array([h.score for h in hits], dtype=np.float32) * quality
            except ModelError as exc:
                notes.append(f"Segmentation was skipped ({exc}); the regions are boxes.")
        built = build_candidates(
            hits,
            size,
            masks=masks,
            mask_scores=scores,
            phrase=phrase,
            config=self.config.saliency,
            dedupe_iou=self.config.dedupe_iou,
            max_regions=self.config.max_points,
            notes=notes,
        )
        return replace(built, regions=self._score(built.regions, size))

    def _score(self, regions: Sequence[Region], size: tuple[int, int]) -> list[Region]:
        """Saliency, position and description of every region, on boxes or masks as configured."""
        if self.config.saliency_area == "mask":
            return score_regions(regions, size, self.config.saliency)
        scored = score_regions([replace(r, mask=None) for r in regions], size, self.config.saliency)
        return [replace(s, mask=r.mask) for s, r in zip(scored, regions, strict=True)]

    def _usable_hits(
        self, raw: Sequence[Grounding], size: tuple[int, int], notes: list[str]
    ) -> tuple[list[Grounding], list[bool]]:
        """Every hit with a point inside the image (a box's centre when it has no point), capped; and for
        each, whether the pointer gave only its box (a detector's hit: its mask must fit the box)."""
        width, height = size
        hits: list[Grounding] = []
        box_only: list[bool] = []
        outside = 0
        for hit in raw:
            point = hit.point or (hit.box.centre if hit.box is not None else None)
            if point is None or not (0 <= point[0] <= width and 0 <= point[1] <= height):
                outside += 1
                continue
            hits.append(hit if hit.point == point else replace(hit, point=point))
            box_only.append(hit.point is None)
        if outside:
            notes.append(f"{outside} of {len(raw)} pointer hits were outside the image and were dropped.")
        cap = self.config.max_points
        if len(hits) > cap:
            notes.append(f"The pointer found {len(hits)} points; kept the {cap} highest-scoring.")
            order = sorted(sorted(range(len(hits)), key=lambda i: (-hits[i].score, i))[:cap])
            hits, box_only = [hits[i] for i in order], [box_only[i] for i in order]
        return hits, box_only

    def _masks(
        self, image: Image.Image, hits: Sequence[Grounding], notes: list[str], box_only: Sequence[bool]
    ) -> tuple[np.ndarray, np.ndarray]:
        """One mask per hit (N x H x W bool; all-False where no mask passed the checks) and its score N."""
        assert self.segmenter is not None
        points = np.array([h.point for h in hits], dtype=np.float64)
        given = [h.box.as_list() for h in hits if h.box is not None]
        boxes = np.array(given, dtype=np.float64) if len(given) == len(hits) else None
        masks, scores = self._candidate_masks(image, points, boxes)
        chosen, chosen_scores, refused = select_masks(
            masks,
            scores,
            hits,
            self.config.box_margin,
            box_only=box_only,
            box_fit_iou=self.config.box_fit_iou,
        )
        if refused:
            notes.append(
                f"{refused} of {len(hits)} masks did not fit their point or box (empty, outside the box, or "
                "merging two candidates); those regions are boxes."
            )
        return chosen, chosen_scores

    def _candidate_masks(
        self, image: Image.Image, points: np.ndarray, boxes: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """N x K x H x W masks and N x K scores: all of SAM's multimask outputs where the segmenter offers
        them (candidate_masks), else its one best mask per point (K = 1)."""
        assert self.segmenter is not None
        if can(self.segmenter, Ability.MULTIMASK):
            return cast(MultimaskSegmenter, self.segmenter).candidate_masks(image, points, boxes)
        single, single_scores = self.segmenter.segment_points(image, points)
        return np.asarray(single, dtype=bool)[:, None], np.asarray(single_scores, dtype=np.float32)[:, None]

    # ---------------------------------------------------------------- clicks

    def region_from_click(
        self, image: Image.Image, candidates: Candidates, x: float, y: float
    ) -> tuple[Candidates, Region]:
        """The region under the click (smallest when nested), else a new one segmented from the point.

        A new region joins the candidates and every region is renumbered (left to right), so the returned
        Candidates replace the old ones.
        """
        width, height = image.size
        if not (0 <= x < width and 0 <= y < height):
            raise SessionError(f"The click ({x:.0f}, {y:.0f}) is outside the photo ({width} x {height}).")
        existing = region_at(candidates, x, y)
        if existing is not None:
            return candidates, existing
        notes = list(candidates.notes)
        label = candidates.phrase or "selected area"
        mask, score = None, 1.0
        if self.segmenter is not None:
            click = Grounding(label=label, point=(x, y), source=CLICK_SOURCE)
            # The new mask must not swallow a candidate already there (clicking the table under the cups).
            avoid = [r.point or r.box.centre for r in candidates.regions]
            try:
                masks, scores = self._candidate_masks(image, np.array([[x, y]], dtype=np.float64), None)
                chosen, chosen_scores, _ = select_masks(masks, scores, [click], self.config.box_margin, avoid)
                if chosen[0].any():
                    mask, score = chosen[0], float(chosen_scores[0])
            except ModelError as exc:
                notes.append(f"Segmenting the clicked point failed ({exc}); the new region is a box.")
        if mask is not None:
            box = Box.from_mask(mask)
        else:
            r = 0.05 * min(width, height)
            box = Box(x - r, y - r, x + r, y + r).clip(width, height)
        assert box is not None
        new = Region(id=0, box=box, label=label, point=(x, y), mask=mask, score=score, source=CLICK_SOURCE)
        regions = number_regions(self._score([*candidates.regions, new], image.size), image.size)
        picked = next(r for r in regions if r.source == CLICK_SOURCE and r.point == (x, y))
        return Candidates(regions, candidates.image_size, candidates.phrase, notes, candidates.found), picked


def select_masks(
    masks: np.ndarray,
    scores: np.ndarray,
    hits: Sequence[Grounding],
    box_margin: float = 0.05,
    avoid: Sequence[tuple[float, float]] = (),
    *,
    box_only: Sequence[bool] = (),
    box_fit_iou: float = 0.5,
) -> tuple[np.ndarray, np.ndarray, int]:
    """masks N x K x H x W bool and scores N x K (K candidates per hit) -> (N x H x W, N, refused count).

    Per hit, the best-scoring candidate that (after clipping to the hit's box grown by box_margin) is not
    empty, contains the hit's point (a box-only hit, box_only[i] True: whose own box overlaps the hit's box
    by IoU >= box_fit_iou instead), and does not come within NEAR_FRACTION of the image diagonal of
    another hit's point (nor of a point of `avoid`) lying outside this hit's box. A hit with no such
    candidate gets an empty mask and score 0, which build_candidates turns into the hit's box.
    """
    n, _, height, width = masks.shape
    out = np.zeros((n, height, width), dtype=bool)
    out_scores = np.zeros((n,), dtype=np.float32)

    def pixel(p: tuple[float, float]) -> tuple[int, int]:
        return min(max(int(p[0]), 0), width - 1), min(max(int(p[1]), 0), height - 1)

    points = [pixel(h.point) if h.point is not None else pixel(h.box.centre) for h in hits]  # type: ignore[union-attr]
    extra = [pixel(p) for p in avoid]
    # "Contains another hit's point" is checked with this tolerance: a mask reaching within ~2% of the image
    # diagonal of another candidate's point has most likely run into that candidate.
    near = max(1, round(NEAR_FRACTION * float(np.hypot(width, height))))
    refused = 0
    for i, hit in enumerate(hits):
        limit = _grown_box_mask(hit.box, box_margin, width, height) if hit.box is not None else None
        others = [
            p
            for j, p in enumerate(points + extra)
            if j != i and (hit.box is None or not hit.box.contains(p[0] + 0.5, p[1] + 0.5))
        ]
        for k in np.argsort(-scores[i], kind="stable"):
            mask = masks[i, k] & limit if limit is not None else masks[i, k]
            if not mask.any():
                continue
            px, py = points[i]
            if i < len(box_only) and box_only[i]:
                fitted = Box.from_mask(mask)
                if hit.box is None or fitted is None or box_iou(fitted, hit.box) < box_fit_iou:
                    continue
            elif not mask[py, px]:  # a region always holds the point it was found at (clicks rely on it)
                continue
            if any(
                mask[max(0, oy - near) : oy + near + 1, max(0, ox - near) : ox + near + 1].any()
                for ox, oy in others
            ):
                continue
            out[i], out_scores[i] = mask, float(scores[i, k])
            break
        else:
            refused += 1
    return out, out_scores, refused


def _grown_box_mask(box: Box, margin: float, width: int, height: int) -> np.ndarray:
    mx, my = margin * box.width, margin * box.height
    x0, y0 = max(0, int(box.x0 - mx)), max(0, int(box.y0 - my))
    x1, y1 = min(width, int(np.ceil(box.x1 + mx))), min(height, int(np.ceil(box.y1 + my)))
    limit = np.zeros((height, width), dtype=bool)
    limit[y0:y1, x0:x1] = True
    return limit


def _log_failure(future: Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("background image embedding failed: %s", future.exception())
