"""Modifiers after a noun phrase's head: prepositional phrases ("on the left", "of the man"), participles
("holding a cup") and relative clauses ("who is sitting"), and which of them narrow the phrase."""

from __future__ import annotations

from assistant import lexicon as lx
from assistant.question_tokens import ParseMode, Phrase, Post, TokenReader
from assistant.words import (
    ADJECTIVES,
    POSSESSIVE,
    PUNCT,
    is_ing,
    is_participle,
    is_spatial_descriptor,
    is_word,
)


class ModifierParser(TokenReader):
    """What follows a head, and which of it narrows the phrase."""

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
        """The modifiers after the head from token k, one at a time, and which of them narrow the phrase."""
        posts: list[Post] = []
        while (step := self.modifier_at(phrase, k, mode, explicit=explicit, aux=aux, post=post)) is not None:
            phrase, k, found = step
            if found is not None:
                posts.append(found)
        phrase.end = k
        self.keep_modifiers(phrase, posts, mode)
        return self.attribute_owner(phrase, posts)

    def modifier_at(
        self, phrase: Phrase, k: int, mode: ParseMode, *, explicit: str | None, aux: str | None, post: bool
    ) -> tuple[Phrase, int, Post | None] | None:
        """The modifier at token k: (the phrase, where it ends, the modifier to weigh or None when it is part
        of the phrase: "'s", "of the man", "and the cup"). None: no modifier starts here. Without `post`
        only the possessive and "of" are read."""
        w = self.w(k)
        if w == POSSESSIVE:
            return phrase, self.possessed(phrase, k, mode), None
        if w == "of":
            inner = self.np(k + 1, mode, post=False)
            return None if inner is None else (self.of_phrase(phrase, inner, k, explicit), inner.end, None)
        if not post:
            return None
        found: Post | None = None
        if w in lx.PREPOSITIONS and w != "according":
            found = self.pp(k, mode)
        elif w in {"who", "that", "which"} and not phrase.bare_pronoun:
            found = self.relative(k, mode)
        elif (is_ing(w) and w not in lx.ING_NOUNS) or is_participle(w):
            found = self.participle(k, mode, k)
        elif w == "and" and self.w(k + 1) in lx.ARTICLES | lx.DEICTICS | lx.POSSESSIVE_PRONOUNS:
            return self.joined(phrase, k, mode, aux)
        return None if found is None else (phrase, found.end, found)

    def joined(
        self, phrase: Phrase, k: int, mode: ParseMode, aux: str | None
    ) -> tuple[Phrase, int, Post | None] | None:
        """ "the cup and the plate": one plural phrase of both."""
        other = self.np(k + 1, mode, aux=aux, post=False)
        if other is None:
            return None
        phrase.parts.append((k, other.end))
        phrase.number = "plural"
        phrase.descriptors += other.descriptors
        return phrase, other.end, None

    def attribute_owner(self, phrase: Phrase, posts: list[Post]) -> Phrase:
        """ "the number on the bike" is about the bike: an attribute noun placed on a thing is its."""
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
            first.place.end = phrase.end
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
