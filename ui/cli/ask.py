"""`whichone ask`, `focus` and `parse-grounding`: a question about a photo (both turns), what a question is
about from its words alone, and a model's grounding reply read into pixels."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from assistant.errors import WhichoneError
from assistant.images import load_image
from assistant.languages import RULE_LANGUAGES, language_name
from assistant.languages.question import analyse_any
from assistant.pipeline import Assistant, AssistantConfig
from assistant.settings import settings
from assistant.validation import clean_question
from models.catalog import STACKS, ModelChoice, resolve_choice
from models.errors import ModelError, ModelUnavailable
from models.families import family_table
from models.readers import read_grounding
from ui.cli.errors import user_errors
from ui.engine import explain_unavailable

if TYPE_CHECKING:
    from assistant.types import Reply

FAMILY_NAMES = family_table().names()  # models/families/: the one list of families
MAX_REPLY_CHARS = 10_000_000  # standard input beyond this is not read


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
    assistant = _assistant_for(models, recognition_prompt, threshold)
    reply, session = assistant.ask(photo, question)
    second = assistant.resolve(session, choice)[0] if choice is not None else None
    if as_json:
        _print_json(stack_name, models, assistant, reply, second)
        return
    _print_reply(reply)
    if second is not None:
        typer.echo("")
        _print_reply(second)


def _assistant_for(models: ModelChoice, recognition_prompt: str, threshold: float) -> Assistant:
    """The assistant on the chosen models; a model that cannot load is ModelUnavailable saying why."""
    prefix = "focus_recognition_"
    prompt_name = recognition_prompt if recognition_prompt.startswith(prefix) else prefix + recognition_prompt
    config = AssistantConfig(recognition_prompt=prompt_name, ambiguity_threshold=threshold)
    try:
        return Assistant.from_names(models.vlm, models.pointer, models.segmenter, config)
    except ModelError as exc:
        raise ModelUnavailable(explain_unavailable(models, exc)) from exc


def _print_json(
    stack_name: str, models: ModelChoice, assistant: Assistant, reply: Reply, second: Reply | None
) -> None:
    """The reply (and the second turn's) as JSON, with the stack and the VLM that gave it."""
    out: dict[str, Any] = {
        "stack": {"name": stack_name, **models.as_dict()},
        "model": assistant.vlm.describe(),
        **reply.to_dict(),
    }
    if second is not None:
        out["second_turn"] = second.to_dict()
    typer.echo(json.dumps(out, indent=2, ensure_ascii=False))


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
