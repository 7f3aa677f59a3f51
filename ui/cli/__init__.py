"""`whichone` on the command line: ask, focus, models, serve (and bench, perf from their modules).

A user-facing failure (bad image, empty question, model not available, server down) prints one line to
stderr and exits with status 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from assistant.errors import WhichoneError
from assistant.images import load_image
from assistant.languages import RULE_LANGUAGES, language_name
from assistant.languages.question import analyse_any
from assistant.pipeline import Assistant, AssistantConfig
from assistant.settings import markdown_table, settings
from assistant.validation import clean_question
from models.download import download, repos_for
from models.errors import ModelError, ModelUnavailable
from models.readers import read_grounding
from models.registry import default_vlm_name, get_spec, list_models
from models.spec import ModelKind
from models.stacks import STACKS, default_stack_name, get_stack, resolve_choice
from models.types import GroundingFamily
from ui.cli.bench import bench_app
from ui.cli.perf import perf
from ui.cli.selfcheck import selfcheck
from ui.engine import explain_unavailable
from ui.serve import main as serve_app

if TYPE_CHECKING:
    from assistant.types import Reply

app = typer.Typer(
    name="whichone",
    help="An ambiguity-aware visual question answering assistant.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # plain help: rich's panels print flags as `--yes <bool>` and draw boxes a screen reader spells out
    rich_markup_mode=None,
)

P = ParamSpec("P")
R = TypeVar("R")
FAMILY_NAMES = tuple(f.value for f in GroundingFamily)  # models/types.py: the one list of families
MAX_REPLY_CHARS = 10_000_000  # standard input beyond this is not read
SERVED_BY = {  # VLMs that run in a server, not here: where `whichone stacks` says they come from
    "openai": "your OpenAI-compatible server",
    "ollama": "Ollama, on this machine",
    "llamacpp": "llama-server, on this machine",
}


def user_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn the errors a user can cause or fix into one line on stderr and exit status 2."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except (WhichoneError, ModelError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        except MemoryError:
            typer.echo("error: out of memory; try a smaller image or a smaller model.", err=True)
            raise typer.Exit(2) from None

    return wrapper


def _parse_choice(
    choose: int | None, click: str | None, hint: str | None
) -> int | tuple[float, float] | str | None:
    given = [c for c in (choose, click, hint) if c is not None]
    if len(given) > 1:
        raise WhichoneError("Give only one of --choose, --click and --hint.")
    if click is not None:
        try:
            x, y = (float(v) for v in click.split(","))
        except ValueError:
            raise WhichoneError(f"--click takes X,Y in pixels, e.g. --click 120,80; got {click!r}.") from None
        return (x, y)
    return choose if choose is not None else hint


@app.command()
@user_errors
def ask(
    image: Annotated[Path, typer.Argument(help="A photo (JPEG, PNG, ...).")],
    question: Annotated[str, typer.Argument(help="The question about the photo.")],
    stack: Annotated[
        str | None,
        typer.Option(metavar="NAME", help=f"Stack: {', '.join(STACKS)} (`whichone stacks`)."),
    ] = None,
    model: Annotated[str | None, typer.Option(help="VLM registry name (overrides the stack's).")] = None,
    pointer: Annotated[
        str | None, typer.Option(help="Pointer registry name (overrides the stack's).")
    ] = None,
    segmenter: Annotated[
        str | None, typer.Option(help="Segmenter registry name, or none: boxes only (overrides the stack's).")
    ] = None,
    recognition_prompt: Annotated[
        str,
        typer.Option(
            help="yesno (one pass, P(ambiguous)) or a VQ-FocusAmbiguity prompt: "
            "zs, zs_cot, zs_ecot, fs, fs_ecot"
        ),
    ] = "yesno",
    threshold: Annotated[
        float, typer.Option(help="P(ambiguous) at or above this is the verdict ambiguous (yesno only).")
    ] = 0.5,
    choose: Annotated[int | None, typer.Option(help="Second turn: the region number you mean.")] = None,
    click: Annotated[str | None, typer.Option(help="Second turn: a click X,Y in pixels.")] = None,
    hint: Annotated[str | None, typer.Option(help='Second turn: a hint, e.g. "the one on the left".')] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Ask a question about a photo; optionally answer the follow-up in the same run."""

    choice = _parse_choice(choose, click, hint)
    current = settings()
    stack_name, models = resolve_choice(
        stack or current.stack,
        vlm=model or current.model,
        pointer=pointer or current.pointer,
        segmenter=segmenter or current.segmenter,
    )
    # Check the photo and the question before loading any model: a bad input fails in milliseconds.
    photo = load_image(image)
    clean_question(question)
    prefix = "focus_recognition_"
    prompt_name = recognition_prompt if recognition_prompt.startswith(prefix) else prefix + recognition_prompt
    config = AssistantConfig(recognition_prompt=prompt_name, ambiguity_threshold=threshold)
    try:
        assistant = Assistant.from_names(models.vlm, models.pointer, models.segmenter, config)
    except ModelError as exc:
        raise ModelUnavailable(explain_unavailable(models, exc)) from exc
    reply, session = assistant.ask(photo, question)
    second = assistant.resolve(session, choice)[0] if choice is not None else None
    if as_json:
        out: dict[str, Any] = {
            "stack": {"name": stack_name, **models.as_dict()},
            "model": assistant.vlm.describe(),
            **reply.to_dict(),
        }
        if second is not None:
            out["second_turn"] = second.to_dict()
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    _print_reply(reply)
    if second is not None:
        typer.echo("")
        _print_reply(second)


def _print_reply(reply: Reply) -> None:
    typer.echo(f"strategy: {reply.strategy.value} (level {int(reply.level)})")
    typer.echo(f"reply: {reply.text}")
    typer.echo(f"why: {reply.explanation}")
    probability = (
        "" if reply.ambiguity_probability is None else f" (P(ambiguous) {reply.ambiguity_probability:.2f})"
    )
    typer.echo(f"verdict: {reply.verdict.value}{probability}")
    for region in reply.candidates.regions:
        typer.echo(f"  {region.id}: {region.description}  box={region.box.as_list()}")
    for note in reply.candidates.notes:
        typer.echo(f"  note: {note}")
    calls = ", ".join(f"{k} {v}" for k, v in sorted(reply.model_calls.items())) or "none"
    typer.echo(f"model calls: {calls}; total {reply.timings.get('total', 0.0):.2f} s")


@app.command()
@user_errors
def focus(
    question: Annotated[str, typer.Argument(help="A question.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """What a question is about, from its words alone (English; rules for es, fr, de, pt, it)."""

    result = analyse_any(clean_question(question)).to_dict()
    language = result.get("language", "en")
    if language != "en" and language not in RULE_LANGUAGES:
        result["note"] = (
            f"{language_name(language)}: no rules read it; `whichone ask` reads its referent with the model"
        )
    elif language != "en" and not result.get("english"):
        result["note"] = "the English noun for the pointer comes from the model (`whichone ask`)"
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
    else:
        for key, value in result.items():
            typer.echo(f"{key}: {value}")


@app.command("parse-grounding")
@user_errors
def parse_grounding_command(
    family: Annotated[str, typer.Option("--family", help="Model family: " + ", ".join(FAMILY_NAMES) + ".")],
    image_size: Annotated[tuple[int, int], typer.Option("--image-size", help="Original image: W H.")],
    input_size: Annotated[
        tuple[int, int] | None,
        typer.Option("--input-size", help="Qwen2.5-VL: the processor-resized frame W H (default: its rule)."),
    ] = None,
) -> None:
    """Read a model's grounding reply (standard input) into original-image pixels, as JSON."""

    if family not in FAMILY_NAMES:
        raise WhichoneError(f"unknown family {family!r}; choose one of: {', '.join(FAMILY_NAMES)}")
    text = sys.stdin.read(MAX_REPLY_CHARS + 1)
    frame = (float(input_size[0]), float(input_size[1])) if input_size and None not in input_size else None
    try:
        reading = read_grounding(text, family, (float(image_size[0]), float(image_size[1])), frame)
    except ValueError as exc:
        raise WhichoneError(str(exc)) from None
    typer.echo(json.dumps(reading.to_json(), ensure_ascii=False))


@app.command("models")
def list_models_command() -> None:
    """List the registered models (VLMs, pointers, segmenters)."""

    default = default_vlm_name()
    for spec in list_models():
        mark = " (default)" if spec.kind == "vlm" and spec.name == default else ""
        source = f" [{spec.hub_id}]" if spec.hub_id else ""
        typer.echo(f"{spec.kind:9} {spec.name:29} {spec.description}{source}{mark}")


@app.command("stacks")
def list_stacks_command() -> None:
    """List the stacks (VLM + pointer + segmenter presets) with their model ids and download sizes."""

    default = default_stack_name()
    for stack in STACKS.values():
        mark = " (default here)" if stack.name == default else ""
        size = f"{stack.download_gigabytes:g} GB to download" if stack.downloads else "nothing to download"
        typer.echo(f"{stack.name}{mark}: {stack.description}")
        parts: tuple[tuple[ModelKind, str | None], ...] = (
            ("vlm", stack.choice.vlm),
            ("pointer", stack.choice.pointer),
            ("segmenter", stack.choice.segmenter),
        )
        for kind, name in parts:
            if name is None:
                typer.echo(f"  {kind:9} none (boxes only)")
                continue
            hub = get_spec(kind, name).hub_id
            where = hub or (SERVED_BY.get(name) or ("the VLM" if name.startswith("vlm-") else ""))
            typer.echo(f"  {kind:9} {name}  [{where or 'built locally'}]")
        typer.echo(f"  {size}")


@app.command("download")
@user_errors
def download_command(
    models: Annotated[
        list[str] | None, typer.Argument(help="Model registry names (see `whichone models`).")
    ] = None,
    stack: Annotated[
        str | None,
        typer.Option(
            metavar="NAME", help="A stack (see `whichone stacks`); default: this machine's, without models."
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List files and sizes; download nothing.")
    ] = False,
) -> None:
    """Download every file a stack's or a model's loaders read into the Hugging Face cache (a rerun fetches
    only what is missing)."""

    names = list(models or [])
    stack_name = stack or (None if names else default_stack_name())
    repos = repos_for(names, stack_name)
    if not repos:
        typer.echo("nothing to download: these models are built locally or served elsewhere")
        return
    download(repos, dry_run=dry_run, echo=typer.echo, stack=stack_name if not names else None)


@app.command("settings")
def list_settings_command() -> None:
    """Print every WHICHONE_* environment variable as a Markdown table (the README's "Environment")."""

    typer.echo(markdown_table())


@app.command("judge-agreement")
@user_errors
def judge_agreement_command(
    judge: Annotated[
        str,
        typer.Option(help="`rules`, a VLM registry name (LLM judge), or `rules+MODEL` (rules, then MODEL)."),
    ] = "rules",
    labelled: Annotated[
        Path | None, typer.Option(help="Labelled JSONL (default: the papers' examples).")
    ] = None,
    task: Annotated[
        str | None, typer.Option(help="A judge question (default: every one in the file).")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: per question n, coverage, kappas, intervals, items.")
    ] = False,
    max_new_tokens: Annotated[
        int | None, typer.Option(help="An LLM judge's reply length (default: per judge question).")
    ] = None,
) -> None:
    """Measure a judge against labelled responses: Cohen's kappa and a confusion matrix."""
    from assistant.evaluation.judges import (
        agreement_json,
        create_judge,
        format_agreement,
        judge_agreement,
        judge_settings,
        load_labelled,
    )
    from assistant.evaluation.records import json_safe

    items = load_labelled(labelled)
    tasks = [task] if task else sorted({str(item["task"]) for item in items})
    chosen = create_judge(judge, settings=judge_settings(max_new_tokens))
    if as_json:
        report = json_safe(agreement_json(chosen, items, tasks, labelled))  # NaN -> null
        typer.echo(json.dumps(report, indent=1, allow_nan=False))
        return
    for name in tasks:
        typer.echo(f"== {name}")
        typer.echo(format_agreement(judge_agreement(chosen, items, name)))


@app.command()
@user_errors
def serve(
    host: Annotated[
        str | None, typer.Option(help="Address (default: GRADIO_SERVER_NAME or 127.0.0.1).")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port (default: GRADIO_SERVER_PORT or 7860).")] = None,
    model: Annotated[str | None, typer.Option(help="VLM registry name (default: WHICHONE_MODEL).")] = None,
    stack: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="Stack (default: WHICHONE_STACK, else cpu or gpu by CUDA)."),
    ] = None,
) -> None:
    """Start the Gradio app."""
    if stack:
        os.environ["WHICHONE_STACK"] = get_stack(stack).name
    if model:
        os.environ["WHICHONE_MODEL"] = model

    serve_app(host=host, port=port)


@app.command("selfcheck")
@user_errors
def selfcheck_command(
    stack: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="Stack (default: WHICHONE_STACK, else cpu or gpu by CUDA)."),
    ] = None,
    out: Annotated[Path, typer.Option(help="The report's folder (report.md and the overlays).")] = Path(
        "whichone-selfcheck"
    ),
    yes: Annotated[bool, typer.Option("--yes", help="Download missing models without asking.")] = False,
    random_weights: Annotated[
        bool,
        typer.Option(
            "--random-weights",
            help="The cpu stack's published architecture, random weights (timings only; answers are noise).",
        ),
    ] = False,
    languages: Annotated[
        bool,
        typer.Option(
            "--languages",
            help="Also ask the example photos in es, fr, de, pt, it and zh (ui/examples/languages.json).",
        ),
    ] = False,
) -> None:
    """Whether whichone works here: load a stack, run every example photo through both turns, and write a
    report (markdown and overlays) that says what was expected, what happened and how long it took.

    Exit status: 0 every example ran; 1 some example failed (the report says which); 2 the stack could not
    load (report.md still lists each missing model, its size and the command that fetches it) or an
    option was wrong."""

    report = selfcheck(
        stack,
        out,
        yes=yes,
        random_weights=random_weights,
        languages=languages,
        echo=typer.echo,
        ask=lambda q: typer.confirm(q),
    )
    judged = [c for run in report.examples for c in run.checks if c.met is not None]
    typer.echo(
        f"selfcheck: {sum(run.ran for run in report.examples)} of {len(report.examples)} examples ran; "
        f"{sum(bool(c.met) for c in judged)} of {len(judged)} judged checks met"
        + (" (answers are noise: not judged)" if report.noise else "")
        + f"; {report.seconds:.0f} s; report: {out / 'report.md'}"
    )
    if not report.all_ran:
        raise typer.Exit(1)


def _register_subcommands() -> None:
    """Sub-commands that live in their own modules (imports stay light: no torch at start-up)."""

    app.add_typer(bench_app, name="bench")
    app.command("perf")(perf)


_register_subcommands()


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
