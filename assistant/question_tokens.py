"""The question parser's data (tokens, noun phrases, modifiers) and its token access.

The parser is three layers, one module each, over `TokenReader`: modifiers after a head
(assistant.question_modifiers), noun phrases (assistant.question_phrases) and clause shapes
(assistant.question_parser). Noun phrases and their modifiers call each other (a modifier's object is a noun
phrase), so the lower layer declares the two noun-phrase entry points it calls back into. See
assistant.question for the rules they implement; all of it is internal to that module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from assistant import lexicon as lx
from assistant.types import GrammaticalNumber
from assistant.words import (
    FUNCTION_WORDS,
    PHRASE_OPENERS,
    POSSESSIVE,
    PUNCT,
    is_adverb,
    is_ing,
    is_participle,
    is_word,
)

# Where a noun phrase sits in the question, which decides what may follow it: after a wh-word ("which cup"),
# as an object, after "is" in a wh- or yes/no question, after "do", in an embedded question, after "there is",
# or anywhere else ("plain").
ParseMode = Literal["wh", "object", "be_wh", "be_yn", "do", "embedded", "exist", "plain"]


@dataclass(frozen=True)
class Token:
    norm: str  # lower case, American spelling, contractions expanded
    orig: str  # lower case as typed


@dataclass
class Phrase:
    """A noun phrase: token spans of its focus text, its head and what narrows it."""

    parts: list[tuple[int, int]]
    head: str
    head_word: str  # the head as written (normalised), before any lemma or pronoun mapping
    number: GrammaticalNumber
    end: int
    pronoun_word: str | None = None
    bare_pronoun: bool = False
    definite: bool = False
    descriptors: list[str] = field(default_factory=list)
    spatial: list[str] = field(default_factory=list)
    places: list[Phrase] = field(default_factory=list)  # objects of its spatial phrases


@dataclass
class Post:
    """One modifier after the head: a prepositional phrase, a participle or a relative clause."""

    kind: Literal["pp", "part", "rel"]
    start: int
    end: int
    text_start: int  # first token of the descriptor text ("who is holding" -> "holding")
    has_object: bool = True
    spatial: bool = False
    place: Phrase | None = None
    image: bool = False  # "in the picture": the whole image, no constraint


class TokenReader:
    """The tokens of one question, and what a word at a position is."""

    def __init__(self, toks: list[Token]) -> None:
        self.toks = toks

    # token access
    def w(self, k: int) -> str:
        return self.toks[k].norm if 0 <= k < len(self.toks) else ""

    def text(self, start: int, end: int, *, orig: bool = False) -> str:
        out: list[str] = []
        for tok in self.toks[max(start, 0) : end]:
            word = tok.orig if orig else tok.norm
            if tok.norm == POSSESSIVE and out:
                out[-1] += word if orig else "'s"
            elif tok.norm in PUNCT:
                continue
            else:
                out.append(word)
        return " ".join(out)

    def is_content(self, k: int) -> bool:
        w = self.w(k)
        return is_word(w) and w not in FUNCTION_WORDS and not is_adverb(w)

    def starts_np(self, k: int, *, verbs_ok: bool = False) -> bool:
        w = self.w(k)
        if not is_word(w) or w in lx.SPEAKER_PRONOUNS:
            return False
        if w in PHRASE_OPENERS or w in lx.POSSESSIVE_PRONOUNS:
            return True
        if not self.is_content(k):
            return False
        if verbs_ok:
            return True
        return not self._verb_like(w)

    def _verb_like(self, w: str) -> bool:
        if w in lx.ING_NOUNS:
            return False
        if is_ing(w) or is_participle(w):
            return True
        # "holds", "watches": a 3rd-person verb where a noun phrase was expected
        return w.endswith("s") and (w[:-1] in lx.BARE_VERBS or w[:-2] in lx.BARE_VERBS) and w[:-1] != "show"

    # defined by the noun-phrase layer (question_phrases.PhraseParser); the modifier layer calls back in
    def np(
        self, i: int, mode: ParseMode, *, aux: str | None = None, how_many: bool = False, post: bool = True
    ) -> Phrase | None:
        raise NotImplementedError

    def run(self, k: int, mode: ParseMode, *, after_det: bool) -> tuple[list[int], int]:
        raise NotImplementedError
