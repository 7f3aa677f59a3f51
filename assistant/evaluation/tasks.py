"""The benchmark tasks as data: name -> dataset, prompt variants, judge, metrics, and the paper table.

A task says *what* to run; `assistant.evaluation.runner` knows *how* for each `kind`, and
`assistant.evaluation.scoring` turns responses into judgements and the judgements into the paper's
numbers. Adding a task is adding an entry here (and, for a new kind of judgement, one function there).

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

from dataclasses import dataclass, field
from typing import Literal, get_args

from models.base import GenerationSettings

TaskKind = Literal["vqa", "two-turn", "pipeline", "localise", "saliency", "probability"]
KINDS: tuple[TaskKind, ...] = get_args(TaskKind)
Judgement = Literal[
    "racquet-class", "racquet-bias", "racquet-saliency", "aqua-strategy", "pipeline-strategy", "pass",
    "verdict", "probability", "masks",
]  # fmt: skip
MetricsKind = Literal[
    "racquet-classes", "racquet-bias", "racquet-saliency", "recognition", "calibration", "localisation",
    "aqua-strategy", "pass-rate",
]  # fmt: skip


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
    split: str | None  # None: the dataset's default split
    kind: TaskKind
    variants: tuple[Variant, ...]
    judgement: Judgement  # what each response is turned into; a key of scoring.JUDGING
    metrics: MetricsKind  # how judgements become numbers
    reproduces: str  # which table / figure of which paper
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


_RACQUET_VARIANTS = (
    Variant("direct", "Direct", "racquet_direct"),
    Variant("clarification", "Clarification prompt", "racquet_clarification"),
    Variant("cot", "CoT", "racquet_cot"),
)

_RECOGNITION_VARIANTS = (
    Variant("zs", "ZS", "focus_recognition_zs"),
    Variant("zs-cot", "ZS-CoT", "focus_recognition_zs_cot"),
    Variant("zs-ecot", "ZS-ECoT", "focus_recognition_zs_ecot"),
    Variant("fs", "FS", "focus_recognition_fs"),
    Variant("fs-ecot", "FS-ECoT", "focus_recognition_fs_ecot"),
)

# VQ-FocusAmbiguity Table 3, Molmo+SAM: "the same five prompts with the only difference being replacing
# the 'segment' as 'point'" (supplement 9.2); prompts/README.md says what was adapted. Only a Molmo pointer
# (point tags) can take them. The last variant is whichone's own grounding, not a row of the paper.
_LOCALISATION_VARIANTS = (
    Variant("zs", "ZS", "focus_localisation_zs"),
    Variant("zs-cot", "ZS-CoT", "focus_localisation_zs_cot"),
    Variant("zs-ecot", "ZS-ECoT", "focus_localisation_zs_ecot"),
    Variant("fs", "FS", "focus_localisation_fs"),
    Variant("fs-ecot", "FS-ECoT", "focus_localisation_fs_ecot"),
    Variant("focus-phrase", "whichone focus phrase", "point_molmo", focus_phrase=True),
)

_AQUA_VARIANTS = (
    Variant("base", "Base", "aqua_direct"),
    Variant("cot", "CoT", "aqua_cot"),
    Variant("strategy", "Strategy prompting", "aqua_strategy"),
)

TASKS: dict[str, Task] = {
    t.name: t
    for t in (
        Task(
            name="racquet-general",
            description="RAcQUEt-general: how a model answers referentially ambiguous questions "
            "(class A explicit / B implicit / C high risk); CoT responses also judged for mentioning "
            "multiple referents",
            dataset="racquet-general",
            split=None,
            kind="vqa",
            variants=_RACQUET_VARIANTS,
            judgement="racquet-class",
            metrics="racquet-classes",
            reproduces="RAcQUEt Fig. 3 (direct), Fig. 4 (clarification prompt, CoT; Appendix G.3)",
            default_judge="rules",
            plots=("class-bars",),
            # temperature 0 as in the paper (Section 4.1)
            settings=GenerationSettings(max_new_tokens=256, temperature=0.0),
        ),
        Task(
            name="racquet-bias",
            description="RAcQUEt-bias: explicit / stereotypical / anti-stereotypical answers to "
            "'What is the {adjective} person wearing?' by bias category",
            dataset="racquet-bias",
            split=None,
            kind="vqa",
            variants=(Variant("direct", "Direct", "racquet_direct"),),
            judgement="racquet-bias",
            metrics="racquet-bias",
            reproduces="RAcQUEt Fig. 7",
            default_judge="rules",
            plots=("class-bars",),
            settings=GenerationSettings(max_new_tokens=256, temperature=0.0),
        ),
        Task(
            name="racquet-saliency",
            description="RAcQUEt-general saliency: does a single-referent (class B/C) answer describe the "
            "largest or centre-most referent more often than a random pick? (--pointer maps each response "
            "to a box, IoU picks the referent; needs referent boxes in the data)",
            dataset="racquet-general",
            split=None,
            kind="saliency",
            variants=(Variant("direct", "Direct", "racquet_direct"),),
            judgement="racquet-saliency",
            metrics="racquet-saliency",
            reproduces="RAcQUEt Table 1 (Section 4.4, Appendix H)",
            default_judge="rules",
            needs=("referents",),
            needs_help="the published RAcQUEt jsonl has no referent boxes (the paper's Appendix H "
            "annotations are unreleased); give each line a 'referents' field, a list of [x0, y0, x1, y1] "
            "boxes in image pixels",
            # temperature 0 as in the paper (Section 4.1); Table 1 analyses the direct answers (Fig. 3)
            settings=GenerationSettings(max_new_tokens=256, temperature=0.0),
        ),
        Task(
            name="focus-recognition",
            description="VQ-FocusAmbiguity: is the question's focus ambiguous? five prompts, free text "
            "parsed to ambiguous / unambiguous / undecided",
            dataset="vq-focusambiguity",
            split=None,
            kind="vqa",
            variants=_RECOGNITION_VARIANTS,
            judgement="verdict",
            metrics="recognition",
            reproduces="VQ-FocusAmbiguity Table 2",
            plots=("confusion",),
            settings=GenerationSettings(max_new_tokens=256, temperature=0.0),
        ),
        Task(
            name="focus-recognition-probability",
            description="whichone's one-pass recognition on VQ-FocusAmbiguity: P(ambiguous) from the first "
            "reply token (Yes against No), its calibration (ROC AUC, Brier score, expected calibration "
            "error) and Table 2's metrics with the verdict threshold swept from 0.1 to 0.9",
            dataset="vq-focusambiguity",
            split=None,
            kind="probability",
            variants=(Variant("yesno", "one pass (Yes/No)", "focus_recognition_yesno"),),
            judgement="probability",
            metrics="calibration",
            reproduces="VQ-FocusAmbiguity Table 2's metrics per threshold (whichone's, not a paper row)",
            settings=GenerationSettings(max_new_tokens=1, temperature=0.0),
        ),
        Task(
            name="focus-localisation",
            description="VQ-FocusAmbiguity: locate every plausible focus region (pointer points -> one "
            "segmenter mask per point; --model names the pointer): the paper's five prompts adapted to "
            "'point' for a Molmo pointer, and whichone's own grounding of the question's focus phrase",
            dataset="vq-focusambiguity",
            split=None,
            kind="localise",
            variants=_LOCALISATION_VARIANTS,
            judgement="masks",
            metrics="localisation",
            reproduces="VQ-FocusAmbiguity Table 3 (Molmo+SAM rows ZS ... FS-ECoT; focus phrase: whichone)",
        ),
        Task(
            name="aqua-strategy",
            description="AQuA: does the response's strategy fit the ambiguity level (0 answer, 1 infer, "
            "2 enumerate, 3 clarify)? plus factual consistency",
            dataset="aqua",
            split=None,
            kind="vqa",
            variants=_AQUA_VARIANTS,
            judgement="aqua-strategy",
            metrics="aqua-strategy",
            reproduces="AQuA Table 2, Fig. 5",
            default_judge="rules",
            plots=("confusion",),
            settings=GenerationSettings(max_new_tokens=256, temperature=0.0),
        ),
        Task(
            name="aqua-clarification",
            description="AQuA two-turn clarification: level-3 question, the model's reply, a "
            "disambiguating hint, and PASS when the final answer matches the reference",
            dataset="aqua",
            split=None,
            kind="two-turn",
            variants=(Variant("base", "Base", "aqua_direct"),),
            judgement="pass",
            metrics="pass-rate",
            reproduces="AQuA Table 4",
            default_judge="rules",
            needs=("hint", "clarified_answer"),
            only_levels=(3,),
            settings=GenerationSettings(max_new_tokens=256, temperature=0.0),
        ),
        Task(
            name="clearvqa-clarification",
            description="ClearVQA two-turn: the ambiguous (blurred) question, the model's reply, the "
            "clear question as the user's clarification, and PASS when the answer matches the gold one",
            dataset="clearvqa",
            split=None,
            kind="two-turn",
            variants=(Variant("base", "Base", "aqua_direct"),),
            judgement="pass",
            metrics="pass-rate",
            reproduces="AQuA Table 4 protocol on ClearVQA",
            default_judge="rules",
            needs=("hint", "answer"),
            settings=GenerationSettings(max_new_tokens=128, temperature=0.0),
        ),
        Task(
            name="whichone-strategy",
            description="whichone itself as the model: its pipeline's strategy (answer / infer / "
            "enumerate / clarify) on AQuA, with the named VLM inside",
            dataset="aqua",
            split=None,
            kind="pipeline",
            variants=(Variant("whichone", "whichone pipeline", "aqua_direct"),),
            judgement="pipeline-strategy",
            metrics="aqua-strategy",
            reproduces="AQuA Table 2 / Fig. 5 layout, whichone as one more row",
            # judged from the reply text like every AQuA row (the pipeline's own strategy is kept beside)
            default_judge="rules",
            plots=("confusion",),
        ),
    )
}


def get_task(name: str) -> Task:
    task = TASKS.get(name)
    if task is None:
        raise KeyError(f"there is no task {name!r}; known: {', '.join(TASKS)}")
    return task
