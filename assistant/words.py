"""Word tests for the question rules: word classes, plural and singular nouns, descriptor kinds.

Lists live in assistant.lexicon; this module says how a single word or descriptor is classed.
"""

from __future__ import annotations

from functools import lru_cache

import inflect

from assistant import lexicon as lx

PUNCT = frozenset({"?", "!", ".", ";", ",", ":"})
POSSESSIVE = "'s"  # the token for a possessive ending ("the player's" -> player, 's)

# determiners and pronouns that can open a noun phrase ("the", "these", "my", "every", "someone", "it")
PHRASE_OPENERS = (
    lx.ARTICLES
    | lx.DEICTICS
    | lx.SPEAKER_POSSESSIVES
    | lx.OTHER_DETERMINERS
    | lx.PREDETERMINERS
    | lx.PERSON_PRONOUNS
    | lx.THING_PRONOUNS
    | lx.PLURAL_PRONOUNS
    | lx.INDEFINITE_PERSON
    | lx.INDEFINITE_THING
)

FUNCTION_WORDS = (
    PHRASE_OPENERS
    | lx.SPEAKER_PRONOUNS
    | lx.AUX
    | lx.NEGATION
    | lx.WH
    | lx.RELATIVISERS
    | lx.CONJUNCTIONS
    | lx.PREPOSITIONS
    | lx.ADVERBS
    | {"there", POSSESSIVE, "not"}
)
# Adjectives that end a noun phrase when they come after its noun ("Is the dog asleep?"); nouns that are
# also colours or materials ("the traffic light", "the water glass") are left out.
PEELABLE = (lx.PREDICATE_ADJECTIVES | lx.NON_VISUAL_ADJECTIVES) - {
    "light",
    "glass",
    "metal",
    "plastic",
    "leather",
    "baby",
    "adult",
    "present",
    "male",
    "female",
    "cream",
}
ADJECTIVES = lx.PREDICATE_ADJECTIVES | lx.NON_VISUAL_ADJECTIVES


@lru_cache(maxsize=1)
def _inflector() -> inflect.engine:
    return inflect.engine()


# --- small word tests ----------------------------------------------------------------------------------
def is_word(w: str) -> bool:
    return bool(w) and w[0].isalnum()


def is_ing(w: str) -> bool:
    return len(w) >= 5 and w.endswith("ing")


def is_participle(w: str) -> bool:
    if w in lx.IRREGULAR_PARTICIPLES:
        return True
    return len(w) >= 5 and w.endswith("ed") and not w.endswith("eed") and w not in lx.ED_NOUNS


def is_adverb(w: str) -> bool:
    return w in lx.ADVERBS or (len(w) > 4 and w.endswith("ly") and w not in lx.LY_WORDS)


def is_superlative(w: str) -> bool:
    if w in lx.IRREGULAR_SUPERLATIVES:
        return True
    return len(w) > 4 and w.endswith("est") and w not in lx.EST_WORDS


def is_adjective_form(w: str) -> bool:
    """An adjective, or its comparative / superlative ("bigger", "tallest", "kinder")."""
    if w in ADJECTIVES or is_superlative(w):
        return True
    if w.endswith("er") and len(w) > 4:
        stem = w[:-2]
        return any(s in ADJECTIVES for s in (stem, stem + "e", stem[:-1], stem[:-1] + "y"))
    return False


def number_value(w: str) -> int | None:
    if w.isdigit():
        return int(w[:6])
    return lx.NUMBER_WORDS.get(w)


@lru_cache(maxsize=4096)
def is_plural_noun(w: str) -> bool:
    """Whether a noun's form is plural ("cars", "people"); -s singulars ("bus", "glass") are not."""
    if not w.isascii() or not w.isalpha() and "-" not in w:
        return False
    if w in lx.SINGULAR_S_NOUNS or w in lx.INVARIANT_NOUNS or w.endswith(("ss", "us")):
        return False
    if w.endswith("is") and w[:-1] not in {"ski", "taxi", "kiwi", "bikini", "safari", "khaki", "martini"}:
        return False
    try:
        return bool(_inflector().singular_noun(w))
    except Exception:  # inflect on odd words (digits, hyphens): treat as singular
        return False


@lru_cache(maxsize=4096)
def lemma(w: str) -> str:
    """Singular form of a head noun; plural-only nouns and worn pairs keep their form ("pants", "shoes")."""
    if w in lx.PLURALIA_TANTUM or w in lx.PAIR_NOUNS or not is_plural_noun(w):
        return w
    if w.endswith("ies") and w[:-1] in lx.IE_NOUNS:
        return w[:-1]
    try:
        single = _inflector().singular_noun(w)
    except Exception:  # see is_plural_noun
        return w
    return single if isinstance(single, str) and single else w


def _strip_degree(text: str) -> list[str]:
    return [w for w in text.lower().split() if w not in lx.DEGREE_WORDS]


def _non_visual_word(w: str) -> bool:
    if w in lx.NON_VISUAL_ADJECTIVES or w in lx.NON_VISUAL_ROLE_NOUNS:
        return True
    stems = []
    if w.endswith("iest") or w.endswith("ier"):
        stems.append(w[: -4 if w.endswith("iest") else -3] + "y")
    for suffix in ("est", "er"):
        if w.endswith(suffix) and len(w) > len(suffix) + 2:
            stems += [w[: -len(suffix)], w[: -len(suffix)] + "e", w[: -len(suffix) - 1]]
    for prefix in ("un", "in", "im", "ir", "il", "dis"):
        if w.startswith(prefix) and len(w) > len(prefix) + 3:
            stems.append(w[len(prefix) :])
    return any(s in lx.NON_VISUAL_ADJECTIVES for s in stems)


def is_non_visual_descriptor(text: str) -> bool:
    """True for a descriptor no image can check: a character, competence or social trait ("emotional",
    "most heroic", "kindest", "dishonest"). Visible features ("young", "tall", "smiling") are False."""
    words = [lx.SPELLING.get(w, w) for w in _strip_degree(text) if w != "and"]
    return bool(words) and all(_non_visual_word(w) for w in words)


def is_unique_descriptor(text: str) -> bool:
    """True for a descriptor that picks one referent by itself: an ordinal ("second"), a superlative
    ("tallest", "most heroic") or a word like "only" / "leftmost"."""
    words = text.lower().split()
    return any(w in lx.ORDINALS or w in lx.UNIQUE_WORDS or is_superlative(w) for w in words)


def is_spatial_descriptor(text: str) -> bool:
    """True for a descriptor that names a place: "on the left", "left", "next to the car", "at the top"."""
    words = [lx.SPELLING.get(w, w) for w in text.lower().split()]
    if not words:
        return False
    if words[0] in lx.POSITION_WORDS:
        return True
    if words[0] not in lx.SPATIAL_PREPOSITIONS | {"to", "from"}:
        return False
    rest = [w for w in words[1:] if w not in lx.ARTICLES]
    if any(w in lx.POSITION_WORDS for w in rest):
        return True
    if words[0] not in lx.SPATIAL_PREPOSITIONS:
        return False
    # "in the red shirt", "in blue" say what is worn, not where
    return not (words[0] in {"in", "with"} and rest and (rest[-1] in lx.CLOTHING or rest[-1] in lx.COLORS))


# --- phrase making (explanations and replies) ----------------------------------------------------------

_COUNT_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight"}


def plural(noun: str) -> str:
    """ "cup" -> "cups", "street sign" -> "street signs", "person" -> "people"."""
    words = noun.split()
    if not words:
        return "things"
    return " ".join([*words[:-1], _inflector().plural_noun(words[-1]) or words[-1]])


def count_word(n: int) -> str:
    return _COUNT_WORDS.get(n, str(n))


def count_phrase(n: int, noun: str) -> str:
    """ "Three cups", "One cup"."""
    return f"{count_word(n)} {plural(noun) if n != 1 else noun}"
