"""What a benchmark is, as data: a task (dataset, prompt variants, scoring, aggregation, paper table) and
the paper that owns its tasks (assistant/evaluation/papers/: one package per paper). A task carries its
Paper (`task.paper`) and, through its scoring, its JudgeQuestion objects.

A task carries everything that is its paper's knowledge, the way an lmms-eval task carries
`process_results` and its aggregation: its `Scoring` (which judge questions it asks, the judgements that
need no judge, when a record is right, its judged and gold labels), `aggregate` (the judgements of one
model and prompt -> the paper's numbers), `layout` (the paper's table) and, for class bars, `bars`. The
runner (`kind` says how to get a response), the judges, the report and the tab call the task; none of
them names a paper or a task. Adding a paper is adding one package under papers/ that defines a `Paper`
(and naming it in papers/__init__.py, or `papers.register` it).

A task's `kind` (assistant.evaluation.kinds.Kind) says how its responses are obtained, what its records
carry and how the browser shows them: the shared VQA and TwoTurn, or a paper's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from assistant.evaluation.dataset_base import DatasetSpec
from assistant.evaluation.judgement import JudgeQuestion
from assistant.evaluation.kinds import Kind
from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.schema import Example
from models.base import GenerationSettings

# How the papers decode: greedy (temperature 0, RAcQUEt Section 4.1), up to 256 new tokens.
GREEDY_256 = GenerationSettings(max_new_tokens=256, temperature=0.0)


@dataclass(frozen=True)
class Subset:
    """The examples of its dataset a task keeps (the others are left out before sampling), and how to say
    it when none is left ("at level 3")."""

    keep: Callable[[Example], bool]
    described: str


@dataclass(frozen=True)
class Variant:
    """One prompt setting of a task (a row group of the paper's table)."""

    name: str  # used on the command line: --variant zs-cot
    label: str  # as the paper's table writes it: "ZS-CoT"
    prompt: str  # prompts/<prompt>.txt, rendered with question=...
    # a localising kind only. True: whichone's own grounding, the pointer asked about the question's focus
    # phrase with its own prompt (`prompt` names the Molmo one; vlm-boxes and blobs have their own or none).
    # False: `prompt` is rendered with the question and sent whole to a Molmo pointer (the paper's prompts).
    focus_phrase: bool = False


@dataclass
class RunItem:
    """One (example, prompt variant, model) of a run, as the runner fills it: the response and the turns
    that led to it, the kind's own parts (Kind.parts), or the error that stopped it."""

    example: Example
    variant: Variant
    model: str
    response: str | None = None
    turns: list[dict[str, str]] = field(default_factory=list)
    parts: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


@dataclass(frozen=True)
class MetricsContext:
    """What some metrics need besides the records: the gold masks (localisation) and the seed (the random
    pairing of RAcQUEt's saliency test)."""

    gold_masks: Mapping[str, list[dict[str, Any]]] = field(default_factory=dict)
    seed: int = 0


# A table as a paper lays it out: (title, header, rows, notes on what its rows mean).
Layout = tuple[str, list[str], list[list[str]], list[str]]

PlotKind = Literal["class-bars", "confusion"]


@dataclass(frozen=True)
class Bar:
    """One stacked bar of a class-bars plot."""

    label: str  # "model (prompt)" or "model (bias category)"
    shares: tuple[float | None, ...]  # one per segment, 0..1; None: not measured


# a paper's numbers for one (model, variant) from its answered records -> ResultRow.metrics
MetricsFn = Callable[["Task", list[ResponseRecord], MetricsContext], dict[str, Any]]
# a paper's table of a run (its title, header, rows, notes)
LayoutFn = Callable[["Task", RunSummary], Layout]
# a run's class bars: the segments as (metrics key, name) and the bars
BarsFn = Callable[[RunSummary], tuple[tuple[tuple[str, str], ...], list[Bar]]]


def no_direct_judgement(item: RunItem, judged: bool) -> dict[str, Any]:
    return {}


def default_judge_input(judge_question: str, item: RunItem) -> dict[str, Any]:
    """What a judge reads by default: the example's question and the response."""
    return {"question": item.example.question, "response": item.response}


def no_gold_label(record: ResponseRecord) -> str | None:
    return None


@dataclass(frozen=True)
class Scoring:
    """How a task's responses become judgements, and a record right or wrong (lmms-eval's `process_results`).

    Each paper's module defines the scorings of its tasks; the runner, the judges, the report and the tab
    only call these. It carries the JudgeQuestions it asks (assistant.evaluation.judgement); records,
    judge inputs and labelled files name them (JudgeQuestion.name).
    """

    name: str  # shown with a run
    right_means: str  # said with every example in the tab, so "right" is never a mystery
    # (an answered record, the example's gold masks for localisation) -> whether it counts as right
    is_right: Callable[[ResponseRecord, Sequence[dict[str, Any]]], bool]
    asks: tuple[JudgeQuestion, ...] = ()  # the judge questions asked of every answered item
    # judge questions asked only of one prompt's responses: {prompt variant: (question, ...)}
    asks_of_variant: Mapping[str, tuple[JudgeQuestion, ...]] = field(default_factory=dict)
    # judgements that need no judge, of an answered item; `judged`: a judge will judge it too
    direct: Callable[[RunItem, bool], dict[str, Any]] = no_direct_judgement
    # the fields a judge question reads for an item (judgement.JudgeItem)
    judge_input: Callable[[str, RunItem], dict[str, Any]] = default_judge_input
    judged_label: str | None = None  # the judgement whose label is a record's "judged" label
    gold_label: Callable[[ResponseRecord], str | None] = no_gold_label  # in the judged label's words
    judge_optional: bool = False  # scored without a judge too (on the model's own statement)
    # whether an answered record describes one referent (a kind that points at it, e.g. a paper's saliency
    # kind, then maps its text to one of the example's referent boxes)
    one_referent: Callable[[ResponseRecord], bool] | None = None
    # the example's gold field of masks (COCO RLE) that is_right and the metrics compare with, if any
    gold_masks_field: str | None = None

    def gold_masks(self, example: Example) -> list[dict[str, Any]]:
        """The example's gold masks this scoring compares with ([] where it compares none)."""
        if self.gold_masks_field is None:
            return []
        return list(example.gold.get(self.gold_masks_field) or [])

    def questions(self, variants: Sequence[Variant]) -> tuple[JudgeQuestion, ...]:
        """Every judge question a run of these prompt variants asks (each once, in order)."""
        extra = [q for v in variants for q in self.asks_of_variant.get(v.name, ())]
        return tuple({q.name: q for q in (*self.asks, *extra)}.values())


@dataclass(frozen=True)
class Task:
    name: str
    description: str
    dataset: str  # a key of assistant.evaluation.datasets.dataset_specs()
    kind: Kind  # how responses are obtained (assistant.evaluation.kinds)
    variants: tuple[Variant, ...]
    scoring: Scoring  # how each response becomes judgements, and a record right or wrong
    aggregate: MetricsFn  # the answered records of one (model, prompt) -> the paper's numbers
    layout: LayoutFn  # the run's summary -> the paper's table
    reproduces: str  # which table / figure of which paper
    split: str | None = None  # None: the dataset's default split
    default_judge: str = "none"  # "rules", a VLM registry name, or "none" when no judge is needed
    plots: tuple[PlotKind, ...] = ()  # "class-bars" (drawn from `bars`), "confusion" (metrics' "confusion")
    bars: BarsFn | None = None  # the class bars of a run
    settings: GenerationSettings = field(default_factory=lambda: GenerationSettings(max_new_tokens=256))
    needs: tuple[str, ...] = ()  # gold fields an example must have to take part, e.g. ("hint",)
    subset: Subset | None = None  # the examples it keeps (None: all)
    needs_help: str = ""  # said when no example has the `needs` fields (how to get them)
    # the Paper that owns it: set once, by the Paper it is first given to (Paper.__post_init__)
    paper: Paper | None = field(default=None, compare=False, repr=False)

    @property
    def uses_pointer(self) -> bool:
        """Whether --pointer matters (the task's kind says)."""
        return self.kind.uses_pointer

    @property
    def judge_questions(self) -> tuple[JudgeQuestion, ...]:
        """What a run of this task asks its judge (all its prompts)."""
        return self.scoring.questions(self.variants)

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        known = ", ".join(v.name for v in self.variants)
        raise KeyError(f"task {self.name} has no variant {name!r}; known: {known}")


@dataclass(frozen=True)
class Paper:
    """One paper's evaluation, whole: load (its datasets), prompts, scoring, aggregation and tables (its
    tasks). The runner and the judges are shared: a paper says what, not how."""

    name: str
    title: str
    datasets: tuple[DatasetSpec, ...]
    tasks: tuple[Task, ...]
    questions: tuple[JudgeQuestion, ...] = ()  # the judge questions its tasks ask that it defines
    # The judge the paper itself used and its measured agreement with people (printed with every table of
    # a task that needs a judge, beside the judge of the run); "" where its metrics need no judge.
    judge: str = ""

    def __post_init__(self) -> None:
        for task in self.tasks:  # each task carries the paper it belongs to (the first that holds it)
            if task.paper is None:
                object.__setattr__(task, "paper", self)
