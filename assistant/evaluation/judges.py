"""Judges: an LLM judge with the papers' rubrics, the deterministic rule judge, and their agreement.

- `LLMJudge(model)`: any VisionLanguageModel (a registered local model, or an OpenAI-compatible server
  through models.openai_vlm) reads the task's prompt from prompts/ (RAcQUEt Appendix C and G.3 verbatim;
  the bias and AQuA prompts are ours, see prompts/README.md) and its text is parsed by
  `assistant.evaluation.judge_parse`: a judgement that cannot be read is "unknown", never an error.
- `RuleJudge()`: surface rules, documented in `assistant.evaluation.rule_judge`.
- `judge_agreement(judge, labelled)`: Cohen's kappa, accuracy and confusion matrix of a judge against
  labelled responses (by default `papers.DEFAULT_LABELLED`: the examples a paper itself classifies).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image

from assistant.evaluation.judgement import (
    UNKNOWN,
    Judge,
    JudgeError,
    JudgeItem,
    Judgement,
    JudgeQuestion,
    check_item,
)
from assistant.evaluation.labelled import load_labelled
from assistant.evaluation.metrics import agreement, kappa_interval
from assistant.evaluation.papers import DEFAULT_LABELLED, DEFAULT_QUESTION, question
from assistant.evaluation.papers import REGRESSION_SETS as PAPERS_REGRESSION_SETS
from assistant.evaluation.rule_gate import RuleGate
from assistant.evaluation.rule_judge import RuleJudge, rule_judge
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
    "RulesFirstJudge",
    "create_judge",
    "format_agreement",
    "agreement_line",
    "agreement_json",
    "judge_agreement",
    "load_labelled",
    "measured_agreement",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
UNGATED = "rules-ungated"  # the rules without their learned doubt (rule_gate), for comparison
RULE_JUDGES = ("rules", UNGATED)  # the judge names that need no model
# Dev / regression sets: written by this project, labelled before rule changes, then the rules were tuned
# on them (who wrote them, when, how: data/README.md); their kappa is never printed as agreement. The
# papers' own come first (papers.REGRESSION_SETS).
HELDOUT_2_LABELLED = DATA_DIR / "judges_heldout.jsonl"
REGRESSION_SETS = (*PAPERS_REGRESSION_SETS, HELDOUT_2_LABELLED)
# The frozen held-out sets: replies written blind by an annotator who never saw the rules, committed (with
# its sha256 in the commit message) before a round of rule changes, and never read to tune them. A rule
# change measured on one makes it a regression set; a new one is then frozen and printed as agreement.
HELDOUT_3_LABELLED = DATA_DIR / "heldout3.jsonl"  # frozen 72f8379; a regression set since the rules changed
HELDOUT_4_LABELLED = DATA_DIR / "heldout4.jsonl"  # frozen e3887b2; a regression set since 2026-12-06
HELDOUT_5_LABELLED = DATA_DIR / "heldout5.jsonl"  # frozen b288e96; a regression set since round 2
HELDOUT_6_LABELLED = DATA_DIR / "heldout6.jsonl"  # frozen aad3ba3; a regression set since round 3
HELDOUT_7_LABELLED = DATA_DIR / "heldout7.jsonl"  # frozen 6157631; a regression set since 2026-12-07
HELDOUT_8_LABELLED = DATA_DIR / "heldout8.jsonl"  # frozen ead495f; a regression set since round 5
HELDOUT_9_LABELLED = DATA_DIR / "heldout9.jsonl"  # frozen b721204; a regression set since round 6
HELDOUT_10_LABELLED = DATA_DIR / "heldout10.jsonl"  # frozen 51d7d15; a regression set since round 7
HELDOUT_11_LABELLED = DATA_DIR / "heldout11.jsonl"  # frozen 2065dee; a regression set since round 8
HELDOUT_12_LABELLED = DATA_DIR / "heldout12.jsonl"  # frozen 082469c; a regression set since round 9
HELDOUT_13_LABELLED = DATA_DIR / "heldout13.jsonl"  # frozen 383e875; a regression set since round 10
HELDOUT_14_LABELLED = DATA_DIR / "heldout14.jsonl"  # frozen ce45f07; a regression set since round 11
HELDOUT_15_LABELLED = DATA_DIR / "heldout15.jsonl"  # frozen a1e0ab6; a regression set since round 12
HELDOUT_16_LABELLED = DATA_DIR / "heldout16.jsonl"  # frozen fe28113; trains the gate since round 13
HELDOUT_17_LABELLED = DATA_DIR / "heldout17.jsonl"  # frozen 8e052df; trains the gate since round 14
HELDOUT_18_LABELLED = DATA_DIR / "heldout18.jsonl"  # frozen 5a5de32; trains the gate since round 14
HELDOUT_19_LABELLED = DATA_DIR / "heldout19.jsonl"  # frozen 12edb21; trains the gate since round 14
HELDOUT_20_LABELLED = DATA_DIR / "heldout20.jsonl"  # frozen c8b61cb (836 replies), before round 14
LABELLED_SETS: tuple[tuple[str, tuple[Path, ...]], ...] = (("held-out", (HELDOUT_20_LABELLED,)),)


class LLMJudge:
    """A judge model reading each question's rubric: text-only messages, but for a question that needs the
    image (factual consistency)."""

    def __init__(self, model: VisionLanguageModel, settings: GenerationSettings | None = None) -> None:
        self.model = model
        self.settings = settings
        self.name = f"llm:{model.name}"
        self._path: str | None = None

    @property
    def path(self) -> str:
        """What a judgement names as its path: "llm:NAME", with the served model's id where the model
        knows one ("llm:openai:HuggingFaceTB/SmolVLM-256M-Instruct")."""
        if self._path is None:
            try:
                model_id = self.model.describe().get("model_id")
            except Exception:  # noqa: BLE001 (a description is optional; the name still says which judge)
                model_id = None
            self._path = f"{self.name}:{model_id}" if model_id and model_id != self.model.name else self.name
        return self._path

    @classmethod
    def from_registry(
        cls, model_name: str, settings: GenerationSettings | None = None, **kwargs: Any
    ) -> LLMJudge:
        """Build the judge around a registered VLM (models.registry); ModelUnavailable when it cannot load."""

        return cls(create_vlm(model_name, **kwargs), settings)

    def settings_for(self, asked: JudgeQuestion) -> GenerationSettings:
        # greedy decoding: a judge must give the same judgement each time it is asked
        return self.settings or GenerationSettings(max_new_tokens=asked.max_new_tokens, temperature=0.0)

    def messages(self, asked: JudgeQuestion, item: JudgeItem) -> list[ChatMessage]:
        """The conversation the judge model sees for one item (with the image where the question needs it)."""
        check_item(asked, item)
        images = []
        if "image" in asked.fields:
            image = item.get("image")
            if not isinstance(image, Image.Image):
                raise JudgeError(f"an {asked.name} item needs the image itself")
            images.append(image)
        text = render_prompt(asked.prompt, **asked.prompt_values(item))
        return [ChatMessage(role="user", text=text, images=images)]

    def read(self, asked: JudgeQuestion, text: str) -> Judgement:
        """The judgement in a judge model's text (unknown when no label can be read)."""
        label = asked.parse(text)
        reason = (
            "read from the judge's text"
            if label != UNKNOWN
            else "no label could be read from the judge's text"
        )
        return Judgement(
            label,
            raw=text if isinstance(text, str) else "",
            reason=reason,
            prompt=asked.prompt,
            path=self.path,
        )

    def judge(self, asked: JudgeQuestion, item: JudgeItem) -> Judgement:
        return self.read(asked, self.model.generate(self.messages(asked, item), self.settings_for(asked)))

    def judge_many(self, asked: JudgeQuestion, items: Sequence[JudgeItem]) -> list[Judgement]:
        if not items:
            return []
        conversations = [self.messages(asked, item) for item in items]
        texts = self.model.generate_batch(conversations, self.settings_for(asked))
        if len(texts) != len(items):
            raise JudgeError(f"the judge model returned {len(texts)} replies for {len(items)} items")
        return [self.read(asked, t) for t in texts]


class RulesFirstJudge:
    """VLMEvalKit's order: the rules decide where they are sure; the LLM judge decides what they leave
    `unknown` (with the paper's own judge prompt), and every question the rules cannot answer at all: a
    question that needs the image (AQuA's factual consistency) goes to the judge model as a VLM judge, with
    the image, and its judgement says so. Each Judgement's `path` names what decided it."""

    def __init__(self, rules: RuleJudge, llm: LLMJudge) -> None:
        self.rules = rules
        self.llm = llm
        self.name = f"rules+{llm.model.name}"

    def judge(self, asked: JudgeQuestion, item: JudgeItem) -> Judgement:
        return self.judge_many(asked, [item])[0]

    def judge_many(self, asked: JudgeQuestion, items: Sequence[JudgeItem]) -> list[Judgement]:
        if asked.rules is None:  # nothing for the rules: the model judges all, seeing the image if needed
            why = "needs the image: judged by the VLM judge" if "image" in asked.fields else "no rules"
            return [_routed(j, why) for j in self.llm.judge_many(asked, items)]
        judged = self.rules.judge_many(asked, items)
        undecided = [i for i, j in enumerate(judged) if not j.known]
        if undecided:
            asked_llm = self.llm.judge_many(asked, [items[i] for i in undecided])
            for i, verdict in zip(undecided, asked_llm, strict=True):
                judged[i] = _routed(verdict, f"rules abstained ({judged[i].reason})")
        return judged


def _routed(verdict: Judgement, why: str) -> Judgement:
    """The LLM judge's verdict, its reason saying why the rules did not decide."""
    return replace(verdict, reason=f"{why}; {verdict.reason}")


def judge_settings(max_new_tokens: int | None) -> GenerationSettings | None:
    """An LLM judge's decoding with its reply length overridden (greedy), or None for its own."""
    return (
        None if max_new_tokens is None else GenerationSettings(max_new_tokens=max_new_tokens, temperature=0.0)
    )


def create_judge(name: str, settings: GenerationSettings | None = None, **kwargs: Any) -> Judge:
    """ "rules" -> the gated RuleJudge (`rule_judge()`); "rules-ungated" -> the rules as written;
    "rules+MODEL" -> RulesFirstJudge (the gated rules, then MODEL for what they leave); any other name ->
    LLMJudge around that registered VLM."""
    rules = rule_judge_named("rules" if name == "rule" else name)
    if rules is not None:
        return rules
    rules_first = rules_first_model(name)
    if rules_first:
        return RulesFirstJudge(rule_judge(), LLMJudge.from_registry(rules_first, settings, **kwargs))
    return LLMJudge.from_registry(name, settings, **kwargs)


def rule_judge_named(name: str) -> RuleJudge | None:
    """The rule judge a name asks for ("rules": gated; "rules-ungated": the rules alone), else None."""
    if name == "rules":
        return rule_judge()
    if name == UNGATED:
        return RuleJudge()
    return None


def rules_first_model(name: str) -> str | None:
    """MODEL of a "rules+MODEL" judge name, or None for any other name."""
    head, plus, model = name.partition("+")
    if head.strip() in ("rules", "rule") and plus:
        if not model.strip():
            raise JudgeError("--judge rules+MODEL needs a model name after the '+'")
        return model.strip()
    return None


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
    asked = question(task)  # a name: from the labelled file or --task
    labels = asked.labels
    records = [r for r in labelled if r.get("task", DEFAULT_QUESTION) == task]
    judgements = judge.judge_many(asked, records)
    gold = [str(r["gold"]) for r in records]
    judged = [j.label for j in judgements]
    out = agreement(gold, judged, labels)
    out["task"] = task
    out["judge"] = judge.name
    out["coverage"] = (out["n"] - out["unknown"]) / out["n"] if out["n"] else float("nan")
    out["kappa_ci"] = list(kappa_interval(gold, judged, labels))
    out["kappa_decided_ci"] = list(kappa_interval(gold, judged, labels, decided_only=True))
    out["paths"] = dict(Counter(_path_kind(j.path) for j in judgements))
    out["items"] = [
        {"id": r.get("id", i), "gold": g, "label": j.label, "path": j.path, "reason": j.reason}
        for i, (r, g, j) in enumerate(zip(records, gold, judgements, strict=True))
    ]
    return out


def _path_kind(path: str) -> str:
    """ "rules" or "llm:MODEL" for counting who decided ("rules:class.asks" -> "rules")."""
    if path.startswith("rules"):
        return "rules"
    return ":".join(path.split(":")[:2]) if path else "?"


def measured_agreement(judge: Judge | None, tasks: Sequence[str]) -> list[dict[str, Any]]:
    """The judge's kappa on the labelled sets shipped here, for those of `tasks` they cover:
    [{"task", "set" ("held-out" / "in-sample"), "kappa", "n"}]. Measured live for the rule judge (a few
    milliseconds); an LLM judge's would cost a model call per labelled response, so it is [] (measure it
    with `whichone judge-agreement --judge NAME --labelled FILE`)."""
    if not isinstance(judge, RuleJudge):
        return []
    gate = judge.gate
    # the judge's own gate (its training sets and thresholds), so a custom gate is measured as it is
    key = None if gate is None else (gate.training_sets, tuple(sorted(gate.thresholds.items())))
    return [dict(row) for row in _rule_agreement(tuple(tasks), key)]


@lru_cache(maxsize=16)
def _rule_agreement(
    tasks: tuple[str, ...], gate_key: tuple[tuple[Path, ...], tuple[tuple[str, float], ...]] | None
) -> tuple[dict[str, Any], ...]:
    judge = RuleJudge() if gate_key is None else RuleJudge(RuleGate(gate_key[0], dict(gate_key[1])))
    rows = []
    for kind, paths in LABELLED_SETS:
        labelled = [item for path in paths for item in load_labelled(path)]
        facts = labelled_set_facts(paths[0])
        for task in tasks:
            if any(r["task"] == task for r in labelled):
                found = judge_agreement(judge, labelled, task)
                rows.append(
                    {
                        "task": task,
                        "set": kind,
                        "file": facts["name"],
                        "sha256": facts["sha256"],
                        "n": found["n"],
                        # unrounded: a table rounds once, so it prints what judge-agreement prints
                        # (0.82546 rounded to 0.825 first would print 0.82 against its 0.83)
                        "kappa": found["kappa"],
                        "kappa_ci": list(found["kappa_ci"]),
                        "kappa_decided": found["kappa_decided"],
                        "coverage": found["coverage"],
                        # the gate's threshold for this question (rule_gate), None where it is not gated
                        "gate_threshold": judge.gate.thresholds.get(task) if judge.gate else None,
                    }
                )
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
    parts = [_agreement_part(r) for r in rows]
    unmeasured = [t for t in tasks if t not in {r["task"] for r in rows}]
    tail = f"; not measured for {', '.join(unmeasured)}" if unmeasured else ""
    return f"Judge: {judge}; agreement with labelled responses (Cohen's kappa): {'; '.join(parts)}{tail}."


def labelled_set_facts(path: str | Path | None) -> dict[str, Any]:
    """Which labelled set a figure comes from: its file name, number of items and sha256."""
    path = Path(path) if path is not None else DEFAULT_LABELLED
    data = path.read_bytes()
    lines = sum(1 for line in data.decode("utf-8").splitlines() if line.strip())
    return {"name": path.name, "n": lines, "sha256": hashlib.sha256(data).hexdigest()}


def agreement_json(
    judge: Judge, labelled: Sequence[JudgeItem], tasks: Sequence[str], labelled_path: str | Path | None
) -> dict[str, Any]:
    """`whichone judge-agreement --json`: the set's facts and, per judge question, judge_agreement's dict
    (n, coverage, kappa counting unknown as a miss, kappa on decided items, their 95% bootstrap intervals,
    the confusion matrix, who decided, and the items in file order with label and path)."""
    return {
        "judge": judge.name,
        "labelled": labelled_set_facts(labelled_path),
        "questions": {task: judge_agreement(judge, labelled, task) for task in tasks},
    }


def _agreement_part(row: Mapping[str, Any]) -> str:
    """ "racquet_class kappa 0.91 (95% CI 0.83-0.97), coverage 86%, on decided 0.95 (held-out heldout13.jsonl,
    n=70, sha256 a5b7c519)"."""
    low, high = row.get("kappa_ci") or (math.nan, math.nan)
    interval = f" (95% CI {low:.2f}-{high:.2f})" if not (math.isnan(low) or math.isnan(high)) else ""
    coverage = f", coverage {100 * row['coverage']:.0f}%" if "coverage" in row else ""
    decided = f", on decided {row['kappa_decided']:.2f}" if "kappa_decided" in row else ""
    where = f"{row['set']} {row.get('file', '')}, n={row['n']}" + (
        f", sha256 {str(row['sha256'])[:8]}" if row.get("sha256") else ""
    )
    return f"{row['task']} kappa {row['kappa']:.2f}{interval}{coverage}{decided} ({where})"


def format_agreement(result: Mapping[str, Any]) -> str:
    """Plain-text summary: kappa, accuracy, unknowns, the confusion matrix and each disagreement."""

    def num(x: float) -> str:
        return "undefined" if isinstance(x, float) and math.isnan(x) else f"{x:.3f}"

    def interval(key: str) -> str:
        low, high = result.get(key) or (math.nan, math.nan)
        return f" (95% CI {num(low)}-{num(high)})"

    labels = list(result["labels"])
    classes = labels[:-1]
    paths = ", ".join(f"{k} {v}" for k, v in result.get("paths", {}).items())
    lines = [
        f"judge {result['judge']} on {result['task']}: n={result['n']}, "
        f"coverage={num(result.get('coverage', math.nan))}, "
        f"kappa={num(result['kappa'])}{interval('kappa_ci')} (unknown counted as a miss), "
        f"kappa on decided={num(result['kappa_decided'])}{interval('kappa_decided_ci')}, "
        f"accuracy={num(result['accuracy'])}, unknown={result['unknown']}"
        + (f"; decided by: {paths}" if paths else ""),
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
