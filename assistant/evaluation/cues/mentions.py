"""Mentions of several referents, and `several_referents`, the cue set the class, CoT, strategy and bias
rules share.

Cues found in a response:
- plural mention: a referent word in the plural ("dogs", "the flowers are", "females"), unless the word
  was already plural in the question ("his pants") or the -s form stands where only a verb can ("the
  screen displays a map"); a question's own verb or predicate ("does it show", "is it open") is no
  referent word;
- referents told apart by different ordinals ("the first cyclist ..., the second");
- quantified mentions: "both", "each", "the other", "another" right before a referent word ("both
  hands", "each paw" quantify one referent's parts: not several);
- a further referent ("a second cyclist", "a mug too"), a list of singular referents ("a chestnut horse
  in front and a grey horse behind it");
- answers under several assumptions ("If you mean the dog on the left, ...; if you mean ...").
"""

from __future__ import annotations

import itertools
import re

from assistant import lexicon as lx
from assistant.evaluation.cues.counting import _COUNTED_BEFORE
from assistant.evaluation.cues.keys import (
    person_led_items,
    place_led_items,
    referent_keyed_items,
    values_keyed_in_brackets,
)
from assistant.evaluation.cues.people import of_asked_kind
from assistant.evaluation.cues.places import exclusive_places, located_places
from assistant.evaluation.cues.question import QuestionCues
from assistant.evaluation.cues.several import _only_places_them, several_answered
from assistant.evaluation.cues.text import (
    _SUBJECT_VERB_WORDS,
    _WORD,
    DETERMINERS,
    PREPOSITIONS,
    PRONOUN_PEOPLE,
    STOPWORDS,
    VERBS,
    _alias_pattern,
    is_plural,
    normalise,
    plural_of,
)
from assistant.lexicon import PERSON_NOUNS, word_set


def plural_mentions(q: QuestionCues, response: str) -> list[str]:
    """Referent words that the response uses in the plural (not where the -s form is a verb)."""
    text = normalise(response)
    found = []
    for noun in sorted(q.referents):
        plural = plural_of(noun)
        compound = _compound_plural(q, noun)
        if compound and re.search(r"\b" + re.escape(compound) + r"\b", text):
            found.append(compound)
        if plural == noun:  # "sheep", "deer": plural by a number or quantifier before, or a plural verb after
            counted = (
                m
                for m in re.finditer(r"\b" + re.escape(noun) + r"\b(?!-)", text)  # not "sheep-dogs"
                if _COUNTED_BEFORE.search(text[max(0, m.start() - 25) : m.start()])
                or re.match(r"\s+(?:are|were|have)\b", text[m.end() :])
            )
            found += [m.group(0) for m in itertools.islice(counted, 1)]
            continue
        if any(not _verb_position(text, m) for m in re.finditer(r"\b" + re.escape(plural) + r"\b", text)):
            found.append(plural)
    return found


def _compound_plural(q: QuestionCues, noun: str) -> str | None:
    """The plural of a compound the question names by its first word ("Is the traffic light green?": the
    analyser reads "light green" as a colour and takes "traffic"): "traffic lights" in a reply counts more
    of the compound, as "lights" would of "the light". None where the referent ends its phrase."""
    nxt = re.search(r"\b" + re.escape(noun) + r" (" + _WORD + r")\b", q.text)
    if nxt is None or nxt.group(1) in STOPWORDS | VERBS | PREPOSITIONS:
        return None
    if set(re.findall(_WORD, q.text[: nxt.start()])) & lx.DO:  # "What time does the clock show?": a verb
        return None
    plural = plural_of(nxt.group(1))
    return f"{noun} {plural}" if plural != nxt.group(1) else None


# what follows a verb and never a plural noun: its object's determiner or number ("shows a quarter past",
# "displays the menu", "signs his name", "lights 3 candles"), or its particle ("points out")
_AFTER_VERB = (
    lx.ARTICLES
    | lx.DEICTICS
    | lx.POSSESSIVE_PRONOUNS
    | lx.SPEAKER_POSSESSIVES
    | frozenset(lx.NUMBER_WORDS)
    | word_set("up down out off away")
)
# what a plural noun follows and a verb does not: a determiner, number, quantifier, preposition,
# conjunction or modifier ("the two displays", "of the signs", "and signs")
_BEFORE_NOUN = (
    DETERMINERS
    | lx.OTHER_DETERMINERS
    | lx.PREDETERMINERS
    | lx.PLURAL_QUANTIFIERS
    | frozenset(lx.NUMBER_WORDS)
    | PREPOSITIONS
    | lx.CONJUNCTIONS
    | lx.COLORS
    | lx.COLOR_SHADES
    | lx.VISUAL_ADJECTIVES
    | lx.AUX
)


def _verb_position(text: str, m: re.Match[str]) -> bool:
    """Whether an -s form stands where only a verb can: right after its subject (a word that opens no noun
    phrase: "the clock on the tower shows", "it shows") and right before a determiner, number or
    particle ("shows a quarter past three"). "The screen displays the menu" has a verb, "two displays"
    and "the displays, the signs" have nouns."""
    before = re.search(r"(" + _WORD + r"|\d+) $", text[: m.start()])
    after = re.match(r" (" + _WORD + r"|\d+)\b", text[m.end() :])
    if not (before and after):
        return False
    prev, nxt = before.group(1), after.group(1)
    if prev.isdigit() or prev in _BEFORE_NOUN or prev.endswith("ly"):
        return False
    return nxt.isdigit() or nxt in _AFTER_VERB


def quantified_mention(q: QuestionCues, response: str) -> bool:
    """ "both dogs", "the other man", "each person", "another one", "both of them", "one of the ..."."""
    text = normalise(response)
    names = _alias_pattern(set(q.referents) | {plural_of(n) for n in q.referents} | {"one", "ones"})
    bare = (
        m
        for m in re.finditer(r"\bboth (?:of them|are|have|wear|were)\b", text)
        if not _stands_for_other_kind(q, text[: m.start()])
    )
    found = itertools.chain(
        re.finditer(r"\b(?:both|each|the other|another)\s+(?:of (?:the|them)\s*)?" + names, text), bare
    )
    return any(not (m.group(0).startswith(("both", "each")) and _only_places_them(q, text, m)) for m in found)


_PAIR = re.compile(r"\b(?:two|2|both|a pair of|a couple of)\s+(?:" + _WORD + r"\s+){0,2}?(" + _WORD + r")\b")


def _stands_for_other_kind(q: QuestionCues, before: str) -> bool:
    """Whether a bare "both" ("both of them", "both are") stands for things of another kind than the
    question's: the last pair counted in its sentence or the one before ("Two people are walking ... one
    umbrella above both of them" for the umbrella) is not of the asked kind (`of_asked_kind`); no pair
    there ("the captain ... and the first officer ... Both wear headsets") or unknown: it may be."""
    said = [s for s in re.split(r"(?<=[.!?])\s+", before.strip()) if len(re.findall(_WORD, s)) > 1]
    pairs = [m.group(1) for m in _PAIR.finditer(" ".join(said[-2:])) if is_plural(m.group(1))]
    return bool(pairs) and of_asked_kind(q, pairs[-1]) is False


# a condition on what the question is about ("If the question is about the calf, yes"): the user's meaning
# said of the question, as "if you mean" says it of the user
ON_THE_QUESTION = (
    r"if (?:the|your) question (?:is|was) (?:about|for|referring to)|if (?:the|your) question refers to"
)
_IF_YOU_MEAN = re.compile(
    r"\bif (?:you(?:'re| are)? (?:mean|meant|asking about|referring to|talking about)|it'?s|it is)\b|"
    rf"\b(?:{ON_THE_QUESTION})\b"
)


# an offer to change the referent, not an answer under an assumption: "Let me know if you meant something
# else!", "tell me if you mean another one"
_OFFER_TO_CHANGE = re.compile(r"\b(?:let me know|tell me|say so|just say|ask again|ask me)\W*$")
_NOTHING_NAMED = re.compile(
    r"\s*(?:something|anything|someone|anyone|somebody|anybody)\s+else\b|"
    r"\s*(?:otherwise|another one|a different)\b"
)


def conditional_answers(response: str) -> str | None:
    """ "If you mean the dog on the left, it is ...; if you mean the one on the right, ...": two or more
    answers, each under its own assumption, enumerate the referents. An offer to change the referent
    ("Let me know if you meant something else!") answers for none: one conditional answer and an offer
    is one referent taken (infer)."""
    text = normalise(response)
    found = [
        m
        for m in _IF_YOU_MEAN.finditer(text)
        if not _OFFER_TO_CHANGE.search(text[max(0, m.start() - 20) : m.start()])
        and not _NOTHING_NAMED.match(text, m.end())
    ]
    return f"{len(found)} answers, each for an assumed referent" if len(found) >= 2 else None


def several_referents(q: QuestionCues, response: str, plural: bool = True) -> str | None:
    """Why the response speaks of several referents of the question, or None: the one cue set that the
    class, CoT, strategy and bias rules share (several answered, plural mentions unless `plural` is
    False, exclusive places, quantifiers, place-led list items, one ... another, numbered referents,
    answers under several assumptions)."""
    return (
        several_answered(q, response)
        or (multiple_referents(q, response) if plural else _several_not_plural(q, response))
        or conditional_answers(response)
    )


def _several_not_plural(q: QuestionCues, response: str) -> str | None:
    """multiple_referents without its plural mention (the class rule reads a plural only after checking
    that the answer does not single one referent out)."""
    return multiple_referents(q, response, plural=False)


def multiple_referents(q: QuestionCues, response: str, plural: bool = True) -> str | None:
    """Why the response speaks of several referents of the question, or None (`plural` False: without
    its plural mentions)."""
    plurals = plural_mentions(q, response) if plural else []
    if plurals:
        return f"plural mention: {plurals[0]}"
    places = located_places(q, response)
    if exclusive_places(places):
        return f"referents in places that exclude each other: {', '.join(dict.fromkeys(places))}"
    if quantified_mention(q, response):
        return "quantified mention (both / each / the other)"
    led = place_led_items(response, q.words | q.referents)
    if exclusive_places(led):
        return f"items led by places that exclude each other: {', '.join(dict.fromkeys(led))}"
    people = person_led_items(response)
    if people and (q.referents & PERSON_NOUNS or q.pronoun in PRONOUN_PEOPLE):
        return f"items led by different people: {', '.join(dict.fromkeys(people))}"
    keyed = referent_keyed_items(q, response) or values_keyed_in_brackets(q, response)
    if keyed:
        return f"items keyed by different referents: {', '.join(keyed)}"
    text = normalise(response)
    another = one_and_another(q, text) or another_instance(q, text)
    if another:
        return another
    numbered = numbered_referents(q, text)
    if numbered:
        return f"numbered referents: {', '.join(numbered)}"
    return None


# "a second skier", "the third dog" (not "the second dog from the left": an ordinal that picks one of a row)
_ORDINAL = r"(?:second|third|fourth|fifth|2nd|3rd|4th|5th)"


def another_instance(q: QuestionCues, text: str) -> str | None:
    """A further referent introduced beside the first: "a second skier", "the second teacher", "another
    dog", "her friend has a jacket too" (the referent as the object of "has / wears ... too"). An ordinal
    counted from a place ("the second dog from the left") picks one out and is no second referent."""
    if not q.referents:
        return None
    names = _alias_pattern(set(q.referents))
    for m in re.finditer(r"\b(?:an?|the)\s+" + _ORDINAL + r"\s+(?:" + _WORD + r"\s+)?" + names, text):
        if not re.match(r"\s*(?:\(\s*)?(?:from|counting|in (?:the )?(?:row|line|queue))\b", text[m.end() :]):
            return f"a further referent: {m.group(0)!r}"
    paired = ordinal_pair(names, text)
    if paired:
        return paired
    too = re.search(
        r"\b(?:is|are|wears|wearing|has|have|holds|holding|carries|carrying)\s+an?\s+(?:"
        + _WORD
        + r"\s+){0,2}?"
        + names
        + r"\s*,?\s+(?:too|as well)\b",
        text,
    )
    return f"a further referent: {too.group(0)!r}" if too else None


# ordinals that count referents ("final" is left out: "the final answer")
_COUNTED = "|".join(sorted(lx.ORDINALS - {"final"}, key=len, reverse=True))


def ordinal_pair(names: str, text: str) -> str | None:
    """Two referents told apart by different ordinals, the second often with its noun left out: "the first
    cyclist ..., the second.", "the third dog is asleep; the last one is eating" (`names`: the referent
    words as an alias pattern). One ordinal alone picks one out ("the second dog from the left"), and an
    ordinal before another noun counts something else ("the second time", "his second race")."""
    first = re.search(r"\bthe\s+(" + _COUNTED + r")\s+(?:" + _WORD + r"\s+)?" + names, text)
    if first is None:
        return None
    ends = r"(?=\s*(?:[.,;:!?)]|$|" + names + r"|\bone\b|(?:" + _SUBJECT_VERB_WORDS + r")\b))"
    for m in re.finditer(r"\b(?:the|a)\s+(" + _COUNTED + r")\b" + ends, text[first.end() :]):
        if m.group(1) != first.group(1):
            return f"referents told apart by ordinals: {first.group(0)!r} ... {m.group(0)!r}"
    return None


def one_and_another(q: QuestionCues, text: str) -> str | None:
    """ "One plate has pasta, another has a salad": "one" before the question's referent, then "another"
    or "the other" (in "one is in the foreground, the other ..." about people, for a question about a
    hat, the referent is not named, so it is not this)."""
    if not q.referents:
        return None
    names = _alias_pattern(set(q.referents) | {plural_of(n) for n in q.referents})
    one = r"\bone\s+(?:of (?:the|them)\s+)?"
    if re.search(one + names + r"[^.?!]*?\b(?:the other|another)\b", normalise(text)):
        return "one ... the other / another"
    return None


def numbered_referents(q: QuestionCues, text: str) -> list[str]:
    """Referents told apart by numbers ("child 1 ... child 2", "dog #1 and dog #2"): two or more, or []."""
    for noun in sorted(q.referents):
        found = re.findall(r"\b" + re.escape(noun) + r"\s*(?:#|no\.?\s*|number\s+)?(\d+)\b", text)
        if len(set(found)) >= 2:
            return [f"{noun} {n}" for n in dict.fromkeys(found)]
    return []
