"""`whichone serve`: the Gradio app (ui.serve) on this machine."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from models.catalog import get_stack
from ui.cli.errors import user_errors


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

    from ui.serve import main  # the app and gradio load only when the server starts

    main(host=host, port=port)
