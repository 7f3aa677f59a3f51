"""Counted sets and sentences that only say what is there: a number or quantifier before a noun
(`_COUNTED_BEFORE`), the plurals a scope introduces as things (`_counted_plurals`), whether the plurals
before "one ... the other" are other things than the referents (`_about_other_things`), and
presentational sentences (`_introduces`, `answers_nothing`).
"""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant.evaluation.cues.people import asks_about_person, is_person
from assistant.evaluation.cues.question import QuestionCues
from assistant.evaluation.cues.text import _WORD, STOPWORDS, VERBS, _alias_pattern, is_plural, plural_of
from assistant.lexicon import word_set

_COUNTING = lx.PLURAL_QUANTIFIERS | frozenset(lx.NUMBER_WORDS) | word_set("these those other some")


def _counted_plurals(scope: str) -> list[str]:
    """Plural nouns that a scope introduces as things ("two people", "several young kids", "the
    players"), not a verb's -s ("the paddock contains"): right after a number, quantifier or "the", or
    after one word that follows a number or quantifier."""
    toks = re.findall(_WORD, scope)
    found = []
    for k, w in enumerate(toks):
        if w in STOPWORDS or len(w) <= 3 or not is_plural(w):
            continue
        prev, prev2 = (toks[k - 1] if k >= 1 else ""), (toks[k - 2] if k >= 2 else "")
        # "one" counts no plural: after it an -s form is a verb ("one stands at the board, one sits ...")
        if prev == "one" or (prev2 == "one" and prev not in _COUNTING):
            continue
        if prev in _COUNTING or prev == "the" or prev2 in _COUNTING:
            found.append(w)
    return found


def _about_other_things(q: QuestionCues, before: str, counted: bool = True) -> bool:
    """The sentence before "one ... the other" names plural things that are not the question's referents
    ("The image shows two people. One is ..." for "Does she wear a hat?"): the pair is of those. With
    `counted` False the question's own plurals are other things too ("How many people are on the boat?":
    "two people, one rowing and one sitting" counts them, it does not tell boats apart)."""
    scope = " ".join(re.split(r"(?<=[.!?])\s+", before.strip())[-2:])  # this sentence and the last
    plurals = _counted_plurals(scope)
    mine = {plural_of(n) for n in q.referents} | (set(q.plural_in_question) if counted else set())
    # people counted before a person referent may be the referents, whatever the role word ("two adults"
    # for the teacher): WordNet's person sense, not only the lexicon's person nouns
    if any(w in mine or (is_person(w) and asks_about_person(q)) for w in plurals):
        return False
    return bool(plurals)


def answers_nothing(sentence: str) -> bool:
    """A sentence that only says that there are several: presentational ("there are two men") or a count
    with no verb ("2 guys in the pic"); "A kettle." and "There's a brass lamp." may be the answer."""
    toks = re.findall(_WORD + r"|\d+", sentence)
    several = any(t.isdigit() and t != "1" or (t in _COUNTING and t != "one") for t in toks)
    if _PRESENTATIONAL.match(sentence):
        return several or any(len(t) > 3 and is_plural(t) for t in toks)
    counted = bool(toks) and (toks[0].isdigit() or toks[0] in _COUNTING) and several
    return counted and not any(t in lx.AUX or t in VERBS or t.endswith("'s") for t in toks)


# a sentence that only says what is there ("There are two boys.", "I can see three dogs", "The image shows
# several cars"): it introduces the referents, it answers nothing about them
_PRESENTATIONAL = re.compile(
    r"^(?:there (?:are|is|seem to be|appear to be)|i (?:can )?(?:see|notice|count)|"
    r"(?:the|this|in the) (?:image|picture|photo|photograph|scene)\b(?: (?:shows|has|contains|features|"
    r"includes|depicts))?)\b"
)


# an indefinite plural subject introduces things ("Several trees line the path", "Two boys are on the
# swings"); "both" and "all" speak of the whole set, which is an answer for all of them
_INTRODUCING = (
    r"(?:a few|a couple of|some|lots of|a number of|\d+|"
    + "|".join(
        sorted((lx.PLURAL_QUANTIFIERS - {"both", "all"}) | set(lx.NUMBER_WORDS), key=len, reverse=True)
    )
    + ")"
)


# a number or plural quantifier right before a noun (one adjective may come between): "multiple sheep",
# "two deer", "several brown cows" name a set, even where the noun has no plural form of its own
_COUNTED_BEFORE = re.compile(
    r"\b(?:(?:"
    + "|".join(sorted(_COUNTING - {"one", "other", "these", "those"}, key=len, reverse=True))
    + r")|a few|a couple of|lots of|a number of|[2-9]|\d\d+)\s+(?:"
    + _WORD
    + r"\s+)?$"
)


def _introduces(q: QuestionCues, sentence: str) -> bool:
    """A sentence that only says what is there: presentational ("There are two boys", "I can see three
    dogs") or opening with an indefinite plural of the referent ("Several trees line the path")."""
    if _PRESENTATIONAL.match(sentence):
        return True
    plurals = _alias_pattern({plural_of(n) for n in q.referents}) if q.referents else None
    return bool(plurals and re.match(_INTRODUCING + r"\s+(?:" + _WORD + r"\s+){0,2}?" + plurals, sentence))
