"""What a judge returns, the labels of each judging task, and the protocol every judge implements.

Tasks and the fields an item (a mapping) carries for each:
- "racquet_class": question, response -> A (explicit) / B (implicit) / C (high risk)   [RAcQUEt App. C]
- "racquet_cot": question, response -> YES / NO (a CoT step mentions several referents) [RAcQUEt G.3]
- "racquet_bias": question, response, bias_category, stereotyped_group (optional: adjective, people,
  stereotyped_cues, other_cues) -> explicit / stereotypical / anti-stereotypical       [RAcQUEt Sec. 5]
- "aqua_strategy": question, response -> answer / infer / enumerate / clarify (levels 0-3) [AQuA 3.1]
- "aqua_clarification": question, hint, reference, response -> PASS / FAIL             [AQuA 6.3]
- "aqua_factual": question, response, image -> grounded / ungrounded (needs the image)  [AQuA 4.2]
Every task may also yield "unknown": the judge could not decide (an unparseable model judgement, or no
rule cue); metrics count it and show it, never drop it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from assistant.errors import WhichoneError

UNKNOWN = "unknown"

TASK_LABELS: dict[str, tuple[str, ...]] = {
    "racquet_class": ("A", "B", "C"),
    "racquet_cot": ("YES", "NO"),
    "racquet_bias": ("explicit", "stereotypical", "anti-stereotypical"),
    "aqua_strategy": ("answer", "infer", "enumerate", "clarify"),
    "aqua_clarification": ("PASS", "FAIL"),
    "aqua_factual": ("grounded", "ungrounded"),
}

# the fields each task needs in an item (beyond these, a task reads optional ones; see the docstring)
TASK_FIELDS: dict[str, tuple[str, ...]] = {
    "racquet_class": ("question", "response"),
    "racquet_cot": ("question", "response"),
    "racquet_bias": ("question", "response"),
    "aqua_strategy": ("question", "response"),
    "aqua_clarification": ("question", "response", "reference"),
    "aqua_factual": ("question", "response", "image"),
}

# what each task judges, in words (for notes on a run)
TASK_TITLES: dict[str, str] = {
    "racquet_class": "response class",
    "racquet_cot": "several referents in a reasoning step",
    "racquet_bias": "bias class",
    "aqua_strategy": "strategy",
    "aqua_clarification": "answer after the clarification",
    "aqua_factual": "factual consistency",
}


class JudgeError(WhichoneError):
    """A judge cannot judge this task or item (unknown task, missing field, needs an image it lacks)."""


@dataclass(frozen=True)
class Judgement:
    """One judged response: the label, the judge model's own text (empty for rules), why, and the prompt."""

    label: str  # one of TASK_LABELS[task] or "unknown"
    raw: str = ""
    reason: str = ""
    prompt: str = ""  # the prompt template the judge model read (prompts/<name>.txt; empty for rules)

    @property
    def known(self) -> bool:
        return self.label != UNKNOWN

    def to_dict(self) -> dict[str, str]:
        return {"label": self.label, "raw": self.raw, "reason": self.reason, "prompt": self.prompt}


# One item to judge: the fields its judging task reads (TASK_FIELDS), as a run builds them or a labelled
# file holds them (JSON, with other keys beside: id, gold, task); each is checked where it is read.
JudgeItem = Mapping[str, object]


def texts(value: object) -> list[str]:
    """One text or several (a reference answer, ClearVQA's crowd answers, a list of cue words) as a list;
    [] for anything else."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return []


def check_item(task: str, item: JudgeItem) -> None:
    """Raise JudgeError with a one-line message when the task is unknown or a needed field is missing."""
    if task not in TASK_LABELS:
        raise JudgeError(f"unknown judging task {task!r}; known: {', '.join(TASK_LABELS)}")
    missing = [f for f in TASK_FIELDS[task] if item.get(f) is None]
    if missing:
        raise JudgeError(f"a {task} item needs {', '.join(missing)}")


@runtime_checkable
class Judge(Protocol):
    """Turns responses into labels of a judging task."""

    name: str

    def judge(self, task: str, item: JudgeItem) -> Judgement: ...

    def judge_many(self, task: str, items: Sequence[JudgeItem]) -> list[Judgement]: ...
