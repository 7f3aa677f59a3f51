"""Judges: an LLM judge with the papers' rubrics, the deterministic rule judge, and their agreement.

- `LLMJudge(model)`: any VisionLanguageModel (a registered local model, or an OpenAI-compatible server
  through models.openai_vlm) reads the task's prompt from prompts/ (RAcQUEt Appendix C and G.3 verbatim;
  the bias and AQuA prompts are ours, see prompts/README.md) and its text is parsed by
  `assistant.evaluation.judge_parse`: a judgement that cannot be read is "unknown", never an error.
- `RuleJudge()`: surface rules, documented in `assistant.evaluation.rule_judge`.
- `judge_agreement(judge, labelled)`: Cohen's kappa, accuracy and confusion matrix of a judge against
  labelled responses (by default the examples the RAcQUEt paper itself classifies, in
  assistant/evaluation/data/racquet_labelled.jsonl).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image

from assistant.evaluation import papers  # noqa: F401  (the papers register their judge questions)
from assistant.evaluation.judgement import (
    UNKNOWN,
    Judge,
    JudgeError,
    JudgeItem,
    Judgement,
    check_item,
    question,
    questions,
)
from assistant.evaluation.metrics import agreement
from assistant.evaluation.rule_judge import RuleJudge
from models.base import ChatMessage, GenerationSettings, VisionLanguageModel
from models.registry import create_vlm
from prompts import render_prompt

__all__ = [
    "DEFAULT_LABELLED",
    "LLMJudge",
    "Judge",
    "Judgement",
    "JudgeError",
    "RuleJudge",
    "create_judge",
    "format_agreement",
    "agreement_line",
    "judge_agreement",
    "load_labelled",
    "measured_agreement",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_LABELLED = DATA_DIR / "racquet_labelled.jsonl"
# the question of a labelled line that names none (the first labelled file, RAcQUEt's classes, has no "task")
DEFAULT_QUESTION = "racquet_class"
# Responses written by this project to RAcQUEt questions the papers' examples do not use, labelled by the
# rubrics before the rule judge was changed, and never used to tune it (scripts/racquet_heldout.py).
HELDOUT_LABELLED = DATA_DIR / "racquet_heldout.jsonl"
# the second held-out set: bias, AQuA strategy and PASS, and more CoT mentions (scripts/judges_heldout.py)
HELDOUT_2_LABELLED = DATA_DIR / "judges_heldout.jsonl"
# (how the set relates to the rules, its files): the second set was labelled before the rules were changed
# for it, measured, and then the rules were fixed on its misses, so its kappa is no longer held-out
LABELLED_SETS: tuple[tuple[str, tuple[Path, ...]], ...] = (
    ("held-out", (HELDOUT_LABELLED,)),
    ("labelled first, then tuned on", (HELDOUT_2_LABELLED,)),
    ("in-sample", (DEFAULT_LABELLED,)),
)


class LLMJudge:
    """A judge model reading each question's rubric: text-only messages, but for a question that needs the
    image (factual consistency)."""

    def __init__(self, model: VisionLanguageModel, settings: GenerationSettings | None = None) -> None:
        self.model = model
        self.settings = settings
        self.name = f"llm:{model.name}"

    @classmethod
    def from_registry(
        cls, model_name: str, settings: GenerationSettings | None = None, **kwargs: Any
    ) -> LLMJudge:
        """Build the judge around a registered VLM (models.registry); ModelUnavailable when it cannot load."""

        return cls(create_vlm(model_name, **kwargs), settings)

    def settings_for(self, task: str) -> GenerationSettings:
        # greedy decoding: a judge must give the same judgement each time it is asked
        return self.settings or GenerationSettings(
            max_new_tokens=question(task).max_new_tokens, temperature=0.0
        )

    def messages(self, task: str, item: JudgeItem) -> list[ChatMessage]:
        """The conversation the judge model sees for one item (with the image where the question needs it)."""
        asked = question(task)
        check_item(task, item)
        images = []
        if "image" in asked.fields:
            image = item.get("image")
            if not isinstance(image, Image.Image):
                raise JudgeError(f"an {task} item needs the image itself")
            images.append(image)
        text = render_prompt(asked.prompt, **asked.prompt_values(item))
        return [ChatMessage(role="user", text=text, images=images)]

    def read(self, task: str, text: str) -> Judgement:
        """The judgement in a judge model's text (unknown when no label can be read)."""
        asked = question(task)
        label = asked.parse(text)
        reason = (
            "read from the judge's text"
            if label != UNKNOWN
            else "no label could be read from the judge's text"
        )
        return Judgement(label, raw=text if isinstance(text, str) else "", reason=reason, prompt=asked.prompt)

    def judge(self, task: str, item: JudgeItem) -> Judgement:
        return self.read(task, self.model.generate(self.messages(task, item), self.settings_for(task)))

    def judge_many(self, task: str, items: Sequence[JudgeItem]) -> list[Judgement]:
        if not items:
            return []
        conversations = [self.messages(task, item) for item in items]
        texts = self.model.generate_batch(conversations, self.settings_for(task))
        if len(texts) != len(items):
            raise JudgeError(f"the judge model returned {len(texts)} replies for {len(items)} items")
        return [self.read(task, t) for t in texts]


def create_judge(name: str, **kwargs: Any) -> Judge:
    """ "rules" -> RuleJudge; any other name -> LLMJudge around that registered VLM."""
    if name in ("rules", "rule"):
        return RuleJudge()
    return LLMJudge.from_registry(name, **kwargs)


def load_labelled(path: str | Path | None = None) -> list[dict[str, Any]]:
    """Labelled responses from a JSONL file: one {"task", "question", "response", "gold", ...} per line."""
    path = Path(path) if path is not None else DEFAULT_LABELLED
    if not path.is_file():
        raise JudgeError(f"no labelled file at {path}")
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            raise JudgeError(f"{path.name} line {number}: not JSON") from None
        if not isinstance(obj, dict):
            raise JudgeError(f"{path.name} line {number}: expected a JSON object")
        task = obj.setdefault("task", DEFAULT_QUESTION)
        if task not in questions():
            raise JudgeError(f"{path.name} line {number}: unknown task {task!r}")
        labels = question(task).labels
        if obj.get("gold") not in labels:
            raise JudgeError(f"{path.name} line {number}: gold {obj.get('gold')!r} is not one of {labels}")
        try:
            check_item(task, obj)
        except JudgeError as exc:
            raise JudgeError(f"{path.name} line {number}: {exc}") from None
        records.append(obj)
    return records


def judge_agreement(judge: Judge, labelled: Sequence[JudgeItem], task: str | None = None) -> dict[str, Any]:
    """Agreement of `judge` with the gold labels of `labelled` for one task.

    Returns metrics.agreement's dict (kappa, kappa_decided, accuracy, confusion, labels, n, unknown) plus
    "task", "judge" and "items": [{id, gold, label, reason}] so that every disagreement can be read.
    With task None the labelled records must all be of one task.
    """
    tasks = sorted({str(r.get("task", DEFAULT_QUESTION)) for r in labelled})
    if task is None:
        if len(tasks) > 1:
            raise JudgeError(f"the labelled set mixes tasks {', '.join(tasks)}: choose one")
        task = tasks[0] if tasks else DEFAULT_QUESTION
    labels = question(task).labels
    records = [r for r in labelled if r.get("task", DEFAULT_QUESTION) == task]
    judgements = judge.judge_many(task, records)
    gold = [str(r["gold"]) for r in records]
    out = agreement(gold, [j.label for j in judgements], labels)
    out["task"] = task
    out["judge"] = judge.name
    out["items"] = [
        {"id": r.get("id", i), "gold": g, "label": j.label, "reason": j.reason}
        for i, (r, g, j) in enumerate(zip(records, gold, judgements, strict=True))
    ]
    return out


def measured_agreement(judge: Judge | None, tasks: Sequence[str]) -> list[dict[str, Any]]:
    """The judge's kappa on the labelled sets shipped here, for those of `tasks` they cover:
    [{"task", "set" ("held-out" / "in-sample"), "kappa", "n"}]. Measured live for the rule judge (a few
    milliseconds); an LLM judge's would cost a model call per labelled response, so it is [] (measure it
    with `whichone judge-agreement --judge NAME --labelled FILE`)."""
    if not isinstance(judge, RuleJudge):
        return []
    return [dict(row) for row in _rule_agreement(tuple(tasks))]


@lru_cache(maxsize=16)
def _rule_agreement(tasks: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
    rows = []
    for kind, paths in LABELLED_SETS:
        labelled = [item for path in paths for item in load_labelled(path)]
        for task in tasks:
            if any(r["task"] == task for r in labelled):
                found = judge_agreement(RuleJudge(), labelled, task)
                rows.append({"task": task, "set": kind, "kappa": round(found["kappa"], 3), "n": found["n"]})
    return tuple(rows)


def agreement_command(judge: str, labelled: str = "FILE") -> str:
    """The command that measures `judge` (a Judge's name: "rules", "llm:MODEL") against labelled responses;
    the CLI takes the model's registry name."""
    return f"whichone judge-agreement --judge {judge.removeprefix('llm:')} --labelled {labelled}"


def agreement_line(judge: str | None, rows: Sequence[Mapping[str, Any]], tasks: Sequence[str]) -> str:
    """One sentence naming the judge and its measured agreement, for every table and the tab."""
    if not judge:
        return "Judge: none."
    if not rows:
        what = ", ".join(tasks) or "this task"
        return (
            f"Judge: {judge}; its agreement with labelled responses is not measured here for {what} "
            f"(measure it: `{agreement_command(judge)}`)."
        )
    parts = [f"{r['task']} kappa {r['kappa']:.2f} ({r['set']}, n={r['n']})" for r in rows]
    unmeasured = [t for t in tasks if t not in {r["task"] for r in rows}]
    tail = f"; not measured for {', '.join(unmeasured)}" if unmeasured else ""
    return f"Judge: {judge}; agreement with labelled responses (Cohen's kappa): {'; '.join(parts)}{tail}."


def format_agreement(result: Mapping[str, Any]) -> str:
    """Plain-text summary: kappa, accuracy, unknowns, the confusion matrix and each disagreement."""

    def num(x: float) -> str:
        return "undefined" if isinstance(x, float) and math.isnan(x) else f"{x:.3f}"

    labels = list(result["labels"])
    classes = labels[:-1]
    lines = [
        f"judge {result['judge']} on {result['task']}: n={result['n']}, kappa={num(result['kappa'])}, "
        f"accuracy={num(result['accuracy'])}, unknown={result['unknown']}",
        "gold \\ judged  " + "  ".join(f"{lab:>8}" for lab in labels),
    ]
    for cls, row in zip(classes, result["confusion"], strict=True):
        lines.append(f"{cls:>14}  " + "  ".join(f"{v:>8}" for v in row))
    for item in result.get("items", []):
        if item["gold"] != item["label"]:
            lines.append(
                f"disagrees: {item['id']}: gold {item['gold']}, judged {item['label']} ({item['reason']})"
            )
    return "\n".join(lines)
