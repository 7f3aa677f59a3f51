"""A question's focus in whichever language it is asked: English by assistant.question (unchanged), the
rule languages by assistant.languages.focus, other languages (Chinese, Japanese) not by rules: their focus
is empty with reader "none" until the model reads it (assistant.languages.referent)."""

from __future__ import annotations

from dataclasses import replace

from assistant.languages import RULE_LANGUAGES
from assistant.languages.detect import DetectedLanguage, detect_language
from assistant.languages.focus import analyse_in_language
from assistant.question import analyse_question
from assistant.types import QuestionFocus


def analyse_any(question: str, detected: DetectedLanguage | None = None) -> QuestionFocus:
    """The focus of `question` in its own language (detected unless given); never raises."""
    detected = detected or detect_language(question)
    if detected.code == "en":
        return analyse_question(question)
    if detected.code in RULE_LANGUAGES:
        try:
            return analyse_in_language(question, detected.code)
        except Exception:  # a rule bug must not break a user's turn: the model path still reads it
            pass
    empty = analyse_question("")
    return replace(empty, question=question, language=detected.code, reader="none")


__all__ = ["analyse_any"]
