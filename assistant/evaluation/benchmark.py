"""What a benchmark is, as data: a task (dataset, prompt variants, judgement, metrics, paper table) and the
paper that owns its tasks (assistant/evaluation/papers/: one module per paper).

A task says *what* to run; `assistant.evaluation.runner` knows *how* for each `kind`, and
`assistant.evaluation.scoring` turns responses into judgements; the task's paper turns the judgements into
its numbers (`Paper.metrics`) and lays out its table (`Paper.layouts`). Adding a paper is adding one module
under papers/ that defines a `Paper` (and naming it in papers/__init__.py).

Kinds:
- "vqa": one turn, the prompt (rendered with $question) plus the image.
- "two-turn": the same first turn, then the gold hint as the user's second message.
- "pipeline": whichone itself answers (`assistant.pipeline.Assistant.ask`) with the named VLM.
- "localise": a pointer finds the question's focus and a segmenter turns each point into a mask.
- "probability": one forward pass per example: P(ambiguous), the probability of "Yes" against "No" as the
  reply's first token after the prompt (models.base.answer_probabilities), stored as JSON.
- "saliency": the "vqa" turn, then (after judging) the pointer maps each class B/C response to a box and
  the box to one of the example's referent boxes (RAcQUEt Appendix H).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from assistant.evaluation.dataset_base import DatasetSpec
from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.schema import Example
from models.base import GenerationSettings

TaskKind = Literal["vqa", "two-turn", "pipeline", "localise", "saliency", "probability"]

KINDS: tuple[TaskKind, ...] = get_args(TaskKind)

Judgement = Literal[
    "racquet-class", "racquet-bias", "racquet-saliency", "aqua-strategy", "pipeline-strategy", "pass",
    "verdict", "probability", "masks",
]  # fmt: skip

MetricsKind = Literal[
    "racquet-classes", "racquet-bias", "racquet-saliency", "recognition", "calibration", "localisation",
    "aqua-strategy", "pass-rate", "clearvqa-answers",
]  # fmt: skip


# How the papers decode: greedy (temperature 0, RAcQUEt Section 4.1), up to 256 new tokens.
GREEDY_256 = GenerationSettings(max_new_tokens=256, temperature=0.0)


@dataclass(frozen=True)
class Variant:
    """One prompt setting of a task (a row group of the paper's table)."""

    name: str  # used on the command line: --variant zs-cot
    label: str  # as the paper's table writes it: "ZS-CoT"
    prompt: str  # prompts/<prompt>.txt, rendered with question=...
    # "localise" only. True: whichone's own grounding, the pointer asked about the question's focus phrase
    # with its own prompt (`prompt` names the Molmo one; vlm-boxes and blobs have their own or none).
    # False: `prompt` is rendered with the question and sent whole to a Molmo pointer (the paper's prompts).
    focus_phrase: bool = False


@dataclass(frozen=True)
class Task:
    name: str
    description: str
    dataset: str  # a key of assistant.evaluation.datasets.DATASETS
    kind: TaskKind
    variants: tuple[Variant, ...]
    judgement: Judgement  # what each response is turned into; a key of scoring.JUDGING
    metrics: MetricsKind  # how judgements become numbers
    reproduces: str  # which table / figure of which paper
    split: str | None = None  # None: the dataset's default split
    default_judge: str = "none"  # "rules", a VLM registry name, or "none" when no judge is needed
    plots: tuple[str, ...] = ()  # "class-bars" (RAcQUEt Fig. 3), "confusion" (AQuA Fig. 5)
    settings: GenerationSettings = field(default_factory=lambda: GenerationSettings(max_new_tokens=256))
    needs: tuple[str, ...] = ()  # gold fields an example must have to take part, e.g. ("hint",)
    only_levels: tuple[int, ...] | None = None  # AQuA levels to keep (the clarification subset: level 3)
    needs_help: str = ""  # said when no example has the `needs` fields (how to get them)

    @property
    def uses_pointer(self) -> bool:
        """Whether --pointer matters (whichone's pipeline, and mapping responses to boxes for saliency)."""
        return self.kind in ("pipeline", "saliency")

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        known = ", ".join(v.name for v in self.variants)
        raise KeyError(f"task {self.name} has no variant {name!r}; known: {known}")


# where a pipeline-strategy record's "aqua_strategy" came from
JUDGED, SELF_REPORTED = "judged", "self-reported"

# A table as a paper lays it out: (title, header, rows, notes on what its rows mean).
Layout = tuple[str, list[str], list[list[str]], list[str]]


@dataclass
class RunItem:
    """One (example, prompt variant, model) of a run, as the runner fills it: the response and the turns
    that led to it, kind-specific outputs (masks, the pipeline's reply), or the error that stopped it."""

    example: Example
    variant: Variant
    model: str
    response: str | None = None
    turns: list[dict[str, str]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


@dataclass(frozen=True)
class MetricsContext:
    """What some metrics need besides the records: the gold masks (localisation) and the seed (the random
    pairing of RAcQUEt's saliency test)."""

    gold_masks: Mapping[str, list[dict[str, Any]]] = field(default_factory=dict)
    seed: int = 0


# a paper's numbers for one (model, variant) from its answered records -> ResultRow.metrics
MetricsFn = Callable[[Task, list[ResponseRecord], MetricsContext], dict[str, Any]]
# a paper's table of a run (its title, header, rows, notes)
LayoutFn = Callable[[Task, RunSummary], Layout]


@dataclass(frozen=True)
class Paper:
    """One paper's evaluation, whole: load (its datasets), prompts (its tasks' variants), metrics (judgements
    -> its numbers, by the task's metrics kind) and its tables (by the same kind). The runner and the
    judges are shared: a paper says what, not how."""

    name: str
    title: str
    datasets: tuple[DatasetSpec, ...]
    tasks: tuple[Task, ...]
    metrics: Mapping[str, MetricsFn]
    layouts: Mapping[str, LayoutFn]
    # The judge the paper itself used and its measured agreement with people (printed with every table of
    # a task that needs a judge, beside the judge of the run); "" where its metrics need no judge.
    judge: str = ""
