"""Run a benchmark task: examples -> model responses (cached) -> judgements -> metrics -> report files.

Resumable by construction: every response is committed to the sqlite cache as soon as its batch is done,
and the per-example records are rebuilt from the cache at the end. A rerun of an interrupted run (SIGTERM,
SIGKILL, a crash) re-asks nothing already answered and ends with the same files an uninterrupted run
writes. Work is cut into batches by position in the full (seeded) item list, never by what is left, so a
batch is the same set of conversations in every run (a local model's batched output can depend on its
batch mates through padding).

Local models get batches through `generate_batch`; servers (an OpenAI-compatible backend) get one request
per item from a bounded thread pool, each committed as it returns.

Saliency (RAcQUEt Table 1) answers as "vqa" does, and after judging maps each class B/C response to a
referent box through the pointer (`Runner._map_referents`); the pointer's hits are cached too.
"""

from __future__ import annotations

import io
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeGuard

from PIL import Image
from tqdm import tqdm

from assistant.errors import InputError, WhichoneError
from assistant.evaluation import saliency, scoring
from assistant.evaluation.benchmark import RunItem
from assistant.evaluation.cache import (
    CachedPointer,
    CachedVLM,
    ResponseCache,
    cache_key,
    cached_pointer,
    cached_vlm,
    image_bytes_digest,
    model_identity,
)
from assistant.evaluation.datasets import DatasetUnavailable, load_dataset
from assistant.evaluation.fetch import ImageFetcher, ImageUnavailable, default_cache_dir
from assistant.evaluation.judges import measured_agreement
from assistant.evaluation.provenance import provenance
from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.report import write_report
from assistant.evaluation.schema import Example
from assistant.evaluation.tasks import Task, Variant, get_task
from assistant.grounding import Grounder
from assistant.images import load_image
from models.base import ChatMessage, GenerationSettings, Pointer, VisionLanguageModel
from models.errors import ModelError
from models.registry import create_pointer, create_segmenter, create_vlm
from models.types import Grounding
from models.vlm_pointer import VLMPointer
from prompts import render_prompt


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
    segmenter: str = "sam-vit-b"  # "localise" tasks only (--model names the pointer); "none": boxes
    # "pipeline" tasks: the pipeline's pointer; "saliency" tasks: what maps a response to a box
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


class RunError(WhichoneError):
    """The run cannot start (unknown task or variant, no examples, bad option)."""


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
    if task.only_levels is not None:
        examples = [e for e in examples if e.gold.get("level") in task.only_levels]
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
        levels = f" at level {', '.join(map(str, task.only_levels))}" if task.only_levels else ""
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


def _first_turn(item: RunItem, image: Image.Image) -> list[ChatMessage]:
    prompt = render_prompt(item.variant.prompt, question=item.example.question)
    return [ChatMessage("user", prompt, [image])]


def _scale(data: bytes, image: Image.Image) -> float:
    """Working size / file size along the longer side (downscaling is uniform; EXIF rotation may swap the
    sides but not the longer one's length)."""
    try:
        with Image.open(io.BytesIO(data)) as original:  # reads the header only
            longest = max(original.size)
    except OSError:
        return 1.0
    return max(image.size) / longest if longest else 1.0


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


class Runner:
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
        self.counters: dict[str, CachedVLM | CachedPointer | _CallCounter] = {}
        # loaded once per name, shared by the task and the judge
        self._models: dict[str, VisionLanguageModel] = {}
        self._pointers: dict[str, Pointer] = {}  # localise: --model names; saliency: --pointer when not vlm-*

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
            if self.task.kind == "localise":
                self._localise_variants(notes)
            if self.task.kind == "saliency":
                for model_name in self.config.models:  # an unknown --pointer fails before any answering
                    self._saliency_pointer(model_name)
            if self.config.judge not in (None, "none") and not self.task.judge_questions:
                notes.append(f"task {self.task.name} needs no judge; --judge {self.config.judge} is not used")
            for note in notes:
                self.echo(f"note: {note}")
            judge = scoring.make_judge(
                self.config.judge or self.task.default_judge,
                self.task,
                self._cached_vlm,
                self.config.judge_max_new_tokens,
            )
            items: list[RunItem] = []
            for model_name in self.config.models:
                items.extend(self._run_model(model_name, examples))
            shown = len(notes)
            records = scoring.judge_records(
                self.task, items, judge, self.images, self.config.batch_size, notes
            )
            if self.task.kind == "saliency":
                self._map_referents(items, records)
            for note in notes[shown:]:
                self.echo(f"note: {note}")
        finally:
            self.cache.close()
        gold_masks = {e.key: self.task.scoring.gold_masks(e) for e in examples}
        summary = scoring.summarise(
            self.task, records, self.config.models, self.variants, gold_masks, seed=self.config.seed
        )
        summary = replace(
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

    # ---------------------------------------------------------------- models

    def _bar(self, total: int, desc: str, unit: str) -> tqdm:
        """A progress bar on stderr, shown only when the run asks for one (the CLI; the tab draws its own)."""
        return tqdm(
            total=total,
            desc=desc,
            unit=unit,
            disable=not self.config.progress,
            file=sys.stderr,
            dynamic_ncols=True,
        )

    def _cached_vlm(self, name: str, role: str = "") -> CachedVLM:

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
        kind = self.task.kind
        if kind in ("vqa", "two-turn", "pipeline", "saliency", "probability"):
            self._cached_vlm(model_name)  # load it before the bar starts: the bar's rate is answering only
        bar = _Progress(
            self._bar(len(items), f"{self.task.name} {model_name}", "item"),
            model_name,
            self.config.on_progress,
        )
        try:
            if kind in ("vqa", "two-turn", "saliency"):
                self._run_vqa(self._cached_vlm(model_name), items, bar)
            elif kind == "probability":
                self._run_probability(self._cached_vlm(model_name), items, bar)
            elif kind == "pipeline":
                self._run_pipeline(model_name, items, bar)
            elif kind == "localise":
                self._run_localise(model_name, items, bar)
            else:  # pragma: no cover - tasks.py lists the kinds
                raise RunError(f"task kind {kind!r} is not runnable")
        finally:
            bar.close()
        return items

    def _batches(self, items: list[RunItem]) -> list[list[RunItem]]:
        size = self.config.batch_size
        return [items[i : i + size] for i in range(0, len(items), size)]

    def _with_images(self, batch: list[RunItem]) -> list[tuple[RunItem, Image.Image]]:
        ready = []
        for item in batch:
            try:
                ready.append((item, self.images.get(item.example)))
            except ImageUnavailable as exc:
                item.error = str(exc)
        return ready

    # ---------------------------------------------------------------- kind: vqa / two-turn

    def _generate(self, model: CachedVLM, conversations: list[list[ChatMessage]]) -> list[str | ModelError]:
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

    def _run_vqa(self, model: CachedVLM, items: list[RunItem], bar: _Progress) -> None:
        # A server takes one bigger "batch" so its thread pool stays full; each reply is committed alone.
        batches = (
            self._batches(items)
            if not _is_server(model)
            else [
                items[i : i + self.config.concurrency * 4]
                for i in range(0, len(items), self.config.concurrency * 4)
            ]
        )
        for batch in batches:
            ready = self._with_images(batch)
            first = [_first_turn(it, im) for it, im in ready]
            replies = self._generate(model, first)
            second_round = []
            for (item, _), conv, reply in zip(ready, first, replies, strict=True):
                if isinstance(reply, ModelError):
                    item.error = f"model: {reply}"
                    continue
                item.turns = [{"role": "user", "text": conv[0].text}, {"role": "assistant", "text": reply}]
                item.response = reply
                if self.task.kind == "two-turn":
                    hint = str(item.example.gold.get("hint", ""))
                    if self.task.second_turn_suffix:  # e.g. ClearVQA: a short answer, for VQA scoring
                        hint = f"{hint} {self.task.second_turn_suffix}".strip()
                    follow = [*conv, ChatMessage("assistant", reply), ChatMessage("user", hint)]
                    second_round.append((item, follow))
            if second_round:
                finals = self._generate(model, [c for _, c in second_round])
                for (item, conv), final in zip(second_round, finals, strict=True):
                    if isinstance(final, ModelError):
                        item.error, item.response = f"model (second turn): {final}", None
                        continue
                    item.turns += [
                        {"role": "user", "text": conv[-1].text},
                        {"role": "assistant", "text": final},
                    ]
                    item.response = final
            self.images.forget([it.example for it in batch])
            bar.update(len(batch))

    # ---------------------------------------------------------------- kind: probability

    def _run_probability(self, model: CachedVLM, items: list[RunItem], bar: _Progress) -> None:
        """P(ambiguous) per item: "Yes" against "No" as the first reply token (one forward pass, cached)."""
        for batch in self._batches(items):
            for item, image in self._with_images(batch):
                conversation = _first_turn(item, image)
                try:
                    scores = model.answer_probabilities(conversation, ("Yes", "No"))
                except ModelError as exc:
                    item.error = f"model: {exc}"
                    continue
                p = scores.probabilities.get("Yes")
                item.turns = [{"role": "user", "text": conversation[0].text}]
                item.response = json.dumps(
                    {"p_ambiguous": p, "covered": scores.covered, "source": scores.source}
                )
            self.images.forget([it.example for it in batch])
            bar.update(len(batch))

    # ---------------------------------------------------------------- kind: pipeline (whichone itself)

    def _run_pipeline(self, model_name: str, items: list[RunItem], bar: _Progress) -> None:

        vlm = self._cached_vlm(model_name)
        pointer = create_pointer(self.config.pointer, vlm=vlm)
        if not self.config.pointer.startswith("vlm-"):
            # a pointer of its own (Molmo, blobs) is cached like a model; the vlm-* pointers ask the VLM,
            # whose calls are cached already
            pointer = cached_pointer(pointer, self.cache)
            self.counters[f"pointer:{self.config.pointer}"] = pointer
        assistant = scoring.make_assistant(vlm, pointer, self.config.max_new_tokens)
        for item in items:
            ready = self._with_images([item])
            if ready:
                try:
                    reply, _ = assistant.ask(ready[0][1], item.example.question)
                except (WhichoneError, ModelError) as exc:
                    item.error = f"pipeline: {exc}"
                else:
                    item.response = reply.text
                    item.extra["pipeline"] = {
                        "strategy": reply.strategy.value,
                        "level": int(reply.level),
                        "verdict": reply.verdict.value,
                        "candidates": len(reply.candidates),
                    }
            self.images.forget([item.example])
            bar.update(1)

    # ---------------------------------------------------------------- kind: localise

    def _localise_pointer(self, model_name: str) -> Pointer:

        if model_name not in self._pointers:
            self._pointers[model_name] = create_pointer(model_name)
        return self._pointers[model_name]

    def _localise_variants(self, notes: list[str]) -> None:
        """Keep the prompt variants every named pointer can take: the paper's prompts need a Molmo
        pointer; a pointer that only points at a phrase (blobs, vlm-boxes) runs the focus-phrase one."""
        prompted = [v for v in self.variants if not v.focus_phrase]
        if not prompted:
            return
        unable = [m for m in self.config.models if not takes_prompt(self._localise_pointer(m))]
        if not unable:
            return
        kept = [v for v in self.variants if v.focus_phrase]
        labels = ", ".join(v.label for v in prompted)
        why = (
            f"pointer {', '.join(unable)} points at a phrase and takes no prompt; the paper's prompts "
            f"({labels}) need a Molmo pointer (molmo2-*)"
        )
        if not kept:
            phrase = ", ".join(v.name for v in self.task.variants if v.focus_phrase)
            raise RunError(f"{why}: choose --variant {phrase}")
        notes.append(f"{why}, so they are left out")
        self.variants = kept

    def _run_localise(self, model_name: str, items: list[RunItem], bar: _Progress) -> None:

        pointer = self._localise_pointer(model_name)
        segmenter = None if self.config.segmenter == "none" else create_segmenter(self.config.segmenter)
        grounder = Grounder(pointer, segmenter)
        label = f"{model_name}+{self.config.segmenter}"
        counter = self.counters.setdefault(label, _CallCounter())
        assert isinstance(counter, _CallCounter)
        identity = {
            "pointer": model_identity(pointer),
            "segmenter": model_identity(segmenter) if segmenter is not None else None,
            "grounding": repr(grounder.config),
        }
        for item in items:
            ready = self._with_images([item])
            if ready:
                image = ready[0][1]
                phrase = scoring.focus_phrase(item.example.question)
                payload = {"phrase": phrase, "image": image_bytes_digest(image)}
                prompted = None
                if not item.variant.focus_phrase:
                    assert takes_prompt(pointer)  # _localise_variants kept prompt variants for such only
                    text = render_prompt(item.variant.prompt, question=item.example.question)
                    prompted = _PromptedPointer(pointer, text)
                    payload["prompt"] = text
                key = cache_key(identity, payload, {"task": "localise"})
                cached = self.cache.get(key)
                if cached is None:
                    try:
                        if prompted is None:
                            found = scoring.localise(grounder, image, phrase)
                        else:
                            found = scoring.localise(Grounder(prompted, segmenter), image, phrase)
                            found["output"] = prompted.last_output
                        cached = json.dumps(found)
                    except (WhichoneError, ModelError) as exc:
                        item.error = f"model: {exc}"
                    else:
                        self.cache.put(label, key, cached)
                        counter.calls += 1
                else:
                    counter.hits += 1
                if cached is not None:
                    item.extra["localisation"] = json.loads(cached)
                    item.response = f"{len(item.extra['localisation']['masks'])} region(s) of {phrase!r}"
            self.images.forget([item.example])
            bar.update(1)

    # ---------------------------------------------------------------- kind: saliency (after judging)

    def _saliency_pointer(self, model_name: str) -> Pointer:

        name = self.config.pointer
        if name.startswith("vlm-"):
            # the answering VLM grounds its own answer; its calls are cached (and counted) as the model's
            key = f"{name}@{model_name}"
            if key not in self._pointers:
                self._pointers[key] = create_pointer(name, vlm=self._cached_vlm(model_name))
            return self._pointers[key]
        if name not in self._pointers:  # one pointer of its own for every model, cached like a model
            pointer = cached_pointer(create_pointer(name), self.cache)
            self.counters[f"pointer:{name}"] = pointer
            self._pointers[name] = pointer
        return self._pointers[name]

    def _map_referents(self, items: Sequence[RunItem], records: list[ResponseRecord]) -> None:
        """RAcQUEt Appendix H: each response that describes one referent (the task's scoring says which)
        -> the pointer's box -> the referent box with the highest IoU, written to the record's "saliency"
        (`saliency.map_response`)."""
        one_referent = self.task.scoring.one_referent or (lambda record: False)
        targets = [i for i, r in enumerate(records) if r.answered and one_referent(r)]
        bar = self._bar(len(targets), f"{self.task.name} pointing ({self.config.pointer})", "response")
        try:
            for i in targets:
                item, record = items[i], records[i]
                try:
                    image = self.images.get(item.example)
                    phrase = " ".join(str(record.response).split())
                    hits = self._saliency_pointer(item.model).point(image, phrase)
                except ImageUnavailable as exc:  # pragma: no cover - it was answered, so it loaded once
                    record.saliency = {"chosen": None, "unmapped": "image unavailable", "error": str(exc)}
                except (WhichoneError, ModelError) as exc:
                    record.saliency = {"chosen": None, "unmapped": "pointer error", "error": str(exc)}
                else:
                    referents = item.example.gold["referents"]
                    scale = self.images.scale(item.example)
                    width, height = image.size
                    size = (round(width / scale), round(height / scale))
                    record.saliency = saliency.map_response(hits, referents, size, scale)
                self.images.forget([item.example])
                bar.update(1)
        finally:
            bar.close()


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


@dataclass
class _CallCounter:
    calls: int = 0
    hits: int = 0


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
