"""Run a benchmark task: examples -> model responses (cached) -> judgements -> metrics -> report files.

Resumable by construction: every response is committed to the sqlite cache as soon as its batch is done,
and the per-example records are rebuilt from the cache at the end. A rerun of an interrupted run (SIGTERM,
SIGKILL, a crash) re-asks nothing already answered and ends with the same files an uninterrupted run
writes. Work is cut into batches by position in the full (seeded) item list, never by what is left, so a
batch is the same set of conversations in every run (a local model's batched output can depend on its
batch mates through padding).

Local models get batches through `generate_batch`; servers (an OpenAI-compatible backend) get one request
per item from a bounded thread pool, each committed as it returns.

How a response is obtained is the task's kind's (assistant.evaluation.kinds: `Kind.answer`, and
`Kind.after_judging` for parts that need the judgement); the runner gives it a `RunContext` (this Runner):
the cached models, the images, the batches and the progress bar.
"""

from __future__ import annotations

import io
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from PIL import Image
from tqdm import tqdm

from assistant.errors import InputError
from assistant.evaluation import scoring
from assistant.evaluation.benchmark import RunItem
from assistant.evaluation.cache import (
    CachedVLM,
    ResponseCache,
    cached_vlm,
)
from assistant.evaluation.datasets import DatasetUnavailable, load_dataset
from assistant.evaluation.fetch import ImageFetcher, ImageUnavailable, default_cache_dir
from assistant.evaluation.judgement import Judge
from assistant.evaluation.judges import measured_agreement
from assistant.evaluation.kinds import CallCounter, RunError
from assistant.evaluation.provenance import provenance
from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.report import write_report
from assistant.evaluation.schema import Example
from assistant.evaluation.tasks import Task, Variant, get_task
from assistant.images import load_image
from models.base import ChatMessage, GenerationSettings, Pointer, VisionLanguageModel
from models.errors import ModelError
from models.registry import create_vlm


@dataclass
class RunConfig:
    task: str
    models: list[str]
    judge: str | None = None  # None: the task's default judge
    data: str | None = None  # local path or URL; None: where the authors publish the dataset
    split: str | None = None
    variants: list[str] | None = None  # None: all of the task's variants
    limit: int | None = None
    seed: int = 0
    out_dir: Path | None = None  # None: runs/<task>/<models>
    cache_path: Path | None = None  # None: <cache dir>/bench/responses.sqlite
    batch_size: int = 8
    concurrency: int = 8
    max_new_tokens: int | None = None  # None: the task's setting
    judge_max_new_tokens: int | None = None  # None: the LLM judge's own setting per judging task
    segmenter: str = "sam-vit-b"  # a kind that segments (Kind.uses_segmenter); "none": boxes
    # the pointer of a kind that uses one (Kind.uses_pointer)
    pointer: str = "vlm-boxes"
    progress: bool = True
    # called as on_progress(model, done, total) after each batch (a UI's progress bar)
    on_progress: Callable[[str, int, int], None] | None = None
    # name -> VisionLanguageModel, for a caller that already holds loaded models (default: create_vlm)
    vlm_factory: Callable[[str], VisionLanguageModel] | None = None


@dataclass
class RunResult:
    task: Task
    records: list[ResponseRecord]
    summary: RunSummary
    model_calls: int  # calls that reached a model (task models and judge), this run
    cache_hits: int
    out_dir: Path
    files: dict[str, Path] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------------ selection


def select_examples(examples: Sequence[Example], limit: int | None, seed: int) -> list[Example]:
    """All examples, or a seeded sample of `limit` of them kept in dataset order (so --limit 20 on a file
    sorted by label is not all one label, and the same seed always picks the same ones)."""
    if limit is None or limit >= len(examples):
        return list(examples)
    if limit <= 0:
        raise RunError(f"--limit must be at least 1, got {limit}")
    chosen = sorted(random.Random(seed).sample(range(len(examples)), limit))
    return [examples[i] for i in chosen]


def _task_examples(task: Task, config: RunConfig, notes: list[str]) -> list[Example]:
    loaded = load_dataset(task.dataset, config.data, config.split or task.split)
    notes.extend(loaded.notes)
    examples = loaded.examples
    if task.subset is not None:
        examples = [e for e in examples if task.subset.keep(e)]
    if task.needs:
        kept = [e for e in examples if all(e.gold.get(k) for k in task.needs)]
        if len(kept) < len(examples):
            notes.append(
                f"{len(examples) - len(kept)} of {len(examples)} example(s) lack {', '.join(task.needs)} "
                "and are left out"
            )
        examples = kept
    if not examples:
        needs = f" with {', '.join(task.needs)}" if task.needs else ""
        levels = f" {task.subset.described}" if task.subset is not None else ""
        help_ = f": {task.needs_help}" if task.needs_help else ""
        raise DatasetUnavailable(
            f"{task.dataset} ({loaded.split}) has no examples{levels}{needs}, which task {task.name} "
            f"needs{help_}"
        )
    return select_examples(examples, config.limit, config.seed)


# ------------------------------------------------------------------------------------------ images


class ImageLoader:
    """Decoded images by example key, fetched once per run; failures remembered and reported once."""

    def __init__(self, fetcher: ImageFetcher, report: Callable[[str], None]) -> None:
        self.fetcher = fetcher
        self.report = report
        self._images: dict[str, Image.Image] = {}
        self._errors: dict[str, str] = {}
        self._scales: dict[str, float] = {}

    def get(self, example: Example) -> Image.Image:
        """The example's image; raises ImageUnavailable (the same message every time it is asked)."""
        key = example.key
        if key in self._images:
            return self._images[key]
        if key in self._errors:
            raise ImageUnavailable(self._errors[key])
        try:
            data = self.fetcher.fetch(example.image)
            image = load_image(data)
            self._scales[key] = _scale(data, image)
        except (ImageUnavailable, InputError) as exc:
            message = f"example {example.id}: {exc}"
            self._errors[key] = message
            self.report(f"image unavailable: {message}")
            raise ImageUnavailable(message) from exc
        self._images[key] = image
        return image

    def scale(self, example: Example) -> float:
        """Working-image pixels per pixel of the image file (below 1 when load_image downscaled it), for
        gold coordinates given in the file's pixels; call after `get`."""
        return self._scales.get(example.key, 1.0)

    def forget(self, examples: Sequence[Example]) -> None:
        """Drop decoded images no later batch needs (memory stays bounded by one batch)."""
        for e in examples:
            self._images.pop(e.key, None)


# ------------------------------------------------------------------------------------------ running


def _is_server(model: VisionLanguageModel) -> bool:
    try:
        info = model.describe()
    except Exception:
        return False
    return info.get("backend") == "openai" or info.get("device") == "remote"


def _scale(data: bytes, image: Image.Image) -> float:
    """Working size / file size along the longer side (downscaling is uniform; EXIF rotation may swap the
    sides but not the longer one's length)."""
    try:
        with Image.open(io.BytesIO(data)) as original:  # reads the header only
            longest = max(original.size)
    except OSError:
        return 1.0
    return max(image.size) / longest if longest else 1.0


class Runner:
    """One run of a task; the `RunContext` its kind answers through (assistant.evaluation.kinds)."""

    def __init__(self, config: RunConfig, *, echo: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.task = get_task_or_fail(config.task)
        self.echo = echo or (lambda line: tqdm.write(line, file=sys.stderr))
        self.variants = self._variants()
        self.settings = self.task.settings
        if config.max_new_tokens is not None:
            if config.max_new_tokens < 1:
                raise RunError("--max-new-tokens must be at least 1")
            self.settings = replace(self.settings, max_new_tokens=config.max_new_tokens)
        self.settings = replace(self.settings, seed=config.seed)
        if config.batch_size < 1 or config.concurrency < 1:
            raise RunError("--batch-size and --concurrency must be at least 1")
        if not config.models:
            raise RunError("name at least one --model")
        config.models = list(dict.fromkeys(config.models))  # a model named twice runs once
        self.cache = ResponseCache(config.cache_path or default_cache_dir() / "bench" / "responses.sqlite")
        self.images = ImageLoader(ImageFetcher(), self.echo)
        self.counters: dict[str, CallCounter] = {}  # name -> calls, cache hits (CachedVLM ...)
        # loaded once per name, shared by the task and the judge
        self._models: dict[str, VisionLanguageModel] = {}
        self.pointers: dict[str, Pointer] = {}  # the kind's pointers, loaded once per name

    def _variants(self) -> list[Variant]:
        if not self.config.variants:
            return list(self.task.variants)
        try:
            return [self.task.variant(v) for v in self.config.variants]
        except KeyError as exc:
            raise RunError(str(exc.args[0])) from None

    # ---------------------------------------------------------------- public

    def run(self) -> RunResult:
        started = time.perf_counter()
        notes: list[str] = []
        try:
            examples = _task_examples(self.task, self.config, notes)
            judge, records = self._answer_and_judge(examples, notes)
        finally:
            self.cache.close()
        summary = self._summary(examples, records, judge)
        calls = sum(c.calls for c in self.counters.values())
        hits = sum(c.hits for c in self.counters.values())
        run_info = {
            "model_calls": calls,
            "cache_hits": hits,
            "calls_by_model": {name: c.calls for name, c in self.counters.items()},
            "seconds": round(time.perf_counter() - started, 2),
            "notes": notes,
        }
        out_dir = self.config.out_dir or Path("runs") / self.task.name / "+".join(self.config.models)
        files = write_report(out_dir, self.task, records, summary, run_info)
        return RunResult(self.task, records, summary, calls, hits, out_dir, files, notes)

    def _answer_and_judge(
        self, examples: list[Example], notes: list[str]
    ) -> tuple[Judge | None, list[ResponseRecord]]:
        """Every model's responses (the task's kind gets them), then the judge's judgements."""
        kind = self.task.kind
        kind.prepare(self, notes)
        if self.config.judge not in (None, "none") and not self.task.judge_questions:
            notes.append(f"task {self.task.name} needs no judge; --judge {self.config.judge} is not used")
        for note in notes:
            self.echo(f"note: {note}")
        judge = scoring.make_judge(
            self.config.judge or self.task.default_judge,
            self.task,
            self.cached_vlm,
            self.config.judge_max_new_tokens,
        )
        items: list[RunItem] = []
        for model_name in self.config.models:
            items.extend(self._run_model(model_name, examples))
        shown = len(notes)
        records = scoring.judge_records(self.task, items, judge, self.images, self.config.batch_size, notes)
        kind.after_judging(self, items, records)
        for note in notes[shown:]:
            self.echo(f"note: {note}")
        return judge, records

    def _summary(
        self, examples: list[Example], records: list[ResponseRecord], judge: Judge | None
    ) -> RunSummary:
        """The paper's numbers and everything that says how the run was made."""
        gold_masks = {e.key: self.task.scoring.gold_masks(e) for e in examples}
        summary = scoring.summarise(
            self.task, records, self.config.models, self.variants, gold_masks, seed=self.config.seed
        )
        return replace(
            summary,
            task=self.task.name,
            reproduces=self.task.reproduces,
            dataset=self.task.dataset,
            split=examples[0].split,
            data=self.config.data or "published",
            models=list(self.config.models),
            judge=getattr(judge, "name", None),
            judge_agreement=measured_agreement(judge, [q.name for q in self.task.judge_questions]),
            judge_paths=scoring.decided_by(records),
            provenance=provenance(),
            variants=[v.name for v in self.variants],
            n_examples=len(examples),
            limit=self.config.limit,
            seed=self.config.seed,
            settings=self.settings.as_dict(),
            pointer=self.config.pointer if self.task.uses_pointer else None,
        )

    # ---------------------------------------------------------------- models

    def progress(self, total: int, desc: str, unit: str) -> tqdm:
        """A progress bar on stderr, shown only when the run asks for one (the CLI; the tab draws its own)."""
        return tqdm(
            total=total,
            desc=desc,
            unit=unit,
            disable=not self.config.progress,
            file=sys.stderr,
            dynamic_ncols=True,
        )

    def cached_vlm(self, name: str, role: str = "") -> CachedVLM:
        label = f"{role}{name}"
        if label not in self.counters:
            if name not in self._models:
                self._models[name] = (self.config.vlm_factory or create_vlm)(name)
            self.counters[label] = cached_vlm(self._models[name], self.cache)
        counter = self.counters[label]
        assert isinstance(counter, CachedVLM)
        return counter

    def _run_model(self, model_name: str, examples: list[Example]) -> list[RunItem]:
        # Prompt-major order: a batch holds one prompt, so its conversations are of similar length and
        # left padding wastes little (the few-shot prompts are ~7x the zero-shot ones). An image is then
        # decoded once per prompt, which costs milliseconds against a model call.
        items = [RunItem(e, v, model_name) for v in self.variants for e in examples]
        if self.task.kind.loads_model:
            self.cached_vlm(model_name)  # load it before the bar starts: the bar's rate is answering only
        bar = _Progress(
            self.progress(len(items), f"{self.task.name} {model_name}", "item"),
            model_name,
            self.config.on_progress,
        )
        try:
            self.task.kind.answer(self, model_name, items, bar)
        finally:
            bar.close()
        return items

    # ---------------------------------------------------------------- for the kinds (RunContext)

    def batches(self, items: list[RunItem]) -> list[list[RunItem]]:
        size = self.config.batch_size
        return [items[i : i + size] for i in range(0, len(items), size)]

    def with_images(self, batch: list[RunItem]) -> list[tuple[RunItem, Image.Image]]:
        """The batch's items with their images; an item whose image cannot be had gets that as its error."""
        ready = []
        for item in batch:
            try:
                ready.append((item, self.images.get(item.example)))
            except ImageUnavailable as exc:
                item.error = str(exc)
        return ready

    def is_server(self, model: VisionLanguageModel) -> bool:
        return _is_server(model)

    def generate(self, model: CachedVLM, conversations: list[list[ChatMessage]]) -> list[str | ModelError]:
        """Replies in order; a failing batch is retried item by item so one bad item fails alone."""
        if not conversations:
            return []
        if _is_server(model):
            return generate_in_flight(model, conversations, self.settings, self.config.concurrency)
        try:
            return list(model.generate_batch(conversations, self.settings))
        except ModelError:
            if len(conversations) == 1:
                return [_safe(model.generate, conversations[0], self.settings)]
            return [_safe(model.generate, c, self.settings) for c in conversations]


class _Progress:
    """tqdm's bar plus an optional callback (model, done, total) for callers that draw their own."""

    def __init__(self, bar: tqdm, model: str, callback: Callable[[str, int, int], None] | None) -> None:
        self.bar, self.model, self.callback = bar, model, callback
        # counted here, not read from the bar: a disabled tqdm (progress=False) never advances its n
        self.done, self.total = 0, int(bar.total or 0)

    def update(self, n: int) -> None:
        self.bar.update(n)
        self.done += n
        if self.callback is not None:
            self.callback(self.model, self.done, self.total)

    def close(self) -> None:
        self.bar.close()


def generate_in_flight(
    model: VisionLanguageModel,
    conversations: Sequence[list[ChatMessage]],
    settings: GenerationSettings | None,
    concurrency: int,
) -> list[str | ModelError]:
    """Replies in order, with up to `concurrency` requests in flight (a server answers many at once);
    a failed item is its ModelError, the others go on."""
    if not conversations:
        return []
    with ThreadPoolExecutor(max_workers=max(1, min(concurrency, len(conversations)))) as pool:
        return list(pool.map(lambda c: _safe(model.generate, c, settings), conversations))


def _safe(fn: Callable[..., str], *args: Any) -> str | ModelError:
    try:
        return fn(*args)
    except ModelError as exc:
        return exc


def get_task_or_fail(name: str) -> Task:
    try:
        return get_task(name)
    except KeyError as exc:
        raise RunError(str(exc.args[0])) from None


def run_benchmark(config: RunConfig, *, echo: Callable[[str], None] | None = None) -> RunResult:
    """Run one task for one or more models and write its report; see RunConfig for the options."""
    return Runner(config, echo=echo).run()
