"""Keyed list items and sentences: the keys that lead them ("Left: ...", "Woman - ...", "The grey cat:
..."), read as places, people or referents, values keyed in brackets, and list lines.

- lists keyed by different referents in the reply's own words ("The grey cat: ... / The tabby: ...",
  "Top-left lamp: ... / Bottom-right lamp: ...", "4 (keeper), 17 (winger)"), but not keys for one
  referent's parts ("Head: ... / Top: ... / Bottom: ...", "In his left hand: ...").
"""

from __future__ import annotations

import itertools
import re

from assistant import lexicon as lx
from assistant.evaluation import reply_checks
from assistant.evaluation.cues.people import names_person, of_asked_kind
from assistant.evaluation.cues.places import _places_in
from assistant.evaluation.cues.question import QuestionCues
from assistant.evaluation.cues.text import (
    _WORD,
    DETERMINERS,
    POSSESSIVE_PRONOUNS,
    PREPOSITIONS,
    STOPWORDS,
    _single,
    is_plural,
    normalise,
    normalise_keys,
)
from assistant.lexicon import DISTINGUISHING_ADJECTIVES, PLACE_WORDS

# A list item or sentence led by a short key and ":", ",", " - " or a dash: "Left: a red car", "- **On the
# right**, the man ...", "Player on the left:", "Leftmost person:", "Left woman -", "Further back, ..."
_KEYED = re.compile(
    r"^\s*(?:[-*\u2022]|\d+[.)])?\s*((?:[a-z'-]+\s+){0,7}[a-z'-]+)\s*(:|,|\s[-\u2013\u2014]\s|[\u2013\u2014])"
)
# a key set off by ":" or a dash may be a described referent of up to eight words ("Chef at the far
# counter:"); one set off by a comma is more often a sentence's own opening, and a place key is a place
# only when short, so these stay at four words
_COMMA_KEY_WORDS = 4


def _keyed_segments(response: str, commas: bool = True) -> list[str]:
    """The keys that lead the response's list items or sentences ("player on the left", "woman"); with
    commas False, only keys set off by ":" or a dash (a sentence's subject is often followed by a comma)."""
    return [key for key, _ in _keyed_pairs(response, commas)]


def _keyed_pairs(response: str, commas: bool = True) -> list[tuple[str, str]]:
    """(key, what follows it) of the response's keyed list items or sentences (`_keyed_segments`)."""
    text = response.replace("*", "").replace("_", " ").lower()
    pairs = []
    for segment in re.split(r"\n|;|(?<=[.!?])\s+", text):
        # an aside inside the key ("Right shoe (the hiking boot): ...") is no part of it
        segment = re.sub(r"^([^:\n]{0,60}?)\s*\([^()]{0,40}\)(?=\s*:)", r"\1", segment)
        m = _KEYED.match(segment)
        if m and m.group(2) == "," and len(m.group(1).split()) > _COMMA_KEY_WORDS:
            continue
        if m and (commas or m.group(2) != ","):
            pairs.append((m.group(1), segment[m.end() :].strip()))
    return pairs


def keyed_items(response: str) -> list[tuple[str, str]]:
    """(key, value) of the items or sentences keyed by ":" or a dash ("By the gate: a goat"), once each."""
    found = {key.strip(): value for key, value in _keyed_pairs(normalise_keys(response), commas=False)}
    return list(found.items())


def place_led_items(response: str, asked: frozenset[str] = frozenset()) -> list[str]:
    """The places that lead the response's list items or sentences, in order ("left", "right"); not the
    keys of one referent's parts (`_part_keys`), unless the question asks about those parts (`asked`)."""
    # a long key is a clause, not a place ("Counting candles from left to right: 1, 2, 3")
    keys = [k.strip() for k in _keyed_segments(response) if len(k.split()) <= _COMMA_KEY_WORDS]
    parts = _part_keys(keys, asked)
    return [p for k in keys if k not in parts for p in _places_in(k)]


def _part_keys(keys: list[str], asked: frozenset[str]) -> set[str]:
    """The keys that name parts of one referent: owned by a pronoun ("his left hand"), ending in a part
    that is no place ("left paw", "right hand"), and, in a list that has such a key or one for a garment
    ("Head: ... / Top: ... / Bottom: ... / Feet: ..."), the bare place words that are parts too ("top",
    "bottom": the outfit's halves, not two people)."""
    parts = set()
    for key in keys:
        toks = re.findall(_WORD, key)
        if not toks or set(toks) & asked:
            continue
        if set(toks) & POSSESSIVE_PRONOUNS or (toks[-1] in lx.PART_NOUNS and toks[-1] not in PLACE_WORDS):
            parts.add(key)
    outfit = any(k in lx.CLOTHING and k not in PLACE_WORDS for k in keys)
    if parts or outfit:
        parts |= {k for k in keys if k in lx.PART_NOUNS | lx.CLOTHING and k not in asked}
    return parts


_PERSON_KEY = re.compile(r"^(?:the |a |an )?(?:[a-z'-]+ )?([a-z'-]+)$")


def person_led_items(response: str) -> list[str]:
    """The different people that lead list items or sentences ("Woman: ...", "The man - ...", "Chef:
    ... / Waiter: ..."): a list keyed by person, or []."""
    people = []
    for key in _keyed_segments(response, commas=False):
        m = _PERSON_KEY.match(key.strip())
        noun = m.group(1) if m else ""
        if noun and names_person(noun):
            people.append(_single(noun))
    return people if len(set(people)) >= 2 else []


def referent_keyed_items(q: QuestionCues, response: str) -> list[str]:
    """Two or more list items or sentences keyed (":" or a dash) by different referents, in the reply's
    own words: "The brown dog: ... / The spotted dog: ...", "Horse by the fence: ... / Horse in the
    field: ...", "The grey cat: ... / The tabby: ...". A key names a referent when its head (the words
    before any preposition) holds a referent word or "one", or when it is a "the ..." phrase whose words
    are not the question's (the question's own "collar" keys a part, not a second dog); at least one key
    must hold a referent word. "Colour of the dog: ... / Breed of the dog: ..." keys attributes of one
    dog (the referent follows "of"), and a key repeated is one referent. [] when not so."""
    names = set(q.referents) | {"one"}
    keys: list[str] = []
    named = False
    for key in dict.fromkeys(k.strip() for k in _keyed_segments(response, commas=False)):
        toks = re.findall(_WORD, key)
        head = _key_head(toks, names)
        if set(head) & names and _noun_phrase_key(head):
            named = True
            keys.append(key)
        elif _other_referent_key(q, toks, head):
            keys.append(key)
    return keys if named and len(keys) >= 2 else []


# "4 (goalkeeper)", "red (the left one)": a value and, in brackets, whose it is
_BRACKET_KEYED = re.compile(r"([a-z0-9#'-]+)\s*\(([^()]{1,40})\)(?=\s*(?:,|;|\band\b|\.|$))")


def values_keyed_in_brackets(q: QuestionCues, response: str) -> list[str]:
    """A list of values each keyed in brackets by a different referent, in one sentence: "4 (goalkeeper),
    17 (striker) and 22 (defender)", "red (left one) and blue (right one)". A key names a referent when
    its last word is the question's referent word, "one", or a person (a player for his jersey); an
    attribute in brackets ("a jacket (navy) and jeans (denim)") keys none. [] when not so."""
    names = set(q.referents) | {"one"}
    for sentence in reply_checks.sentences(normalise(response)):
        keys: dict[str, str] = {}
        for m in _BRACKET_KEYED.finditer(sentence):
            toks = re.findall(_WORD, m.group(2))
            if toks and (toks[-1] in names or names_person(toks[-1])) and not is_plural(toks[-1]):
                keys.setdefault(" ".join(toks), m.group(1))
        if len(keys) >= 2 and len(set(keys.values())) >= 2:
            return list(keys)
    return []


def _key_head(toks: list[str], names: set[str]) -> list[str]:
    """A key's head: its words before a preposition, up to its first referent word; what follows that
    word describes it ("Dog lying on the mat" -> "dog", "Umbrella held by the man" -> "umbrella")."""
    head = list(itertools.takewhile(lambda t: t not in PREPOSITIONS, toks))
    named = next((k for k, t in enumerate(head) if t in names), None)
    return head if named is None else head[: named + 1]


def _other_referent_key(q: QuestionCues, toks: list[str], head: list[str]) -> bool:
    """A "the ..." key in words the question does not use ("The tabby:"), that is not a part or a thing
    worn ("The collar:" keys the dog's collar, not a second dog) nor a thing of another kind (`of_asked_kind`:
    "The load:" beside "The crane:" keys what the crane lifts, "The board:" what the chef cuts on; an owner
    keys its thing: "The man: ... / The woman: ..." for the hat)."""
    if len(head) != len(toks) or len(toks) < 2 or toks[0] != "the" or set(toks[1:]) & q.words:
        return False
    if toks[-1] in lx.PART_NOUNS or toks[-1] in lx.CLOTHING:
        return False
    return of_asked_kind(q, toks[-1], owner=True) is not False


_KEY_STARTS = lx.ARTICLES | lx.DEICTICS | DISTINGUISHING_ADJECTIVES | lx.COLORS | lx.VISUAL_ADJECTIVES


def _noun_phrase_key(head: list[str]) -> bool:
    """A key that is a noun phrase naming a referent ("The brown dog", "Horse", "Top-left clock",
    "Spotted dog"), not a step's title ("Identify the woman", "Examine her hair": a verb first, or the
    referent owned by a pronoun, which is one person's part)."""
    if any(t in POSSESSIVE_PRONOUNS for t in head):
        return False
    first = head[0]
    return first in _KEY_STARTS or first.endswith("ed") or len(head) == 1 or bool(_places_in(first))


_KEY_ENDS = PREPOSITIONS | PLACE_WORDS | lx.RELATIVISERS  # "runner nearest the camera": the runner


def _key_nouns(response: str) -> set[str]:
    """The nouns that key list items or sentences with no article ("Player on the left: 10", "woman with
    sunglasses: iced coffee"): each is a referent phrase as much as one after "the"."""
    found = set()
    for key in _keyed_segments(normalise_keys(response), commas=False):
        if len(key.split()) > _COMMA_KEY_WORDS:  # a long key may be a clause ("There's a cat curled up -")
            continue
        toks = list(itertools.takewhile(lambda t: t not in _KEY_ENDS, re.findall(_WORD, key)))
        if toks and toks[0] not in DETERMINERS and toks[-1] not in STOPWORDS and not is_plural(toks[-1]):
            found.add(toks[-1])
    return found - PLACE_WORDS


def list_items(response: str) -> list[str]:
    """Lines that start as list items ("- ...", "* ...", "1. ...", "2) ...")."""
    lines = response.replace("\r", "").split("\n")
    return [ln.strip() for ln in lines if re.match(r"\s*(?:[-*\u2022]|\d+[.)])\s+\S", ln)]
