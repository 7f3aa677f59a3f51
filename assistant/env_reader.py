"""The one reader of WHICHONE_* environment variables, shared by the domain's settings
(assistant/settings.py) and the web server's limits (ui/serving_settings.py).

A table of `Variable`s (name, default as the docs show it, meaning) describes each group; `EnvReader` reads
a value of a named variable as text, a flag or a number, with one rule for each kind; `markdown_table`
renders the tables as docs/configuration.md shows them (`whichone settings`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from assistant.errors import ConfigError

Number = TypeVar("Number", int, float)


@dataclass(frozen=True)
class Variable:
    name: str
    default: str  # as the docs show it; "" when unset means "not given"
    meaning: str


def markdown_table(variables: Iterable[Variable]) -> str:
    """docs/configuration.md's table of the variables, in the order given."""
    rows = ["| variable | default | what |", "|---|---|---|"]
    rows += [f"| `{v.name}` | {v.default or '-'} | {v.meaning} |" for v in variables]
    return "\n".join(rows)


def names_list(text: str | None) -> tuple[str, ...]:
    """A comma-separated list, trimmed, without empty items."""
    return tuple(n.strip() for n in (text or "").split(",") if n.strip())


class EnvReader:
    """Reads the variables named in `known` from `env` (default: os.environ)."""

    def __init__(self, known: Collection[str], env: Mapping[str, str] | None = None) -> None:
        self.known = known
        self.env = os.environ if env is None else env

    def text(self, name: str) -> str | None:
        assert name in self.known, name  # every variable is in its table
        value = self.env.get(name, "").strip()
        return value or None

    def flag(self, name: str) -> bool | None:
        value = (self.text(name) or "").lower()
        if not value:
            return None
        return value in ("1", "true", "yes", "on")

    def optional(self, name: str, kind: Callable[[str], Number], *, positive: bool = False) -> Number | None:
        value = self.text(name)
        if value is None:
            return None
        try:
            number = kind(value)
        except ValueError:
            raise ConfigError(f"{name} must be a number, got {value!r}") from None
        if number < 0 or (positive and number == 0):
            raise ConfigError(f"{name} must be {'positive' if positive else 'zero or more'}, got {value!r}")
        return number

    def number(self, name: str, default: int, *, minimum: int = 1) -> int:
        """An int of at least `minimum` (a smaller one gives it); unset or not a number: the default."""
        value = self.text(name)
        try:
            return max(minimum, int(value)) if value is not None else default
        except ValueError:
            return default
