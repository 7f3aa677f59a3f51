"""Slices of a run in the Benchmark tab: the choices of the slice controls (each with its count), the
"Slices" panel (counts by outcome, prompt and model, and the gold-by-judged table) whose every count is a
button that shows its slice, and reading such a button's pick back.

A button carries its slice as JSON in `data-wh-slice`; the page script (ui/page_script.SLICE_PICK_JS)
writes it into a hidden textbox, whose change event sets the controls and shows the slice. The buttons are
real <button>s: Tab reaches them and Enter or Space presses them.
"""

from __future__ import annotations

import json
from collections import Counter
from html import escape
from typing import Any

from assistant.evaluation.outcomes import ERROR, RIGHT, UNJUDGED, WRONG
from assistant.evaluation.runs import Slice
from ui.bench_browser import BenchView

ALL = "all"  # the choice that keeps every record (no label of any judging is spelled so)
SLICE_FIELDS = ("outcome", "gold", "judged", "variant", "model")  # the radios, in the tab's order


def choices(view: BenchView) -> dict[str, list[tuple[str, str]]]:
    """Each slice radio's choices ("wrong (8)", "wrong"), "all" first, counted over the whole run."""
    counts = view.run.counts()
    out: dict[str, list[tuple[str, str]]] = {}
    for name in SLICE_FIELDS:
        counted = counts[name]
        order = [RIGHT, WRONG, UNJUDGED, ERROR] if name == "outcome" else sorted(counted)
        values = [v for v in order if counted.get(v) and v != "-"]
        out[name] = [(f"{ALL} ({len(view.records)})", ALL), *[(f"{v} ({counted[v]})", v) for v in values]]
    return out


def slice_of(
    outcome: str | None,
    gold: str | None,
    judged: str | None,
    variant: str | None,
    model: str | None,
    unknown: bool,
    word: str | None,
) -> Slice:
    """The Slice the controls' values choose ("all" or empty: that field keeps every record)."""

    def kept(value: str | None) -> str | None:
        return None if value in (None, "", ALL) else str(value)

    text = (word or "").strip()
    return Slice(
        model=kept(model),
        variant=kept(variant),
        gold=kept(gold),
        judged=kept(judged),
        outcome=kept(outcome),
        unknown=bool(unknown),
        word=text or None,
    )


def read_pick(text: str | None) -> Slice | None:
    """The Slice a slice button carries ('{"gold": "A", "judged": "C"}#<nonce>'), or None if unreadable."""
    payload = (text or "").split("#", 1)[0]
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    allowed = {k: str(v) for k, v in data.items() if k in SLICE_FIELDS and isinstance(v, str)}
    return Slice(**allowed, unknown=data.get("unknown") is True)


def _button(chosen: dict[str, Any], count: int, name: str) -> str:
    """A button that shows slice `chosen`; its accessible name says the slice and its count."""
    label = f"{name}: {count} record{'s' if count != 1 else ''}"
    data = escape(json.dumps(chosen), quote=True)
    return (
        f'<button type="button" class="wh-slice" data-wh-slice="{data}" aria-label="{escape(label)}">'
        f"{count}</button>"
    )


def _counts_line(title: str, field: str, counted: Counter[str], order: list[str]) -> str:
    items = [
        f"{escape(v)} {_button({field: v}, counted[v], f'{title} {v}')}" for v in order if counted.get(v)
    ]
    return f"<li>{escape(title)}: {', '.join(items)}</li>" if items else ""


def slices_html(view: BenchView) -> str:
    """The panel of the run's slices: every count a button that shows its records."""
    run = view.run
    counts = run.counts()
    lines = [
        f"<li>All records: {_button({}, len(run.records), 'all records')}</li>",
        _counts_line("Outcome", "outcome", counts["outcome"], [RIGHT, WRONG, UNJUDGED, ERROR]),
    ]
    unknown = len(run.slice(Slice(unknown=True)))
    if unknown:
        button = _button({"unknown": True}, unknown, "judgement unknown")
        lines.append(f"<li>A judgement unknown: {button}</li>")
    if len(counts["variant"]) > 1:
        lines.append(_counts_line("Prompt", "variant", counts["variant"], sorted(counts["variant"])))
    if len(counts["model"]) > 1:
        lines.append(_counts_line("Model", "model", counts["model"], sorted(counts["model"])))
    parts = [f'<ul class="wh-slice-counts">{"".join(lines)}</ul>']
    cells = run.crosstab()
    if cells:
        golds = sorted({g for g, _ in cells})
        judged = sorted({j for _, j in cells})
        head = "".join(f'<th scope="col">judged {escape(j)}</th>' for j in judged)
        body = []
        for g in golds:
            row = []
            for j in judged:
                n = cells.get((g, j), 0)
                name = f"gold {g}, judged {j}"
                row.append(f"<td>{_button({'gold': g, 'judged': j}, n, name) if n else '0'}</td>")
            body.append(f'<tr><th scope="row">gold {escape(g)}</th>{"".join(row)}</tr>')
        parts.append(
            '<table class="wh-confusion"><caption>Gold label by judged label: press a count to see its '
            f"records</caption><thead><tr><td></td>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        )
    return f'<section aria-label="Slices of this run" class="wh-slices">{"".join(parts)}</section>'
