"""`whichone models`, `stacks`, `download` and `settings`: what can run here, what a stack is made of,
fetching its weights, and the environment variables."""

from __future__ import annotations

from typing import Annotated

import typer

from models.catalog import STACKS, default_stack_name
from models.download import download, repos_for
from models.registry import default_vlm_name, get_spec, list_models
from models.spec import ModelKind
from ui.cli.errors import user_errors
from ui.serving_settings import markdown_table

SERVED_BY = {  # VLMs that run in a server, not here: where `whichone stacks` says they come from
    "openai": "your OpenAI-compatible server",
    "ollama": "Ollama, on this machine",
    "llamacpp": "llama-server, on this machine",
}


def list_models_command() -> None:
    """List the registered models (VLMs, pointers, segmenters)."""

    default = default_vlm_name()
    for spec in list_models():
        mark = " (default)" if spec.kind == "vlm" and spec.name == default else ""
        source = f" [{spec.hub_id}]" if spec.hub_id else ""
        typer.echo(f"{spec.kind:9} {spec.name:29} {spec.description}{source}{mark}")


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


def list_settings_command() -> None:
    """Print every WHICHONE_* environment variable as a Markdown table (the README's "Environment")."""

    typer.echo(markdown_table())
