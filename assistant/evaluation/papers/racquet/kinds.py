"""RAcQUEt's own task kind: saliency (Table 1, Appendix H)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assistant.errors import WhichoneError
from assistant.evaluation.benchmark import RunItem
from assistant.evaluation.cache import cached_pointer
from assistant.evaluation.fetch import ImageUnavailable
from assistant.evaluation.kinds import VQA, RunContext
from assistant.evaluation.papers.racquet.saliency import describe_mapping, map_response
from assistant.evaluation.records import ResponseRecord
from models.base import Pointer
from models.errors import ModelError
from models.registry import create_pointer


class Saliency(VQA):
    """The "vqa" turn, then (after judging) the pointer maps each response that describes one referent (the
    task's scoring says which) to a box, and the box to the referent box with the highest IoU, written to
    the record's "saliency" part (`saliency.map_response`); the pointer's hits are cached too."""

    name = "saliency"
    uses_pointer = True
    parts = ("saliency",)

    def prepare(self, run: RunContext, notes: list[str]) -> None:
        for model in run.config.models:  # an unknown --pointer fails before any answering
            self._pointer(run, model)

    def after_judging(self, run: RunContext, items: Sequence[RunItem], records: list[ResponseRecord]) -> None:
        one_referent = run.task.scoring.one_referent or (lambda record: False)
        targets = [i for i, r in enumerate(records) if r.answered and one_referent(r)]
        bar = run.progress(len(targets), f"{run.task.name} pointing ({run.config.pointer})", "response")
        try:
            for i in targets:
                records[i].parts["saliency"] = self._mapping(run, items[i], records[i])
                run.images.forget([items[i].example])
                bar.update(1)
        finally:
            bar.close()

    def detail_rows(
        self, record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]
    ) -> list[tuple[str, str]]:
        found = record.parts.get("saliency")
        return [] if found is None else [("Saliency", describe_mapping(found))]

    def _mapping(self, run: RunContext, item: RunItem, record: ResponseRecord) -> dict[str, Any]:
        try:
            image = run.images.get(item.example)
            phrase = " ".join(str(record.response).split())
            hits = self._pointer(run, item.model).point(image, phrase)
        except ImageUnavailable as exc:  # pragma: no cover - it was answered, so it loaded once
            return {"chosen": None, "unmapped": "image unavailable", "error": str(exc)}
        except (WhichoneError, ModelError) as exc:
            return {"chosen": None, "unmapped": "pointer error", "error": str(exc)}
        scale = run.images.scale(item.example)
        width, height = image.size
        size = (round(width / scale), round(height / scale))
        return map_response(hits, item.example.gold["referents"], size, scale)

    @staticmethod
    def _pointer(run: RunContext, model: str) -> Pointer:
        name = run.config.pointer
        if name.startswith("vlm-"):
            # the answering VLM grounds its own answer; its calls are cached (and counted) as the model's
            key = f"{name}@{model}"
            if key not in run.pointers:
                run.pointers[key] = create_pointer(name, vlm=run.cached_vlm(model))
            return run.pointers[key]
        if name not in run.pointers:  # one pointer of its own for every model, cached like a model
            pointer = cached_pointer(create_pointer(name), run.cache)
            run.counters[f"pointer:{name}"] = pointer
            run.pointers[name] = pointer
        return run.pointers[name]


SALIENCY_KIND = Saliency()
