"""Photos to try in the Ask tab: each with a question that shows one strategy, its alt text and its credit.

The pictures and their record live in ui/examples/ (examples.json: file, question, the strategy it shows
and why, alt text, title, credit, licence, source, URL, and what a working stack is expected to do);
scripts/make_examples.py made the pictures from openly licensed images shipped with scikit-image and
matplotlib. Every one is public domain, CC0 or without known copyright restrictions, and under 300 KB.

Gradio copies an example's file into its temp folder when a visitor picks it, so the photo arrives as a
path that no upload made: `is_example` recognises such a copy by its bytes (one of these files exactly),
which lets the upload gate take it without letting a client name any other server file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from assistant.types import Strategy

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"


@dataclass(frozen=True)
class Expected:
    """What a working stack with real weights does with an example (`whichone selfcheck` checks it): the
    strategy is the example's `shows`; `candidates` the right count of candidates (at most 12 are marked);
    `answer_contains` words of which a right answer has at least one (empty: none is checked)."""

    candidates: int
    answer_contains: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExamplePhoto:
    file: str
    name: str  # a few words: the example's button
    question: str
    shows: Strategy
    why: str
    alt: str
    title: str
    credit: str
    licence: str
    source: str
    url: str
    expected: Expected

    @property
    def path(self) -> Path:
        return EXAMPLES_DIR / self.file

    def label(self) -> str:
        """The example's button (short: Gradio cuts longer labels)."""
        return f"{self.name}: {self.question}"


@cache
def example_photos() -> tuple[ExamplePhoto, ...]:
    records = json.loads((EXAMPLES_DIR / "examples.json").read_text(encoding="utf-8"))
    return tuple(
        ExamplePhoto(
            **{
                **record,
                "shows": Strategy(record["shows"]),
                "expected": Expected(
                    candidates=int(record["expected"]["candidates"]),
                    answer_contains=tuple(record["expected"].get("answer_contains", ())),
                ),
            }
        )
        for record in records
    )


@cache
def _digests() -> frozenset[str]:
    return frozenset(hashlib.sha256(p.path.read_bytes()).hexdigest() for p in example_photos())


def is_example(path: Path) -> bool:
    """Whether the file at `path` is byte for byte one of the example photos."""
    try:
        if path.stat().st_size > 300_000:
            return False
        return hashlib.sha256(path.read_bytes()).hexdigest() in _digests()
    except OSError:
        return False


def examples_markdown() -> str:
    """What each example shows, its alt text and its credit: the page's text twin of the example buttons."""
    lines = []
    for photo in example_photos():
        lines.append(
            f"- **{photo.name}**, *{photo.question}* shows **{photo.shows.value}**: {photo.why}. "
            f"The photo: {photo.alt} *{photo.title}*, {photo.credit} ({photo.licence}), {photo.source}: "
            f"<{photo.url}>"
        )
    return "\n".join(lines)
