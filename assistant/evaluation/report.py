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

import io
import json
import math
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from assistant.evaluation.judges import agreement_line
from assistant.evaluation.papers import layout_for
from assistant.evaluation.papers.aqua import judged_strategy
from assistant.evaluation.scoring import judging_tasks
from assistant.evaluation.table_format import md
from assistant.evaluation.tasks import Task


def _clean(value: Any) -> Any:
    """JSON-safe: NaN / inf become null, tuples lists, dict keys strings."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


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


def write_jsonl(path: Path, records: Sequence[dict[str, Any]]) -> None:
    lines = [json.dumps(_clean(r), ensure_ascii=False, sort_keys=True) for r in records]
    _atomic_write(path, ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8"))


def write_json(path: Path, obj: Any) -> None:
    _atomic_write(
        path, (json.dumps(_clean(obj), ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode()
    )


# ------------------------------------------------------------------------------------------ tables


def markdown_table(task: Task, summary: dict[str, Any]) -> str:
    """The summary as the paper lays its table out (percentages, one row per model and prompt)."""
    results = summary.get("results", [])
    title, header, rows, extra = layout_for(task.metrics)(task, summary, results)
    judging = judging_tasks(task)
    notes = [
        f"Task `{task.name}` — reproduces {task.reproduces}.",
        agreement_line(summary.get("judge"), summary.get("judge_agreement") or [], judging)
        if judging
        else "Judge: none needed (the metric reads the model's output directly).",
        f"Split {summary.get('split')}; "
        f"{summary.get('n_examples')} examples (limit {summary.get('limit')}, seed {summary.get('seed')}).",
        *extra,
    ]
    if task.judgement == "pipeline-strategy":
        notes.append(
            "Strategy: judged from whichone's response text (comparable with the AQuA rows); "
            "self-reported: the strategy the pipeline itself stated."
            if judged_strategy(summary)
            else "Strategy: the pipeline's own stated strategy, as no judge was given; run with "
            "--judge rules or an LLM judge for the number comparable with the AQuA rows."
        )
    failed = summary.get("judge_errors") or {}
    if failed:
        notes.append(
            f"Judge failures: {sum(failed.values())} judgement(s) could not be made "
            f"({', '.join(f'{k}: {n}' for k, n in failed.items())}); they count as unknown above "
            "(`<judging>_error` in responses.jsonl)."
        )
    return f"### {title}\n\n" + md(header, rows) + "\n\n" + "\n".join(notes) + "\n"


def failure_line(records: Sequence[dict[str, Any]], n_examples: int) -> str | None:
    """ "3 of 20 examples failed: image unavailable" (None when nothing failed): how many examples had an
    item the model did not answer, and why, grouped by the kind of error each example's first failure
    had. It tells a fully cached rerun ("model calls: 0") from a run where nothing could be asked."""
    why: dict[str, str] = {}
    for r in records:
        error = r.get("error")
        if error:
            why.setdefault(f"{r.get('source')}/{r.get('split')}/{r.get('id')}", _error_kind(str(error)))
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


# ------------------------------------------------------------------------------------------ plots


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only; never a window (servers and tests have no display)
    import matplotlib.pyplot as plt

    return plt


def _save_png(plt, fig, path: Path) -> None:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=120)
    plt.close(fig)
    _atomic_write(path, buffer.getvalue())


def plot_class_bars(task: Task, summary: dict[str, Any], path: Path) -> Path | None:
    """Stacked horizontal bars of class shares, one bar per (model, prompt) — RAcQUEt Fig. 3 / Fig. 7."""
    plt = _pyplot()
    bars: list[tuple[str, list[float]]] = []
    if task.metrics == "racquet-classes":
        classes, names = (
            ["A", "B", "C", "unknown"],
            ["Explicit (A)", "Implicit (B)", "High risk (C)", "Unknown"],
        )
        for r in summary.get("results", []):
            m = r["metrics"]
            if m.get("n"):
                bars.append((f"{r['model']} ({r['label']})", [100.0 * (m.get(c) or 0.0) for c in classes]))
    else:
        classes = ["explicit", "stereotypical", "anti-stereotypical", "unknown"]
        names = ["Explicit", "Stereotypical", "Anti-stereotypical", "Unknown"]
        for r in summary.get("results", []):
            for category, m in r["metrics"].items():
                if m.get("n"):
                    bars.append((f"{r['model']} ({category})", [100.0 * (m.get(c) or 0.0) for c in classes]))
    if not bars:
        return None
    colours = ["#1b7837", "#fdb863", "#b2182b", "#bababa"]  # explicit green, implicit amber, risk red
    fig, ax = plt.subplots(figsize=(7.5, 0.6 * len(bars) + 1.4))
    for row, (_label, shares) in enumerate(bars):
        left = 0.0
        for share, colour, name in zip(shares, colours, names, strict=True):
            ax.barh(row, share, left=left, color=colour, edgecolor="white", label=name if row == 0 else None)
            if share >= 6:
                dark = colour in ("#1b7837", "#b2182b")  # white figures on the dark green and red
                ax.text(
                    left + share / 2,
                    row,
                    f"{share:.0f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if dark else "black",
                )
            left += share
    ax.set_yticks(range(len(bars)), [b[0] for b in bars])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of responses")
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.25 if len(bars) < 4 else -0.12),
        ncol=4,
        fontsize=8,
        frameon=False,
    )
    ax.set_title(task.reproduces, fontsize=9)
    fig.tight_layout()
    _save_png(plt, fig, path)
    return path


def plot_confusion(task: Task, summary: dict[str, Any], path: Path) -> Path | None:
    """One confusion matrix per (model, prompt), row-normalised, with counts — AQuA Fig. 5 style."""
    plt = _pyplot()
    import numpy as np

    panels = []
    for r in summary.get("results", []):
        conf = r["metrics"].get("confusion")
        if conf and r["metrics"].get("n"):
            panels.append(
                (
                    f"{r['model']} ({r['label']})",
                    np.asarray(conf, dtype=float),
                    r["metrics"].get("confusion_rows"),
                    r["metrics"].get("confusion_columns"),
                )
            )
    if not panels:
        return None
    cols = min(3, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.4 * rows), squeeze=False)
    for ax in axes.flat[len(panels) :]:
        ax.axis("off")
    for ax, (title, matrix, row_labels, col_labels) in zip(axes.flat, panels, strict=False):
        totals = matrix.sum(axis=1, keepdims=True)
        share = np.divide(matrix, totals, out=np.zeros_like(matrix), where=totals > 0)
        ax.imshow(share, cmap="Blues", vmin=0, vmax=1)
        for (i, j), count in np.ndenumerate(matrix):
            ax.text(
                j,
                i,
                f"{int(count)}",
                ha="center",
                va="center",
                color="white" if share[i, j] > 0.5 else "black",
                fontsize=8,
            )
        row_labels = row_labels or [str(i) for i in range(matrix.shape[0])]
        col_labels = col_labels or [str(j) for j in range(matrix.shape[1])]
        ax.set_xticks(range(len(col_labels)), col_labels, fontsize=8)
        ax.set_yticks(range(len(row_labels)), row_labels, fontsize=8)
        ax.set_xlabel("predicted", fontsize=8)
        ax.set_ylabel("gold", fontsize=8)
        ax.set_title(title, fontsize=9)
    fig.suptitle(f"{task.name}: {task.reproduces}", fontsize=10)
    fig.tight_layout()
    _save_png(plt, fig, path)
    return path


# ------------------------------------------------------------------------------------------ all files


def write_report(
    out_dir: Path,
    task: Task,
    records: Sequence[dict[str, Any]],
    summary: dict[str, Any],
    run_info: dict[str, Any],
) -> dict[str, Path]:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {
        "responses": out_dir / "responses.jsonl",
        "summary": out_dir / "summary.json",
        "table": out_dir / "table.md",
    }
    write_jsonl(files["responses"], records)
    write_json(files["summary"], {**summary, "run": run_info})
    _atomic_write(files["table"], markdown_table(task, _clean(summary)).encode("utf-8"))
    clean = _clean(summary)
    if "class-bars" in task.plots:
        made = plot_class_bars(task, clean, out_dir / "classes.png")
        if made:
            files["classes_plot"] = made
    if "confusion" in task.plots:
        made = plot_confusion(task, clean, out_dir / "confusion.png")
        if made:
            files["confusion_plot"] = made
    return files
