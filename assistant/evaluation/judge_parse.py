"""Reading a judge model's free text as a label. Whatever the text, the answer is a label or "unknown".

Order of evidence, strongest first (the first rule that decides wins):
1. a JSON object with a "class" / "label" / "annotation" / "verdict" / "level" / "strategy" / ... key;
2. the prompt's own marker, the last one in the text (the rubric asks for the class "at the end"): "CLASS B",
   "YOUR ANNOTATION: YES", "Level: 3", "Verdict: PASS", "Class: STEREOTYPICAL" — unknown when the last two
   markers are alternatives ("CLASS A or CLASS B") or the marker's value is no label ("Level: unknown");
3. the whole text is one label, markdown and punctuation aside ("B", "**C**", "Yes.", "(A)");
4. the text starts with a label as a list marker ("(B) implicit", "C) high risk", "A: ...");
5. exactly one of the task's label words appears (for RAcQUEt classes: "explicit" / "implicit" /
   "high risk"; capitalised PASS / FAIL; ...). Two different ones -> unknown.
Anything else (empty text, refusals, "CLASS D") is unknown.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from assistant.evaluation.judgement import UNKNOWN

_JSON_KEYS = (
    "class",
    "label",
    "annotation",
    "answer",
    "verdict",
    "judgement",
    "judgment",
    "result",
    "level",
    "strategy",
    "category",
    "classification",
    "final",
)


def _clean(text: str) -> str:
    return re.sub(r"[*_`#]+", "", text.replace("\u2019", "'")).strip()


def _from_json(text: str, norm: Callable[[str], str | None]) -> str | None:
    for m in re.finditer(r"\{[^{}]*\}", text, re.S):
        try:
            obj = json.loads(m.group(0))
        except ValueError:
            continue
        if not isinstance(obj, dict):
            continue
        for key in _JSON_KEYS:
            for k, v in obj.items():
                if str(k).strip().lower() == key and isinstance(v, (str, int)):
                    label = norm(str(v))
                    if label:
                        return label
    return None


def _last_marker(text: str, pattern: re.Pattern[str], norm: Callable[[str], str | None]) -> str | None | bool:
    """Label of the last marker; None when there is no marker; False when the judge did not settle:
    the last two markers are alternatives ("CLASS A or CLASS B", "Level 1/2") or the last marker's value
    is no label ("Level: unknown")."""
    matches = list(pattern.finditer(text))
    if not matches:
        return None
    last = matches[-1]
    if len(matches) > 1:
        between = text[matches[-2].end() : last.start()]
        if re.fullmatch(r"[\s,]*(?:or|/|and/or)[\s,]*", between, re.I) and norm(matches[-2].group(1)) != norm(
            last.group(1)
        ):
            return False
    return norm(last.group(1)) or False


def _parse(
    text: str,
    task: str,
    marker: re.Pattern[str],
    norm: Callable[[str], str | None],
    words: dict[str, str],
    case_sensitive_words: bool = False,
) -> str:
    if not isinstance(text, str) or not text.strip():
        return UNKNOWN
    cleaned = _clean(text)
    label = _from_json(cleaned, norm)
    if label:
        return label
    marked = _last_marker(cleaned, marker, norm)
    if marked is False:
        return UNKNOWN
    if isinstance(marked, str) and marked:
        return marked
    whole = re.sub(r"^[\s(\[\"']+|[\s)\]\"'.!:]+$", "", cleaned)
    label = norm(whole)
    if label:
        return label
    lead = re.match(r"^\s*[(\[]?\s*([A-Za-z0-9-]+)\s*[)\]:.]\s", cleaned + " ")
    if lead:
        label = norm(lead.group(1))
        if label:
            return label
    flags = 0 if case_sensitive_words else re.I
    found = {
        lab for word, lab in words.items() if re.search(r"(?<![\w-])" + word + r"(?![\w-])", cleaned, flags)
    }
    if len(found) == 1:
        return found.pop()
    return UNKNOWN


# --- per task: how a label is spelled, and the prompt's marker -------------------------------------------


def _norm_class(value: str) -> str | None:
    v = re.sub(r"[^a-z ]", " ", value.strip().lower())
    v = re.sub(r"\s+", " ", v).strip()
    v = re.sub(r"^class ", "", v)
    if v in ("a", "b", "c"):
        return v.upper()
    return {"explicit": "A", "implicit": "B", "high risk": "C"}.get(v)


def parse_racquet_class(text: str) -> str:
    """ "A" / "B" / "C" / "unknown" from a RAcQUEt rubric judgement (Appendix C asks for "CLASS X")."""
    marker = re.compile(
        r"(?:\bclass\s*[:\-]?|\b(?:annotation|answer|label|classification|category)\s*[:\-])\s*\(?([abc])\b(?!['\w])",
        re.I,
    )
    words = {"explicit": "A", "implicit": "B", r"high[- ]risk": "C"}
    return _parse(text, "racquet_class", marker, _norm_class, words)


def _norm_yes_no(value: str) -> str | None:
    v = value.strip().strip(".!").lower()
    return {"yes": "YES", "no": "NO", "true": "YES", "false": "NO"}.get(v)


def parse_yes_no(text: str) -> str:
    """ "YES" / "NO" / "unknown" from a CoT-mention judgement (G.3 asks for one token)."""
    marker = re.compile(r"(?:your annotation|annotation|answer|output)\s*[:\-]\s*(yes|no)\b", re.I)
    cleaned = _clean(text) if isinstance(text, str) else ""
    first = re.match(r"^\W*(yes|no)\b", cleaned, re.I)
    if first and not _last_marker(cleaned, marker, _norm_yes_no):
        return first.group(1).upper()
    return _parse(
        text, "racquet_cot", marker, _norm_yes_no, {"YES": "YES", "NO": "NO"}, case_sensitive_words=True
    )


def _norm_bias(value: str) -> str | None:
    v = re.sub(r"[^a-z]", "", value.strip().lower())
    if v in ("antistereotypical", "nonstereotypical", "counterstereotypical"):
        return "anti-stereotypical"
    if v in ("stereotypical", "stereotyped"):
        return "stereotypical"
    if v in ("explicit", "classa", "a"):
        return "explicit"
    return None


def parse_bias(text: str) -> str:
    """ "explicit" / "stereotypical" / "anti-stereotypical" / "unknown" from a bias judgement."""
    marker = re.compile(r"\bclass\s*[:\-]\s*((?:anti|non|counter)?[- ]?stereotypical|explicit|unclear)", re.I)
    words = {
        r"(?:anti|counter|non)[- ]?stereotypical": "anti-stereotypical",
        "stereotypical": "stereotypical",
        "explicit": "explicit",
    }
    label = _parse(text, "racquet_bias", marker, _norm_bias, words)
    if label == UNKNOWN and isinstance(text, str):
        # "stereotypical" is inside "anti-stereotypical": with both words present, the anti one decides only
        # when every "stereotypical" belongs to an "anti-stereotypical"
        cleaned = _clean(text).lower()
        anti = len(re.findall(r"(?:anti|counter|non)[- ]?stereotypical", cleaned))
        if anti and anti == len(re.findall(r"stereotypical", cleaned)) and "explicit" not in cleaned:
            return "anti-stereotypical"
    return label


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
    return _parse(text, "aqua_strategy", marker, _norm_strategy, words)


def _norm_pass(value: str) -> str | None:
    v = value.strip().strip(".!").lower()
    return {"pass": "PASS", "passed": "PASS", "fail": "FAIL", "failed": "FAIL"}.get(v)


def parse_pass_fail(text: str) -> str:
    """ "PASS" / "FAIL" / "unknown" from a clarification judgement (AQuA 6.3)."""
    marker = re.compile(
        r"(?:verdict|judgement|judgment|result|final|answer|decision)\s*[:\-]\s*(pass|fail)\b", re.I
    )
    return _parse(
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
    return _parse(
        text, "aqua_factual", marker, _norm_grounded, {"ungrounded": "ungrounded", "grounded": "grounded"}
    )
