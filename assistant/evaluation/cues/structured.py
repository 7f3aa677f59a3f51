"""Structured replies read as list lines: a markdown table's body rows and a JSON reply's entries become
"- key: value, value" lines, the layout the cues already read (list keys, one line per referent).

Why: a table's rows run together on one line for the sentence cues ("| man in front | crate | | man behind
him | a sack |" reads as one referent with a long description), and a JSON reply's values are quoted
spans, which the cues blank as titles or signs ("white man" in {"desc": "white man"}). Read as lines, each
row or entry is its own list item keyed by its first cell or its key, as a writer would have listed them.
"""

from __future__ import annotations

import json
import re

# a table line: it opens and closes with "|"; the rule under the header is made of "-", ":" and "|"
_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
# a JSON reply, whole, perhaps in a code fence
_FENCED = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n\s*```\s*$", re.S)


def as_lines(response: str) -> str:
    """`response` with its markdown tables and a whole-reply JSON object or array rewritten as list lines;
    any other reply unchanged. A table's header row is dropped (it names columns, not referents): each body
    row becomes "- first cell: other cells", so a row keyed by a referent ("man behind him") is a list key."""
    structured = _json_lines(response)
    if structured is not None:
        return structured
    lines = response.splitlines()
    if not any(_RULE.match(line) for line in lines):
        return response
    out: list[str] = []
    for i, line in enumerate(lines):
        row = _ROW.match(line)
        if _RULE.match(line):
            continue
        if row is None:
            out.append(line)
            continue
        if i + 1 < len(lines) and _RULE.match(lines[i + 1]):
            continue  # the header row
        cells = [c.strip() for c in row.group(1).split("|")]
        cells = [c for c in cells if c]
        if cells:
            out.append(f"- {cells[0]}: {', '.join(cells[1:])}" if len(cells) > 1 else f"- {cells[0]}")
    return "\n".join(out)


def _json_lines(response: str) -> str | None:
    """A reply that is one JSON object or array, as list lines (keys with "_" read as words: "person 1"),
    or None where the reply is no JSON."""
    text = response.strip()
    fenced = _FENCED.match(text)
    text = fenced.group(1).strip() if fenced else text
    if not text.startswith(("{", "[")):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            records = isinstance(item, list) and item and all(isinstance(e, dict) for e in item)
            entries = item if records else [item]
            lines += [f"- {_key(key)}: {_inline(e)}" for e in entries]
        return "\n".join(lines)
    if isinstance(value, list):
        return "\n".join(f"- {_inline(e)}" for e in value)
    return None


def _key(key: str) -> str:
    return re.sub(r"[_\s]+", " ", str(key)).strip()


def _inline(value: object) -> str:
    """A JSON value as a phrase: an object's or an array's values in order, joined by commas."""
    if isinstance(value, dict):
        return ", ".join(_inline(v) for v in value.values())
    if isinstance(value, list):
        return ", ".join(_inline(v) for v in value)
    return "" if value is None else str(value)
