"""The toy paper's own task kind: two pictures per item, both in one user turn. Nothing outside this
package knows it: the runner calls `answer`, the records keep its "pair" part, the run browser shows
`detail_rows`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from assistant.evaluation.benchmark import RunItem
from assistant.evaluation.kinds import Kind, Progress, RunContext
from assistant.evaluation.records import ResponseRecord
from assistant.images import load_image
from models.base import ChatMessage
from models.errors import ModelError
from prompts import render_prompt

SECOND = "second_photo"  # the example's meta field that names its second picture


class TwoPictures(Kind):
    """The prompt (rendered with $question) with the example's picture and its second picture."""

    name = "two-pictures"
    parts = ("pair",)

    def answer(self, run: RunContext, model: str, items: list[RunItem], bar: Progress) -> None:
        vlm = run.cached_vlm(model)
        for batch in run.batches(items):
            ready = run.with_images(batch)
            conversations = [self._turn(item, image) for item, image in ready]
            for (item, _), conversation, reply in zip(
                ready, conversations, run.generate(vlm, conversations), strict=True
            ):
                if isinstance(reply, ModelError):
                    item.error = f"model: {reply}"
                    continue
                item.turns = [
                    {"role": "user", "text": conversation[0].text},
                    {"role": "assistant", "text": reply},
                ]
                item.response = reply
                item.parts["pair"] = {"pictures": 2, "second": Path(item.example.meta[SECOND]).name}
            run.images.forget([it.example for it in batch])
            bar.update(len(batch))

    @staticmethod
    def _turn(item: RunItem, first: Any) -> list[ChatMessage]:
        second = load_image(Path(item.example.meta[SECOND]).read_bytes())
        prompt = render_prompt(item.variant.prompt, question=item.example.question)
        return [ChatMessage("user", prompt, [first, second])]

    def detail_rows(
        self, record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]
    ) -> list[tuple[str, str]]:
        pair = record.parts.get("pair")
        return [] if pair is None else [("Pictures", f"{pair['pictures']}: the photo and {pair['second']}")]


TWO_PICTURES = TwoPictures()
