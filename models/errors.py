"""Errors a model adapter raises. Each carries a message fit to show a user as it is; `first_line` is how
an underlying library's exception becomes part of such a message, `error_chain` how the error that tells
what happened is found under the one a library raised."""

from __future__ import annotations

from collections.abc import Iterator


class ModelError(RuntimeError):
    """A model call failed; the message says what happened in plain words."""


class ModelUnavailable(ModelError):
    """The model cannot be loaded here (not downloaded and offline, missing package, no such name)."""


class ModelTimeout(ModelError):
    """The model (or its server) did not answer in time."""


class ModelOutOfMemory(ModelError):
    """The device ran out of memory for this request."""


def error_chain(error: BaseException) -> Iterator[BaseException]:
    """`error`, then the error it was raised from (or while handling), and so on; each once, so a cycle in
    the chain ends it."""
    seen: list[BaseException] = []
    link: BaseException | None = error
    while link is not None and not any(link is other for other in seen):
        seen.append(link)
        yield link
        link = link.__cause__ or link.__context__


def first_line(error: BaseException, limit: int = 200) -> str:
    """The first line of an exception's message, cut to `limit` characters (its type name when the message
    is empty): library errors can carry pages of detail, a user is shown one line."""
    lines = str(error).strip().splitlines()
    line = lines[0].strip() if lines else type(error).__name__
    return line if len(line) <= limit else line[: limit - 3] + "..."


def is_out_of_memory(error: BaseException) -> bool:
    """Whether a RuntimeError-like error is the allocator's: CUDA says "out of memory", torch's CPU
    allocator "can't allocate memory"."""
    text = str(error).lower()
    return "out of memory" in text or "can't allocate memory" in text
