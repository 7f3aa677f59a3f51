"""Which language a question is in: lingua (offline n-gram models shipped in its wheel, built for short
text), restricted to the languages whichone supports, so a question is never labelled with a language it
has no rules or catalog for.

English is the default whenever lingua is not clearly sure: an English question misread as another
language would lose the English analyser, which is the better one; a short foreign question misread as
English keeps today's behaviour. Han or kana script decides on its own (lingua agrees on every such text).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from lingua import IsoCode639_1, Language, LanguageDetector, LanguageDetectorBuilder

from assistant.languages import LANGUAGES, LanguageCode

# Another language must lead English by this much in lingua's confidence, else the question is read as
# English (a close call between, say, Spanish and Portuguese is still decided by lingua).
MIN_LEAD = 0.2
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")


@dataclass(frozen=True)
class DetectedLanguage:
    code: LanguageCode
    confidence: float  # lingua's relative confidence of `code`, 0..1 (1.0 when the script decided)
    method: str  # "script", "lingua" or "default" (too short or too close to call: English)

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "confidence": round(self.confidence, 3), "method": self.method}


ENGLISH_DEFAULT = DetectedLanguage("en", 0.0, "default")


@functools.cache
def _detector() -> LanguageDetector:
    languages = [Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper())) for code in LANGUAGES]
    return LanguageDetectorBuilder.from_languages(*languages).build()


def _code(language: Language) -> LanguageCode:
    code = language.iso_code_639_1.name.lower()
    assert code in LANGUAGES, code
    return code


def detect_language(text: str) -> DetectedLanguage:
    """The language of `text` among whichone's (assistant.languages.LANGUAGES); English when unsure."""
    if _KANA.search(text):
        return DetectedLanguage("ja", 1.0, "script")
    if _HAN.search(text):
        return DetectedLanguage("zh", 1.0, "script")
    if not any(ch.isalpha() for ch in text):
        return ENGLISH_DEFAULT
    values = _detector().compute_language_confidence_values(text)
    if not values:
        return ENGLISH_DEFAULT
    top = values[0]
    code = _code(top.language)
    english = next((v.value for v in values if _code(v.language) == "en"), 0.0)
    if code != "en" and top.value - english < MIN_LEAD:
        return DetectedLanguage("en", english, "default")
    return DetectedLanguage(code, top.value, "lingua")


__all__ = ["ENGLISH_DEFAULT", "MIN_LEAD", "DetectedLanguage", "detect_language"]
