"""Report files of a run: per-example JSONL, summary JSON, a Markdown table laid out as the paper's, plots.

Files (in the run's output folder):
- responses.jsonl: one line per (model, variant, example): question, gold, turns, response, judgement.
- summary.json: the metrics per (model, variant) and the run's settings; `run` holds this run's facts
  (model calls, cache hits, seconds) — the only part that differs between a run and its rerun.
- table.md: the paper's table layout (RAcQUEt Fig. 3/4/7 as percentages, VQ-FocusAmbiguity Tables 2/3,
  AQuA Tables 2/4).
- classes.png (RAcQUEt Fig. 3 style stacked bars per model and prompt), confusion.png (AQuA Fig. 5 style
  confusion matrices; for recognition, gold ambiguous/unambiguous x verdict).
Every file is written to a temporary name and renamed, so a reader never sees half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from assistant.evaluation import plots
from assistant.evaluation.judges import agreement_line
from assistant.evaluation.records import JSON, ResponseRecord, RunSummary, json_safe
from assistant.evaluation.samples import SAMPLE, SAMPLE_NOTE
from assistant.evaluation.table_format import md
from assistant.evaluation.tasks import Task


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_jsonl(path: Path, records: Sequence[ResponseRecord]) -> None:
    lines = [json.dumps(r.to_json(), ensure_ascii=False, sort_keys=True) for r in records]
    _atomic_write(path, ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8"))


def write_json(path: Path, obj: JSON) -> None:
    _atomic_write(
        path, (json.dumps(json_safe(obj), ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode()
    )


# ------------------------------------------------------------------------------------------ tables


def _sampled(summary: RunSummary) -> str:
    """How the examples were chosen, in the words of the command that chose them."""
    return f"(a seeded sample: --limit {summary.limit}, seed {summary.seed})" if summary.limit else "(all)"


def markdown_table(task: Task, summary: RunSummary) -> str:
    """The summary as the paper lays its table out (percentages, one row per model and prompt)."""
    title, header, rows, extra = task.layout(task, summary)  # its paper's table
    judging = [q.name for q in task.judge_questions]
    paper_judge = task.paper.judge if task.paper is not None else ""
    notes = [
        f"Task `{task.name}` — reproduces {task.reproduces}.",
        agreement_line(summary.judge, summary.judge_agreement, judging)
        if judging
        else "Judge: none needed (the metric reads the model's output directly).",
        *([f"The paper's own judge: {paper_judge}."] if judging and paper_judge else []),
        f"Split {summary.split}; {summary.n_examples} examples {_sampled(summary)}.",
        *extra,
    ]
    warning = failed_share_warning(summary)
    if warning:
        notes.insert(0, warning)
    if summary.data == SAMPLE:
        notes.insert(0, f"**Data: {SAMPLE_NOTE}.**")
    failed = summary.judge_errors
    if failed:
        notes.append(
            f"Judge failures: {sum(failed.values())} judgement(s) could not be made "
            f"({', '.join(f'{k}: {n}' for k, n in failed.items())}); they count as unknown above "
            "(`<judging>_error` in responses.jsonl)."
        )
    return f"### {title}\n\n" + md(header, rows) + "\n\n" + "\n".join(notes) + "\n"


# A run where more than this share of items failed (the model did not answer: image unavailable, model
# error) gets a warning above its table: its numbers describe the rest only.
FAILED_SHARE_WARNING = 0.10


def failed_share_warning(summary: RunSummary) -> str | None:
    """ "**Warning: 12 of 60 items (20.0%) failed** ..." when more than FAILED_SHARE_WARNING of the run's
    items failed, else None."""
    items = sum(row.n for row in summary.results)
    failed = sum(row.errors for row in summary.results)
    if not items or failed / items <= FAILED_SHARE_WARNING:
        return None
    if failed == items:
        return (
            f"**Warning: all {items} items failed**: the model answered none of them, so the table has no "
            "result (see `error` in responses.jsonl)."
        )
    return (
        f"**Warning: {failed} of {items} items ({100 * failed / items:.1f}%) failed**: the numbers above "
        "describe the other items only (see `error` in responses.jsonl)."
    )


def all_failed(records: Sequence[ResponseRecord]) -> bool:
    """Whether a run has items and the model answered none of them (a run with no result)."""
    return bool(records) and all(r.error for r in records)


def failure_line(records: Sequence[ResponseRecord], n_examples: int) -> str | None:
    """ "3 of 20 examples failed: image unavailable" (None when nothing failed): how many examples had an
    item the model did not answer, and why, grouped by the kind of error each example's first failure
    had. It tells a fully cached rerun ("model calls: 0") from a run where nothing could be asked."""
    why: dict[str, str] = {}
    for r in records:
        if r.error:
            why.setdefault(r.key, _error_kind(r.error))
    if not why:
        return None
    kinds: dict[str, int] = {}
    for kind in why.values():
        kinds[kind] = kinds.get(kind, 0) + 1
    reasons = ", ".join(k if len(kinds) == 1 else f"{k} ({n})" for k, n in kinds.items())
    return f"{len(why)} of {n_examples} examples failed: {reasons}"


def _error_kind(error: str) -> str:
    # the runner's item errors: "model: ...", "model (second turn): ...", "pipeline: ...", and an
    # ImageUnavailable's own message, "example <id>: ..."
    if error.startswith("model"):
        return "model error"
    if error.startswith("pipeline:"):
        return "pipeline error"
    if error.startswith("example "):
        return "image unavailable"
    return error.split(":", 1)[0][:60]


# ------------------------------------------------------------------------------------------ all files


def write_report(
    out_dir: Path,
    task: Task,
    records: Sequence[ResponseRecord],
    summary: RunSummary,
    run_info: dict[str, JSON],
) -> dict[str, Path]:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {
        "responses": out_dir / "responses.jsonl",
        "summary": out_dir / "summary.json",
        "table": out_dir / "table.md",
    }
    write_jsonl(files["responses"], records)
    write_json(files["summary"], {**summary.to_json(), "run": run_info})
    _atomic_write(files["table"], markdown_table(task, summary).encode("utf-8"))
    drawn = (
        ("class-bars", "classes_plot", "classes.png", plots.class_bars_png),
        ("confusion", "confusion_plot", "confusion.png", plots.confusion_png),
    )
    for plot, key, name, draw in drawn:
        png = draw(task, summary) if plot in task.plots else None
        if png is not None:
            files[key] = out_dir / name
            _atomic_write(files[key], png)
    return files


def decided_by_line(summary: RunSummary) -> str | None:
    """ "decided by: racquet_class rules 38, llm:qwen 2; ..." (which path decided how many judgements),
    or None when nothing was judged."""
    if not summary.judge_paths:
        return None
    parts = [
        f"{judging} " + ", ".join(f"{path} {n}" for path, n in paths.items())
        for judging, paths in summary.judge_paths.items()
    ]
    return "decided by: " + "; ".join(parts)


def unknown_counts(records: Sequence[ResponseRecord]) -> dict[str, tuple[int, int]]:
    """{judging: (unknown, judged)} over the answered records (a judge call that failed is unknown too)."""
    counts: dict[str, tuple[int, int]] = {}
    for r in records:
        if r.error or r.response is None:
            continue
        for key, label in r.judgement.items():
            if key.endswith(("_reason", "_judge", "_text", "_prompt", "_path", "_error")):
                continue
            if not isinstance(label, str):
                continue
            unknown, n = counts.get(key, (0, 0))
            counts[key] = (unknown + (label == "unknown"), n + 1)
    return counts


def unread_judgings(records: Sequence[ResponseRecord]) -> list[tuple[str, int]]:
    """The judgings whose every judgement is unknown, with how many there were: the judge read no reply,
    so their column of the table is no result."""
    return [(judging, n) for judging, (unknown, n) in unknown_counts(records).items() if n and unknown == n]


def rate_limit_failures(
    records: Sequence[ResponseRecord], max_unknown_rate: float | None, max_error_rate: float | None
) -> list[str]:
    """Why a run must exit non-zero: a judging whose unknown share is over `max_unknown_rate`, or the
    share of items the model did not answer over `max_error_rate`. None is each limit's default: a
    judging whose every judgement is unknown (no reply could be read: a table of dashes is no result),
    and, for errors, off (a run whose every item failed exits non-zero anyway, see all_failed)."""
    found = []
    if max_unknown_rate is None:
        found += [
            f"{judging}: all {n} judgements unknown (the judge could read no reply; --max-unknown-rate 1 "
            "accepts that)"
            for judging, n in unread_judgings(records)
        ]
    for judging, (unknown, n) in unknown_counts(records).items():
        if max_unknown_rate is not None and n and unknown / n > max_unknown_rate:
            found.append(
                f"{judging}: {unknown} of {n} judgements unknown ({100 * unknown / n:.1f}%, "
                f"over --max-unknown-rate {max_unknown_rate:g})"
            )
    errors = sum(1 for r in records if r.error)
    if records and max_error_rate is not None and errors / len(records) > max_error_rate:
        found.append(
            f"{errors} of {len(records)} items failed ({100 * errors / len(records):.1f}%, "
            f"over --max-error-rate {max_error_rate:g})"
        )
    return found
