"""Does a reply give the reference answer? The word matching behind AQuA's PASS rule (papers/aqua/judge.py).

- Tokens: a time ("10:10", "7:45 pm") and a number ("3.5", "1,000") are one token each; number words are
  digits ("two" -> "2", as the question analyser reads them); hyphenated words are their parts.
- Forms: each word also stands for its lemma (simplemma: "sleeping" -> "sleep", "umbrellas" ->
  "umbrella"), its American spelling (breame's British/American list: "grey" -> "gray", "colour" ->
  "color"), and a predicative a- adjective for its stem ("asleep" -> "sleep", when simplemma knows the
  stem as a word); two adjacent words also stand for their compound ("ice cream" = "icecream").
- Negation: "not red", "isn't an umbrella" negate the word that follows.
- Yes / no: a reference "yes" or "no" is read from the reply's first word, else implied by the reply
  restating the question's own words (yes) or restating them negated (no); a reply that does neither
  ("The door is closed." for "Is the door open?") cannot be read without a thesaurus: None (unknown).
- Binding: in a reply about several referents ("The biggest umbrella is red; the small one is blue"),
  the reference answer counts only in the clause that speaks of the hinted referent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from assistant import lexicon as lx
from assistant.evaluation import response_cues as cues

_NUMBERS = {w: str(n) for w, n in lx.NUMBER_WORDS.items()}  # "two" -> "2", as in the question analyser
_TOKEN = re.compile(r"\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?|\d+(?:[.,]\d+)*|[a-z]+(?:'[a-z]+)?")
_NEGATORS = frozenset(
    [
        "not",
        "no",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "isnt",
        "arent",
        "wasnt",
        "never",
        "nor",
        "doesn't",
        "don't",
    ]
)
_SKIP_AFTER_NEGATION = frozenset(["a", "an", "the", "any", "at", "all", "very"])
_YES = frozenset(["yes", "yeah", "yep", "yup", "correct", "indeed", "affirmative"])
_NO = frozenset(["no", "nope", "negative"])
_AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "does",
        "do",
        "did",
        "can",
        "could",
        "has",
        "have",
        "had",
        "will",
        "would",
        "should",
    ]
)
_CLAUSE_BREAK = re.compile(
    r"[.;!?\n]|,\s+(?=(?:and |but |while |whereas )?(?:the|a|an|one|its|his|her)\b)|"
    r"\s(?:while|whereas|but)\s"
)


def tokens(text: str) -> list[str]:
    """The reply's tokens (module docstring): times and numbers whole, number words as digits."""
    found = _TOKEN.findall(cues.normalise(text).replace("-", " "))
    return [_NUMBERS.get(t, re.sub(r"\s|\.", "", t) if ":" in t else t) for t in found]


@lru_cache(maxsize=4096)
def forms(word: str) -> frozenset[str]:
    """Every form `word` stands for: itself, its lemma, its American spelling, an a- adjective's stem."""
    import simplemma
    from breame.spelling import get_american_spelling

    if not word.isalpha():
        return frozenset({word})
    out = {word, get_american_spelling(word)}
    out |= {simplemma.lemmatize(w, lang="en") for w in list(out)}
    if word.startswith("a") and len(word) > 4 and simplemma.is_known(word[1:], lang="en"):
        out.add(word[1:])  # "asleep" -> "sleep", "afloat" -> "float"
    return frozenset(out | {get_american_spelling(w) for w in out})


def _token_forms(toks: Sequence[str]) -> set[str]:
    """The forms of every token and of every two adjacent tokens written as one ("ice cream")."""
    found: set[str] = set()
    for t in toks:
        found |= forms(t)
    for a, b in zip(toks, toks[1:], strict=False):
        if a.isalpha() and b.isalpha():
            found |= forms(a + b)
    return found


def _missing(reference_words: Sequence[str], toks: Sequence[str]) -> list[str]:
    """The reference words the tokens do not contain in any form (a compound may be split or joined)."""
    have = _token_forms(toks)
    missing = []
    i = 0
    while i < len(reference_words):
        word = reference_words[i]
        if forms(word) & have:
            i += 1
            continue
        pair = word + reference_words[i + 1] if i + 1 < len(reference_words) else ""
        if pair and forms(pair) & have:
            i += 2
            continue
        missing.append(word)
        i += 1
    return missing


def negated(toks: Sequence[str], word: str) -> bool:
    """Whether a form of `word` occurs right after a negator ("not red", "isn't a red ...": one
    article or -ing verb between)."""
    wanted = forms(word)
    for k, t in enumerate(toks):
        if not forms(t) & wanted:
            continue
        back = [w for w in toks[max(0, k - 3) : k] if w not in _SKIP_AFTER_NEGATION]
        if back and (
            back[-1] in _NEGATORS or (len(back) > 1 and back[-2] in _NEGATORS and back[-1].endswith("ing"))
        ):
            return True
    return False


def contains_answer(reference_words: Sequence[str], text: str) -> bool:
    """Every reference word occurs in `text` in some form, none of them negated."""
    toks = tokens(text)
    return not _missing(reference_words, toks) and not any(negated(toks, w) for w in reference_words)


def yes_no(question: str, reply: str, stop: frozenset[str]) -> str | None:
    """ "yes" / "no" as the reply gives it (module docstring), or None when it cannot be read."""
    toks = tokens(reply)
    if not toks:
        return None
    if toks[0] in _YES:
        return "yes"
    if toks[0] in _NO:
        return "no"
    asked = tokens(question)
    if not asked or asked[0] not in _AUXILIARIES:
        return None
    content = [w for w in asked[1:] if w not in stop and w not in _AUXILIARIES]
    if not content or _missing(content, toks):
        return None
    if any(negated(toks, w) for w in content) or any(t in _NEGATORS for t in toks):
        return "no"
    return "yes"


def clauses(text: str) -> list[str]:
    """The reply's clauses: sentences, and the parts of one joined by ";", "while", "but", or a comma
    before a new subject ("the big one is red, the small one is blue")."""
    return [c.strip() for c in _CLAUSE_BREAK.split(cues.normalise(text)) if c and c.strip()]


def bound_to_hint(reference_words: Sequence[str], reply: str, hint_words: Sequence[str]) -> bool | None:
    """In a reply of several clauses: True when a clause that names the hinted referent gives the answer,
    False when only clauses about another referent give it, None when no clause names the hint."""
    if not hint_words:
        return None
    parts = clauses(reply)
    if len(parts) < 2:
        return None
    hinted = [c for c in parts if any(not _missing([w], tokens(c)) for w in hint_words)]
    if not hinted or len(hinted) == len(parts):
        return None
    answering = [c for c in parts if contains_answer(reference_words, c)]
    if not answering:
        return None
    return any(c in hinted for c in answering)
