"""Task kinds: how a task's responses are obtained, what its records carry and how the run browser shows
them. A kind is a plug-in: the runner, the records, the scoring and the Benchmark tab only call the
`Kind` a task carries, and name none.

Shared kinds live here: `VQA` (one turn, the prompt rendered with $question plus the image) and `TwoTurn`
(the same first turn, then a gold field of the example as the user's second message). A kind that serves
one paper lives in that paper's package (papers/<paper>/kinds.py), and a new one is a subclass of `Kind`
in the package of the paper that needs it (docs/architecture.md, "Adding a task kind").

What a kind gets from the runner is a `RunContext`: the run's options and task, the cached models, the
example images, the progress bar, and the batching the runner does for every kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from PIL import Image

from assistant.errors import WhichoneError
from models.base import ChatMessage, GenerationSettings, Pointer
from models.errors import ModelError
from prompts import render_prompt

if TYPE_CHECKING:
    from assistant.evaluation.benchmark import RunItem, Task, Variant
    from assistant.evaluation.cache import CachedVLM, ResponseCache
    from assistant.evaluation.records import ResponseRecord
    from assistant.evaluation.schema import Example

# what a task's --model names: a VLM that answers, or a pointer that finds regions itself
ModelRole = Literal["vlm", "pointer"]


class RunError(WhichoneError):
    """The run cannot start (unknown task or variant, no examples, bad option)."""


class Progress(Protocol):
    """The run's progress for one model: `update(n)` after n more items are done."""

    def update(self, n: int) -> None: ...


class ExampleImages(Protocol):
    """The run's example images: fetched once, forgotten after their batch."""

    def get(self, example: Example) -> Image.Image: ...

    def scale(self, example: Example) -> float: ...

    def forget(self, examples: Sequence[Example]) -> None: ...


class CallCounter(Protocol):
    calls: int
    hits: int


class RunOptions(Protocol):
    """The run's options a kind may read (assistant.evaluation.runner.RunConfig)."""

    @property
    def models(self) -> list[str]: ...

    @property
    def concurrency(self) -> int: ...

    @property
    def pointer(self) -> str: ...

    @property
    def segmenter(self) -> str: ...

    @property
    def max_new_tokens(self) -> int | None: ...


class RunContext(Protocol):
    """What the runner offers a kind while it runs (assistant.evaluation.runner.Runner)."""

    variants: list[Variant]  # the prompt variants the run asks; `prepare` may narrow them
    counters: dict[str, CallCounter]  # name -> calls and cache hits, summed into the run's facts
    pointers: dict[str, Pointer]  # loaded once per name (a kind's own cache of pointers)

    @property
    def config(self) -> RunOptions: ...

    @property
    def task(self) -> Task: ...

    @property
    def settings(self) -> GenerationSettings: ...

    @property
    def cache(self) -> ResponseCache: ...

    @property
    def images(self) -> ExampleImages: ...

    def cached_vlm(self, name: str, role: str = "") -> CachedVLM: ...

    def batches(self, items: list[RunItem]) -> list[list[RunItem]]: ...

    def with_images(self, batch: list[RunItem]) -> list[tuple[RunItem, Image.Image]]: ...

    def generate(
        self, model: CachedVLM, conversations: list[list[ChatMessage]]
    ) -> list[str | ModelError]: ...

    def is_server(self, model: CachedVLM) -> bool: ...

    def progress(self, total: int, desc: str, unit: str) -> Any: ...


class Kind:
    """How a task's responses are obtained (`answer`), what its records carry besides the response
    (`parts`: record.parts keys, written into responses.jsonl beside the response), and how the run browser
    shows them (`detail_rows`, `predicted_masks`). The defaults are a kind with no options and no parts."""

    name: str = ""
    model_role: ModelRole = "vlm"  # what --model names
    loads_model: bool = True  # the answering VLM is loaded before the progress bar starts
    uses_pointer: bool = False  # whether --pointer matters
    uses_segmenter: bool = False  # whether --segmenter matters
    parts: tuple[str, ...] = ()
    # the browser shows the compared run's picture beside this run's (its regions are the response)
    compares_pictures: bool = False

    def prepare(self, run: RunContext, notes: list[str]) -> None:
        """Before anything is answered: check the kind's options, narrow `run.variants` (with a note)."""

    def answer(self, run: RunContext, model: str, items: list[RunItem], bar: Progress) -> None:
        """Fill each item's response and turns (and its parts), or its error."""
        raise NotImplementedError

    def after_judging(self, run: RunContext, items: Sequence[RunItem], records: list[ResponseRecord]) -> None:
        """After the records are judged: parts that depend on the judgement."""

    def predicted_masks(self, record: ResponseRecord) -> list[dict[str, Any]]:
        """The regions a record found (COCO RLE), drawn on the example's picture."""
        return []

    def detail_rows(
        self, record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]
    ) -> list[tuple[str, str]]:
        """The browser's rows for the record's parts: (heading, plain text)."""
        return []

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def first_turn(item: RunItem, image: Image.Image) -> list[ChatMessage]:
    """The first user turn: the variant's prompt rendered with the question, plus the image."""
    prompt = render_prompt(item.variant.prompt, question=item.example.question)
    return [ChatMessage("user", prompt, [image])]


class VQA(Kind):
    """One turn: the prompt (rendered with $question) plus the image."""

    name = "vqa"

    def answer(self, run: RunContext, model: str, items: list[RunItem], bar: Progress) -> None:
        vlm = run.cached_vlm(model)
        for batch in self._batches(run, vlm, items):
            ready = run.with_images(batch)
            first = [first_turn(it, im) for it, im in ready]
            follow_ups = []
            for (item, _), conversation, reply in zip(ready, first, run.generate(vlm, first), strict=True):
                if isinstance(reply, ModelError):
                    item.error = f"model: {reply}"
                    continue
                item.turns = [
                    {"role": "user", "text": conversation[0].text},
                    {"role": "assistant", "text": reply},
                ]
                item.response = reply
                follow_up = self.second_turn(item)
                if follow_up is not None:
                    follow_ups.append((item, [*conversation, ChatMessage("assistant", reply), follow_up]))
            if follow_ups:
                self._answer_second_turns(run, vlm, follow_ups)
            run.images.forget([it.example for it in batch])
            bar.update(len(batch))

    def second_turn(self, item: RunItem) -> ChatMessage | None:
        """The user's second message after the first reply, or None: one turn."""
        return None

    @staticmethod
    def _batches(run: RunContext, vlm: CachedVLM, items: list[RunItem]) -> list[list[RunItem]]:
        # A server takes one bigger "batch" so its thread pool stays full; each reply is committed alone.
        if not run.is_server(vlm):
            return run.batches(items)
        size = run.config.concurrency * 4
        return [items[i : i + size] for i in range(0, len(items), size)]

    @staticmethod
    def _answer_second_turns(
        run: RunContext, vlm: CachedVLM, follow_ups: list[tuple[RunItem, list[ChatMessage]]]
    ) -> None:
        finals = run.generate(vlm, [c for _, c in follow_ups])
        for (item, conversation), final in zip(follow_ups, finals, strict=True):
            if isinstance(final, ModelError):
                item.error, item.response = f"model (second turn): {final}", None
                continue
            item.turns += [
                {"role": "user", "text": conversation[-1].text},
                {"role": "assistant", "text": final},
            ]
            item.response = final


@dataclass(frozen=True, repr=False)
class TwoTurn(VQA):
    """The "vqa" turn, then the example's gold `said_field` (the user's clarification) as the user's second
    message, followed by `suffix` ("Answer ... a single word or phrase."); the record's response is the
    reply to the second turn."""

    said_field: str = "hint"
    suffix: str = ""
    name: str = "two-turn"

    def second_turn(self, item: RunItem) -> ChatMessage | None:
        said = str(item.example.gold.get(self.said_field, ""))
        if self.suffix:
            said = f"{said} {self.suffix}".strip()
        return ChatMessage("user", said)


def describe_part(part: dict[str, Any]) -> str:
    """A record part as one line: "key: value, ..."."""
    return ", ".join(f"{k}: {v}" for k, v in part.items())


VQA_KIND = VQA()
