"""The one rule every `whichone` command shares: a failure the user can cause or fix (bad image, empty
question, model not available, server down) prints one line to stderr and exits with status 2, never a
traceback."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

import typer

from assistant.errors import WhichoneError
from models.errors import ModelError

P = ParamSpec("P")
R = TypeVar("R")


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
