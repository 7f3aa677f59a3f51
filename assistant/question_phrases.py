"""Noun phrases: determiners, the run of modifiers and head noun, pronouns, grammatical number."""

from __future__ import annotations

from dataclasses import dataclass

from assistant import lexicon as lx
from assistant.question_modifiers import ModifierParser
from assistant.question_tokens import ParseMode, Phrase
from assistant.types import GrammaticalNumber
from assistant.words import (
    ADJECTIVES,
    PEELABLE,
    POSSESSIVE,
    PUNCT,
    is_adjective_form,
    is_ing,
    is_participle,
    is_plural_noun,
    is_spatial_descriptor,
    lemma,
    number_value,
)

_PRONOUNS = (
    lx.PERSON_PRONOUNS | lx.THING_PRONOUNS | lx.PLURAL_PRONOUNS | lx.INDEFINITE_PERSON | lx.INDEFINITE_THING
)


@dataclass
class Determiners:
    """What the words before a noun phrase's modifiers say: where they end (k), its number when they say
    it ("a", "all", "two"), "these" (plural unless the noun is a worn pair), "the", and the pronoun of
    "this dog" / "his jacket"."""

    k: int
    explicit: str | None = None
    weak_plural: bool = False
    definite: bool = False
    pronoun_word: str | None = None
    possessive_pronoun: str | None = None


class PhraseParser(ModifierParser):
    """Noun phrases over the tokens, with the modifiers after their heads."""

    def np(
        self, i: int, mode: ParseMode, *, aux: str | None = None, how_many: bool = False, post: bool = True
    ) -> Phrase | None:
        """The noun phrase starting at token i. mode says how to read what follows its head:
        be_wh ("What is NP doing?"), be_yn ("Is NP on the sofa?"), do ("What does NP say?"), exist,
        wh (a wh-phrase: "what kind of hat"), embedded, plain."""
        det = Determiners(i, explicit="plural" if how_many else None)
        self.predeterminers(det)
        if not self.determiner(det):  # a pronoun standing alone ("it", "this?") is the phrase
            return self.pronoun_phrase(det.k, mode, aux)
        self.number_word(det)
        run, k = self.run(det.k, mode, after_det=det.k > i)
        if not run:
            return None
        if (
            k == i + len(run)
            and all(is_adjective_form(self.w(p)) for p in run)
            and (self.w(k) in PUNCT | lx.CONJUNCTIONS | {""})
        ):
            return None  # "Which cup is [red]?": a predicate, not a noun phrase
        return self.finish(i, run, k, mode, det, aux=aux, post=post)

    def predeterminers(self, det: Determiners) -> None:
        """ "all (of)", "both (of)": plural."""
        while self.w(det.k) in lx.PREDETERMINERS:
            if self.w(det.k) in {"all", "both"}:
                det.explicit = "plural"
            det.k += 1
            if self.w(det.k) == "of":
                det.k += 1

    def determiner(self, det: Determiners) -> bool:
        """Read the determiner at det.k (an article, "this", "his", "my", "some"...), if any. False: the
        word is a pronoun standing for the whole phrase ("it", "this?", "his?")."""
        w = self.w(det.k)
        if w in lx.ARTICLES:
            det.definite = w == "the"
            det.explicit = det.explicit or ("singular" if w in {"a", "an"} else None)
        elif w in lx.DEICTICS | lx.POSSESSIVE_PRONOUNS:
            if not self.has_noun(det.k + 1):
                return False
            det.pronoun_word, det.definite = w, True
            if w in lx.DEICTICS:
                det.weak_plural = w in {"these", "those"}
            else:
                det.possessive_pronoun = w
        elif w in lx.SPEAKER_POSSESSIVES:
            det.definite = True
        elif w in lx.OTHER_DETERMINERS:
            if w in lx.PLURAL_QUANTIFIERS:
                det.explicit = "plural"
            elif w in lx.SINGULAR_QUANTIFIERS:
                det.explicit = det.explicit or "singular"
        else:  # no determiner; a pronoun here stands for the whole phrase
            return w not in _PRONOUNS
        det.k += 1
        return True

    def number_word(self, det: Determiners) -> None:
        """ "two cups", "one dog": the number says the phrase's number."""
        value = number_value(self.w(det.k))
        if (
            value is not None
            and self.is_content(det.k + 1)
            and (self.w(det.k) != "one" or self.has_noun(det.k + 1))
        ):
            det.explicit = "plural" if value > 1 else "singular"
            det.k += 1

    def has_noun(self, k: int) -> bool:
        """Whether a noun follows a determiner-like word ("this dog"), not only a predicate ("this red?")."""
        j = k
        while self.w(j) in lx.DEGREE_WORDS:
            j += 1
        if not self.is_content(j):
            return False
        run, _ = self.run(k, "plain", after_det=True)
        # "this red?" is a pronoun with its predicate; "this red cup" and "this dog" are not
        return bool(run) and (
            len(run) > 1 or self.w(run[0]) not in PEELABLE or self.w(run[-1] + 1) not in PUNCT | {""}
        )

    def pronoun_phrase(self, k: int, mode: ParseMode, aux: str | None) -> Phrase:
        w = self.w(k)
        number: GrammaticalNumber
        if w in lx.PERSON_PRONOUNS or w in lx.INDEFINITE_PERSON:
            head, number = "person", "singular"
        elif w in lx.PLURAL_PRONOUNS or w in {"these", "those"}:
            head, number = "object", "plural"
        else:
            head, number = "object", "singular"
        phrase = Phrase(
            parts=[(k, k + 1)],
            head=head,
            head_word=w,
            number=number,
            end=k + 1,
            pronoun_word=w,
            bare_pronoun=True,
            definite=w not in lx.INDEFINITE_THING,
        )
        return self.post_modifiers(phrase, k + 1, mode)

    def run(self, k: int, mode: ParseMode, *, after_det: bool) -> tuple[list[int], int]:
        """The modifiers and head noun from token k: "big red [cup]", "street [sign]"."""
        run: list[int] = []
        while True:
            w = self.w(k)
            nxt = self.w(k + 1)
            if (
                w in lx.DEGREE_WORDS
                and self.is_content(k + 1)
                and (is_adjective_form(nxt) or nxt in lx.DEGREE_WORDS)
            ):
                run.append(k)
                k += 1
                continue
            if not self.is_content(k) or self.ends_run(k, run, after_det):
                break
            run.append(k)
            k += 1
        if mode in {"do", "embedded", "plain"} and len(run) > 1:
            # "What does the sign say?": the last bare verb after the noun is the clause's verb
            for p in range(len(run) - 1, 0, -1):
                if self.w(run[p]) in lx.BARE_VERBS or (
                    self.w(run[p]).endswith("s") and self.w(run[p])[:-1] in lx.BARE_VERBS and mode != "do"
                ):
                    k = run[p]
                    run = run[:p]
                    break
        # "Is the dog asleep?", "Is the man very tall?": adjectives after the noun are its predicate
        while len(run) > 1:
            last = self.w(run[-1])
            prev = self.w(run[-2])
            if last in lx.DEGREE_WORDS:
                k = run.pop()
                continue
            comparative = is_adjective_form(last) and self.w(run[-1] + 1) in PUNCT | {"than", ""}
            if last not in PEELABLE and not comparative:
                break
            if (
                prev in lx.COLOR_SHADES
                and last in lx.COLORS
                and len(run) > 2
                and self.w(run[-3]) not in ADJECTIVES
            ):
                run.pop()
                k = run.pop()
                continue
            if (
                mode == "be_yn"
                and len(run) == 2
                and self.w(run[-1] + 1) in PUNCT | {""}
                and f"{prev} {last}" not in lx.COMPOUND_HEADS
            ):
                # "Is the square big?", "Is the glass full?": with nothing else between the article and
                # the question mark, the first word is the noun even where it can be an adjective
                k = run.pop()
                break
            if prev in ADJECTIVES or f"{prev} {last}" in lx.COMPOUND_HEADS:
                break
            k = run.pop()
        return run, k

    def ends_run(self, k: int, run: list[int], after_det: bool) -> bool:
        """Whether content token k starts the verb after a noun phrase instead of continuing it."""
        w = self.w(k)
        if not (is_ing(w) or is_participle(w)):
            return False
        nxt_noun = self.is_content(k + 1) and not self._verb_like(self.w(k + 1))
        if w in lx.ING_NOUNS:
            # "the man painting a wall": a noun-looking -ing word after a noun, taking an object
            return bool(run) and self.w(k + 1) in lx.ARTICLES | lx.POSSESSIVE_PRONOUNS
        if not run:
            # "the smiling man" but "What is holding the umbrella?"; "the painting" is handled above
            return not nxt_noun
        prev = self.w(run[-1])
        if prev in ADJECTIVES or prev in lx.DEGREE_WORDS or prev in lx.ORDINALS:
            return not nxt_noun  # "the little smiling girl"
        if w in lx.COMMON_ING_VERBS or is_participle(w):
            return True  # "the man holding an umbrella", "the car parked outside"
        return not nxt_noun  # "the ice skating rink" keeps going

    def finish(
        self,
        i: int,
        run: list[int],
        k: int,
        mode: ParseMode,
        det: Determiners,
        *,
        aux: str | None,
        post: bool,
    ) -> Phrase:
        """The phrase over the run of modifiers and head (tokens up to k), then what follows the head."""
        head_pos, head_word, head, focus_end = self.head_of(run)
        phrase = Phrase(
            parts=[(i, focus_end)],
            head=head,
            head_word=head_word,
            number="singular",
            end=k,
            pronoun_word=det.pronoun_word,
            definite=det.definite,
        )
        if head_word in lx.PRO_NOUNS:  # "the one on the left"
            phrase.head, phrase.pronoun_word = "object", head_word
        elif head_word in lx.VAGUE_NOUNS:  # "this thing", "the object"
            phrase.head = "object"
        if det.possessive_pronoun:
            # "his jacket" is about him: head person; the jacket's adjectives do not describe him
            phrase.head = "object" if det.possessive_pronoun in {"its", "their"} else "person"
            phrase.number = "plural" if det.possessive_pronoun == "their" else "singular"
        else:
            phrase.descriptors = self.pre_descriptors(run[:head_pos])
            phrase.spatial = [d for d in phrase.descriptors if is_spatial_descriptor(d)]  # "the left cup"
            phrase.number = self.number(head_word, det.explicit, det.weak_plural, aux)
        if head_word in lx.PRO_NOUNS:
            phrase.number = "plural" if head_word == "ones" or det.explicit == "plural" else "singular"
        if not post and self.w(k) not in {POSSESSIVE, "of"}:
            return phrase
        return self.post_modifiers(phrase, k, mode, explicit=det.explicit, aux=aux, post=post)

    def head_of(self, run: list[int]) -> tuple[int, str, str, int]:
        """(the head's place in the run, its word, the head as the focus names it, where the focus ends).
        The last word, or the two words of a compound head ("ice cream"), or the owner of an attribute
        ("the player number" is the player's)."""
        head_pos = len(run) - 1
        head_word = self.w(run[head_pos])
        two = f"{self.w(run[-2])} {lemma(head_word)}" if len(run) > 1 else ""
        if two in lx.COMPOUND_HEADS:
            return head_pos - 1, head_word, two, run[-1] + 1
        if (
            len(run) > 1
            and head_word in lx.ATTRIBUTE_NOUNS
            and not is_adjective_form(self.w(run[-2]))
            and self.w(run[-2]) not in lx.ATTRIBUTE_NOUNS | lx.ATTRIBUTE_MODIFIERS
        ):
            # "the player number", "the player role": the attribute of the player
            owner = self.w(run[head_pos - 1])
            return head_pos - 1, owner, lemma(owner), run[head_pos - 1] + 1
        return head_pos, head_word, lemma(head_word), run[-1] + 1

    def pre_descriptors(self, pre: list[int]) -> list[str]:
        """ "very tall", "light blue", "street": one descriptor per modifier, grades and shades joined."""
        out: list[str] = []
        glue = False
        for p in pre:
            w = self.w(p)
            if glue and out:
                out[-1] += " " + w
            else:
                out.append(w)
            glue = w in lx.DEGREE_WORDS or (w in lx.COLOR_SHADES and self.w(p + 1) in lx.COLORS)
        return out

    def number(
        self, head_word: str, explicit: str | None, weak_plural: bool, aux: str | None
    ) -> GrammaticalNumber:
        if head_word in lx.PLURALIA_TANTUM or head_word in lx.PAIR_NOUNS:
            return "plural" if explicit == "plural" else "singular"
        if explicit:
            return "plural" if explicit == "plural" else "singular"
        if weak_plural:
            return "plural"
        if head_word in lx.INVARIANT_NOUNS:
            return "plural" if aux in {"are", "were"} else "singular"
        return "plural" if is_plural_noun(head_word) else "singular"
