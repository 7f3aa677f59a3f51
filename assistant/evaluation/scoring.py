"""From a task's raw outputs to judgements (per item) and to the papers' numbers (per model and prompt).

`judge_records` fills each record's "judgement" with the task's direct judgements and the labels its judge
questions get (through the judges of assistant.evaluation.judges); `summarise` groups the records by
(model, variant) and calls the task's aggregation (its paper's module, assistant/evaluation/papers/).

A judge call that fails (a judge server that times out or answers an error, an image that a judge
question needs and cannot have) costs only the items it was about: each gets "unknown" for that judging,
the error under "<judging>_error", and is counted in the summary's "judge_errors"; the run goes on and
writes its report.

What each task asks, reads and counts is its own (`task.scoring`, `task.aggregate`: its paper's module);
this module only runs it. A judge question whose item needs the image (JudgeQuestion.fields) gets the
example's image; a judge that cannot see images leaves that question out of the run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from PIL import Image

from assistant.errors import WhichoneError
from assistant.evaluation import judges, metrics
from assistant.evaluation.benchmark import MetricsContext, RunItem, Task, Variant
from assistant.evaluation.judgement import Judge, JudgeError, Judgement, JudgeQuestion
from assistant.evaluation.records import ResponseRecord, ResultRow, RunSummary
from assistant.evaluation.schema import Example
from models.base import GenerationSettings, VisionLanguageModel
from models.errors import ModelError


class ExampleImages(Protocol):
    """Where judging gets an example's image (the runner's ImageLoader): a judge question that
    sees the image needs it."""

    def get(self, example: Example) -> Image.Image: ...

    def forget(self, examples: Sequence[Example]) -> None: ...


# After this many judge calls in a row have failed, the judge is not asked again in this run: a judge server
# that is down would otherwise cost every remaining item its own timeout.
JUDGE_FAILURE_LIMIT = 8


class ScoringError(WhichoneError):
    """The judge cannot be built (unknown name, unavailable model)."""


# ------------------------------------------------------------------------------------------ builders


def make_judge(
    name: str | None,
    task: Task,
    vlm_factory: Callable[[str, str], VisionLanguageModel],
    max_new_tokens: int | None = None,
) -> Judge | None:
    """`none` -> None, `rules` -> the gated RuleJudge, `rules-ungated` -> the rules as written, any other
    name -> an LLM judge on that VLM (cached)."""
    if not task.judge_questions:
        return None  # e.g. a parsed verdict or masks compared with gold: no judge
    if name in (None, "", "none"):
        if task.scoring.judge_optional:
            return None  # scored on the model's own statement, which the report labels as such
        raise ScoringError(f"task {task.name} needs a judge: --judge rules or --judge MODEL")

    rules = judges.rule_judge_named(name)
    if rules is not None:
        return rules
    settings = (
        None if max_new_tokens is None else GenerationSettings(max_new_tokens=max_new_tokens, temperature=0.0)
    )
    rules_first = judges.rules_first_model(name)
    if rules_first:  # "rules+MODEL": the rules where they are sure, MODEL for the rest
        return judges.RulesFirstJudge(
            judges.rule_judge(), judges.LLMJudge(vlm_factory(rules_first, "judge:"), settings)
        )
    return judges.LLMJudge(vlm_factory(name, "judge:"), settings)


# ------------------------------------------------------------------------------------------ judging


def record_of(item: RunItem) -> ResponseRecord:
    """The item's record (without its judgement yet)."""
    ex = item.example
    return ResponseRecord(
        model=item.model,
        variant=item.variant.name,
        id=ex.id,
        source=ex.source,
        split=ex.split,
        image=ex.image.describe(),
        question=ex.question,
        gold=ex.gold_for_report(),
        turns=item.turns,
        response=item.response,
        error=item.error,
        parts=dict(item.parts),
    )


def judge_records(
    task: Task,
    items: Sequence[RunItem],
    judge: Judge | None,
    images: ExampleImages,
    batch_size: int = 8,
    notes: list[str] | None = None,
) -> list[ResponseRecord]:
    """One record per item with its judgement; judges see items in batches (an LLM judge batches them,
    and each batch's judge calls are cached before the next starts). A failing judge call marks its
    items "unknown" with "<judging>_error" (see the module docstring) and the run goes on."""

    records = [record_of(it) for it in items]
    ok = [i for i, it in enumerate(items) if it.error is None and it.response is not None]
    scoring = task.scoring
    for i in ok:
        records[i].judgement.update(scoring.direct(items[i], judge is not None))
    if judge is None:
        return records
    plan: list[tuple[JudgeQuestion, list[int]]] = [(asked, ok) for asked in scoring.asks]
    for variant, questions in scoring.asks_of_variant.items():
        plan += [(q, [i for i in ok if items[i].variant.name == variant]) for q in questions]
    judging_run = _Judging(judge, scoring.judge_input, images, batch_size, notes)
    for asked, targets in plan:
        _ask(judging_run, asked, targets, items, records)
    counts = judge_error_counts(records)
    if counts and notes is not None:
        first = next(f"{k}: {v}" for r in records for k, v in r.judgement.items() if k.endswith("_error"))
        notes.append(
            f"{sum(counts.values())} judgement(s) failed and count as unknown "
            f"({', '.join(f'{k} {n}' for k, n in counts.items())}); first: {first}"
        )
    return records


@dataclass
class _Judging:
    """One run's judging: the judge, where it gets images, its batches, its failures in a row, the notes."""

    judge: Judge
    judge_input: Callable[[str, RunItem], dict[str, Any]]
    images: ExampleImages
    batch_size: int
    notes: list[str] | None
    in_a_row: _FailuresInARow = field(default_factory=lambda: _FailuresInARow())


def _ask(
    judging_run: _Judging,
    asked: JudgeQuestion,
    targets: list[int],
    items: Sequence[RunItem],
    records: list[ResponseRecord],
) -> None:
    """One judge question of the `targets` items, in batches; each record gets its label (audited) or the
    judge's failure. A judge that cannot see images drops the question from the run, with a note."""
    judge, images, notes, in_a_row = (
        judging_run.judge,
        judging_run.images,
        judging_run.notes,
        judging_run.in_a_row,
    )
    batch_size = judging_run.batch_size
    judging = asked.name
    sees_image = "image" in asked.fields
    for start in range(0, len(targets), batch_size):
        chunk = targets[start : start + batch_size]
        fields: dict[int, dict[str, Any]] = {}
        for i in chunk:
            fields[i] = judging_run.judge_input(judging, items[i])
            if sees_image:
                try:
                    fields[i]["image"] = images.get(items[i].example)
                except WhichoneError as exc:  # an image that cannot be had for this question
                    del fields[i]
                    _judge_failed(records[i], judging, str(exc))
        try:
            results = _judge_chunk(judge, asked, list(fields.values()), in_a_row)
        except JudgeError as exc:  # the judge cannot see images at all (the rule judge)
            for r in records:  # no column for it, rather than one made of this chunk's failures
                r.judgement.pop(judging, None)
                r.judgement.pop(f"{judging}_error", None)
            if notes is not None:
                notes.append(f"{asked.title} not judged: {exc}")
            return
        finally:
            if sees_image:
                images.forget([items[i].example for i in chunk])
        for i, result in zip(fields, results, strict=True):
            if isinstance(result, Exception):
                _judge_failed(records[i], judging, str(result))
                continue
            audit(records[i], judging, judge.name, result)


def audit(record: ResponseRecord, judging: str, judge: str, result: Judgement) -> None:
    """A judgement with what a reader needs to check it: the label, why, which judge, and for a judge model
    its full text and the prompt it read ("<judging>_reason" / "_judge" / "_text" / "_prompt")."""
    judged = record.judgement
    judged[judging] = result.label
    judged[f"{judging}_judge"] = judge
    if result.path:
        judged[f"{judging}_path"] = result.path
    if result.reason:
        judged[f"{judging}_reason"] = result.reason
    if result.raw:
        judged[f"{judging}_text"] = result.raw
    if result.prompt:
        judged[f"{judging}_prompt"] = result.prompt


def decided_by(records: Sequence[ResponseRecord]) -> dict[str, dict[str, int]]:
    """{judging: {"rules" / "llm:MODEL": how many records that path decided}} (an abstaining rule's
    "unknown" counts for the rules; a judge call that failed is not counted)."""
    counts: dict[str, dict[str, int]] = {}
    for record in records:
        for key, path in record.judgement.items():
            if key.endswith("_path") and isinstance(path, str):
                kind = "rules" if path.startswith("rules") else ":".join(path.split(":")[:2])
                per = counts.setdefault(key.removesuffix("_path"), {})
                per[kind] = per.get(kind, 0) + 1
    return counts


class _FailuresInARow:
    """How many judge calls have failed in a row, and the last one's error."""

    def __init__(self) -> None:
        self.count = 0
        self.last = ""

    def record(self, result: Judgement | Exception) -> Judgement | Exception:
        if isinstance(result, Exception):
            self.count, self.last = self.count + 1, str(result)
        else:
            self.count = 0
        return result


def _judge_chunk(
    judge: Judge, asked: JudgeQuestion, fields: list[dict[str, Any]], in_a_row: _FailuresInARow
) -> list[Judgement | Exception]:
    """The judge's Judgement for each item, or the exception its judge call raised.

    A batch that fails is asked again item by item, so one bad item (a reply the server refuses, a
    timeout on one long response) fails alone. A JudgeError of a question that sees the image is
    raised instead: the judge cannot see images at all. Once JUDGE_FAILURE_LIMIT calls in a row have
    failed, the judge is not asked again and each item gets that as its error.
    """

    if not fields:
        return []
    if in_a_row.count >= JUDGE_FAILURE_LIMIT:
        stop = JudgeError(f"not judged: the judge's last {in_a_row.count} calls failed ({in_a_row.last})")
        return [stop] * len(fields)
    try:
        verdicts = judge.judge_many(asked, fields)
    except (WhichoneError, ModelError) as exc:
        if isinstance(exc, JudgeError) and "image" in asked.fields:
            raise
        if len(fields) == 1:
            return [in_a_row.record(exc)]
        return [r for item in fields for r in _judge_chunk(judge, asked, [item], in_a_row)]
    return [in_a_row.record(v) for v in verdicts]


def _judge_failed(record: ResponseRecord, judging: str, error: str) -> None:
    record.judgement[judging] = metrics.UNKNOWN  # counted and shown as unknown, never dropped
    record.judgement[f"{judging}_error"] = error


def judge_error_counts(records: Sequence[ResponseRecord]) -> dict[str, int]:
    """{judging: how many of `records` its judge failed to judge}, in first-seen order."""
    counts: dict[str, int] = {}
    for r in records:
        for judging in r.failed_judgings():
            counts[judging] = counts.get(judging, 0) + 1
    return counts


# ------------------------------------------------------------------------------------------ metrics


def summarise(
    task: Task,
    records: list[ResponseRecord],
    models: Sequence[str],
    variants: Sequence[Variant],
    gold_masks: dict[str, list[dict[str, Any]]] | None = None,
    seed: int = 0,  # for metrics with a random part (a paired test's pairing)
) -> RunSummary:
    """One ResultRow per (model, variant), in that order, and the judge failures by judging task; the
    caller fills in how the run was made. A row's "errors" are items the model did not answer, its
    "judge_errors" answered items whose judging failed (they count as unknown)."""

    context = MetricsContext(gold_masks or {}, seed)
    results = []
    for model in models:
        for variant in variants:
            group = [r for r in records if r.model == model and r.variant == variant.name]
            done = [r for r in group if r.error is None]
            results.append(
                ResultRow(
                    model=model,
                    variant=variant.name,
                    label=variant.label,
                    n=len(group),
                    errors=len(group) - len(done),
                    judge_errors=sum(1 for r in done if r.failed_judgings()),
                    metrics=task.aggregate(task, done, context),  # its paper's numbers
                )
            )
    return RunSummary(results, judge_error_counts(records))
