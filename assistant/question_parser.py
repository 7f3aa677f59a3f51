"""The noun-phrase parser behind assistant.question: the clause shapes a question takes (wh-, yes/no,
existential, imperative) and which noun phrase is its focus.

See assistant.question for the rules it implements; everything here is internal to that module. The layers
below: assistant.question_phrases (noun phrases), assistant.question_modifiers (what follows a head),
assistant.question_tokens (tokens and the parser's data).
"""

from __future__ import annotations

from assistant import lexicon as lx
from assistant.question_phrases import PhraseParser
from assistant.question_tokens import ParseMode, Phrase
from assistant.words import is_word


class Parser(PhraseParser):
    """A question's focus: the clause shape decides where the focus noun phrase starts and how it is read."""

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
