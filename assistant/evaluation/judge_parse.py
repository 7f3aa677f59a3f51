"""Reading a judge model's free text as a label. Whatever the text, the answer is a label or "unknown".

Order of evidence, strongest first (the first rule that decides wins):
1. a JSON object with a "class" / "label" / "annotation" / "verdict" / "level" / "strategy" / ... key;
2. the prompt's own marker, the last one in the text (the rubric asks for the class "at the end"): "CLASS B",
   "YOUR ANNOTATION: YES", "Level: 3", "Verdict: PASS", "Class: STEREOTYPICAL" — unknown when the last two
   markers are alternatives ("CLASS A or CLASS B") or the marker's value is no label ("Level: unknown");
3. the whole text is one label, markdown and punctuation aside ("B", "**C**", "Yes.", "(A)");
4. the text starts with a label as a list marker ("(B) implicit", "C) high risk", "A: ...");
5. exactly one of the task's label words appears (a class's name, "high risk"; capitalised PASS / FAIL;
   ...). Two different ones -> unknown.
Anything else (empty text, refusals, "CLASS D") is unknown.

Each paper spells its own labels and markers (papers/<paper>/parse.py) and calls `parse_label`.
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


def clean_text(text: str) -> str:
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


def last_marker(text: str, pattern: re.Pattern[str], norm: Callable[[str], str | None]) -> str | None | bool:
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


def parse_label(
    text: str,
    task: str,
    marker: re.Pattern[str],
    norm: Callable[[str], str | None],
    words: dict[str, str],
    case_sensitive_words: bool = False,
) -> str:
    if not isinstance(text, str) or not text.strip():
        return UNKNOWN
    cleaned = clean_text(text)
    label = _from_json(cleaned, norm)
    if label:
        return label
    marked = last_marker(cleaned, marker, norm)
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
