"""VQ-FocusAmbiguity's own task kinds: localise (Table 3: a pointer finds the question's focus and a
segmenter turns each point into a mask) and probability (P(ambiguous) for the calibration of Table 2)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TypeGuard

import numpy as np
from PIL import Image

from assistant.errors import WhichoneError
from assistant.evaluation import masks as mask_codec
from assistant.evaluation import own_pipeline
from assistant.evaluation.benchmark import RunItem
from assistant.evaluation.cache import cache_key, image_bytes_digest, model_identity
from assistant.evaluation.kinds import Kind, Progress, RunContext, RunError, first_turn
from assistant.evaluation.papers.focus_ambiguity.localisation import localisation_iou
from assistant.evaluation.records import ResponseRecord
from assistant.grounding import Grounder
from models.base import ChatMessage, Pointer
from models.errors import ModelError
from models.registry import create_pointer, create_segmenter
from models.types import Grounding
from models.vlm_pointer import VLMPointer
from prompts import render_prompt


def localise(grounder: Grounder, image: Image.Image, phrase: str) -> dict[str, Any]:
    """whichone's grounding stage on one image (VQ-FocusAmbiguity's Molmo+SAM when the grounder holds a
    Molmo pointer and SAM): one region per plausible focus, its mask (the box filled, without a
    segmenter) as RLE in the image's pixels, and the region's score for mAP's ranking."""
    candidates = grounder.candidates(image, phrase)
    width, height = image.size
    rles, scores = [], []
    for region in candidates.regions:
        mask = region.mask
        if mask is None:
            mask = np.zeros((height, width), dtype=bool)
            b = region.box
            mask[int(b.y0) : int(np.ceil(b.y1)), int(b.x0) : int(np.ceil(b.x1))] = True
        rles.append(mask_codec.encode_mask(mask))
        scores.append(float(region.score))
    return {"phrase": phrase, "masks": rles, "scores": scores, "notes": list(candidates.notes)}


class _PromptedPointer:
    """A Molmo pointer asked with a whole prompt (VQ-FocusAmbiguity Table 3's prompts, "point" for
    "segment") instead of its own "Point to every <phrase>"; the reply's point tags are parsed as the
    pointer parses its own. `last_output` keeps the reply (CoT prompts reason before pointing)."""

    def __init__(self, pointer: VLMPointer, text: str) -> None:
        self.pointer, self.text = pointer, text
        self.name = pointer.name
        self.last_output = ""

    def point(self, image: Image.Image, phrase: str) -> list[Grounding]:
        raw = self.pointer.vlm.generate([ChatMessage("user", self.text, [image])], self.pointer.settings)
        self.last_output = raw
        return list(self.pointer.parse(raw, image, phrase))


def takes_prompt(pointer: Pointer) -> TypeGuard[VLMPointer]:
    """Whether the pointer can be asked with a whole prompt: a VLM answering in Molmo point tags
    (molmo2-*, vlm-points). blobs, and the bbox JSON of vlm-boxes, cannot."""
    return isinstance(pointer, VLMPointer) and pointer.output == "molmo"


class _CallCounter:
    def __init__(self) -> None:
        self.calls = 0
        self.hits = 0


class Localise(Kind):
    """--model names a pointer, which finds the question's focus phrase (or is asked with the variant's
    whole prompt); --segmenter turns each point into a mask. The record's "localisation" part holds the
    phrase, the masks (RLE), their scores and the grounding's notes; its response says how many."""

    name = "localise"
    model_role = "pointer"
    loads_model = False
    uses_segmenter = True
    parts = ("localisation",)
    compares_pictures = True

    def prepare(self, run: RunContext, notes: list[str]) -> None:
        """Keep the prompt variants every named pointer can take: the paper's prompts need a Molmo
        pointer; a pointer that only points at a phrase (blobs, vlm-boxes) runs the focus-phrase one."""
        prompted = [v for v in run.variants if not v.focus_phrase]
        if not prompted:
            return
        unable = [m for m in run.config.models if not takes_prompt(self._pointer(run, m))]
        if not unable:
            return
        kept = [v for v in run.variants if v.focus_phrase]
        labels = ", ".join(v.label for v in prompted)
        why = (
            f"pointer {', '.join(unable)} points at a phrase and takes no prompt; the paper's prompts "
            f"({labels}) need a Molmo pointer (molmo2-*)"
        )
        if not kept:
            phrase = ", ".join(v.name for v in run.task.variants if v.focus_phrase)
            raise RunError(f"{why}: choose --variant {phrase}")
        notes.append(f"{why}, so they are left out")
        run.variants = kept

    def answer(self, run: RunContext, model: str, items: list[RunItem], bar: Progress) -> None:
        pointer = self._pointer(run, model)
        segmenter_name = run.config.segmenter
        segmenter = None if segmenter_name == "none" else create_segmenter(segmenter_name)
        grounder = Grounder(pointer, segmenter)
        label = f"{model}+{segmenter_name}"
        counter = run.counters.setdefault(label, _CallCounter())
        identity = {
            "pointer": model_identity(pointer),
            "segmenter": model_identity(segmenter) if segmenter is not None else None,
            "grounding": repr(grounder.config),
        }
        for item in items:
            ready = run.with_images([item])
            if ready:
                self._localise_one(run, item, ready[0][1], grounder, (label, identity, counter))
            run.images.forget([item.example])
            bar.update(1)

    def _localise_one(
        self, run: RunContext, item: RunItem, image: Image.Image, grounder: Grounder, caching: tuple[Any, ...]
    ) -> None:
        """The item's regions, from the cache or the grounder (asked with the variant's prompt where it has
        one), as its "localisation" part."""
        label, identity, counter = caching
        phrase = own_pipeline.focus_phrase(item.example.question)
        payload = {"phrase": phrase, "image": image_bytes_digest(image)}
        prompted = None
        if not item.variant.focus_phrase:
            assert takes_prompt(grounder.pointer)  # prepare kept prompt variants for such only
            text = render_prompt(item.variant.prompt, question=item.example.question)
            prompted = _PromptedPointer(grounder.pointer, text)
            payload["prompt"] = text
        key = cache_key(identity, payload, {"task": "localise"})
        cached = run.cache.get(key)
        if cached is None:
            try:
                if prompted is None:
                    found = localise(grounder, image, phrase)
                else:
                    found = localise(Grounder(prompted, grounder.segmenter), image, phrase)
                    found["output"] = prompted.last_output
                cached = json.dumps(found)
            except (WhichoneError, ModelError) as exc:
                item.error = f"model: {exc}"
            else:
                run.cache.put(label, key, cached)
                counter.calls += 1
        else:
            counter.hits += 1
        if cached is not None:
            item.parts["localisation"] = json.loads(cached)
            item.response = f"{len(item.parts['localisation']['masks'])} region(s) of {phrase!r}"

    def predicted_masks(self, record: ResponseRecord) -> list[dict[str, Any]]:
        return list((record.parts.get("localisation") or {}).get("masks", []))

    def detail_rows(
        self, record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]
    ) -> list[tuple[str, str]]:
        found = record.parts.get("localisation")
        if found is None:
            return []
        iou = localisation_iou(record, gold_masks)
        text = f"phrase {found.get('phrase')!r}, {len(found.get('masks', []))} region(s)"
        return [("Localisation", text + (f", union IoU {iou:.2f}" if iou is not None else ""))]

    @staticmethod
    def _pointer(run: RunContext, model: str) -> Pointer:
        if model not in run.pointers:
            run.pointers[model] = create_pointer(model)
        return run.pointers[model]


class Probability(Kind):
    """One forward pass per example: P(ambiguous), the probability of "Yes" against "No" as the reply's first
    token after the prompt (models.base.answer_probabilities), stored as the response (JSON)."""

    name = "probability"

    def answer(self, run: RunContext, model: str, items: list[RunItem], bar: Progress) -> None:
        vlm = run.cached_vlm(model)
        for batch in run.batches(items):
            for item, image in run.with_images(batch):
                conversation = first_turn(item, image)
                try:
                    scores = vlm.answer_probabilities(conversation, ("Yes", "No"))
                except ModelError as exc:
                    item.error = f"model: {exc}"
                    continue
                p = scores.probabilities.get("Yes")
                item.turns = [{"role": "user", "text": conversation[0].text}]
                item.response = json.dumps(
                    {"p_ambiguous": p, "covered": scores.covered, "source": scores.source}
                )
            run.images.forget([it.example for it in batch])
            bar.update(len(batch))


LOCALISE_KIND = Localise()
PROBABILITY_KIND = Probability()
