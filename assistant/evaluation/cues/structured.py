"""Structured replies read as the sentences and list lines the cues read: a reply written as a JSON object
or array, or with a markdown table, says what a reply in sentences and list items says, in another layout.

Why: a table's rows run together on one line for the sentence cues ("| man in front | crate | | man behind
him | a sack |" reads as one referent with a long description), and a JSON reply's values are quoted
spans, which the cues blank as titles or signs ("white man" in {"desc": "white man"}).

Tables read the same in both readings below: the header row and the rule row are dropped (they name
columns, not referents) and each body row becomes a list item keyed by its first cell ("- sedan (front):
red"); a first cell that is only a number ("| 1 | scaffolding | laying bricks |") numbers a thing of the
first column's header ("worker 1"). A JSON reply (perhaps in a code fence) is read in one of two ways:
- `as_lines` (RAcQUEt class, bias and CoT): one "- key: value" line a field, so a field keyed by a
  referent ("man behind him") is a list key and a step's text ("step1: there are 4 birds") is read as
  written; a list of objects gives one line per object;
- `as_prose` (AQuA strategy): the text values become sentences of their own and the field names are
  dropped (a field name such as "answer" or "question" labels the layout, not the image:
  `{"question": "Which bus?"}` asks as "Which bus?" does); a list of objects, or an object of objects
  ({"person_1": {...}, "person_2": {...}}), becomes list items, one per object, each its fields' values.
  A reply of fields in another layout is the same object (`fields`): flat YAML ("intent: clarify" /
  "answer: null", one lowercase field name a line), a key=value log ("ref=shop_door(centre) state=open",
  records split by " | "), or XML leaf elements ("<referent>the mug</referent><answer>coffee</answer>");
  a log's identifiers read as words ("cow_left" as "cow left"). YAML and logs count as fields only with a
  serialiser's mark (`_SERIALISED`): "left: a ladder / right: nothing" is a person's list keyed by places.
Any other reply is returned unchanged, so the readers of plain replies see no difference.
"""

from __future__ import annotations

import json
import re
import shlex
import xml.etree.ElementTree as ET
from typing import Any

from assistant import words as en

_FENCE = re.compile(r"^\s*```[a-z]*\s*\n?(.*?)\n?\s*```\s*$", re.S | re.I)
_TABLE_LINE = re.compile(r"^\s*\|.*\|\s*$")
_RULE_LINE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _json_reply(response: str) -> Any:
    """The JSON object or array the whole reply is (a code fence around it allowed), or None."""
    fenced = _FENCE.match(response)
    body = (fenced.group(1) if fenced else response).strip()
    if not body.startswith(("{", "[")):
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


# --- tables ------------------------------------------------------------------------------------------


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
    lines = response.replace("\r", "").split("\n")
    out: list[str] = []
    k = 0
    for a, b in _table_spans(lines):
        out += lines[k:a] + _table_as_items(lines[a:b])
        k = b
    return "\n".join(out + lines[k:])


# --- JSON as "key: value" lines (class, bias, CoT) ---------------------------------------------------


def as_lines(response: str) -> str:
    """`response` with a whole-reply JSON object or array, or its markdown tables, as list lines (the
    module docstring); key=value lines with their counts said (`_said_counts`); any other reply
    unchanged."""
    value = _json_reply(response)
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            records = isinstance(item, list) and item and all(isinstance(e, dict) for e in item)
            entries = item if records else [item]
            counted = _count_phrase(key, item, value)
            lines += [f"- {counted}" if counted else f"- {_key(key)}: {_inline(e)}" for e in entries]
        return "\n".join(lines)
    if isinstance(value, list):
        return "\n".join(f"- {_inline(e)}" for e in value)
    return _tables_as_items(response) if "|" in response else _said_counts(response)


def _key(key: str) -> str:
    return re.sub(r"[_\s]+", " ", str(key)).strip()


def _inline(value: object) -> str:
    """A JSON value as a phrase: an object's or an array's values in order, joined by commas; a count
    field as what it counts (`_count_phrase`), since its number alone says nothing."""
    if isinstance(value, dict):
        return ", ".join(_count_phrase(k, v, value) or _inline(v) for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_inline(v) for v in value)
    return "" if value is None else str(value)


# --- count fields ----------------------------------------------------------------------------------
# A structured reply counts things in a field: the count is in the key ({"jerseys_visible": 3},
# {"num_people": 2}) or in a record with a label ({"label": "sign", "count": 2}, "label=sign count=2").
# Its number alone ("- reasoning: 3, centre") says nothing, and its key alone says a plural whatever the
# count ("jerseys visible: 1"); the phrase it stands for says both, with the noun agreeing in number:
# "3 jerseys visible", "1 jersey visible", "2 signs", "no people".
_COUNT_KEYS = frozenset({"count", "n", "num", "number", "total", "quantity", "qty", "amount", "of"})
_LABEL_KEYS = ("label", "class", "object", "category", "kind", "type", "name", "entity", "item")


def _agree(word: str, n: int) -> str:
    """The noun in the number `n` asks for: singular for one, plural otherwise."""
    if n == 1:
        return en.lemma(word) if en.is_plural_noun(word) else word
    return word if en.is_plural_noun(word) else en.plural(word)


def _count_phrase(key: object, value: object, record: dict[str, Any] | None) -> str | None:
    """The phrase a count field stands for (the section comment), or None for any other field: the
    value must be a whole number (not a boolean), and the key a count key beside a label, or a key with
    a plural noun in it."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    words = _key(str(key)).lower().split()
    label = next((record[k] for k in _LABEL_KEYS if record and isinstance(record.get(k), str)), None)
    rest = [w for w in words if w not in _COUNT_KEYS]
    if not rest and label and re.fullmatch(r"[a-z]+(?:[ -][a-z]+)?", label.strip().lower()):
        *mods, noun = label.strip().lower().split()
        rest = [*mods, _agree(noun, value)]
    elif any(en.is_plural_noun(w) for w in rest):
        rest = [_agree(w, value) if en.is_plural_noun(w) else w for w in rest]
    else:
        return None
    return f"{value if value else 'no'} {' '.join(rest)}"


# a key=value field as a log writes it ("count=2", "ref=shop_door(centre)", 'clarify="which screen?"'):
# read by the count phrases here and by the log reader (`_kv_fields`)
_KEY_VALUE = re.compile(r"(?<![^\s,;{])([a-z_][a-z0-9_.]*)=(\"[^\"]*\"|'[^']*'|[^\s,;]+)", re.I)


def _said_counts(response: str) -> str:
    """Key=value lines ("step=1 action=detect label=sign count=2") with each count field's phrase added
    after it ("count=2 (2 signs)"); other lines unchanged."""
    lines = []
    for line in response.split("\n"):
        fields = {k.lower(): v.strip("\"'") for k, v in _KEY_VALUE.findall(line)}
        # ASCII digits only, and few: "count=²" is a digit to str.isdigit, not to int()
        counts = [(k, int(v)) for k, v in fields.items() if re.fullmatch(r"[0-9]{1,9}", v)]
        for key, n in counts:
            phrase = _count_phrase(key, n, fields)
            if phrase:
                field = re.search(r"(?<![^\s,;{])" + re.escape(key) + r"=[0-9]+", line, re.I)
                if field:
                    line = f"{line[: field.end()]} ({phrase}){line[field.end() :]}"
        lines.append(line)
    return "\n".join(lines)


# --- JSON as sentences (AQuA strategy) ---------------------------------------------------------------


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


# a flat YAML line ("resolved_referent: bag on the woman's shoulder") and a key=value log's field
# ("clarify=\"which screen?\""): a field name is one lowercase identifier, as a program writes it
_YAML_LINE = re.compile(r"^([a-z_][a-z0-9_]*)[ \t]*:[ \t]*(\S.*)$")
_KV_FIELD = re.compile(r"^([a-z_][a-z0-9_.]*)=(.*)$", re.S)


def _scalar(value: str) -> str | None:
    """A field's value as text: quotes dropped, YAML's null read as no value, a log's identifier as words
    ("shop_door(centre)" as "shop door (centre)")."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1].strip() or None
    if value.lower() in {"null", "~", ""}:
        return None
    if " " not in value:
        value = re.sub(r"(?<=\w)\(", " (", value.replace("_", " "))
    return value


# what marks fields as a program's serialisation, not a person's keyed list ("left: a ladder / right:
# nothing" keys its values by referents, and keeps its keys): an identifier joined by underscores
# ("resolved_referent", "cow_left"), a quoted string or a null
_SERIALISED = re.compile(r"[a-z0-9]_[a-z0-9]|^[\"']|^(?:null|~|none)$", re.I)


def _serialised(pairs: list[tuple[str, str]]) -> bool:
    return any(_SERIALISED.search(k) or _SERIALISED.search(v.strip()) for k, v in pairs)


def _yaml_fields(response: str) -> dict[str, Any] | None:
    lines = [ln for ln in response.replace("\r", "").split("\n") if ln.strip()]
    found = [_YAML_LINE.match(ln) for ln in lines]
    pairs = [(m.group(1), m.group(2)) for m in found if m]
    if len(lines) < 2 or len(pairs) < len(lines) or not _serialised(pairs):
        return None
    return {k: _scalar(v) for k, v in pairs}


def _kv_record(record: str) -> dict[str, Any] | None:
    try:
        tokens = shlex.split(record)
    except ValueError:
        return None
    found = [_KV_FIELD.match(t) for t in tokens]
    if not tokens or not all(found):
        return None
    return {m.group(1): _scalar(m.group(2)) for m in found if m}


def _kv_raw(record: str) -> list[tuple[str, str]]:
    return [(k, v) for k, v in _KEY_VALUE.findall(record)]


def _kv_fields(response: str) -> dict[str, Any] | list[dict[str, Any]] | None:
    if "\n" in response.strip():
        return None
    records = [_kv_record(r) for r in response.split(" | ")]
    if not all(records) or sum(len(r or {}) for r in records) < 2 or not _serialised(_kv_raw(response)):
        return None
    return records[0] if len(records) == 1 else [r for r in records if r]


def _xml_fields(response: str) -> dict[str, Any] | None:
    body = response.strip()
    if not body.startswith("<"):
        return None
    try:
        root = ET.fromstring(f"<reply>{body}</reply>")
    except ET.ParseError:
        return None
    leaves = list(root)
    if (root.text or "").strip() or not leaves:
        return None
    if any(len(e) or e.attrib or (e.tail or "").strip() for e in leaves):
        return None
    return {e.tag: _scalar(e.text or "") for e in leaves}


def fields(response: str) -> dict[str, Any] | list[Any] | None:
    """The object a reply of fields is: a JSON object or array, flat YAML, a key=value log or XML leaf
    elements (the module docstring); None for any other reply."""
    value = _json_reply(response)
    if isinstance(value, dict | list):
        return value
    return _yaml_fields(response) or _kv_fields(response) or _xml_fields(response)


def as_prose(response: str) -> str:
    """The reply laid out as sentences and list items (the module docstring); unchanged where it is
    neither an object of fields nor has a markdown table."""
    value = fields(response)
    if isinstance(value, list) and _json_reply(response) is None:  # a log's records, one item each
        return "\n".join("- " + ", ".join(_values(v)) for v in value if _values(v))
    if isinstance(value, dict):
        prose = _json_as_prose(value)
        if prose:
            return prose
    return _tables_as_items(response) if "|" in response else response


# grounding models' inline markup: Qwen-VL's "<ref>the man</ref><box>(412,130),(598,880)</box>", Kosmos-2's
# "<phrase>a dog</phrase><object><patch_index_0044><patch_index_0991></object>", and normalised or pixel
# boxes after a phrase ("The woman [0.512,0.204,0.733,0.951] is holding ...")
_NUMBER = r"\s*\d+(?:\.\d+)?\s*"
_BOX = (
    r"<box>.*?</box>|<object>.*?</object>|"
    rf"\[{_NUMBER},{_NUMBER},{_NUMBER},{_NUMBER}\]|\({_NUMBER},{_NUMBER},{_NUMBER},{_NUMBER}\)"
)
_BOXES = re.compile(rf"(?:\s*(?:{_BOX}))+", re.S | re.I)
_GROUNDING_TAGS = re.compile(r"</?(?:ref|phrase|grounding)>|<patch_index_\d+>", re.I)


def grounding_as_text(response: str) -> str:
    """`response` with a grounding model's boxes said in words: a box marks where its phrase's referent is in
    the image, so "The woman [0.51,0.20,0.73,0.95] is holding" places one woman as "the woman on the left"
    would ("The woman (in the marked box) is holding"); a phrase with several boxes marks several ("(in 2
    marked boxes)"). The ref / phrase tags themselves are dropped, their words kept."""
    if not _BOXES.search(response):
        return response

    def said(m: re.Match[str]) -> str:
        n = len(re.findall(_BOX, m.group(0), re.S | re.I))
        return " (in the marked box)" if n == 1 else f" (in {n} marked boxes)"

    return _GROUNDING_TAGS.sub("", _BOXES.sub(said, response))


def without_grounding(response: str) -> tuple[str, int]:
    """`response` with a grounding model's boxes dropped and its tags opened, the words kept
    ("<phrase>The person</phrase><object>...</object> is holding a surfboard" reads "The person is holding
    a surfboard"), and how many places it marked (a run of boxes after one phrase marks one)."""
    marked = len(_BOXES.findall(response))
    return re.sub(r"[ \t]+", " ", _GROUNDING_TAGS.sub(" ", _BOXES.sub(" ", response))).strip(), marked
