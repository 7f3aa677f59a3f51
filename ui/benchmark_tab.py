"""The Benchmark tab: pick a task, model, judge and limit; run it with a progress bar; read the paper-style
table and plot; or open a finished run from its folder. Then slice it (ui/bench_slices.py), page through
the slice's examples (image with regions, question, response, judgement, gold), compare it with a second
run, keep a label, export the slice (ui/bench_inspect.py).

Runs go through their own queue group ("benchmark", one run at a time), so a long run does not take the
Ask tab's GPU slots; the pooled model still serves one generate at a time, so an Ask request waits for at
most one benchmark batch (ui/bench_handlers.UI_BATCH_SIZE).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from assistant.evaluation.datasets import dataset_specs
from assistant.evaluation.tasks import Task, all_tasks
from models.catalog import NO_SEGMENTER
from models.registry import list_models
from models.spec import ModelKind
from ui import bench_inspect as inspect
from ui.bench_handlers import BenchmarkHandlers, session_dir
from ui.bench_inspect import N_VIEW_OUTPUTS, status_html
from ui.bench_slices import ALL
from ui.engine import ModelPool, choice_from_env
from ui.public import public_mode
from ui.state import STATE_TTL_S

INTRO = (
    "Run one of the papers' benchmarks on a model and see the paper's table. Runs are cached: running the "
    "same again asks no model. Give a local copy of the dataset in *Data* (a file or folder), leave it "
    "empty to use the published one (downloaded once into the cache, where the authors publish a link), or "
    "type *sample* for the bundled sample: 5 photos in each dataset's layout, not the paper's data, which "
    "is also what runs when the published data cannot be had (offline)."
)


def _choices(kind: ModelKind) -> list[tuple[str, str]]:
    return [(f"{s.name}: {s.description}", s.name) for s in list_models(kind)]


def _model_choices(task: Task) -> list[tuple[str, str]]:
    """VLMs; for a kind whose --model names a pointer, the pointers that stand alone (the vlm-* pointers
    need an answering VLM)."""
    if task.kind.model_role == "pointer":
        return [c for c in _choices("pointer") if not c[1].startswith("vlm-")]
    return _choices("vlm")


def _default_model(task: Task) -> str:
    choice = choice_from_env()
    if task.kind.model_role == "pointer":
        return choice.pointer if not choice.pointer.startswith("vlm-") else "blobs"
    return choice.vlm


def _judge_choices() -> list[tuple[str, str]]:
    return [
        ("rules: the rule-based judge (fast, no model; abstains where its learned gate doubts it)", "rules"),
        ("rules-ungated: the rules as written, without the gate (for comparison)", "rules-ungated"),
        ("none: no judge (tasks that need none)", "none"),
        *[(f"{label} (as an LLM judge)", name) for label, name in _choices("vlm")],
    ]


def _task_info(task: Task) -> str:
    dataset = dataset_specs()[task.dataset]
    return (
        f"**{task.name}** — {task.description}. Reproduces {task.reproduces}. "
        f"Dataset: {dataset.name} ({dataset.homepage})."
    )


def on_task(name: str) -> tuple[Any, ...]:
    """The task changed: its models, default judge, prompts and options."""
    tasks = all_tasks()
    task = tasks.get(name) or next(iter(tasks.values()))
    needs_judge = task.default_judge != "none"
    return (
        _task_info(task),
        gr.update(choices=_model_choices(task), value=_default_model(task)),
        gr.update(value=task.default_judge, interactive=needs_judge),
        gr.update(choices=[(v.label, v.name) for v in task.variants], value=[v.name for v in task.variants]),
        gr.update(visible=task.kind.uses_segmenter),
        gr.update(visible=task.uses_pointer),
    )


@dataclass
class RunForm:
    """What a run is made of, and its button and status line."""

    task: gr.Dropdown
    model: gr.Dropdown
    judge: gr.Dropdown
    task_info: gr.Markdown
    data: gr.Textbox
    limit: gr.Number
    variants: gr.CheckboxGroup
    max_new: gr.Number
    seed: gr.Number
    segmenter: gr.Dropdown
    pointer: gr.Dropdown
    run_btn: gr.Button
    status: gr.HTML

    @property
    def inputs(self) -> list[Any]:
        return [
            self.task,
            self.model,
            self.judge,
            self.limit,
            self.data,
            self.variants,
            self.max_new,
            self.seed,
            self.segmenter,
            self.pointer,
        ]


@dataclass
class Results:
    """The paper-style table, its plot with the plot's text twin, and the run's files."""

    table: gr.Markdown
    plot: gr.Image
    plot_text: gr.Markdown
    files: gr.File


@dataclass
class Finder:
    """Opening a finished run, and a second one to compare with."""

    recent: gr.Radio
    folder: gr.Textbox
    open_btn: gr.Button
    refresh_btn: gr.Button
    other: gr.Textbox
    compare_btn: gr.Button


@dataclass
class Browser:
    """The slice controls and one example's page."""

    slices: gr.HTML
    pick: gr.Textbox
    outcome: gr.Radio
    gold: gr.Radio
    judged: gr.Radio
    variant: gr.Radio
    model_slice: gr.Radio
    word: gr.Textbox
    unknown: gr.Checkbox
    disagree: gr.Checkbox
    prev_btn: gr.Button
    next_btn: gr.Button
    export_btn: gr.Button
    position: gr.Slider
    where: gr.HTML
    picture: gr.Image
    picture_b: gr.Image
    details: gr.HTML
    label: gr.Radio
    mark_btn: gr.Button
    kept: gr.HTML
    slice_files: gr.File

    @property
    def controls(self) -> list[Any]:
        """What a slice is chosen by."""
        return [
            self.outcome,
            self.gold,
            self.judged,
            self.variant,
            self.model_slice,
            self.unknown,
            self.word,
            self.disagree,
        ]

    @property
    def page(self) -> list[Any]:
        """One example's outputs."""
        return [self.position, self.where, self.picture, self.picture_b, self.details, self.label]

    @property
    def below(self) -> list[Any]:
        """Everything a new view of a run sets (ui/bench_inspect.N_VIEW_OUTPUTS, in this order)."""
        return [
            *self.controls,
            self.slices,
            self.prev_btn,
            self.next_btn,
            self.mark_btn,
            self.export_btn,
            *self.page,
        ]


def build_benchmark_tab(pool: ModelPool) -> dict[str, Any]:
    """Lay out the tab (inside the gr.Tab the app opens) and wire its events."""
    tasks = all_tasks()
    # shown first: the first task that needs no judge (the quickest to try)
    first = next((t for t in tasks.values() if t.default_judge == "none"), next(iter(tasks.values())))
    view = gr.State(None, time_to_live=STATE_TTL_S)  # the last run's records, freed with the session
    gr.Markdown(INTRO)
    form = _run_form(tasks, first)
    results = _results()
    finder = _finder(public_mode())
    browser = _browser()
    assert len(browser.below) == N_VIEW_OUTPUTS
    browse = inspect.InspectHandlers(session_dir)
    _wire_run(form, results, finder, browser, view, BenchmarkHandlers(pool), browse)
    _wire_browse(form, results, finder, browser, view, browse)
    return {"status": form.status, "table": results.table, "view": view}


def _run_form(tasks: dict[str, Task], first: Task) -> RunForm:
    task, model, judge = _what_to_run(tasks, first)
    task_info = gr.Markdown(_task_info(first), elem_id="wh-bench-task-info")
    with gr.Row():
        data = gr.Textbox(
            label="Data: a local dataset file or folder (or a URL), or sample",
            placeholder="empty: the published dataset (the bundled sample when it cannot be had)",
            max_lines=1,
            elem_id="wh-bench-data",
        )
        limit = gr.Number(
            value=20,
            precision=0,
            minimum=0,
            label="Limit: examples to run (0: all)",
            elem_id="wh-bench-limit",
        )
    variants, max_new, seed, segmenter, pointer = _more_options(first)
    run_btn = gr.Button("Run benchmark", variant="primary", elem_id="wh-bench-run")
    status = gr.HTML(
        status_html("Choose a task and press Run benchmark."), js_on_load=None, elem_id="wh-bench-status"
    )
    return RunForm(
        task, model, judge, task_info, data, limit, variants, max_new, seed, segmenter, pointer, run_btn,
        status,
    )  # fmt: skip


def _what_to_run(tasks: dict[str, Task], first: Task) -> tuple[gr.Dropdown, gr.Dropdown, gr.Dropdown]:
    """The task, model and judge row."""
    with gr.Row():
        task = gr.Dropdown(
            [(f"{t.name} ({t.reproduces})", t.name) for t in tasks.values()],
            value=first.name,
            label="Task",
            elem_id="wh-bench-task",
        )
        model = gr.Dropdown(
            _model_choices(first),
            value=_default_model(first),
            label="Model",
            allow_custom_value=True,  # a name the registry lacks gets the registry's own one-line message
            elem_id="wh-bench-model",
        )
        judge = gr.Dropdown(
            _judge_choices(),
            value=first.default_judge,
            interactive=first.default_judge != "none",
            label="Judge",
            allow_custom_value=True,
            elem_id="wh-bench-judge",
        )
    return task, model, judge


def _more_options(first: Task) -> tuple[Any, ...]:
    """The "More options" accordion: prompts, max new tokens, seed, segmenter and pointer."""
    env = choice_from_env()
    with gr.Accordion("More options", open=False, elem_id="wh-bench-more"):
        variants = gr.CheckboxGroup(
            [(v.label, v.name) for v in first.variants],
            value=[v.name for v in first.variants],
            label="Prompts",
            elem_id="wh-bench-variants",
        )
        with gr.Row():
            max_new = gr.Number(
                value=0,
                precision=0,
                minimum=0,
                label="Max new tokens (0: the task's)",
                elem_id="wh-bench-tokens",
            )
            seed = gr.Number(
                value=0,
                precision=0,
                minimum=0,
                label="Seed (which examples a limit picks)",
                elem_id="wh-bench-seed",
            )
            segmenter = gr.Dropdown(
                [("none: boxes only", NO_SEGMENTER), *_choices("segmenter")],
                value=env.segmenter or NO_SEGMENTER,
                label="Segmenter (localisation)",
                visible=first.kind.uses_segmenter,
            )
            pointer = gr.Dropdown(
                _choices("pointer"),
                value=env.pointer,
                label="Pointer (whichone's pipeline; saliency: response -> box)",
                visible=first.uses_pointer,
            )
    return variants, max_new, seed, segmenter, pointer


def _results() -> Results:
    gr.Markdown("## Results")
    table = gr.Markdown("No run yet.", elem_id="wh-bench-table")
    with gr.Row(equal_height=False):
        plot = gr.Image(
            label="Plot",
            type="filepath",
            interactive=False,
            visible=False,
            format="png",
            elem_id="wh-bench-plot",
        )
        plot_text = gr.Markdown(visible=False, elem_id="wh-bench-plot-text")
    files = gr.File(
        label="Run files", file_count="multiple", interactive=False, visible=False, elem_id="wh-bench-files"
    )
    return Results(table, plot, plot_text, files)


def _finder(public: bool) -> Finder:
    gr.Markdown("## Open a finished run")
    with gr.Row(equal_height=False):
        recent = gr.Radio(
            inspect.recent_choices(inspect.run_roots(session_dir(None))) if not public else [],
            label="Recent runs (choosing one puts its folder in Run folder)",
            elem_id="wh-bench-recent",
        )
    with gr.Row():
        folder = gr.Textbox(
            label="Run folder (with responses.jsonl and summary.json)",
            max_lines=1,
            elem_id="wh-bench-folder",
        )
        open_btn = gr.Button("Open run", elem_id="wh-bench-open", scale=0)
        refresh_btn = gr.Button("Refresh recent runs", elem_id="wh-bench-refresh", scale=0)
    with gr.Row():
        other = gr.Textbox(
            label="Compare with: another run folder of the same task",
            max_lines=1,
            elem_id="wh-bench-other",
        )
        compare_btn = gr.Button("Compare", elem_id="wh-bench-compare", scale=0)
    return Finder(recent, folder, open_btn, refresh_btn, other, compare_btn)


def _browser() -> Browser:
    gr.Markdown("## Examples")
    # Nothing to browse before a run: the controls are disabled (and skipped by Tab) until one has examples.
    slices, pick, outcome, gold, judged, variant, model_slice, word, unknown, disagree = _slice_controls()
    with gr.Row():
        prev_btn = gr.Button("Previous example", elem_id="wh-bench-prev", scale=0, interactive=False)
        next_btn = gr.Button("Next example", elem_id="wh-bench-next", scale=0, interactive=False)
        export_btn = gr.Button("Export this slice", elem_id="wh-bench-export", scale=0, interactive=False)
    position = gr.Slider(
        1, 2, value=1, step=1, label="Example number", interactive=False, elem_id="wh-bench-index"
    )
    where = gr.HTML(
        status_html("Run a task or open a run to see its examples."),
        js_on_load=None,
        elem_id="wh-bench-position",
    )
    picture, picture_b = _pictures()
    details = gr.HTML("", js_on_load=None, elem_id="wh-bench-details")
    with gr.Row(equal_height=False):
        label = gr.Radio([], label="Your label", elem_id="wh-bench-label", interactive=False)
        mark_btn = gr.Button("Keep my label", elem_id="wh-bench-mark", scale=0, interactive=False)
    kept = gr.HTML("", js_on_load=None, elem_id="wh-bench-kept")
    slice_files = gr.File(
        label="Slice files",
        file_count="multiple",
        interactive=False,
        visible=False,
        elem_id="wh-bench-slice-files",
    )
    return Browser(
        slices, pick, outcome, gold, judged, variant, model_slice, word, unknown, disagree, prev_btn,
        next_btn, export_btn, position, where, picture, picture_b, details, label, mark_btn, kept,
        slice_files,
    )  # fmt: skip


def _slice_controls() -> tuple[Any, ...]:
    """The slice table, and the outcome, label, prompt, model, word and unknown filters."""
    slices = gr.HTML("", js_on_load=None, elem_id="wh-bench-slices")
    pick = gr.Textbox(visible="hidden", elem_id="wh-bench-pick", label="Slice picked")
    with gr.Row(equal_height=False):
        outcome = gr.Radio([ALL], value=ALL, label="Outcome", elem_id="wh-bench-outcome", interactive=False)
        gold = gr.Radio([ALL], value=ALL, label="Gold label", elem_id="wh-bench-gold", interactive=False)
        judged = gr.Radio(
            [ALL], value=ALL, label="Judged label", elem_id="wh-bench-judged", interactive=False
        )
    with gr.Row(equal_height=False):
        variant = gr.Radio([ALL], value=ALL, label="Prompt", elem_id="wh-bench-prompt", interactive=False)
        model_slice = gr.Radio(
            [ALL], value=ALL, label="Model", elem_id="wh-bench-model-slice", interactive=False
        )
    with gr.Row():
        word = gr.Textbox(
            label="Word in the question or the reply",
            max_lines=1,
            elem_id="wh-bench-word",
            interactive=False,
        )
        unknown = gr.Checkbox(
            value=False, label="Only a judgement unknown", elem_id="wh-bench-unknown", interactive=False
        )
        disagree = gr.Checkbox(
            value=False, label="Only where the runs differ", elem_id="wh-bench-differ", visible=False
        )
    return slices, pick, outcome, gold, judged, variant, model_slice, word, unknown, disagree


def _pictures() -> tuple[gr.Image, gr.Image]:
    """The example's picture, and the compared run's beside it where its kind compares pictures."""
    with gr.Row(equal_height=False):
        picture = gr.Image(
            label="Example image",
            type="pil",
            interactive=False,
            visible=False,
            format="png",
            elem_id="wh-bench-image",
        )
        picture_b = gr.Image(
            label="Regions of the compared run",
            type="pil",
            interactive=False,
            visible=False,
            format="png",
            elem_id="wh-bench-image-b",
        )
    return picture, picture_b


def _head(form: RunForm, results: Results, view: gr.State) -> list[Any]:
    """A new run's (or opened run's) status, table, plot, its text twin, files and view."""
    return [form.status, results.table, results.plot, results.plot_text, results.files, view]


def _wire_run(
    form: RunForm,
    results: Results,
    finder: Finder,
    browser: Browser,
    view: gr.State,
    run: BenchmarkHandlers,
    browse: inspect.InspectHandlers,
) -> None:
    """Choosing a task, and running it."""
    form.task.change(
        on_task,
        [form.task],
        [form.task_info, form.model, form.judge, form.variants, form.segmenter, form.pointer],
        api_name="ui_bench_task",
        api_visibility="private",
    )
    form.run_btn.click(
        run.run,
        form.inputs,
        [*_head(form, results, view), *browser.below],
        api_name="ui_bench_run",
        api_visibility="private",
        concurrency_id="benchmark",
        concurrency_limit=1,
    ).then(browse.recent, None, [finder.recent], api_visibility="private")


def _wire_browse(
    form: RunForm,
    results: Results,
    finder: Finder,
    browser: Browser,
    view: gr.State,
    browse: inspect.InspectHandlers,
) -> None:
    """Opening and comparing runs, slicing, paging, keeping a label, exporting."""
    b = browser
    finder.recent.input(
        lambda path: path or gr.skip(), [finder.recent], [finder.folder], api_visibility="private"
    )
    finder.refresh_btn.click(browse.recent, None, [finder.recent], api_visibility="private")
    gr.on(
        [finder.open_btn.click, finder.folder.submit],
        browse.open_run,
        [finder.folder],
        [*_head(form, results, view), *b.below],
        api_name="ui_bench_open",
        api_visibility="private",
    )
    gr.on(
        [finder.compare_btn.click, finder.other.submit],
        browse.compare,
        [finder.other, view],
        [form.status, view, *b.below],
        api_name="ui_bench_compare",
        api_visibility="private",
    )
    _wire_slicing(b, view, browse)


def _wire_slicing(b: Browser, view: gr.State, browse: inspect.InspectHandlers) -> None:
    """Paging through a slice, choosing one, keeping a label, exporting it."""
    sliced = [*b.controls, view]
    b.position.input(
        browse.show,
        [b.position, *sliced],
        b.page,
        api_name="ui_bench_show",
        api_visibility="private",
        trigger_mode="always_last",
    )
    gr.on(
        [
            *(r.input for r in (b.outcome, b.gold, b.judged, b.variant, b.model_slice)),
            b.unknown.input,
            b.disagree.input,
            b.word.submit,
        ],
        browse.reslice,
        sliced,
        b.page,
        api_name="ui_bench_slice",
        api_visibility="private",
        trigger_mode="always_last",
    )
    b.pick.change(browse.pick, [b.pick, view], b.below, api_name="ui_bench_pick", api_visibility="private")
    b.prev_btn.click(
        lambda *v: browse.step(-1, *v),
        [b.position, *sliced],
        b.page,
        api_name="ui_bench_prev",
        api_visibility="private",
    )
    b.next_btn.click(
        lambda *v: browse.step(1, *v),
        [b.position, *sliced],
        b.page,
        api_name="ui_bench_next",
        api_visibility="private",
    )
    b.mark_btn.click(
        browse.keep_label,
        [b.label, b.position, *sliced],
        [b.kept],
        api_name="ui_bench_mark",
        api_visibility="private",
    )
    b.export_btn.click(
        browse.export_slice,
        sliced,
        [b.slice_files, b.kept],
        api_name="ui_bench_export",
        api_visibility="private",
    )
