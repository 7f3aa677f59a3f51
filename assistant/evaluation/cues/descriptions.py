"""Identifying descriptions: what singles out the referent a response talks about.

- identifying description: a referent word followed by a descriptor ("with a blue t-shirt", "that is
  jumping in the pond", "on the right", "in the red shirt", "wearing ...") or preceded by a
  distinguishing adjective or colour ("the black dog", "the taller man", "the silver one", a compound "the
  front-left burner"; in the class's terse replies also with the article dropped: "left one's blue"), whose
  content words are not all already in the question (repeating "the person on the left" is no
  description) and which is not "in the image", "in the picture", "in question"; "one" stands for the
  referent unless the clause subject before it in its sentence is of another kind;
- a person named by a role the question does not have (`named_by_role`: "the batter is swinging");
- a plural that only says what is there, then one referent named bare (`plural_then_one`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from assistant import lexicon as lx
from assistant.evaluation import noun_senses, reply_checks
from assistant.evaluation.cues.counting import _COUNTED_BEFORE, _introduces
from assistant.evaluation.cues.keys import _key_nouns
from assistant.evaluation.cues.mentions import plural_mentions
from assistant.evaluation.cues.people import asks_about_person, names_person, of_asked_kind
from assistant.evaluation.cues.places import _places_in
from assistant.evaluation.cues.question import QuestionCues
from assistant.evaluation.cues.several import _owner_clause_about_referent
from assistant.evaluation.cues.text import (
    _SUBJECT_VERB_WORDS,
    _SUBJECT_VERBS,
    _WORD,
    DETERMINERS,
    NON_IDENTIFYING,
    PREPOSITIONS,
    STOPWORDS,
    VERBS,
    _alias_pattern,
    _single,
    content_words,
    is_plural,
    normalise,
    plural_of,
    the_nouns,
)
from assistant.lexicon import DISTINGUISHING_ADJECTIVES, PERSON_NOUNS, word_set

DESCRIPTOR_STARTS = (
    "who is",
    "who's",
    "that is",
    "that's",
    "which is",
    "who",
    "that",
    "which",
    "with",
    "wearing",
    "in",
    "on",
    "at",
    "near",
    "by",
    "holding",
    "sitting",
    "standing",
    "closest",
    "nearest",
    "furthest",
    "farthest",
    "to the",
    "next to",
    "behind",
    "in front",
    "(",
    "worn by",
    "of the",
    "belonging to",
)


# modifiers that tell no referent apart ("the same dog", "the only cat", "the whole group")
_NOT_DISTINGUISHING = (
    word_set("same only whole entire very other such own certain particular") | lx.IMAGE_WORDS
)


def _distinguishes(q: QuestionCues, word: str, noun: str) -> bool:
    """A modifier between "the" and a noun that tells the referent apart: a distinguishing adjective, or,
    before the question's own referent word, any attribute the question does not have ("the ginger cat"
    for "the cat", "the spotted dog"): the rubric's description by attribute."""
    parts = word.split("-")
    if len(parts) > 1:
        # a compound modifier ("the front-left burner", "the brown-and-white dog") distinguishes as its parts
        # do, unless the question already has them all ("the front-left burner" asked about repeats it)
        if word in q.words or set(parts) <= q.words or not all(p.isalpha() for p in parts):
            return False
        return any(_distinguishes(q, p, noun) for p in parts if p not in ("and", "or"))
    if word in q.words or word in STOPWORDS or word in DETERMINERS or word in _NOT_DISTINGUISHING:
        return False
    if word in lx.NON_VISUAL_ADJECTIVES:  # a trait no photo shows ("the friendly dog") tells none apart
        return False
    if word in DISTINGUISHING_ADJECTIVES or word in lx.COLORS:  # "the silver one", as "the black dog"
        return True
    # "one" stands for the referent here (`_one_of_other_kind` has ruled out the rest): "the ginger one"
    return (noun in q.referents or noun == "one") and word.isalpha() and word not in VERBS | PREPOSITIONS


# where a clause's subject starts: the text's start, a sentence or clause break, a conjunction (not the
# "." of "i.e." / "e.g.", which opens an apposition to the answer's object)
_CLAUSE_START = re.compile(
    r"(?:^|(?<!\bi\.e)(?<!\be\.g)[.;:!?,(\u2013\u2014]\s*|\s-\s+|\n|\b(?:and|but|while|whereas)\s+)the\s+"
)


def _subject_nouns(text: str) -> set[str]:
    """`the_nouns` of the "the ..." phrases that open a clause (its subject), less possessive forms."""
    found: set[str] = set()
    for m in _CLAUSE_START.finditer(text):
        phrase = re.match(r"(?:" + _WORD + r"\s+){0,2}" + _WORD, text[m.end() :])
        found |= the_nouns("the " + phrase.group(0)) if phrase else set()
    return _possessor_free(found)


# a pronoun that stands for the referent, equated with a noun phrase: "that's the guy lining up the free
# kick", "it's the one on the left", "he is the man in the red cap"
_IDENTIFIES = re.compile(r"\b(?:that|it|this|he|she)(?:'s|\s+is|\s+was)\s+the\s+")


def _predicate_nouns(text: str) -> set[str]:
    """The nouns of a "the ..." phrase that a pronoun is equated with ("#10 - that's the guy lining up the
    kick"): the reply names the referent there, as it does in a subject or a list key, so a description of
    that phrase tells which one it is, though the noun is a generic word for it ("guy" for the player).
    Only words WordNet knows as nouns: "it's the bone he got from ..." reads no noun "got"."""
    found: set[str] = set()
    for m in _IDENTIFIES.finditer(text):
        phrase = re.match(r"(?:" + _WORD + r"\s+){0,2}" + _WORD, text[m.end() :])
        found |= the_nouns("the " + phrase.group(0)) if phrase else set()
    return {n for n in _possessor_free(found) if noun_senses.senses(_single(n))}


def _possessor_free(nouns: set[str]) -> set[str]:
    return {n for n in nouns if not n.endswith("'s")}


def identifying_description(q: QuestionCues, response: str, subjects: bool = False) -> str | None:
    """A description that singles out the referent the response talks about (see module docstring).
    With `subjects`, another noun than the question's counts only as a described clause subject."""
    found = next(identifying_descriptions(q, response, subjects), None)
    return found.text if found else None


@dataclass(frozen=True)
class Description:
    """A referent phrase told apart by a description: its noun, the description as read ("the left
    clock", "dog on the sofa"), its distinguishing words, and where it ends in the normalised text."""

    noun: str
    text: str
    words: frozenset[str]
    start: int
    end: int


def identifying_descriptions(q: QuestionCues, response: str, subjects: bool = False) -> Iterator[Description]:
    """Every description that singles out a referent in the response, in order (`identifying_description`
    is the first): a reply may single out one referent, or several in turn (each its own)."""
    text = normalise(response)
    # The referent phrase may use the question's noun, another noun for the same thing ("the vehicle"
    # for "the car") or the noun of its owner ("the skier on the right has red boots"): any noun phrase
    # after "the" is a candidate, as are the question's own referent words and "one". A possessor or an
    # "'s" contraction ("the girl's wearing") is no referent phrase (the question's word is found inside).
    # For the class (`subjects`), a noun of the answer's own things ("reading a paper, i.e. the back
    # pages") is no referent either: there another noun counts only as a clause's subject with a verb.
    # A noun of another kind than the referent ("the bench" for the woman, "the lid" for the laptop) or than
    # its owner singles out no referent (`of_asked_kind`).
    # Where the class's reply names the referent bare by its own word ("the helmet is white"), a noun whose
    # kind WordNet cannot tell ("the main shell is pale") is another thing, a part or a neighbour: the reply
    # has its own name for the referent. Nouns of the asked kind (an owner, a synonym) still count.
    named = _key_nouns(response) | _predicate_nouns(text)
    keys = {k for k in named if of_asked_kind(q, k, owner=True) is not False}
    others = (_subject_nouns(text) if subjects else _possessor_free(the_nouns(text))) - keys
    unsure = not (subjects and _named_bare(q, text))
    others = {
        n
        # for the class, "the front ones" singles out no one referent: it is several, or other things
        for n in others - set(q.referents) - ({"one", "ones"} if subjects else {"one"})
        if (kind := of_asked_kind(q, n, owner=True)) is True or (kind is None and unsure)
    }
    names = set(q.referents) | {"one"} | others | keys
    for m in re.finditer(_alias_pattern(names), text):
        before = text[max(0, m.start() - 25) : m.start()]
        if _COUNTED_BEFORE.search(before):  # "multiple sheep in this field": the set, no one of it
            continue
        if m.group(0) == "one" and _one_of_other_kind(q, text, m.start()):
            continue
        # only after "the": "a red t-shirt" describes the answer, "the red t-shirt" picks one out
        pre = re.search(r"\bthe\s+((?:[\w-]+\s+){0,2})$", before)
        # a terse clause drops its article ("left one's blue", "Front-left burner is on"): a modifier that
        # opens the clause picks one out as "the left one" would; only a distinguishing adjective or a
        # place or a colour, since a clause may open with any word ("Yes dog ...")
        bare = None if pre or not subjects else _ARTICLELESS_OPENING.search(before)
        modifiers = DISTINGUISHING_ADJECTIVES | lx.COLORS
        if bare and all(_places_in(w) or w in modifiers for w in bare.group(1).split()):
            pre = bare
        if pre:
            new = [w for w in pre.group(1).split() if _distinguishes(q, w, m.group(0))]
            if new:
                said = f"{'' if bare else 'the '}{' '.join(new)} {m.group(0)}"
                opens = m.start() - len(pre.group(1) if bare else pre.group(0))
                yield Description(m.group(0), said, frozenset(new), opens, m.end())
                continue
        after = text[m.end() :]
        if after.startswith("'s"):  # "the catcher's glove, behind home plate": the thing owned is described
            continue
        after = re.sub(
            r"^\s*,(?=\s*(?:who|which|behind|near|next|in|on|at|by)\b)", "", after
        )  # an apposition
        # a place phrase by any spatial preposition ("the sign above the door", "the cup beside the
        # laptop"), as well as the descriptor openings
        # or a participle: "the car parked closest to the camera", "the cat sleeping on the sofa"
        if not _opens_descriptor(after):
            continue
        # the descriptor runs to the main verb: "the dog [that is jumping in the pond] is a retriever"
        lead = re.match(r"\s*(?:who is|who's|that is|that's|which is)\s", after)
        rest = after[lead.end() :] if lead else after
        # a participle of the question's own verb says the answer, not which one: "a man wearing a blue shirt
        # and jeans" for "What is the man wearing?" (a caption that puts its answer as an attribute)
        verb = re.match(r"\s*([a-z]+ing)\b", rest)
        if verb and verb.group(1) in q.words:
            continue
        pieces = re.split(r"([.;:!?,]|\s(?:" + _SUBJECT_VERB_WORDS + r"|wears)\s)", rest, maxsplit=1)
        fragment = pieces[0][:80].strip()
        # another noun describes the referent only as a subject: "the kind with a tail." no; but a relative
        # clause on a noun of the asked kind itself ("the lady who sits under the umbrella" for the woman:
        # a synonym or narrower word) singles that one out wherever the clause's main verb is
        relative = (
            re.match(r"\s*(?:who|that)\s", after) and of_asked_kind(q, m.group(0), broader=False) is True
        )
        if subjects and m.group(0) in others and not relative and not _verb_follows(pieces):
            continue
        opened = fragment
        for phrase in NON_IDENTIFYING:  # "in the image" says where the photo is, not which referent
            fragment = re.sub(r"(?:^|\s)" + re.escape(phrase) + r"(?=\s|$)", " ", fragment).strip()
        if (
            fragment
            and fragment != opened
            and opened.startswith(tuple(NON_IDENTIFYING))
            and not _opens_descriptor(fragment)
        ):
            continue  # "the man in the image drinks chai": past "in the image" its verb, no descriptor
        content = content_words(fragment)
        if content and not content <= q.words:
            start = m.start() - len(pre.group(0)) if pre else m.start()
            end = len(text) - len(rest) + len(pieces[0])
            yield Description(m.group(0), f"{m.group(0)} {fragment}", frozenset(content), start, end)


def _opens_descriptor(fragment: str) -> bool:
    """Whether a fragment opens as a descriptor does: a descriptor's first words, a spatial preposition or
    a participle ("with a red hat", "beside the door", "parked by the gate")."""
    after = " " + fragment
    return (
        any(
            re.match(r"\s*" + re.escape(s) + (r"" if s == "(" else r"(?:\W|$)"), after)
            for s in DESCRIPTOR_STARTS
        )
        or bool(re.match(r"\s*(?:" + "|".join(sorted(lx.SPATIAL_PREPOSITIONS)) + r")\s+\w", after))
        or bool(re.match(r"\s+[a-z]+(?:ed|ing)\s+[a-z]", after))
    )


# a phrase set off by commas before the clause's verb: "the aircraft parked nearest the terminal, connected
# to the jet bridge, has ..."; an adverb may open the verb ("..., which is by the gate, clearly shows")
_SET_OFF_THEN_VERB = re.compile(
    r"[^.;:!?,]{1,60},\s*(?:[a-z]+ly\s+)?(?:" + _SUBJECT_VERB_WORDS + r"|wears)\b"
)


def _verb_follows(pieces: list[str]) -> bool:
    """Whether the descriptor (`pieces[0]`, split off at its first break) is followed by its clause's verb,
    right away or after a phrase set off by commas (a participle, a relative clause, an apposition): only
    then is another noun than the question's a clause's subject, as `identifying_descriptions` needs."""
    if len(pieces) < 3:
        return False
    if pieces[1].strip().isalpha():
        return True
    return pieces[1] == "," and _SET_OFF_THEN_VERB.match(pieces[2]) is not None


def _one_of_other_kind(q: QuestionCues, text: str, at: int) -> bool:
    """Whether the pro-form "one" at `at` stands for a thing of another kind than the referent: "one" takes
    the kind of the last clause subject before it in its sentence ("the flight number on the board matches
    the one on the fuselage" is a number, not a plane), as in `several._answered_subjects`; with no such
    subject ("The tallest one is ...", "it's the one on the left") it is the referent."""
    opens = max(text.rfind(c, 0, at) for c in ".!?\n") + 1
    heads = []
    for m in _CLAUSE_START.finditer(text, opens, at):
        said = list(re.finditer(_WORD, text[: m.end() + 40]))
        said = [w for w in said if w.start() >= m.end()][:3]
        if any(w.end() > at for w in said):  # the clause of "one" itself ("the grey one is ...")
            continue
        words = (w.group(0) for w in said)
        phrase = list(itertools.takewhile(lambda w: w not in PREPOSITIONS and w not in VERBS, words))
        if phrase:
            heads.append(phrase[-1])
    if not heads or heads[-1] in q.referents:
        return False
    return of_asked_kind(q, _single(heads[-1]), owner=True) is False


# the opening of a clause with no article: one or two modifiers right after the text's, a sentence's or a
# clause's start ("left one yes, right one no")
_ARTICLELESS_OPENING = re.compile(r"(?:^|[.;:!?,\n\u2013\u2014]\s*)((?:[a-z]+(?:-[a-z]+)*\s+){1,2})$")


def _named_bare(q: QuestionCues, text: str) -> bool:
    """Whether the reply names the referent by the question's own word with no description, as a clause's
    subject right before its verb ("the helmet is white", "..., and the dog has a collar")."""
    if not q.referents:
        return False
    start = r"(?:^|[.;:!?,\u2013\u2014]\s*|\b(?:and|but|while|whereas|so)\s+)the\s+"
    bare = start + _alias_pattern(set(q.referents)) + r"\s+" + _SUBJECT_VERBS + r"\b"
    return re.search(bare, text) is not None


def plural_then_one(q: QuestionCues, answer: str) -> str | None:
    """ "There are several boys in the photo. The boy is holding a football.", "Several trees line the path.
    It's an oak.": the plural only says what is there, and the answer is then about one referent named bare
    (no description: the referent word, or "he" / "she" / "it"). The rubric's A needs the answer itself to
    treat the ambiguity; this one answers for one without saying which: class C. "They" speaks of all."""
    said = reply_checks.sentences(normalise(answer))
    plural = [s for s in said if plural_mentions(q, s)]
    if not plural or not all(_introduces(q, s) for s in plural):
        return None
    singular = {"he", "she", "him", "her", "his"} if asks_about_person(q) else {"it", "it's", "its"}
    names = _alias_pattern(set(q.referents) | singular)
    later = said[said.index(plural[-1]) + 1 :]
    bare = [s for s in later if re.match(r"(?:the\s+)?" + names, s) and not identifying_description(q, s)]
    return (
        f"a plural that only says what is there, then one referent named bare: {bare[0]!r}" if bare else None
    )


def named_by_role(q: QuestionCues, answer: str) -> str | None:
    """The answer names the person it is about by a role the question does not have ("The batter is
    swinging" for "What is the player doing?", "the goalkeeper wears ..."): a description by what that
    one does, which singles it out; for a thing ("What color is the jersey?"), its owner named by a role
    ("the goalkeeper wears a green jersey"). A generic person word ("the man" for "the person") is no
    role, and the role must act ("is swinging", "wears", "holds"): "the blazer is navy" names a thing. For a
    thing, the owner's clause must be about it ("the goalkeeper wears a green jersey"): "the cyclist is
    coming down the road" only sets the scene, and names no helmet."""
    acts = r"\s+(?:(?:is|was)\s+[a-z]+ing|wears|holds|carries|has)\b"
    referent_like = set(q.referents) | {plural_of(n) for n in q.referents}
    opens = r"(?:^|[.;!?,]\s+|\s[-\u2013\u2014]\s+|[\u2013\u2014])"  # a clause's start, or after a dash
    for m in re.finditer(opens + r"the\s+(" + _WORD + r")" + acts, answer):
        noun = m.group(1)
        if noun in q.words or noun in PERSON_NOUNS or noun in lx.CLOTHING or is_plural(noun):
            continue
        thing = not asks_about_person(q) and q.referents
        if thing and not _owner_clause_about_referent(referent_like, answer[m.end(1) :]):
            continue
        if names_person(noun):
            return f"the {noun}"
    return None
