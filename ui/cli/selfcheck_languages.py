"""`whichone selfcheck --languages`: the example photos asked about in Spanish, French, German,
Portuguese, Italian and Chinese (ui/examples/languages.json), with what a stack with real weights does.

Each runs the same two-turn flow as the English example of its photo (its `shows` and candidate count are
expected again: the photo has not changed), with a hint in the question's language for the second turn.
Judged on every stack: the question is read as its language; the assistant's own sentences are not the
English ones; the hint chooses number 1 (the candidates are numbered from the left, and every hint says
"the one on the left", read by its position words in every language here). Judged
with real weights only: the model's answers are in the question's language (the language detector reads
them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from assistant.languages import language_name
from assistant.languages.detect import detect_language
from assistant.pipeline import Assistant
from assistant.types import Reply
from ui.cli.selfcheck_examples import Check, ExampleRun, run_example
from ui.example_photos import EXAMPLES_DIR, ExamplePhoto, example_photos

# Openings of the assistant's own English sentences: none may open a reply to a question in another language.
ENGLISH_FRAMING = ("I see ", "About ", "I assume you mean", " could be meant.", "Which one do you mean?")


@dataclass(frozen=True)
class LanguageExample:
    photo: ExamplePhoto  # the English example of the same photo, with this question
    language: str
    hint: str


@cache
def language_examples() -> tuple[LanguageExample, ...]:
    records = json.loads((EXAMPLES_DIR / "languages.json").read_text(encoding="utf-8"))
    english = {photo.file: photo for photo in example_photos()}
    return tuple(
        LanguageExample(
            photo=replace(
                english[r["file"]],
                question=r["question"],
                name=f"{english[r['file']].name} ({language_name(r['language'])})",
            ),
            language=r["language"],
            hint=r["hint"],
        )
        for r in records
    )


def language_checks(
    example: LanguageExample, first: Reply | None, hint_reply: Reply | None, noise: bool
) -> list[Check]:
    """The language's checks of one example's turns: met, not met, or None (not judged)."""
    if first is None:
        return []
    name = language_name(example.language)
    seen_language = first.focus.language if first.focus else "en"
    checks = [
        Check(f"the question is read as {name}", seen_language == example.language, seen_language),
        Check(
            f"the assistant's own sentences are in {name}",
            not any(framing in first.text for framing in ENGLISH_FRAMING),
            first.text[:160],
        ),
    ]
    if hint_reply is not None:
        checks.append(
            Check(
                f'the hint "{example.hint}" chooses number 1',
                hint_reply.resolved_region == 1,
                f"answered about region {hint_reply.resolved_region}",
            )
        )
    answer = first.text.split(": ", 1)[-1]
    checks.append(
        Check(
            f"the model answers in {name}",
            None if noise else detect_language(answer).code == example.language,
            detect_language(answer).code,
        )
    )
    return checks


def _hint_reply(run: ExampleRun, hint: str) -> Reply | None:
    return next((t.reply for t in run.turns if t.label == f"hint: {hint}"), None)


def run_language_example(
    assistant: Assistant, example: LanguageExample, number: int, out: Path, noise: bool
) -> ExampleRun:
    """The example's two turns (selfcheck_examples.run_example with its hint), and its language checks."""
    run = run_example(assistant, example.photo, number, out, noise, hint=example.hint)
    run.checks += language_checks(example, run.first, _hint_reply(run, example.hint), noise)
    return run


__all__ = ["LanguageExample", "language_checks", "language_examples", "run_language_example"]
