"""How a judge model spells AQuA's labels (strategy levels, PASS/FAIL, grounded), read with
assistant.evaluation.judge_parse.parse_label.
"""

from __future__ import annotations

import re

from assistant.evaluation.judge_parse import parse_label

_STRATEGY_NAMES = {
    "answer": "answer",
    "direct": "answer",
    "direct answer": "answer",
    "infer": "infer",
    "inference": "infer",
    "enumerate": "enumerate",
    "enumeration": "enumerate",
    "list": "enumerate",
    "clarify": "clarify",
    "clarification": "clarify",
    "ask": "clarify",
}
STRATEGIES = ("answer", "infer", "enumerate", "clarify")  # AQuA levels 0-3
_LEVEL_STRATEGY = dict(zip("0123", STRATEGIES, strict=True))


def _norm_strategy(value: str) -> str | None:
    v = re.sub(r"[^a-z0-9 ]", " ", value.strip().lower())
    v = re.sub(r"\s+", " ", v).strip()
    v = re.sub(r"^level ", "", v)
    if v in _LEVEL_STRATEGY:
        return _LEVEL_STRATEGY[v]
    return _STRATEGY_NAMES.get(v)


def parse_strategy(text: str) -> str:
    """ "answer" / "infer" / "enumerate" / "clarify" / "unknown" from an AQuA strategy judgement.

    Levels are read as their strategies: 0 answer, 1 infer, 2 enumerate, 3 clarify.
    """
    marker = re.compile(
        r"\b(?:level|strategy)\s*[:\-]?\s*(\d|answer|infer|enumerate|clarify|unknown)\b", re.I
    )
    words = {"infer": "infer", "enumerate": "enumerate", "clarify": "clarify"}
    return parse_label(text, "aqua_strategy", marker, _norm_strategy, words)


def _norm_pass(value: str) -> str | None:
    v = value.strip().strip(".!").lower()
    return {"pass": "PASS", "passed": "PASS", "fail": "FAIL", "failed": "FAIL"}.get(v)


def parse_pass_fail(text: str) -> str:
    """ "PASS" / "FAIL" / "unknown" from a clarification judgement (AQuA 6.3)."""
    marker = re.compile(
        r"(?:verdict|judgement|judgment|result|final|answer|decision)\s*[:\-]\s*(pass|fail)\b", re.I
    )
    return parse_label(
        text,
        "aqua_clarification",
        marker,
        _norm_pass,
        {"PASS": "PASS", "FAIL": "FAIL"},
        case_sensitive_words=True,
    )


def _norm_grounded(value: str) -> str | None:
    v = value.strip().strip(".!").lower()
    return {"grounded": "grounded", "ungrounded": "ungrounded", "not grounded": "ungrounded"}.get(v)


def parse_grounded(text: str) -> str:
    """ "grounded" / "ungrounded" / "unknown" from a factual-consistency judgement (AQuA 4.2)."""
    marker = re.compile(
        r"(?:verdict|judgement|judgment|result|answer)\s*[:\-]\s*(grounded|ungrounded)\b", re.I
    )
    if isinstance(text, str):
        text = re.sub(r"\bnot grounded\b", "ungrounded", text, flags=re.I)
    return parse_label(
        text, "aqua_factual", marker, _norm_grounded, {"ungrounded": "ungrounded", "grounded": "grounded"}
    )
