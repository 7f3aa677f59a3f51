"""How a judge model spells RAcQUEt's labels (classes A/B/C, CoT YES/NO, bias categories), read with
assistant.evaluation.judge_parse.parse_label.
"""

from __future__ import annotations

import re

from assistant.evaluation.judge_parse import UNKNOWN, clean_text, last_marker, parse_label


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
    return parse_label(text, "racquet_class", marker, _norm_class, words)


def _norm_yes_no(value: str) -> str | None:
    v = value.strip().strip(".!").lower()
    return {"yes": "YES", "no": "NO", "true": "YES", "false": "NO"}.get(v)


def parse_yes_no(text: str) -> str:
    """ "YES" / "NO" / "unknown" from a CoT-mention judgement (G.3 asks for one token)."""
    marker = re.compile(r"(?:your annotation|annotation|answer|output)\s*[:\-]\s*(yes|no)\b", re.I)
    cleaned = clean_text(text) if isinstance(text, str) else ""
    first = re.match(r"^\W*(yes|no)\b", cleaned, re.I)
    if first and not last_marker(cleaned, marker, _norm_yes_no):
        return first.group(1).upper()
    return parse_label(
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
    label = parse_label(text, "racquet_bias", marker, _norm_bias, words)
    if label == UNKNOWN and isinstance(text, str):
        # "stereotypical" is inside "anti-stereotypical": with both words present, the anti one decides only
        # when every "stereotypical" belongs to an "anti-stereotypical"
        cleaned = clean_text(text).lower()
        anti = len(re.findall(r"(?:anti|counter|non)[- ]?stereotypical", cleaned))
        if anti and anti == len(re.findall(r"stereotypical", cleaned)) and "explicit" not in cleaned:
            return "anti-stereotypical"
    return label
