"""Questions in the user's own language (issue 36): which language a question is in, its referent without a
model (rules for es, fr, de, pt, it), the English noun phrase the pointer needs (one VLM call), hints with
position words, and the assistant's own sentences from gettext catalogs.

English never goes through this package's rules: assistant.question reads it, unchanged.
"""

from __future__ import annotations

from typing import Literal, get_args

LanguageCode = Literal["en", "es", "fr", "de", "pt", "it", "zh", "ja"]
LANGUAGES: tuple[LanguageCode, ...] = get_args(LanguageCode)
RULE_LANGUAGES: frozenset[str] = frozenset({"es", "fr", "de", "pt", "it"})  # focus rules without a model
CATALOG_LANGUAGES: frozenset[str] = frozenset({"es", "fr", "de", "pt", "it", "zh"})  # locales/<lang>/...

# English names, for prompts ("Answer in Spanish") and the Explain panel.
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "es": "Spanish",
    "fr": "French",
    "de": "German",
    "pt": "Portuguese",
    "it": "Italian",
    "zh": "Chinese",
    "ja": "Japanese",
}

# BCP 47 tags for the browser's speechSynthesis voice of a reply.
SPEECH_TAGS: dict[str, str] = {
    "en": "en",
    "es": "es",
    "fr": "fr",
    "de": "de",
    "pt": "pt",
    "it": "it",
    "zh": "zh",
    "ja": "ja",
}


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)


__all__ = [
    "CATALOG_LANGUAGES",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "RULE_LANGUAGES",
    "SPEECH_TAGS",
    "LanguageCode",
    "language_name",
]
