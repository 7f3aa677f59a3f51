"""Why the rule judge should not decide a reply at all, whatever its cues: the checks behind its "unknown".

The rules read English surface cues; a default label (class C, "answer", "NO") given to a reply they
cannot read is indistinguishable from a confident one. So, before any rule and for every question:
- another language: lingua's detector (lingua-language-detector) names the reply's language; a reply of
  three words or more whose most likely language is not English, with English unlikely, or one written
  mostly in a non-Latin script, is "unknown" (a one- or two-word reply, "Blue.", is too short to tell).
  On short English sentences with a name in them ("It's a Dell.", "It is a zebra.") the detector can
  prefer Italian or Portuguese, so a reply in which English's own function words ("the", "is", "it")
  make a tenth of the words or more is read as English whatever the detector says;
- a reply cut off: it ends inside a sentence on a word that cannot end one ("... the man on the", "...
  and") or on ",", ":", "(", "-" (a reply stopped by its token budget);
and, where no cue decided (each question's default branch, `undecided_reason`):
- a refusal ("I'm unable to see the image", "Sorry, I can't help"): no answer to classify;
- a list of two or more items that no rule parsed.
Sentences are split by pysbd, a rule-based sentence boundary detector that knows "e.g." and "i.e.".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from assistant import lexicon as lx

if TYPE_CHECKING:
    from lingua import LanguageDetector

# languages real VLMs answer in besides English: the detector picks among these (more costs memory)
_LANGUAGES = (
    "ENGLISH", "FRENCH", "SPANISH", "GERMAN", "ITALIAN", "PORTUGUESE", "DUTCH", "CHINESE", "JAPANESE",
    "KOREAN", "RUSSIAN", "ARABIC", "HINDI", "TURKISH", "POLISH", "VIETNAMESE",
)  # fmt: skip
# words only English uses among these languages (Dutch "is", Italian "a" and "in" are left out)
_ENGLISH_ONLY = frozenset(
    [
        "the",
        "it",
        "it's",
        "is",
        "and",
        "of",
        "with",
        "this",
        "that",
        "these",
        "those",
        "are",
        "was",
        "were",
        "wears",
        "has",
        "have",
        "he",
        "she",
        "they",
        "there",
        "what",
        "which",
        "who",
        "you",
        "your",
        "i",
        "i'm",
        "his",
        "her",
        "their",
    ]
)
ENGLISH_WORD_SHARE = 0.1
MIN_WORDS = 3  # shorter replies ("Blue.", "two dogs") are too short for any detector
ENGLISH_UNLIKELY = 0.25  # English's confidence under this, and another language first: not English
NON_LATIN_SHARE = 0.3  # letters outside the Latin script over this share: not English

_CANNOT_END = (
    lx.ARTICLES | lx.PREPOSITIONS | lx.POSSESSIVE_PRONOUNS | {"and", "or", "but", "while", "whereas", "is",
    "are", "was", "were", "wears", "has", "have", "with", "which", "who", "that", "whose", "very", "its"}
)  # fmt: skip
_REFUSAL = re.compile(
    r"\b(?:i(?:'m| am) (?:unable|not able) to|i (?:cannot|can't|can not) (?:see|view|access|help|assist|"
    r"answer|provide)|(?:sorry|unfortunately),? (?:but )?i (?:cannot|can't|am unable)|as an ai\b|"
    r"i don't have (?:access|the ability)|no image (?:was|is|has been) (?:provided|attached|shared))"
)
# English contracts at a word's end ("he's", "they're", "isn't"); the Romance languages' apostrophe comes
# after a word's first letters ("l'homme", "dell'uomo", "c'è"), so a short reply's "He's in a hoodie." reads
# English, not German.
_ENGLISH_CONTRACTION = re.compile(r"^[^\W\d_]+(?:'s|'re|'ve|'ll|'d|'m|n't)$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+\S", re.M)


@lru_cache(maxsize=1)
def _detector() -> LanguageDetector:
    from lingua import Language, LanguageDetectorBuilder

    return LanguageDetectorBuilder.from_languages(*(getattr(Language, n) for n in _LANGUAGES)).build()


def _non_latin_share(text: str) -> float:
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    other = sum(1 for ch in letters if not unicodedata.name(ch, "").startswith("LATIN"))
    return other / len(letters)


def other_language(text: str) -> str | None:
    """The language the reply is written in when it is not English ("French"), else None."""
    if _non_latin_share(text) > NON_LATIN_SHARE:
        found = _detector().detect_language_of(text)
        return found.name.title() if found is not None else "a non-Latin script"
    tokens = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text.lower())
    if len(tokens) < MIN_WORDS:
        return None
    if sum(t in _ENGLISH_ONLY or _ENGLISH_CONTRACTION.match(t) is not None for t in tokens) >= (
        ENGLISH_WORD_SHARE * len(tokens)
    ):
        return None
    values = _detector().compute_language_confidence_values(text)
    if not values or values[0].language.name == "ENGLISH":
        return None
    english = next((v.value for v in values if v.language.name == "ENGLISH"), 0.0)
    return values[0].language.name.title() if english < ENGLISH_UNLIKELY else None


def cut_off(text: str) -> str | None:
    """How the reply ends inside a sentence (see the module docstring), or None."""
    tail = re.sub(r"[*_`#\s\ufe0f\u200d]+$", "", text)
    # a symbol (an emoji, "👍") closes a chat message as a stop does: "he's got a helmet on 👍"
    if not tail or tail[-1] in ".?!)]\"'" or unicodedata.category(tail[-1]) == "So":
        return None
    if tail[-1] in ",:(-\u2013\u2014":
        return f"ends on {tail[-1]!r}"
    last = re.findall(r"[A-Za-z']+", tail[-30:])
    words = re.findall(r"[A-Za-z']+", tail)
    if len(words) >= 4 and last and last[-1].lower() in _CANNOT_END:
        return f"ends on {last[-1]!r}"
    return None


# Rule paths whose label no missing end could overturn: what was already written asks which one, answers
# for several referents or offers several answers (class A, CoT YES, clarify / enumerate, bias explicit,
# FAIL for asking or for options). A described referent (B), an assumption (infer), a matched answer
# (PASS) or any default could each be undone by the sentence the reply never finished; except the class
# of a reply cut inside its answer's own clause ("rules:class.cut-in-answer"): the annotators label what
# it wrote, and the unfinished clause names no second referent (papers/racquet/judge.py); and AQuA's FAIL
# for a reply cut off before it gives the reference ("rules:pass.cut-before-answer": the rubric's "does
# not answer", labelled on what was written); AQuA's PASS for a reply that gave the reference in a
# finished sentence before the cut and turns from it in nothing after ("rules:pass.answered-before-cut");
# and the CoT NO of a reply whose written steps mention no second referent and that is not cut inside a
# noun phrase ("rules:cot.cut-written": labelled on what was written, papers/racquet/judge.py).
SETTLED_BEFORE_CUT = frozenset(
    {
        "rules:class.asks",
        "rules:class.several",
        "rules:class.cut-in-answer",
        "rules:cot.several",
        "rules:cot.cut-written",
        "rules:strategy.asks",
        "rules:strategy.several",
        "rules:bias.explicit",
        "rules:pass.asks",
        "rules:pass.options",
        "rules:pass.cut-before-answer",
        "rules:pass.answered-before-cut",
    }
)


def settled_before_cut(path: str) -> bool:
    """Whether a label given by rule `path` stands on a reply cut off mid-sentence (SETTLED_BEFORE_CUT)."""
    return path in SETTLED_BEFORE_CUT


def undecided_reason(text: str, lists: bool = True) -> str | None:
    """Why a reply that no cue decided is "unknown" rather than the default label, or None. `lists`
    False: a list is no reason (a chain of thought is a list of steps, read step by step)."""
    refused = _REFUSAL.search(text.lower())
    if refused:
        return f"a refusal, no answer to classify ({refused.group(0)!r})"
    if lists and len(_LIST_ITEM.findall(text)) >= 2:
        return "a list that no rule parsed"
    return None


@lru_cache(maxsize=1)
def _segmenter() -> Any:  # pysbd ships no type hints
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


def sentences(text: str) -> list[str]:
    """The reply's sentences (pysbd: "e.g.", "i.e.", "Mr." and decimals do not end one)."""
    return [s.strip() for s in _segmenter().segment(text) if s.strip()]
