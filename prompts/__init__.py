"""Every prompt lives here as a text file; code refers to prompts by name.

Placeholders use string.Template syntax ($question, ${focus}) so JSON braces in prompts need no escaping.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from string import Template

PROMPT_DIR = Path(__file__).resolve().parent


@cache
def load_prompt(name: str) -> str:
    """The text of prompts/<name>.txt, without its trailing newline."""
    path = PROMPT_DIR / f"{name}.txt"
    if not path.is_file():
        raise KeyError(f"no prompt named {name!r} in {PROMPT_DIR}")
    return path.read_text(encoding="utf-8").rstrip("\n")


def render_prompt(name: str, **values: object) -> str:
    """The prompt with its $placeholders filled; a missing value raises KeyError."""
    return Template(load_prompt(name)).substitute({k: str(v) for k, v in values.items()})


def prompt_names() -> list[str]:
    return sorted(p.stem for p in PROMPT_DIR.glob("*.txt"))
