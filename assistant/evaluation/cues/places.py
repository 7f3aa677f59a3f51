"""Places attached to mentions of the referent.

- located mentions: each referent word (or "one") followed within a few words by a place ("on the left",
  "in the foreground", "(right side)"), preceded by one ("the left dog"), or placed by the lead of its
  clause ("In the foreground a brown horse ..."); two places that exclude each other (left / right /
  middle, foreground / background, top / bottom) mean two referents.
"""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant.evaluation.cues.counting import _about_other_things
from assistant.evaluation.cues.question import QuestionCues
from assistant.evaluation.cues.text import _WORD, DETERMINERS, VERBS, _alias_pattern, normalise
from assistant.lexicon import PLACE_GROUPS, PLACE_WORDS, word_set

# places by what they exclude: near / far is one axis however it is said ("in the foreground", "closest",
# "in front" / "in the background", "further back", "behind")
_CANON_PLACE = {
    "centre": "middle",
    "center": "middle",
    "leftmost": "left",
    "rightmost": "right",
    "front": "foreground",
    "closest": "foreground",
    "nearest": "foreground",
    "back": "background",
    "behind": "background",
    "farthest": "background",
    "furthest": "background",
}


# "near" / "far" name a place on the near-far axis only as adjectives ("near goalkeeper", "the far one"):
# before an article or a determiner "near" is a preposition ("near the door": beside something) and before a
# place word "far" is an intensifier ("far left"); "far from" / "far away" say how far, not which one
_NEAR_FAR = {"near": "foreground", "far": "background"}
_NOT_AFTER_NEAR_FAR = DETERMINERS | PLACE_WORDS | word_set("from away too so more less off by to of")


def _places_in(fragment: str) -> list[str]:
    """Every place word of a fragment, canonical; "top-left" is two places, each on its own axis."""
    toks = re.findall(r"[a-z]+", fragment)
    found = []
    for k, w in enumerate(toks):
        if w in _NEAR_FAR:
            after = toks[k + 1] if k + 1 < len(toks) else None
            found.append(_NEAR_FAR[w] if after and after not in _NOT_AFTER_NEAR_FAR else w)
        else:
            found.append(_CANON_PLACE.get(w, w))
    return [w for w in found if any(w in g for g in PLACE_GROUPS)]


def _place_of(fragment: str) -> str | None:
    """The first place word in `fragment`, canonical ("centre" -> "middle", "behind" -> "background")."""
    places = _places_in(fragment)
    return places[0] if places else None


place_of = _place_of  # public: PASS compares the hint's place with the reply's (answer_match)


def located_places(q: QuestionCues, response: str) -> list[str]:
    """The places attached to mentions of the referent (or of "one"), in order of appearance."""
    text = normalise(response)
    names = set(q.referents) | {"one"}
    places = []
    for m in re.finditer(_alias_pattern(names), text):
        if m.group(0) == "one" and _about_other_things(q, text[: m.start()], counted=False):
            continue  # "two people, one in the foreground and one in the background" for a hat
        after = text[m.end() : m.end() + 40]
        hit = re.match(
            r"\s*(?:\(|,)?\s*(?:who is |that is |which is |sitting |standing |is )?"
            r"(?:on|in|at|to|towards|near)\s+(?:the\s+)?(?:far\s+)?(\w+)",
            after,
        )
        hit = hit or re.match(r"\s*\(\s*(\w+)", after)
        place = _place_of(hit.group(1)) if hit else None
        if place is None:
            before = text[max(0, m.start() - 20) : m.start()]
            pre = re.search(r"\bthe\s+(\w+)\s*$", before)
            place = _place_of(pre.group(1) + " " + m.group(0)) if pre else None
        if place is None and not text[m.end() :].startswith("'s"):
            place = _clause_lead_place(text[: m.start()])
        if place:
            places.append(place)
    return places


# a clause that opens with a place and then names its subject: "In the foreground a brown horse ...",
# "further back, near the fence, the grey horse ..."; the lead runs from the clause's start to the
# subject's article and holds no verb
_LEAD = re.compile(r"^\s*([a-z][a-z ,'-]{0,60}?)\s*,?\s*(?:an?|the|another)\s+(?:[a-z-]+\s+){0,2}$")
_LEAD_OPENERS = lx.SPATIAL_PREPOSITIONS | PLACE_WORDS | word_set("further farther closer nearer far way")


def placed_by_lead(q: QuestionCues, response: str) -> str | None:
    """A mention of the referent whose clause opens with its place ("In front, a white goat ..."): one
    referent said by place, as "the goat in front" would be; None when there is none."""
    text = normalise(response)
    for m in re.finditer(_alias_pattern(set(q.referents)), text) if q.referents else ():
        place = None if text[m.end() :].startswith("'s") else _clause_lead_place(text[: m.start()])
        if place:
            return f"{m.group(0)}, placed by its clause: {place}"
    return None


def _clause_lead_place(before: str) -> str | None:
    """The place that opens the clause of a mention whose own phrase has none (`before`: the text up to
    the mention), or None: the lead must start with a place word or spatial preposition and hold no
    verb, so that it places the subject ("On the left a man walks a dog" places the man, and the dog
    only as the object of a clause whose lead already has its subject)."""
    clause = re.split(r"[.;:!?\n]|\s(?:and|while|whereas|but)\s", before)[-1]
    lead = _LEAD.match(clause)
    if lead is None:
        return None
    toks = re.findall(_WORD, lead.group(1))
    if not toks or toks[0] not in _LEAD_OPENERS or any(t in VERBS or t.endswith("ing") for t in toks):
        return None
    return _place_of(lead.group(1))


def exclusive_places(places: list[str]) -> bool:
    """Two places of one group that exclude each other (left and right, ...)."""
    for group in PLACE_GROUPS:
        canon = {_CANON_PLACE.get(p, p) for p in places if p in group or _CANON_PLACE.get(p, p) in group}
        if len(canon) >= 2:
            return True
    return False
