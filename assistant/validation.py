"""Checks on what a user types, with the limits the README documents."""

from __future__ import annotations

import math
import re
import unicodedata

from assistant.errors import InputError

MAX_QUESTION_CHARS = 500
MAX_HINT_CHARS = 300

# C0 and C1 control characters (tab and newline included: they are whitespace wherever this is used),
# DEL, zero-width characters and the bidirectional overrides: a screen reader may read them out, a terminal
# may act on them, and they can hide text.
_CONTROL = re.compile(r"[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def without_control_characters(text: str) -> str:
    """`text` with every control, zero-width and bidi-override character replaced by a space: the one text
    cleaner (questions, hints, question analysis, the model's replies)."""
    return _CONTROL.sub(" ", text)


def clean_text(text: str | None, *, what: str = "question", max_chars: int = MAX_QUESTION_CHARS) -> str:
    """Normalise (NFC), drop control and bidi-override characters, collapse whitespace, enforce limits.

    Raises InputError for an empty or over-long text. Any language is accepted.
    """
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise InputError(f"The {what} must be text.")
    cleaned = without_control_characters(unicodedata.normalize("NFC", text))
    cleaned = " ".join(cleaned.split())
    if not cleaned:
        raise InputError(
            f"Please type a {what} about the photo." if what == "question" else f"The {what} is empty."
        )
    if len(cleaned) > max_chars:
        raise InputError(
            f"The {what} is {len(cleaned):,} characters long; please keep it under {max_chars} characters."
        )
    return cleaned


def clean_question(text: str | None, max_chars: int = MAX_QUESTION_CHARS) -> str:
    return clean_text(text, what="question", max_chars=max_chars)


def clean_hint(text: str | None, max_chars: int = MAX_HINT_CHARS) -> str:
    return clean_text(text, what="hint", max_chars=max_chars)


def finite_number(value: object) -> float | None:
    """A finite number from a client's raw value (the number endpoints skip Gradio's preprocessing, whose
    float() of "abc" failed with a bare error and a traceback); None for anything else (NaN, Inf, text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None
