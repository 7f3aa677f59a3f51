"""Small English helpers shared by the policy's explanations and the replies."""

from __future__ import annotations

from functools import lru_cache

import inflect

_COUNT_WORDS = {
    1: "One",
    2: "Two",
    3: "Three",
    4: "Four",
    5: "Five",
    6: "Six",
    7: "Seven",
    8: "Eight",
    9: "Nine",
}


@lru_cache(maxsize=1)
def _inflector() -> inflect.engine:
    return inflect.engine()


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
