"""The parts of the assistant's sentences that depend on the language beyond a catalog lookup: counts
("Three cups" in English, "3 candidatos («taza»)" elsewhere, where a noun's plural and gender are not
known) and the candidates' descriptions, re-said from their parts ("the cup on the left, large" ->
"taza, a la izquierda, grande")."""

from __future__ import annotations

from dataclasses import replace

from assistant.languages.catalog import Say
from assistant.types import Candidates, Region
from assistant.words import count_phrase


def N_(msgid: str) -> str:
    """Marks a msgid that is looked up later by value (gettext's convention; `babel extract -k N_`)."""
    return msgid


# What assistant.regions writes into a description (position_words, size_words, _disambiguate), as msgids.
POSITIONS = (
    N_("on the left"),
    N_("on the right"),
    N_("at the top"),
    N_("at the bottom"),
    N_("at the top left"),
    N_("at the top right"),
    N_("at the bottom left"),
    N_("at the bottom right"),
    N_("in the centre"),
)
_SIZE_PHRASES = (N_("small, in the background"), N_("the largest"), N_("large"), N_("small"))
ORDINALS = (
    N_("first from the left"),
    N_("second from the left"),
    N_("third from the left"),
    N_("fourth from the left"),
    N_("fifth from the left"),
    N_("sixth from the left"),
    N_("seventh from the left"),
    N_("eighth from the left"),
    N_("ninth from the left"),
    N_("tenth from the left"),
)


def count_text(say: Say, n: int, noun: str, *, lower: bool = False) -> str:
    """ "Three cups" (English, as count_phrase says it; `lower` for mid-sentence), or the catalog's count
    with the user's noun quoted."""
    if say.lang == "en":
        text = count_phrase(n, noun)
        return text.lower() if lower else text
    return say.n("{count} candidate ({noun})", "{count} candidates ({noun})", n, noun=say.noun(noun))


def describe_region(say: Say, region: Region, noun: str) -> str:
    """A region's description in `say`'s language, from the parts assistant.regions.describe joined:
    "the {label} {position}", then ", {size}" and ", {ordinal} from the left" when there."""
    prefix = f"the {region.label.strip() or 'object'} {region.position}"
    if say.lang == "en" or not region.description.startswith(prefix):
        return region.description
    rest = region.description[len(prefix) :].lstrip(", ")
    parts = [say("{noun}, {position}", noun=say.noun(noun), position=say(region.position))]
    for size in _SIZE_PHRASES:
        if rest == size or rest.startswith(size + ", "):
            parts.append(say(size))
            rest = rest[len(size) :].lstrip(", ")
            break
    if rest:
        parts.append(say(rest))  # "second from the left" ... "number 12 from the left"
    return say(", ").join(parts)  # the list separator: "，" in Chinese


def localise_candidates(candidates: Candidates, say: Say, noun: str) -> Candidates:
    """The candidates with their descriptions in `say`'s language (the same object for English)."""
    if say.lang == "en":
        return candidates
    regions = [replace(r, description=describe_region(say, r, noun or r.label)) for r in candidates.regions]
    return replace(candidates, regions=regions)


__all__ = ["count_text", "describe_region", "localise_candidates"]
