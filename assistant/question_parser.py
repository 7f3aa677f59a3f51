"""The noun-phrase parser behind assistant.question: clause shapes, noun phrases and their modifiers.

See assistant.question for the rules it implements; everything here is internal to that module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from assistant import lexicon as lx
from assistant.types import GrammaticalNumber
from assistant.words import (
    ADJECTIVES,
    FUNCTION_WORDS,
    PEELABLE,
    POSSESSIVE,
    PUNCT,
    is_adjective_form,
    is_adverb,
    is_ing,
    is_participle,
    is_plural_noun,
    is_spatial_descriptor,
    is_word,
    lemma,
    number_value,
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


class Parser:
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
        if w in (
            lx.ARTICLES
            | lx.DEICTICS
            | lx.POSSESSIVE_PRONOUNS
            | lx.SPEAKER_POSSESSIVES
            | lx.OTHER_DETERMINERS
            | lx.PREDETERMINERS
            | lx.PERSON_PRONOUNS
            | lx.THING_PRONOUNS
            | lx.PLURAL_PRONOUNS
            | lx.INDEFINITE_PERSON
            | lx.INDEFINITE_THING
        ):
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

    # clauses
    def clause(self, i: int) -> Phrase | None:
        w = self.w(i)
        if not w:
            return None
        if w in lx.WH:
            return self.wh(i)
        if w in lx.AUX:
            return self.yes_no(i)
        if w in {"if", "whether"}:
            return self.clause(i + 1)
        if w in lx.IMPERATIVES:
            return self.after_verb(i + 1)
        if w in lx.SPEAKER_PRONOUNS or w == "let":
            return self.after_speaker(i)
        if w == "there":
            return self.existential(i + 1, None)
        later_wh = next((k for k in range(i, len(self.toks)) if self.w(k) in lx.WH), None)
        phrase = self.np(i, "plain")
        if phrase is not None:
            return self.anchor(phrase)
        if later_wh is not None:  # "And what about the dog?"
            return self.clause(later_wh)
        return self.first_np(i)

    def after_verb(self, j: int) -> Phrase | None:
        """The object of a request: "Describe [the shirt]", "Tell me about [this]", "see [his face]"."""
        skip = (
            lx.SPEAKER_VERBS
            | lx.SPEAKER_PRONOUNS
            | lx.IMPERATIVES
            | {"at", "to", "on", "about", "of", "for", "out", "up", "please"}
        )
        while self.w(j) in skip or self.w(j) == ",":
            j += 1
        w = self.w(j)
        if w in lx.WH:
            return self.wh(j)
        if w in {"if", "whether"}:
            return self.clause(j + 1)
        if w in lx.AUX:
            return self.yes_no(j)
        if w == "there":
            return self.existential(j + 1, None)
        phrase = self.np(j, "plain")
        return self.anchor(phrase) if phrase else self.first_np(j)

    def after_speaker(self, i: int) -> Phrase | None:
        """ "I want to know what ...", "I can't see the dog", "Let's look at the cup"."""
        j = i
        extra = (
            lx.AUX
            | lx.NEGATION
            | {
                "like",
                "looking",
                "trying",
                "wondering",
                "asking",
                "searching",
                "curious",
                "interested",
                "in",
                "let",
                "going",
                "gonna",
            }
        )
        while self.w(j) in lx.SPEAKER_PRONOUNS | lx.SPEAKER_VERBS | extra:
            j += 1
        return self.after_verb(j)

    def wh(self, i: int) -> Phrase | None:
        w = self.w(i)
        j = i + 1
        wh_np: Phrase | None = None
        how_adjective = False
        if w == "how":
            if self.w(j) in {"many", "much"}:
                wh_np = self.np(j + 1, "wh", how_many=self.w(j) == "many")
                j = wh_np.end if wh_np else j + 1
            elif is_word(self.w(j)) and self.w(j) not in lx.AUX:
                how_adjective = True
                j += 1  # "how tall", "how old"
        elif w in {"what", "which", "whose"}:
            if self.w(j) == "of" and w == "which":  # "Which of the cups is red?"
                wh_np = self.np(j + 1, "wh")
                j = wh_np.end if wh_np else j + 1
            elif self.is_content(j):
                wh_np = self.np(j, "wh")
                j = wh_np.end if wh_np else j
        aux = self.w(j) if self.w(j) in lx.AUX else None
        if aux:
            j += 1
        while self.w(j) in lx.NEGATION:
            j += 1
        mode: ParseMode
        if aux is None:
            mode = "embedded"
        elif aux in lx.BE:
            # "How is the man holding the bat?" asks about the predicate; "How old is the girl?" does not
            plain_how = w == "how" and wh_np is None and not how_adjective
            mode = "be_yn" if w in {"why", "when"} or plain_how else "be_wh"
        else:
            mode = "do"

        nxt = self.w(j)
        if nxt == "there":
            return self.existential(j + 1, wh_np)
        if nxt in lx.SPEAKER_PRONOUNS:  # "What can you see on the table?"
            found = self.after_verb(j + 1)
            return found if found else self.wh_alone(wh_np, w, j)
        subject = self.np(j, mode, aux=aux) if self.starts_np(j) else None
        if subject is None:
            return self.wh_alone(wh_np, w, j)
        kind = wh_np.head_word if wh_np else ""
        if subject.bare_pronoun and subject.head_word == "it" and kind in lx.EXPLETIVE_IT_NOUNS:
            later = self.first_np(subject.end)  # "What time is it, according to the wall clock?"
            return later if later else None
        if subject.bare_pronoun and wh_np and kind not in lx.ATTRIBUTE_NOUNS and subject.head == "object":
            subject.head = wh_np.head  # "What animal is it?", "What kind of hat is that?"
        if subject.head_word in lx.PRO_NOUNS and wh_np and kind not in lx.ATTRIBUTE_NOUNS:
            subject.head = wh_np.head  # "Which cup is the red one?"
        if subject.bare_pronoun and subject.head_word == "it":
            return self.anchor(subject)  # "What is it in the plate?"
        return subject

    def wh_alone(self, wh_np: Phrase | None, w: str, j: int) -> Phrase | None:
        """A wh-question without its own subject: "Which cup is red?", "What is on the plate?"."""
        if wh_np is not None and (w in {"which", "whose", "how"}):
            return self.anchor(self.with_predicate_places(wh_np, j) if w == "how" else wh_np)
        later = self.first_np(j)
        if later is not None:
            return later
        if wh_np is not None and wh_np.head_word not in lx.ATTRIBUTE_NOUNS:
            return wh_np
        return None

    def with_predicate_places(self, phrase: Phrase, j: int) -> Phrase:
        """ "How many dogs are on the sofa?": the predicate's place can anchor the focus."""
        k = j
        while self.w(k) in lx.PREPOSITIONS and self.w(k) != "of":
            pp = self.pp(k, "plain")
            if pp is None:
                break
            if pp.place is not None and pp.spatial and not pp.image:
                phrase.places.append(pp.place)
            k = pp.end
        return phrase

    def yes_no(self, i: int) -> Phrase | None:
        aux = self.w(i)
        j = i + 1
        while self.w(j) in lx.NEGATION:
            j += 1
        if self.w(j) in lx.SPEAKER_PRONOUNS:  # "Can you see his face?", "Can I eat this?"
            j += 1
            if (
                self.is_content(j)
                and self.w(j) not in lx.SPEAKER_VERBS
                and (self.starts_np(j + 1) or self.w(j + 1) in lx.PREPOSITIONS | lx.WH)
            ):
                j += 1  # a verb the lists do not know
            return self.after_verb(j)
        if aux in lx.BE and self.w(j) == "it" and self.w(j + 1) in lx.WEATHER_WORDS:
            return None  # "Is it raining?"
        if aux in lx.BE and self.w(j) == "there":
            return self.existential(j + 1, None)
        mode: ParseMode = "be_yn" if aux in lx.BE else "do"
        phrase = self.np(j, mode, aux=aux) if self.starts_np(j) else None
        return phrase if phrase else self.first_np(j)

    def existential(self, j: int, wh_np: Phrase | None) -> Phrase | None:
        """ "Is there a dog on the sofa?", "How many flowers are there in the vase?"."""
        if wh_np is not None:
            return self.anchor(self.with_predicate_places(wh_np, j))
        phrase = self.np(j, "exist") if self.starts_np(j) else None
        if phrase is None:
            return self.first_np(j)
        return self.anchor(phrase)

    def first_np(self, j: int) -> Phrase | None:
        """The first noun phrase from token j on that names a thing (not a bare place or the picture)."""
        for k in range(j, len(self.toks)):
            if not self.starts_np(k):
                continue
            phrase = self.np(k, "plain")
            if phrase is None:
                continue
            if phrase.head_word in lx.POSITION_WORDS and not phrase.places:
                continue  # "What is on the left?": a place, not a referent
            if phrase.head_word in lx.IMAGE_WORDS:
                continue
            return self.anchor(phrase)
        return None

    def anchor(self, phrase: Phrase) -> Phrase:
        """An indefinite thing in a definite place is asked about the place ("any writing on the shirt")."""
        indefinite = not phrase.definite or (phrase.bare_pronoun and phrase.head_word == "it")
        if indefinite:
            for place in phrase.places:
                if place.definite and place.head_word not in lx.IMAGE_WORDS:
                    return place
        return phrase

    # noun phrases
    def np(
        self, i: int, mode: ParseMode, *, aux: str | None = None, how_many: bool = False, post: bool = True
    ) -> Phrase | None:
        """The noun phrase starting at token i. mode says how to read what follows its head:
        be_wh ("What is NP doing?"), be_yn ("Is NP on the sofa?"), do ("What does NP say?"), exist,
        wh (a wh-phrase: "what kind of hat"), embedded, plain."""
        k = i
        explicit: str | None = "plural" if how_many else None
        weak_plural = False  # "these": plural unless the noun is a worn pair
        definite = False
        pronoun_word: str | None = None
        possessive_pronoun: str | None = None
        while self.w(k) in lx.PREDETERMINERS:
            if self.w(k) in {"all", "both"}:
                explicit = "plural"
            k += 1
            if self.w(k) == "of":
                k += 1
        w = self.w(k)
        if w in lx.ARTICLES:
            definite = w == "the"
            explicit = explicit or ("singular" if w in {"a", "an"} else None)
            k += 1
        elif w in lx.DEICTICS:
            if self.has_noun(k + 1):
                pronoun_word, definite = w, True
                weak_plural = w in {"these", "those"}
                k += 1
            else:
                return self.pronoun_phrase(k, mode, aux)
        elif w in lx.POSSESSIVE_PRONOUNS:
            if self.has_noun(k + 1):
                possessive_pronoun = pronoun_word = w
                definite = True
                k += 1
            else:
                return self.pronoun_phrase(k, mode, aux)
        elif w in lx.SPEAKER_POSSESSIVES:
            definite = True
            k += 1
        elif w in lx.OTHER_DETERMINERS:
            if w in lx.PLURAL_QUANTIFIERS:
                explicit = "plural"
            elif w in lx.SINGULAR_QUANTIFIERS:
                explicit = explicit or "singular"
            k += 1
        elif w in (
            lx.PERSON_PRONOUNS
            | lx.THING_PRONOUNS
            | lx.PLURAL_PRONOUNS
            | lx.INDEFINITE_PERSON
            | lx.INDEFINITE_THING
        ):
            return self.pronoun_phrase(k, mode, aux)
        value = number_value(self.w(k))
        if value is not None and self.is_content(k + 1) and (self.w(k) != "one" or self.has_noun(k + 1)):
            explicit = "plural" if value > 1 else "singular"
            k += 1
        run, k = self.run(k, mode, after_det=k > i)
        if not run:
            return None
        if (
            k == i + len(run)
            and all(is_adjective_form(self.w(p)) for p in run)
            and (self.w(k) in PUNCT | lx.CONJUNCTIONS | {""})
        ):
            return None  # "Which cup is [red]?": a predicate, not a noun phrase
        return self.finish(
            i,
            run,
            k,
            mode,
            aux=aux,
            explicit=explicit,
            weak_plural=weak_plural,
            definite=definite,
            pronoun_word=pronoun_word,
            possessive_pronoun=possessive_pronoun,
            post=post,
        )

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
        *,
        aux: str | None,
        explicit: str | None,
        weak_plural: bool,
        definite: bool,
        pronoun_word: str | None,
        possessive_pronoun: str | None,
        post: bool,
    ) -> Phrase:
        head_pos = len(run) - 1
        head_word = self.w(run[head_pos])
        focus_end = run[-1] + 1
        two = f"{self.w(run[-2])} {lemma(head_word)}" if len(run) > 1 else ""
        compound = two in lx.COMPOUND_HEADS
        if compound:
            head_pos -= 1
            head = two
        elif (
            len(run) > 1
            and head_word in lx.ATTRIBUTE_NOUNS
            and not is_adjective_form(self.w(run[-2]))
            and self.w(run[-2]) not in lx.ATTRIBUTE_NOUNS | lx.ATTRIBUTE_MODIFIERS
        ):
            # "the player number", "the player role": the attribute of the player
            head_pos -= 1
            head_word = self.w(run[head_pos])
            head = lemma(head_word)
            focus_end = run[head_pos] + 1
        else:
            head = lemma(head_word)
        pre = run[:head_pos]
        phrase = Phrase(
            parts=[(i, focus_end)],
            head=head,
            head_word=head_word,
            number="singular",
            end=k,
            pronoun_word=pronoun_word,
            definite=definite,
        )
        if head_word in lx.PRO_NOUNS:  # "the one on the left"
            phrase.head, phrase.pronoun_word = "object", head_word
        elif head_word in lx.VAGUE_NOUNS:  # "this thing", "the object"
            phrase.head = "object"
        if possessive_pronoun:
            # "his jacket" is about him: head person; the jacket's adjectives do not describe him
            phrase.head = "object" if possessive_pronoun in {"its", "their"} else "person"
            phrase.number = "plural" if possessive_pronoun == "their" else "singular"
        else:
            phrase.descriptors = self.pre_descriptors(pre)
            phrase.spatial = [d for d in phrase.descriptors if is_spatial_descriptor(d)]  # "the left cup"
            phrase.number = self.number(head_word, explicit, weak_plural, aux)
        if head_word in lx.PRO_NOUNS:
            phrase.number = "plural" if head_word == "ones" or explicit == "plural" else "singular"
        if not post and self.w(k) not in {POSSESSIVE, "of"}:
            return phrase
        return self.post_modifiers(phrase, k, mode, explicit=explicit, aux=aux, post=post)

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

    def post_modifiers(
        self,
        phrase: Phrase,
        k: int,
        mode: ParseMode,
        *,
        explicit: str | None = None,
        aux: str | None = None,
        post: bool = True,
    ) -> Phrase:
        posts: list[Post] = []
        while True:
            w = self.w(k)
            if w == POSSESSIVE:
                k = self.possessed(phrase, k, mode)
                continue
            if w == "of":
                inner = self.np(k + 1, mode, post=False)
                if inner is None:
                    break
                phrase = self.of_phrase(phrase, inner, k, explicit)
                k = inner.end
                continue
            if not post:
                break
            if w in lx.PREPOSITIONS and w != "according":
                pp = self.pp(k, mode)
                if pp is None:
                    break
                posts.append(pp)
                k = pp.end
                continue
            if w in {"who", "that", "which"} and not phrase.bare_pronoun:
                rel = self.relative(k, mode)
                if rel is None:
                    break
                posts.append(rel)
                k = rel.end
                continue
            if (is_ing(w) and w not in lx.ING_NOUNS) or is_participle(w):
                part = self.participle(k, mode, k)
                posts.append(part)
                k = part.end
                continue
            if w == "and" and self.w(k + 1) in lx.ARTICLES | lx.DEICTICS | lx.POSSESSIVE_PRONOUNS:
                other = self.np(k + 1, mode, aux=aux, post=False)
                if other is None:
                    break
                phrase.parts.append((k, other.end))
                phrase.number = "plural"
                phrase.descriptors += other.descriptors
                k = other.end
                continue
            break
        phrase.end = k
        self.keep_modifiers(phrase, posts, mode)
        first = posts[0] if posts else None
        if (
            phrase.head_word in lx.ATTRIBUTE_NOUNS
            and not phrase.pronoun_word
            and first is not None
            and first.kind == "pp"
            and self.w(first.start) in {"on", "in", "of", "at"}
            and first.place is not None
            and first.place.head_word not in lx.POSITION_WORDS | lx.IMAGE_WORDS
        ):
            first.place.end = phrase.end  # "the number on the bike" is about the bike
            return first.place
        return phrase

    def keep_modifiers(self, phrase: Phrase, posts: list[Post], mode: ParseMode) -> None:
        """Drop the modifier that is the clause's own predicate, then record the rest as descriptors."""
        if mode == "be_wh":
            # "What is the man [holding]?": the last participle without an object is the main verb;
            # an earlier one describes the subject ("the man sitting on the bench")
            gaps = [n for n, p in enumerate(posts) if p.kind == "part" and not p.has_object]
            if gaps:
                posts = posts[: gaps[-1]]
        elif mode == "be_yn" and posts and self.w(posts[-1].end) in PUNCT | {"", "or"}:
            posts = posts[:-1]  # "Is the cat [on the sofa]?", "Is the man [holding an umbrella]?"
        for p in posts:
            phrase.end = max(phrase.end, p.end)
            if p.image:
                continue
            phrase.parts.append((p.start, p.end))
            text = self.text(p.text_start, p.end)
            if not text:
                continue
            phrase.descriptors.append(text)
            if p.spatial or (p.kind != "pp" and self.places_subject(p)):
                phrase.spatial.append(text)
            if p.place is not None and p.spatial:
                phrase.places.append(p.place)

    def places_subject(self, p: Post) -> bool:
        """Whether a participle or relative clause says where its subject is: "who is on the left",
        "sitting on the bench", "standing in the middle"; not "holding the apple in his hand"."""
        words = [self.w(q) for q in range(p.text_start, p.end)]
        if is_spatial_descriptor(" ".join(words)):
            return True
        preps = [n for n, w in enumerate(words) if w in lx.SPATIAL_PREPOSITIONS]
        if not preps:
            return False
        if words[0] in lx.POSTURE_VERBS:
            return True
        return any(w in lx.POSITION_WORDS for w in words[preps[0] :])

    def possessed(self, phrase: Phrase, k: int, mode: ParseMode) -> int:
        """ "the player's [role]": the possessor stays the head; attributes leave the focus."""
        run, end = self.run(k + 1, mode, after_det=True)
        if not run:
            return k + 1
        word = self.w(run[-1])
        if word in lx.ATTRIBUTE_NOUNS and not phrase.bare_pronoun:
            return end  # focus "the player", not "the player's role"
        last = phrase.parts[-1]
        phrase.parts[-1] = (last[0], run[-1] + 1)
        return end

    def of_phrase(self, phrase: Phrase, inner: Phrase, k: int, explicit: str | None) -> Phrase:
        hw = phrase.head_word
        if hw in lx.PARTITIVES:  # "a piece of luggage", "this kind of dog"
            phrase.head = inner.head
            phrase.head_word = inner.head_word
            phrase.parts.append((k, inner.end))
            phrase.descriptors += inner.descriptors
            phrase.pronoun_word = phrase.pronoun_word or inner.pronoun_word
            if hw in {"kind", "type", "sort", "variety", "style"} and explicit is None:
                phrase.number = phrase.number if inner.number == "singular" else inner.number
            return phrase
        if hw in lx.ATTRIBUTE_NOUNS and not phrase.bare_pronoun:  # "the colour of the cup" -> the cup
            return inner
        if hw in lx.PART_NOUNS or hw in lx.CLOTHING or hw in lx.POSITION_WORDS:
            # "the tail of the airplane", "the shirt of the man": about the whole
            inner.parts = phrase.parts + [(k, inner.end)]
            inner.definite = inner.definite or phrase.definite
            return inner
        phrase.parts.append((k, inner.end))
        phrase.descriptors.append(self.text(k, inner.end))  # "the cup of coffee" -> "of coffee"
        return phrase

    def pp(self, k: int, mode: ParseMode) -> Post | None:
        prep = self.w(k)
        j = k + 1
        if self.w(j) in lx.COMPOUND_PREPOSITION_TAILS.get(prep, frozenset()):
            j += 1
        elif prep in {"next", "close"}:
            return None  # "next" without "to" is an adjective here
        if not self.starts_np(j, verbs_ok=True):
            return None
        obj = self.np(j, mode, post=False)
        if obj is None:
            return None
        text = self.text(k, obj.end)
        image = obj.head_word in lx.IMAGE_WORDS and not any(
            self.w(q) in lx.POSITION_WORDS for q in range(j, obj.end)
        )
        return Post("pp", k, obj.end, k, spatial=is_spatial_descriptor(text), place=obj, image=image)

    def participle(self, k: int, mode: ParseMode, text_start: int) -> Post:
        """ "holding the apple", "sitting on the bench", "looking tired"; has_object is False for a verb
        with nothing after it but prepositions (the gap of "What is the man holding in his hand?")."""
        j = k + 1
        has_object = False
        if self.w(k) in lx.LINKING_VERBS and self.w(j) in ADJECTIVES | lx.DEGREE_WORDS:
            while self.w(j) in ADJECTIVES | lx.DEGREE_WORDS:
                j += 1
            has_object = True
        elif self.starts_np(j) and self.w(j) not in lx.PREPOSITIONS:
            obj = self.np(j, mode, post=False)
            if obj is not None:
                has_object = True
                j = obj.end
        with_place = False
        while self.w(j) in lx.PREPOSITIONS and self.w(j) != "of":
            pp = self.pp(j, mode)
            if pp is None:
                break
            j = pp.end
            with_place = True
        # "the car parked on the left": a passive participle with its phrase describes; only "-ing" verbs
        # or a verb with nothing after it ("Where is the car parked?") leave the gap of the question
        gap = not has_object and (is_ing(self.w(k)) or not with_place)
        return Post("part", k, j, text_start, has_object=not gap)

    def relative(self, k: int, mode: ParseMode) -> Post | None:
        """ "who is holding the apple" -> "holding the apple"; "that the man is holding" stays whole."""
        j = k + 1
        while self.w(j) in lx.BE | lx.MODALS | lx.NEGATION or (
            self.w(j) in lx.HAVE and (self.w(j + 1) in lx.BE or is_participle(self.w(j + 1)))
        ):
            j += 1
        start = j
        w = self.w(j)
        if w in lx.PREPOSITIONS:
            pp = self.pp(j, mode)
            if pp is None:
                return None
            return Post("rel", k, pp.end, start, spatial=pp.spatial, place=pp.place)
        if w in ADJECTIVES or w in lx.DEGREE_WORDS:
            while self.w(j) in ADJECTIVES | lx.DEGREE_WORDS | {"and"}:
                j += 1
            return Post("rel", k, j, start)
        if j > k + 1 or self._verb_like(w) or w in lx.HAVE or w in lx.BARE_VERBS:
            if not is_word(w):
                return None
            part = self.participle(j, mode, start)
            return Post("rel", k, part.end, start)
        if self.starts_np(j):  # object relative: "that the man is holding"
            obj = self.np(j, "embedded", post=False)
            if obj is None:
                return None
            j = obj.end
            while self.w(j) in lx.AUX | lx.NEGATION:
                j += 1
            if is_word(self.w(j)):
                j = self.participle(j, mode, j).end
            return Post("rel", k, j, k)
        return None
