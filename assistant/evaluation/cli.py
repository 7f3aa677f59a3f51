"""`whichone bench TASK --model NAME [--judge NAME] [--limit N] [--out DIR]`, `whichone bench list` and
`whichone bench fetch TASK` (its dataset and images, downloaded ahead of an offline run).

Prints the paper-style table and where the files went, and how many calls reached a model: a rerun of the
same command is served from the response cache and says "model calls: 0"; a run whose examples failed
says how many and why on the same line ("model calls: 0 (cache hits: 0); 5 of 5 examples failed: image
unavailable"). SIGTERM and Ctrl-C stop the run with a one-line note; the answers already given are in
the cache and the same command resumes.
"""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer

from assistant.errors import WhichoneError
from models.errors import ModelError

if TYPE_CHECKING:
    from assistant.evaluation.runner import RunConfig

bench_app = typer.Typer(
    help="Run the papers' benchmarks (RAcQUEt, VQ-FocusAmbiguity, AQuA, ClearVQA) on a model.",
    invoke_without_command=True,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # TASK comes first, options may follow it (a group stops at its first argument otherwise).
    context_settings={"allow_interspersed_args": True},
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
    target: str | None, *, data: str | None, split: str | None, limit: int | None, seed: int, progress: bool
) -> None:
    """`whichone bench fetch TASK`: download the task's dataset and images ahead of an offline run."""
    if not target:
        typer.echo("error: name the task to fetch: whichone bench fetch TASK", err=True)
        raise typer.Exit(2)
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


def _show(folder: str | None, chosen: object, export_to: Path | None, rows: int) -> None:
    """`whichone bench show RUN [slice options]`: a finished run's slice, its counts and its records."""
    from assistant.evaluation.runs import Run, Slice, export

    if not folder:
        raise WhichoneError("name the run folder: whichone bench show RUN")
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


def _compare(first: str | None, second: str | None, export_to: Path | None, rows: int) -> None:
    """`whichone bench compare RUN_A RUN_B`: agreement of two runs' judgements on the same items."""
    from assistant.evaluation.runs import Run, compare, export

    if not first or not second:
        raise WhichoneError("name two run folders: whichone bench compare RUN_A RUN_B")
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


@bench_app.callback()
def bench(
    task: Annotated[
        str, typer.Argument(help="Task name; `list` to list the tasks; `fetch` to download a task's data.")
    ],
    target: Annotated[
        str | None,
        typer.Argument(help="`fetch TASK`; `show RUN` (a run folder); `compare RUN_A RUN_B`."),
    ] = None,
    other: Annotated[str | None, typer.Argument(help="With `compare`: the second run folder.")] = None,
    model: Annotated[
        list[str] | None,
        typer.Option(
            help="Model registry name (repeat for several models); for a localisation task a pointer name."
        ),
    ] = None,
    judge: Annotated[
        str | None,
        typer.Option(help="`rules`, a VLM registry name (LLM judge) or `none`; default: the task's."),
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Use a seeded sample of N examples.")] = None,
    out: Annotated[Path | None, typer.Option(help="Output folder (default runs/TASK/MODEL).")] = None,
    data: Annotated[
        str | None,
        typer.Option(help="Local dataset file/folder or URL (default: where the authors publish it)."),
    ] = None,
    split: Annotated[str | None, typer.Option(help="Dataset split (default: the task's).")] = None,
    variant: Annotated[list[str] | None, typer.Option(help="Prompt variant(s) (default: all).")] = None,
    seed: Annotated[int, typer.Option(help="Seed for the sample and for generation.")] = 0,
    batch_size: Annotated[int, typer.Option(help="Conversations per batch for a local model.")] = 8,
    concurrency: Annotated[int, typer.Option(help="Requests in flight for a server model.")] = 8,
    max_new_tokens: Annotated[int | None, typer.Option(help="Override the task's reply length.")] = None,
    judge_max_new_tokens: Annotated[
        int | None, typer.Option(help="Override an LLM judge's reply length (default: per judging task).")
    ] = None,
    cache: Annotated[Path | None, typer.Option(help="Response cache (sqlite) path.")] = None,
    max_unknown_rate: Annotated[
        float | None,
        typer.Option(help="Exit 1 when a judging's unknown share is over this (0-1; default off)."),
    ] = None,
    max_error_rate: Annotated[
        float | None,
        typer.Option(help="Exit 1 when the share of failed items is over this (0-1; default: all failed)."),
    ] = None,
    segmenter: Annotated[
        str, typer.Option(help="Localisation tasks: segmenter registry name, or `none` (box regions).")
    ] = "sam-vit-b",
    pointer: Annotated[
        str,
        typer.Option(
            help="Pipeline tasks: the pipeline's pointer; saliency tasks: maps a response to a box."
        ),
    ] = "vlm-boxes",
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    gold: Annotated[str | None, typer.Option(help="show: only records with this gold label.")] = None,
    judged: Annotated[
        str | None, typer.Option(help="show: only records judged so (with --gold: a confusion cell).")
    ] = None,
    outcome: Annotated[str | None, typer.Option(help="show: right, wrong or error.")] = None,
    unknown: Annotated[bool, typer.Option(help="show: only records a judging left unknown.")] = False,
    word: Annotated[str | None, typer.Option(help="show: a word in the question or the reply.")] = None,
    export: Annotated[
        Path | None, typer.Option(help="show / compare: write the records shown to a .csv or .jsonl file.")
    ] = None,
    rows: Annotated[int, typer.Option(help="show / compare: how many records to print.")] = 20,
    label: Annotated[
        str | None, typer.Option(help="mark: the right label for the record's response.")
    ] = None,
    judging: Annotated[
        str | None, typer.Option(help="mark: which judging the label is for (default: the task's main one).")
    ] = None,
) -> None:
    """Run benchmark TASK on a model and write responses.jsonl, summary.json, table.md and plots."""
    if task == "list":
        _list_tasks()
        return
    if task == "fetch":
        _fetch(target, data=data, split=split, limit=limit, seed=seed, progress=progress)
        return
    if task == "mark":
        from assistant.evaluation.runs import Run, mark

        try:
            if not target or not other or not label:
                raise WhichoneError("mark a judgement: whichone bench mark RUN RECORD_ID --label LABEL")
            path = mark(
                Run.open(target), other, label, variant=variant[0] if variant else None, judging=judging
            )
        except WhichoneError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(
            f"kept in {path}; measure a judge on it: whichone judge-agreement --judge rules --labelled {path}"
        )
        return
    if task in ("show", "compare"):
        from assistant.evaluation.runs import Slice

        chosen = Slice(
            model=model[0] if model else None,
            variant=variant[0] if variant else None,
            gold=gold,
            judged=judged,
            outcome=outcome,
            unknown=unknown,
            word=word,
        )
        try:
            if task == "show":
                _show(target, chosen, export, rows)
            else:
                _compare(target, other, export, rows)
        except WhichoneError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        return
    if target is not None:
        typer.echo(f"error: unexpected argument {target!r} (only `bench fetch TASK` takes two)", err=True)
        raise typer.Exit(2)
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
