"""The Benchmark tab's inspection: open a finished run, slice it, page through it, compare it with another
run of the same task, export a slice and keep a person's label for a judgement.

Every handler takes the session's `BenchView` (gr.State) and returns a new one where it changes. A run is
opened from its folder (responses.jsonl + summary.json, made by the CLI, the tab or another machine) without
asking any model; its examples' images and gold regions come from the dataset the run names, and where
that cannot be had the records are shown as text. On a public demo a visitor opens only the runs of their
own session, and keeps no labels (the demo's disk is not theirs).
"""

from __future__ import annotations

import json
import logging
import secrets
import shutil
import time
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any

import gradio as gr

from assistant.errors import WhichoneError
from assistant.evaluation.fetch import default_cache_dir
from assistant.evaluation.report import markdown_table
from assistant.evaluation.runs import Run, Slice, export, find_runs, mark
from assistant.evaluation.schema import Example
from assistant.evaluation.tasks import get_task
from assistant.validation import finite_number
from ui.bench_browser import BenchView, example_html, example_picture, position_line
from ui.bench_results import confusion_markdown, plot_alt_text
from ui.bench_slices import ALL, SLICE_FIELDS, choices, read_pick, slice_of, slices_html
from ui.privacy import temp_root
from ui.public import public_mode
from ui.state import drop_folders, own_folder

log = logging.getLogger(__name__)

PLOT_LABELS = {
    "classes_plot": "Response classes per model and prompt",
    "confusion_plot": "Confusion matrices",
}
PLOT_FILES = {"classes_plot": "classes.png", "confusion_plot": "confusion.png"}
RUN_FILES = ("responses.jsonl", "summary.json", "table.md", "classes.png", "confusion.png", "labels.jsonl")
EXPORT_PREFIX = "bench-slice-"  # a session's exported slices, in Gradio's temp folder
SERVED_PREFIX = "bench-files-"  # a session's served copies of its run's files, in the same
N_VIEW_OUTPUTS = 19  # view_outputs' length: the tab wires the same components in the same order


def status_html(text: str, error: bool = False) -> str:
    """A polite live region (screen readers announce it); errors start with "Error:"."""
    line = f"Error: {text}" if error else text
    return f'<div role="status" aria-live="polite" class="wh-status">{escape(line)}</div>'


# ------------------------------------------------------------------------------------------ finding runs


def run_roots(session_folder: Path) -> list[Path]:
    """Where the tab looks for finished runs: on a public demo the session's own folder only; otherwise
    the cache's benchmark folder (the tab's and the CLI's cached runs) and ./runs (the CLI's default)."""
    if public_mode():
        return [session_folder]
    return [default_cache_dir() / "bench", Path("runs")]


def recent_choices(roots: Sequence[Path]) -> list[tuple[str, str]]:
    """The finished runs under `roots`, newest first, as ("task, models, N records, when (folder)", path):
    read from each summary.json and a count of responses.jsonl's lines, not from every record (the list is
    made when the page is built)."""
    out = []
    for folder in find_runs(roots):
        try:
            summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
            with (folder / "responses.jsonl").open("rb") as handle:
                n_records = sum(1 for line in handle if line.strip())
            task = get_task(str(summary.get("task"))).name
        except (OSError, ValueError, KeyError, AttributeError):  # unreadable, or no known task: not listed
            continue
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime((folder / "summary.json").stat().st_mtime))
        models = ", ".join(sorted(summary.get("models") or [])) or "no model"
        shown = folder.name if public_mode() else folder
        out.append((f"{task}, {models}, {n_records} records, {when} ({shown})", str(folder)))
    return out


def checked_folder(text: str, session_folder: Path) -> Path:
    """The run folder a person typed; on a public demo only one inside the session's own folder."""
    text = (text or "").strip()
    if not text:
        raise WhichoneError("give a run folder (with responses.jsonl and summary.json), or pick a recent run")
    folder = Path(text).expanduser()
    if public_mode():
        try:
            folder.resolve().relative_to(session_folder.resolve())
        except ValueError:
            raise WhichoneError("this public demo opens only the runs made in this browser session") from None
    return folder


def examples_of(run: Run) -> tuple[dict[str, Example], str]:
    """The run's examples (images, gold regions), and a note for the status when they cannot be had (the
    records are then shown as text)."""
    examples, note = run.examples()
    if note:
        log.warning("benchmark examples not reloaded: %s", note)
        return examples, f"Its images cannot be shown: {note}; the records are shown as text."
    return examples, ""


# ------------------------------------------------------------------------------------------ results


def results_outputs(view: BenchView, request: gr.Request | None) -> tuple[Any, ...]:
    """(table, plot, plot text, files) of the run in `view`, from its folder's files."""
    run = view.run
    summary = run.summary_of_results()
    present = {name: run.folder / name for name in RUN_FILES if (run.folder / name).is_file()}
    served = served_copies(present, request, prefix=SERVED_PREFIX)
    plot: Any = gr.update(value=None, visible=False)
    plot_text: Any = gr.update(value="", visible=False)
    for key, name in PLOT_FILES.items():
        if name in served:
            alt = plot_alt_text(run.task, summary, key)
            plot = gr.update(value=str(served[name]), alt_text=alt, label=PLOT_LABELS[key], visible=True)
            if key == "confusion_plot":
                text = "#### Confusion matrices as text\n\n" + confusion_markdown(run.task, summary)
            else:
                text = "The table above gives the plot's numbers."
            plot_text = gr.update(value=text, visible=True)
            break
    files = gr.update(value=[str(p) for p in served.values()], visible=bool(served))
    return markdown_table(run.task, summary), plot, plot_text, files


def served_copies(files: dict[str, Path], request: gr.Request | None, prefix: str) -> dict[str, Path]:
    """Copies of `files` in a new folder of Gradio's temp folder (which Gradio serves; it refuses files
    under ~/.cache); the session's previous copies with this prefix are deleted, these go with the session."""
    drop_folders(request, prefix=prefix)
    folder = temp_root() / f"{prefix}{secrets.token_hex(8)}"
    folder.mkdir(parents=True)
    own_folder(request, folder)
    out = {}
    for key, path in files.items():
        target = folder / path.name
        if target.exists():  # two files of one name: the key tells them apart
            target = folder / f"{key}-{path.name}"
        shutil.copyfile(path, target)
        out[key] = target
    return out


# ------------------------------------------------------------------------------------------ the browser


def view_outputs(view: BenchView | None, chosen: Slice | None = None, position: int = 1) -> tuple[Any, ...]:
    """Everything below the results for `view`: the slice controls (8), the slices panel, Previous / Next,
    Keep my label, Export (1 each) and the page (6); `chosen` sets the controls (default: all)."""
    if view is None:
        return (*[gr.skip()] * N_VIEW_OUTPUTS,)
    chosen = chosen or Slice()
    options = choices(view)
    controls = [
        gr.update(choices=options[name], value=getattr(chosen, name) or ALL, interactive=True)
        for name in SLICE_FIELDS
    ]
    controls += [
        gr.update(value=chosen.unknown, interactive=True),
        gr.update(value=chosen.word or "", interactive=True),
        gr.update(value=False, visible=view.other is not None, interactive=True),
    ]
    enabled = gr.update(interactive=True)
    return (
        *controls,
        slices_html(view),
        enabled,
        enabled,
        gr.update(interactive=bool(view.run.labels()) and not public_mode()),
        enabled,
        *page(view, position, chosen, False),
    )


def page(view: BenchView | None, position: object, chosen: Slice, disagree: bool) -> tuple[Any, ...]:
    """(slider, position line, picture, second run's picture, details, label radio) for the position-th
    shown example (1-based)."""
    if view is None:
        return (
            gr.skip(),
            status_html("Run a task or open a run to see its examples."),
            gr.update(value=None, visible=False),
            gr.update(value=None, visible=False),
            "",
            gr.skip(),
        )
    shown = view.shown(chosen, bool(disagree))
    count = len(shown)
    number = min(max(int(finite_number(position) or 1), 1), max(count, 1))
    # Gradio needs minimum < maximum: one example is shown on a 1-2 scale that cannot be moved
    slider = gr.update(value=number, maximum=max(count, 2), interactive=count > 1)
    line = status_html(position_line(view, number, chosen, bool(disagree)))
    hidden = gr.update(value=None, visible=False)
    if not shown:
        return slider, line, hidden, hidden, "", gr.update(value=None, interactive=False)
    index = shown[number - 1]
    record = view.records[index]
    other = view.other.records[view.partner[index]] if view.other is not None else None
    pictures: list[Any] = []
    error = None
    drawn = [record] if other is None or not view.task.kind.compares_pictures else [record, other]
    for which, shown_record in zip(("this run", "the compared run"), drawn, strict=False):
        try:
            picture, alt = example_picture(view, shown_record)
        except (WhichoneError, OSError) as exc:
            pictures.append(hidden)
            error = f"cannot be shown: {exc}"
        else:
            label = "Example image" if len(drawn) == 1 else f"Regions of {which} ({shown_record.model})"
            prefix = "" if len(drawn) == 1 else f"Regions of {which} ({shown_record.model}). "
            pictures.append(gr.update(value=picture, alt_text=prefix + alt, label=label, visible=True))
    while len(pictures) < 2:
        pictures.append(hidden)
    details = example_html(view, index, picture_error=error)
    labels = view.run.labels()
    judged = view.run.judged[index]
    can_label = bool(labels) and record.answered and not public_mode()
    label_radio = gr.update(
        choices=list(labels),
        value=None,
        interactive=can_label,
        label=f"Your label for this response (the judge said {judged})" if judged else "Your label",
    )
    return slider, line, pictures[0], pictures[1], details, label_radio


class InspectHandlers:
    """The events of the tab's "Open a run" and "Examples" parts."""

    def __init__(self, session_folder: Callable[[gr.Request | None], Path]) -> None:
        self.session_folder = session_folder  # request -> this browser session's run folder

    def recent(self, request: gr.Request) -> Any:
        found = recent_choices(run_roots(self.session_folder(request)))
        return gr.update(choices=found, value=None, interactive=bool(found))

    def open_run(self, folder: str, request: gr.Request) -> tuple[Any, ...]:
        """(status, table, plot, plot text, files, view, *view_outputs) for the run in `folder`."""
        try:
            run = Run.open(checked_folder(folder, self.session_folder(request)))
            examples, note = examples_of(run)
        except WhichoneError as exc:
            return (status_html(str(exc), error=True), *[gr.skip()] * (5 + N_VIEW_OUTPUTS))
        view = BenchView.of_run(run, examples)
        models = ", ".join(sorted({r.model for r in run.records})) or "no model"
        line = (
            f"Opened the run in {run.folder if not public_mode() else run.folder.name}: {run.task.name} with "
            f"{models}, {len(run.records)} answers, data {run.summary.get('data', 'published')}. "
            "No model was asked."
        )
        if note:
            line += " " + note
        return (status_html(line), *results_outputs(view, request), view, *view_outputs(view))

    def compare(self, folder: str, view: BenchView | None, request: gr.Request) -> tuple[Any, ...]:
        """(status, view, *view_outputs) with the run in `folder` beside the one shown."""
        skip = (*[gr.skip()] * (1 + N_VIEW_OUTPUTS),)
        if view is None:
            return (status_html("run a task or open a run first, then compare it", error=True), *skip)
        try:
            other = Run.open(checked_folder(folder, self.session_folder(request)))
            if other.folder.resolve() == view.run.folder.resolve():
                raise WhichoneError("that is the run shown; give another run of the same task")
            compared = view.compared_with(other)
        except WhichoneError as exc:
            return (status_html(str(exc), error=True), *skip)
        differ = len(compared.differ)
        line = (
            f"Compared with {other.folder if not public_mode() else other.folder.name}: "
            f"{len(compared.partner)} records on the same example and prompt, judged differently on "
            f"{differ}. "
            "Tick 'Only where the runs differ' to see those."
        )
        return (status_html(line), compared, *view_outputs(compared))

    # ---------------------------------------------------------------- paging

    def show(self, position: object, *values: Any) -> tuple[Any, ...]:
        """Inputs: position, outcome, gold, judged, prompt, model, unknown, word, differ, view."""
        *controls, disagree, view = values
        return page(view, position, slice_of(*controls), disagree)

    def step(self, delta: int, position: object, *values: Any) -> tuple[Any, ...]:
        return self.show(int(finite_number(position) or 1) + delta, *values)

    def reslice(self, *values: Any) -> tuple[Any, ...]:
        """A slice control changed: back to the first example of the new slice."""
        return self.show(1, *values)

    def pick(self, text: str, view: BenchView | None) -> tuple[Any, ...]:
        """A slice button was pressed: set the controls to its slice and show its first example."""
        chosen = read_pick(text)
        if view is None or chosen is None:
            return (*[gr.skip()] * N_VIEW_OUTPUTS,)
        outputs = list(view_outputs(view, chosen))
        controls, rest = outputs[:8], outputs[8:]
        controls[7] = gr.update(value=False)  # a slice button shows the slice in full
        rest[0] = gr.skip()  # the panel stays as it is, so focus stays on the button pressed
        return (*controls, *rest)

    # ---------------------------------------------------------------- keeping and exporting

    def keep_label(self, label: str | None, position: object, *values: Any) -> str:
        """Keep a person's label for the shown record's response in the run's labels.jsonl."""
        *controls, disagree, view = values
        if public_mode():
            return status_html("this public demo keeps no labels; run whichone on your own machine", True)
        if view is None:
            return status_html("open a run first", error=True)
        if not label:
            return status_html("choose your label first, then press Keep my label", error=True)
        shown = view.shown(slice_of(*controls), bool(disagree))
        number = int(finite_number(position) or 1)
        if not 1 <= number <= len(shown):
            return status_html("there is no example here to label", error=True)
        record = view.records[shown[number - 1]]
        try:
            path = mark(view.run, record.id, str(label), variant=record.variant)
        except WhichoneError as exc:
            return status_html(str(exc), error=True)
        judged = view.run.judged[shown[number - 1]]
        verdict = "agrees with" if judged == label else "differs from"
        return status_html(
            f"Kept your label {label} for example {record.id} ({record.variant}); it {verdict} the judge's "
            f"{judged}. Measure a judge on your labels: "
            f"whichone judge-agreement --judge rules --labelled {path}"
        )

    def export_slice(
        self,
        outcome: str | None,
        gold: str | None,
        judged: str | None,
        variant: str | None,
        model: str | None,
        unknown: bool,
        word: str | None,
        disagree: bool,
        view: BenchView | None,
        request: gr.Request,
    ) -> tuple[Any, str]:
        """(files, status): the shown slice's records as CSV and JSON lines (with the images' sources)."""
        controls = (outcome, gold, judged, variant, model, unknown, word)
        if view is None:
            return gr.skip(), status_html("open a run first", error=True)
        chosen = slice_of(*controls)
        shown = view.shown(chosen, bool(disagree))
        rows = view.run.rows(shown)
        if view.other is not None:  # both runs' replies and labels, side by side
            for row, i in zip(rows, shown, strict=True):
                theirs = view.other.rows([view.partner[i]])[0]
                row.update({f"other_{k}": theirs[k] for k in ("model", "response", "judged", "outcome")})
        drop_folders(request, prefix=EXPORT_PREFIX)  # the session's previous export goes
        folder = temp_root() / f"{EXPORT_PREFIX}{secrets.token_hex(8)}"
        folder.mkdir(parents=True)
        own_folder(request, folder)
        stem = f"{view.task.name}-slice"
        written = [export(rows, folder / f"{stem}.csv"), export(rows, folder / f"{stem}.jsonl")]
        what = chosen.describe() if chosen != Slice() else "all records"
        return (
            gr.update(value=[str(p) for p in written], visible=True),
            status_html(f"Exported {len(rows)} records ({what}) as CSV and JSON lines: see Slice files."),
        )
