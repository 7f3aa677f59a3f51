"""A deterministic judge: surface rules, no model. Fast, free, reproducible; measured, not trusted.

Its agreement with the papers' own labelled examples is measured by `judge_agreement` (see
assistant/evaluation/data/racquet_labelled.jsonl and tests/test_judges.py); read that number before
trusting a table this judge produced. The cues it uses are defined in `assistant.evaluation.cues`,
re-exported by `assistant.evaluation.response_cues`.

Unreadable responses, for every task: "unknown" (counted and shown as such), never a class. The rubric's
classes all describe an answer (class C "refers to only one of the several possible referents"), and the
default classes here (C, "answer", "NO", "FAIL") are given when no cue fires, so text that is no answer
at all would land in them: the random-token output of an untrained model ("three<U+FFFD>y me andab
littleclear top") was class C and, on AQuA, a correct level-0 "answer". The rule is narrow, so that real
answers are not lost to it:
- decoding debris (U+FFFD, the character for bytes that did not decode, or a control character other
  than tab / newline / CR) inside the text means the model's output stopped being text there; the rules
  read only the complete sentences before the first debris (up to its last ".", "?" or "!"), and a
  response with none is unknown. Debris at the very end (a reply cut off inside a multi-byte character)
  is dropped and the rest is read as usual;
- a response with no letter or digit at all ("...", "?!") is unknown.
A reply in another language is unknown too (assistant.evaluation.reply_checks); a reply cut off
mid-sentence is unknown unless what it wrote already settles its label (it asks which one, answers for
several referents, offers several answers: reply_checks.SETTLED_BEFORE_CUT); each question's rules
abstain where no cue decides (a refusal, a list no rule parsed).
Gibberish made of well-formed words ("secondwo referentclear") is not caught: with no English dictionary
here, it cannot be told from real words, and the rules judge it as text.

Each question's own rules are its paper's (assistant/evaluation/papers/*_judge.py: `JudgeQuestion.rules`);
a question without rules (AQuA's factual consistency needs the image) is refused with JudgeError.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import replace

from assistant.evaluation import reply_checks
from assistant.evaluation.judgement import (
    UNKNOWN,
    JudgeError,
    JudgeItem,
    Judgement,
    JudgeQuestion,
    check_item,
)
from assistant.evaluation.rule_gate import RuleGate


class RuleJudge:
    """Deterministic rules: each judge question's own (its `rules`), on the readable part of a response;
    with a `gate` (assistant.evaluation.rule_gate), a decided label the gate doubts becomes `unknown`
    (path "rules:gate"). `rule_judge()` is the gated judge that `--judge rules` names; `RuleJudge()` alone
    is `--judge rules-ungated`, the rules as written (their own tests use it)."""

    def __init__(self, gate: RuleGate | None = None) -> None:
        self.gate = gate
        self.name = "rules" if gate is not None else "rules-ungated"

    def judge_many(self, asked: JudgeQuestion, items: Sequence[JudgeItem]) -> list[Judgement]:
        judged = [self._rules(asked, item) for item in items]
        if self.gate is None or not self.gate.gates(asked.name):
            return judged
        decided = [k for k, j in enumerate(judged) if j.known]
        pairs = [(str(items[k]["question"]), str(items[k]["response"])) for k in decided]
        doubts = self.gate.doubts(asked.name, pairs, [judged[k].label for k in decided])
        for k, doubt in zip(decided, doubts, strict=True):
            if doubt:
                judged[k] = Judgement(UNKNOWN, reason=f"{doubt} ({judged[k].path})", path="rules:gate")
        return judged

    def judge(self, asked: JudgeQuestion, item: JudgeItem) -> Judgement:
        return self.judge_many(asked, [item])[0]

    def _rules(self, asked: JudgeQuestion, item: JudgeItem) -> Judgement:
        check_item(asked, item)
        if asked.rules is None:
            if "image" in asked.fields:
                raise JudgeError(f"the rule judge cannot see images: judge {asked.title} with an LLM judge")
            raise JudgeError(f"the rule judge has no rules for {asked.title}: use an LLM judge")
        response = str(item["response"])
        if not response.strip():
            return Judgement(UNKNOWN, reason="empty response", path="rules:empty")
        text, unreadable = readable_text(response)
        if unreadable:
            return Judgement(UNKNOWN, reason=unreadable, path="rules:unreadable")
        language = reply_checks.other_language(text)
        if language:  # no cue of these rules can be trusted on another language
            reason = f"reply in another language ({language}): the rules read English"
            return Judgement(UNKNOWN, reason=reason, path="rules:abstain")
        judged = asked.rules(item, text)
        # the rule that decided names itself ("rules:class.asks"); else the question's rules as a whole
        judged = judged if judged.path else replace(judged, path=f"rules:{asked.name}")
        stopped = reply_checks.cut_off(text)
        if stopped is None:
            return judged
        # a reply stopped by its token budget keeps only a label its missing end could not overturn
        if reply_checks.settled_before_cut(judged.path):
            return replace(judged, reason=f"cut off mid-sentence ({stopped}), but already: {judged.reason}")
        return Judgement(UNKNOWN, reason=f"reply cut off mid-sentence ({stopped})", path="rules:abstain")


def rule_judge() -> RuleJudge:
    """The rule judge `--judge rules` names: the rules, gated by the frozen sets' classifier."""
    return RuleJudge(gate=RuleGate())


def _debris(ch: str) -> bool:
    """A character no model writes as text: U+FFFD (undecodable bytes) or a control character."""
    return ch == "\ufffd" or (unicodedata.category(ch) == "Cc" and ch not in "\t\n\r")


def readable_text(response: str) -> tuple[str, str | None]:
    """(the part of `response` the rules read, why it is unreadable or None); see the module docstring."""
    text = response.rstrip()
    while text and _debris(text[-1]):  # a reply cut off inside a multi-byte character
        text = text[:-1].rstrip()
    first = next((k for k, ch in enumerate(text) if _debris(ch)), None)
    if first is not None:
        before = re.match(r".*[.?!]", text[:first], re.S)
        text = before.group(0) if before else ""
        if not any(ch.isalnum() for ch in text):
            return "", "unreadable: undecodable characters before any complete sentence"
    if not any(ch.isalnum() for ch in text):
        return "", "unreadable: no letter or digit"
    return text, None
