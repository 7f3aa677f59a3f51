"""Structured replies read as prose: a reply written as a JSON object or as a markdown table says what a
reply in sentences and list items says, in another layout. The rules read sentences and list lines, so
such a reply is laid out as them first:

- a JSON object's text values become sentences of their own and its field names are dropped (a field
  name such as "answer" or "question" labels the layout, not the image: `{"question": "Which bus?"}` asks
  as "Which bus?" does); a list of objects ("dogs": [{"position": "left", ...}, ...]), or an object of
  objects ({"person_1": {...}, "person_2": {...}}), becomes list items, one per object, each its fields'
  values;
- a markdown table's body rows become list items, one per row, its first cell as the key ("- sedan
  (front): red"); a first cell that is only a number ("| 1 | scaffolding | laying bricks |") numbers a
  thing of the first column's header ("worker 1"). The header row and the rule row are dropped.

Anything else is returned unchanged, so the readers of plain replies see no difference.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"^\s*```[a-z]*\s*\n?(.*?)\n?\s*```\s*$", re.S | re.I)
_TABLE_LINE = re.compile(r"^\s*\|.*\|\s*$")
_RULE_LINE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _values(value: Any) -> list[str]:
    """The scalar values of a JSON value, in order (nested objects and lists flattened)."""
    if isinstance(value, dict):
        return [v for item in value.values() for v in _values(item)]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    if value is None or isinstance(value, bool):
        return []
    return [str(value).strip()] if str(value).strip() else []


def _sentence(value: str) -> str:
    return value if re.search(r"[.!?:]$", value) else value + "."


def _json_as_prose(obj: dict[str, Any]) -> str:
    if len(obj) >= 2 and all(isinstance(v, dict) for v in obj.values()):  # {"person_1": {...}, ...}
        return "\n".join("- " + ", ".join(_values(v)) for v in obj.values() if _values(v))
    lines = []
    for value in obj.values():
        if isinstance(value, list) and any(isinstance(v, dict) for v in value):
            lines += ["- " + ", ".join(_values(v)) for v in value if _values(v)]
        else:
            lines += [_sentence(v) for v in _values(value)]
    return "\n".join(lines)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table_as_items(lines: list[str]) -> list[str]:
    """A markdown table's body rows as list items keyed by their first cell."""
    header = _cells(lines[0])
    items = []
    for line in lines[2:]:
        cells = _cells(line)
        if not cells or not any(cells):
            continue
        key, rest = cells[0], [c for c in cells[1:] if c]
        if re.fullmatch(r"#?\d+", key) and header and header[0]:
            key = f"{header[0].lower()} {key.lstrip('#')}"
        items.append(f"- {key}: {', '.join(rest)}" if rest else f"- {key}")
    return items


def _table_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) line spans of the markdown tables: a row of cells, a rule row, then body rows."""
    spans = []
    k = 0
    while k < len(lines):
        if _TABLE_LINE.match(lines[k]) and k + 1 < len(lines) and _RULE_LINE.match(lines[k + 1]):
            end = k + 2
            while end < len(lines) and _TABLE_LINE.match(lines[end]):
                end += 1
            spans.append((k, end))
            k = end
        else:
            k += 1
    return spans


def tables(response: str) -> list[tuple[list[str], list[list[str]]]]:
    """The reply's markdown tables, each as its header's cells and its body rows' cells."""
    lines = response.replace("\r", "").split("\n")
    return [
        (_cells(lines[a]), [_cells(ln) for ln in lines[a + 2 : b] if any(_cells(ln))])
        for a, b in _table_spans(lines)
    ]


def _tables_as_items(response: str) -> str:
    lines = response.split("\n")
    out: list[str] = []
    k = 0
    for a, b in _table_spans(lines):
        out += lines[k:a] + _table_as_items(lines[a:b])
        k = b
    return "\n".join(out + lines[k:])


def as_prose(response: str) -> str:
    """The reply laid out as sentences and list items (the module docstring); unchanged where it is
    neither a JSON object nor has a markdown table."""
    fenced = _FENCE.match(response)
    body = fenced.group(1) if fenced else response
    if body.lstrip().startswith("{"):
        try:
            obj = json.loads(body)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            prose = _json_as_prose(obj)
            if prose:
                return prose
    if "|" in response:
        return _tables_as_items(response.replace("\r", ""))
    return response


# ---- classbias version (temporary)

# a table line: it opens and closes with "|"; the rule under the header is made of "-", ":" and "|"
_CB_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_CB_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
# a JSON reply, whole, perhaps in a code fence
_CB_FENCED = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n\s*```\s*$", re.S)


def as_lines(response: str) -> str:
    """`response` with its markdown tables and a whole-reply JSON object or array rewritten as list lines;
    any other reply unchanged. A table's header row is dropped (it names columns, not referents): each body
    row becomes "- first cell: other cells", so a row keyed by a referent ("man behind him") is a list key."""
    structured = _json_lines(response)
    if structured is not None:
        return structured
    lines = response.splitlines()
    if not any(_CB_RULE.match(line) for line in lines):
        return response
    out: list[str] = []
    for i, line in enumerate(lines):
        row = _CB_ROW.match(line)
        if _CB_RULE.match(line):
            continue
        if row is None:
            out.append(line)
            continue
        if i + 1 < len(lines) and _CB_RULE.match(lines[i + 1]):
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
    fenced = _CB_FENCED.match(text)
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
