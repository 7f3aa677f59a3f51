"""What a judge returns, what a judge question is, and the protocol every judge implements.

A judge question ("racquet_class", "aqua_strategy", ...) is a `JudgeQuestion`, defined by the paper that
asks it (assistant/evaluation/papers/*_judge.py): its labels, the fields an item needs, the LLM judge's
rubric (prompts/) and what it reads, how the judge model's text is parsed, and the rule judge's rules.
A paper carries its questions (`Paper.questions`), a task's scoring the ones it asks (`Scoring.asks`), and
judges are handed the JudgeQuestion itself; where only a name is at hand (a labelled file's or a run's
field, a command-line argument) `assistant.evaluation.papers.question` finds it among the papers'. Every
question may also yield "unknown": the judge could not decide (an unparseable model judgement, or no rule
cue); metrics count it and show it, never drop it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from assistant.errors import WhichoneError

UNKNOWN = "unknown"


class JudgeError(WhichoneError):
    """A judge cannot judge this task or item (unknown task, missing field, needs an image it lacks)."""


@dataclass(frozen=True)
class Judgement:
    """One judged response: the label, the judge model's own text (empty for rules), why, the prompt, and
    the path that decided it ("rules:<rule>" or "llm:<model id>")."""

    label: str  # one of the question's labels or "unknown"
    raw: str = ""
    reason: str = ""
    prompt: str = ""  # the prompt template the judge model read (prompts/<name>.txt; empty for rules)
    path: str = ""  # what decided it: "rules:class.asks", "llm:qwen2.5-vl-3b" (an abstaining rule's too)

    @property
    def known(self) -> bool:
        return self.label != UNKNOWN

    def to_dict(self) -> dict[str, str]:
        return {
            "label": self.label,
            "raw": self.raw,
            "reason": self.reason,
            "prompt": self.prompt,
            "path": self.path,
        }


# One item to judge: the fields its judge question reads (JudgeQuestion.fields), as a run builds them or a
# labelled file holds them (JSON, with other keys beside: id, gold, task); each is checked where it is read.
JudgeItem = Mapping[str, object]


def texts(value: object) -> list[str]:
    """One text or several (a reference answer, ClearVQA's crowd answers, a list of cue words) as a list;
    [] for anything else."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return []


def question_and_response(item: JudgeItem) -> dict[str, str]:
    """What most rubrics read: the question and the response, as text."""
    return {"question": str(item["question"]), "response": str(item["response"])}


@dataclass(frozen=True)
class JudgeQuestion:
    """One question a judge answers about a response, whole (see the module docstring)."""

    name: str  # as runs and labelled files write it: "racquet_class"
    labels: tuple[str, ...]  # besides "unknown"
    title: str  # in words, for notes: "response class"
    prompt: str  # the LLM judge's rubric, prompts/<prompt>.txt
    max_new_tokens: int  # the LLM judge's reply budget (a rubric that reasons first needs more)
    parse: Callable[[str], str]  # the judge model's text -> one of `labels` or "unknown"
    fields: tuple[str, ...] = ("question", "response")  # what an item must carry ("image": seen by the judge)
    prompt_values: Callable[[JudgeItem], dict[str, str]] = question_and_response  # the rubric's $values
    rules: Callable[[JudgeItem, str], Judgement] | None = None  # (item, readable response); None: none


def check_item(asked: JudgeQuestion, item: JudgeItem) -> None:
    """Raise JudgeError with a one-line message when a field the question needs is missing."""
    missing = [f for f in asked.fields if item.get(f) is None]
    if missing:
        raise JudgeError(f"a {asked.name} item needs {', '.join(missing)}")


@runtime_checkable
class Judge(Protocol):
    """Turns responses into labels of a judge question (the JudgeQuestion itself: a task's scoring carries
    it; a name from a labelled file or the command line is looked up once, papers.question)."""

    name: str

    def judge(self, asked: JudgeQuestion, item: JudgeItem) -> Judgement: ...

    def judge_many(self, asked: JudgeQuestion, items: Sequence[JudgeItem]) -> list[Judgement]: ...
