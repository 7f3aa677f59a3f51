"""`whichone bench run|list|fetch|show|compare|mark`: the papers' benchmarks on the command line, each
action its own subcommand with its own help.

`run TASK --model NAME` prints the paper-style table and where the files went, and how many calls reached
a model: a rerun of the same command is served from the response cache and says "model calls: 0"; a run
whose examples failed says how many and why on the same line ("model calls: 0 (cache hits: 0); 5 of 5
examples failed: image unavailable"). SIGTERM and Ctrl-C stop the run with a one-line note; the answers
already given are in the cache and the same command resumes. `fetch TASK` downloads a task's dataset and
images ahead of an offline run; `show`, `compare` and `mark` read finished runs.
"""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from assistant.errors import WhichoneError
from models.errors import ModelError

if TYPE_CHECKING:
    from assistant.evaluation.runner import RunConfig

SUBCOMMANDS = ("run", "list", "fetch", "show", "compare", "mark")


class BenchGroup(TyperGroup):
    """The bench group; `whichone bench TASK ...` (the form before subcommands) is told the new one."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if name and name not in SUBCOMMANDS and not name.startswith("-"):
            typer.echo(
                f"error: `whichone bench` has no subcommand {name!r}; run a task with: "
                f"whichone bench run {name} --model NAME (subcommands: {', '.join(SUBCOMMANDS)})",
                err=True,
            )
            raise typer.Exit(2)
        return super().resolve_command(ctx, args)


bench_app = typer.Typer(
    cls=BenchGroup,
    help="Run the papers' benchmarks (`whichone bench list`) on a model, and read the runs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: flags as flags, no box drawing for a screen reader to spell out
)


def _list_tasks() -> None:
    from assistant.evaluation.datasets import dataset_specs
    from assistant.evaluation.tasks import all_tasks

    specs = dataset_specs()
    for task in all_tasks().values():
        variants = ", ".join(v.name for v in task.variants)
        typer.echo(f"{task.name:24} {task.description}")
        typer.echo(
            f"{'':24} dataset {task.dataset} ({specs[task.dataset].homepage}); variants: {variants}; "
            f"judge: {task.default_judge}; reproduces {task.reproduces}"
        )


def _fetch(
    target: str, *, data: str | None, split: str | None, limit: int | None, seed: int, progress: bool
) -> None:
    """`whichone bench fetch TASK`: download the task's dataset and images ahead of an offline run."""
    from tqdm import tqdm

    from assistant.evaluation.prefetch import fetch_task
    from assistant.evaluation.runner import RunConfig

    config = RunConfig(task=target, models=[], data=data, split=split, limit=limit, seed=seed)
    bar = tqdm(desc=f"fetching {target}", unit="images", disable=not progress)

    def advance(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    try:
        report = fetch_task(config, advance)
    except KeyboardInterrupt:
        typer.echo("interrupted: what was fetched is cached; run the same command again to go on.", err=True)
        raise typer.Exit(130) from None
    except WhichoneError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    finally:
        bar.close()
    for note in report.notes:
        typer.echo(f"note: {note}")
    typer.echo(report.line())
    if not report.complete:
        raise typer.Exit(1)
    typer.echo("Everything this task reads is here: runs of it work offline (WHICHONE_OFFLINE=1).")


def _row_line(row: dict[str, object]) -> str:
    reply = str(row["response"] or row["error"]).replace("\n", " ")
    reply = reply if len(reply) <= 70 else reply[:67] + "..."
    return (
        f"  {row['id']} [{row['model']} / {row['variant']}] gold {row['gold'] or '-'}, judged "
        f"{row['judged'] or '-'}, {row['outcome']}: {reply}"
    )


def _show(folder: str, chosen: object, export_to: Path | None, rows: int) -> None:
    """`whichone bench show RUN [slice options]`: a finished run's slice, its counts and its records."""
    from assistant.evaluation.runs import Run, Slice, export

    assert isinstance(chosen, Slice)
    run = Run.open(folder)
    note = run.with_gold_from_dataset()
    if note:
        typer.echo(f"note: {note}")
    indices = run.slice(chosen)
    typer.echo(
        f"{run.task.name} run in {run.folder}: {len(run.records)} records; "
        f"{chosen.describe()}: {len(indices)}"
    )
    for name, counter in run.counts(indices).items():
        if counter:
            typer.echo(f"{name}: " + ", ".join(f"{k} {n}" for k, n in counter.most_common()))
    shown = run.rows(indices)
    for row in shown[:rows]:
        typer.echo(_row_line(row))
    if len(shown) > rows:
        typer.echo(f"  ... and {len(shown) - rows} more (--rows N, or --export FILE)")
    if export_to is not None:
        typer.echo(f"exported {len(shown)} records to {export(shown, export_to)}")


def _compare(first: str, second: str, export_to: Path | None, rows: int) -> None:
    """`whichone bench compare RUN_A RUN_B`: agreement of two runs' judgements on the same items."""
    from assistant.evaluation.runs import Run, compare, export

    a, b = Run.open(first), Run.open(second)
    for run in (a, b):
        note = run.with_gold_from_dataset()
        if note:
            typer.echo(f"note: {run.folder}: {note}")
    result = compare(a, b)
    for line in result.lines():
        typer.echo(line)
    differ = result.disagreements()
    paired = []
    for i, j in differ:
        ra, rb = a.rows([i])[0], b.rows([j])[0]
        paired.append({**{f"a_{k}": v for k, v in ra.items()}, **{f"b_{k}": v for k, v in rb.items()}})
    for i, j in differ[:rows]:
        typer.echo(f"differ: {a.records[i].id} [{a.records[i].variant}]")
        typer.echo("  A " + _row_line(a.rows([i])[0]).strip())
        typer.echo("  B " + _row_line(b.rows([j])[0]).strip())
    if len(differ) > rows:
        typer.echo(f"... and {len(differ) - rows} more (--rows N, or --export FILE)")
    if export_to is not None:
        typer.echo(f"exported {len(paired)} disagreements to {export(paired, export_to)}")


def _terminate(signum: int, frame: FrameType | None) -> None:
    # SIGTERM -> the same clean stop as Ctrl-C: the sqlite transaction in flight rolls back, nothing else
    # is lost, and the user is told how to resume.
    raise KeyboardInterrupt


TaskArgument = Annotated[str, typer.Argument(metavar="TASK", help="A task name (`whichone bench list`).")]
RunFolder = Annotated[str, typer.Argument(metavar="RUN", help="A run folder (its responses.jsonl).")]
Rows = Annotated[int, typer.Option(metavar="N", help="How many records to print.")]
Export = Annotated[
    Path | None, typer.Option(metavar="FILE", help="Write the records shown to a .csv or .jsonl file.")
]
Data = Annotated[
    str | None,
    typer.Option(
        metavar="PATH|URL|sample",
        help="Local dataset file/folder, a URL, or `sample` (the bundled sample; default: where the "
        "authors publish it).",
    ),
]
Split = Annotated[str | None, typer.Option(metavar="NAME", help="Dataset split (default: the task's).")]
Limit = Annotated[
    int | None, typer.Option(metavar="N", help="Use a seeded sample of N examples (default: all).")
]
Seed = Annotated[int, typer.Option(metavar="N", help="Seed for the sample and for generation.")]
Progress = Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")]


def _one_line_errors(func: Any) -> Any:
    """A WhichoneError or ModelError from a bench subcommand is one line on stderr and exit status 2."""
    from functools import wraps

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (WhichoneError, ModelError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None

    return wrapper


@bench_app.command("list")
def list_command() -> None:
    """List the tasks: what each reproduces, its dataset, prompt variants and default judge."""
    _list_tasks()


@bench_app.command("fetch")
def fetch_command(
    task: TaskArgument,
    data: Data = None,
    split: Split = None,
    limit: Limit = None,
    seed: Seed = 0,
    progress: Progress = True,
) -> None:
    """Download a task's dataset and images ahead of an offline run (a rerun fetches only what is missing)."""
    _fetch(task, data=data, split=split, limit=limit, seed=seed, progress=progress)


@bench_app.command("show")
@_one_line_errors
def show_command(
    run: RunFolder,
    model: Annotated[str | None, typer.Option(metavar="NAME", help="Only this model's records.")] = None,
    variant: Annotated[str | None, typer.Option(metavar="NAME", help="Only this prompt variant.")] = None,
    gold: Annotated[
        str | None, typer.Option(metavar="LABEL", help="Only records with this gold label.")
    ] = None,
    judged: Annotated[
        str | None,
        typer.Option(metavar="LABEL", help="Only records judged so (with --gold: a confusion cell)."),
    ] = None,
    outcome: Annotated[
        str | None, typer.Option(metavar="OUTCOME", help="Only records right, wrong, unjudged or error.")
    ] = None,
    unknown: Annotated[bool, typer.Option("--unknown", help="Only records a judging left unknown.")] = False,
    word: Annotated[
        str | None, typer.Option(metavar="WORD", help="A word in the question or the reply.")
    ] = None,
    export: Export = None,
    rows: Rows = 20,
) -> None:
    """A finished run's records: counts by outcome, judged and gold label, then the records, sliced by the
    options."""
    from assistant.evaluation.runs import Slice

    chosen = Slice(
        model=model, variant=variant, gold=gold, judged=judged, outcome=outcome, unknown=unknown, word=word
    )
    _show(run, chosen, export, rows)


@bench_app.command("compare")
@_one_line_errors
def compare_command(
    run_a: Annotated[str, typer.Argument(metavar="RUN_A", help="A run folder.")],
    run_b: Annotated[str, typer.Argument(metavar="RUN_B", help="Another run of the same task.")],
    export: Export = None,
    rows: Rows = 20,
) -> None:
    """Agreement of two runs' judgements on the same items, and the records where they differ."""
    _compare(run_a, run_b, export, rows)


@bench_app.command("mark")
@_one_line_errors
def mark_command(
    run: RunFolder,
    record_id: Annotated[str, typer.Argument(metavar="RECORD_ID", help="The record's id (`bench show`).")],
    label: Annotated[str, typer.Option(metavar="LABEL", help="The right label for the record's response.")],
    variant: Annotated[
        str | None, typer.Option(metavar="NAME", help="The record's prompt variant, if it has several.")
    ] = None,
    judging: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="Which judging the label is for (default: the task's main one)."),
    ] = None,
) -> None:
    """Keep a person's label for one record's response; measure a judge on the labels with
    `whichone judge-agreement`."""
    from assistant.evaluation.runs import Run, mark

    path = mark(Run.open(run), record_id, label, variant=variant, judging=judging)
    typer.echo(
        f"kept in {path}; measure a judge on it: whichone judge-agreement --judge rules --labelled {path}"
    )


# the options of `bench run` (beside the shared ones above)
ModelNames = Annotated[
    list[str] | None,
    typer.Option(
        metavar="NAME",
        help="Model registry name (repeat for several models); for a localisation task a pointer name.",
    ),
]
JudgeName = Annotated[
    str | None,
    typer.Option(
        metavar="NAME",
        help="`rules` (gated), `rules-ungated`, `rules+MODEL`, a VLM registry name (LLM judge) or `none`; "
        "default: the task's.",
    ),
]
OutDir = Annotated[Path | None, typer.Option(metavar="DIR", help="Output folder (default runs/TASK/MODEL).")]
VariantNames = Annotated[
    list[str] | None, typer.Option(metavar="NAME", help="Prompt variant(s) (default: all).")
]
BatchSize = Annotated[int, typer.Option(metavar="N", help="Conversations per batch for a local model.")]
Concurrency = Annotated[int, typer.Option(metavar="N", help="Requests in flight for a server model.")]
MaxNewTokens = Annotated[int | None, typer.Option(metavar="N", help="Override the task's reply length.")]
JudgeMaxNewTokens = Annotated[
    int | None,
    typer.Option(metavar="N", help="Override an LLM judge's reply length (default: per judging task)."),
]
CacheFile = Annotated[Path | None, typer.Option(metavar="FILE", help="Response cache (sqlite) path.")]
MaxUnknownRate = Annotated[
    float | None,
    typer.Option(
        metavar="RATE", help="Exit 1 when a judging's unknown share is over this (0-1; default: all unknown)."
    ),
]
MaxErrorRate = Annotated[
    float | None,
    typer.Option(
        metavar="RATE",
        help="Exit 1 when the share of failed items is over this (0-1; default: all failed).",
    ),
]
SegmenterName = Annotated[
    str,
    typer.Option(
        metavar="NAME", help="Localisation tasks: segmenter registry name, or `none` (box regions)."
    ),
]
PointerName = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="Pipeline tasks: the pipeline's pointer; saliency tasks: maps a response to a box.",
    ),
]


@bench_app.command("run")
def run_command(
    task: TaskArgument,
    model: ModelNames = None,
    judge: JudgeName = None,
    limit: Limit = None,
    out: OutDir = None,
    data: Data = None,
    split: Split = None,
    variant: VariantNames = None,
    seed: Seed = 0,
    batch_size: BatchSize = 8,
    concurrency: Concurrency = 8,
    max_new_tokens: MaxNewTokens = None,
    judge_max_new_tokens: JudgeMaxNewTokens = None,
    cache: CacheFile = None,
    max_unknown_rate: MaxUnknownRate = None,
    max_error_rate: MaxErrorRate = None,
    segmenter: SegmenterName = "sam-vit-b",
    pointer: PointerName = "vlm-boxes",
    progress: Progress = True,
) -> None:
    """Run benchmark TASK on a model and write responses.jsonl, summary.json, table.md and plots."""
    from assistant.evaluation.runner import RunConfig

    config = RunConfig(
        task=task,
        models=list(model or []),
        judge=judge,
        data=data,
        split=split,
        variants=list(variant or []),
        limit=limit,
        seed=seed,
        out_dir=out,
        cache_path=cache,
        batch_size=batch_size,
        concurrency=concurrency,
        max_new_tokens=max_new_tokens,
        judge_max_new_tokens=judge_max_new_tokens,
        segmenter=segmenter,
        pointer=pointer,
        progress=progress,
    )
    _run(config, (max_unknown_rate, max_error_rate))


def _run(config: RunConfig, limits: tuple[float | None, float | None] = (None, None)) -> None:
    """Run a task and print its table, counts and files; exit 130 when interrupted (the answers so far are
    cached), 2 on an error, 1 when every item failed."""
    from assistant.evaluation.runner import run_benchmark

    # signal handlers can only be set from the main thread (a UI thread calls the runner directly)
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if main else None
    try:
        result = run_benchmark(config)
    except KeyboardInterrupt:
        typer.echo(
            "interrupted: the answers so far are cached; run the same command again to resume.", err=True
        )
        raise typer.Exit(130) from None
    except (WhichoneError, ModelError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
    from assistant.evaluation.report import (
        all_failed,
        decided_by_line,
        failure_line,
        markdown_table,
        rate_limit_failures,
    )

    typer.echo(markdown_table(result.task, result.summary))
    decided = decided_by_line(result.summary)
    if decided:
        typer.echo(decided)
    errors = sum(1 for r in result.records if r.error)
    judge_errors = sum(result.summary.judge_errors.values())
    typer.echo(
        f"examples: {result.summary.n_examples}; items: {len(result.records)}; errors: {errors}"
        + (f"; judge errors: {judge_errors} (counted as unknown)" if judge_errors else "")
    )
    # "model calls: 0" alone reads like a fully cached rerun; a run whose examples failed says so, and why
    failed = failure_line(result.records, result.summary.n_examples)
    typer.echo(
        f"model calls: {result.model_calls} (cache hits: {result.cache_hits})"
        + (f"; {failed}" if failed else "")
    )
    for name, path in result.files.items():
        typer.echo(f"{name}: {path}")
    sys.stdout.flush()
    if all_failed(result.records):
        # not a result: a script or CI must not read the table above as one
        typer.echo(f"error: every item failed; {failed}. The run has no result.", err=True)
        raise typer.Exit(1)
    breached = rate_limit_failures(result.records, limits[0], limits[1])
    if breached:  # not a result a script may read as one: say why and exit non-zero
        typer.echo("error: " + "; ".join(breached), err=True)
        raise typer.Exit(1)
