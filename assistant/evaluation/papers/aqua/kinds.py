"""AQuA's own task kind: whichone itself answers (`assistant.pipeline.Assistant.ask`), so its strategy is
one more row of AQuA's Table 2."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assistant.errors import WhichoneError
from assistant.evaluation import own_pipeline
from assistant.evaluation.benchmark import RunItem
from assistant.evaluation.cache import cached_pointer
from assistant.evaluation.kinds import Kind, Progress, RunContext, describe_part
from assistant.evaluation.records import ResponseRecord
from models.errors import ModelError
from models.registry import create_pointer


class Pipeline(Kind):
    """whichone's two-turn pipeline with the named VLM and --pointer; the record's "pipeline" part holds
    its strategy, level, verdict and how many candidates it found."""

    name = "pipeline"
    uses_pointer = True
    parts = ("pipeline",)

    def answer(self, run: RunContext, model: str, items: list[RunItem], bar: Progress) -> None:
        vlm = run.cached_vlm(model)
        pointer = create_pointer(run.config.pointer, vlm=vlm)
        if not run.config.pointer.startswith("vlm-"):
            # a pointer of its own (Molmo, blobs) is cached like a model; the vlm-* pointers ask the VLM,
            # whose calls are cached already
            pointer = cached_pointer(pointer, run.cache)
            run.counters[f"pointer:{run.config.pointer}"] = pointer
        assistant = own_pipeline.make_assistant(vlm, pointer, run.config.max_new_tokens)
        for item in items:
            ready = run.with_images([item])
            if ready:
                try:
                    reply, _ = assistant.ask(ready[0][1], item.example.question)
                except (WhichoneError, ModelError) as exc:
                    item.error = f"pipeline: {exc}"
                else:
                    item.response = reply.text
                    item.parts["pipeline"] = {
                        "strategy": reply.strategy.value,
                        "level": int(reply.level),
                        "verdict": reply.verdict.value,
                        "candidates": len(reply.candidates),
                    }
            run.images.forget([item.example])
            bar.update(1)

    def detail_rows(
        self, record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]
    ) -> list[tuple[str, str]]:
        found = record.parts.get("pipeline")
        return [] if found is None else [("Pipeline", describe_part(found))]


PIPELINE_KIND = Pipeline()
