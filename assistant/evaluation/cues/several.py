"""Several answered: `several_answered` and its parts, an answer that speaks about several referents at
once: a quantifier over them (`_quantified`), "one ... the other" or a series of pro-forms
(`_one_and_other`), a list of singular referents (`_singular_list`), a plural subject that is the
referents or their owners (`_plural_subject`), or two or more subjects each given its own answer
(`_answered_subjects`).
"""

from __future__ import annotations

import itertools
import re

from assistant import lexicon as lx
from assistant import words as en
from assistant.evaluation.cues.counting import _about_other_things
from assistant.evaluation.cues.people import asks_about_person, is_person, names_person, of_asked_kind
from assistant.evaluation.cues.question import QuestionCues
from assistant.evaluation.cues.text import (
    _SUBJECT_VERB_WORDS,
    _SUBJECT_VERBS,
    _WORD,
    NON_IDENTIFYING,
    POSSESSIVE_PRONOUNS,
    PREPOSITIONS,
    STOPWORDS,
    VERBS,
    _alias_pattern,
    _single,
    content_words,
    is_plural,
    normalise,
    plural_of,
)


def _only_places_them(q: QuestionCues, text: str, m: re.Match[str]) -> bool:
    """ "Both adults are near the board, but the teacher holding the marker ...": a quantified subject
    whose clause only says where they are is a mention; the answer is in the contrast that follows."""
    rest = text[m.end() :] if not m.group(0).endswith(("are", "were")) else " are" + text[m.end() :]
    clause = re.split(r",?\s+(?:but|though|although|yet|while|whereas)\s", rest, maxsplit=1)[0]
    return _only_placed(q, clause)


def several_answered(q: QuestionCues, answer: str) -> str | None:
    """Why the answer speaks about several referents at once, or None: a quantifier over them ("both
    cyclists", "each of the hikers", "one ... the other"), a list of singular referents ("a chestnut
    horse in front and a grey horse behind it", "one by the door and one by the window"), a plural
    subject that is the referents or their owners ("the skiers are", "the peoples in the photo have"), or
    two or more subjects that are the referent or its owner, each given its own answer ("the woman wears
    a red scarf and the man a grey one", "the girl on the swing ...; the girl by the slide ...")."""
    text = normalise(answer)
    return (
        _quantified(q, text)
        or _one_and_other(q, text)
        or _singular_list(q, text)
        or _plural_subject(q, text)
        or _answered_subjects(q, text)
    )


_NUMBERS = "|".join(sorted(lx.NUMBER_WORDS, key=len, reverse=True))
# "both dogs", "each of the hikers", "all three kids"
_QUANTIFIED = re.compile(
    r"\b(?:both|each|all)\s+(?:of\s+(?:the|them|these|those)\s+)?(?:(?:" + _NUMBERS + r")\s+)?(" + _WORD + ")"
)


def _quantified(q: QuestionCues, text: str) -> str | None:
    """A quantifier over several referents: over the question's referents or people, or as a clause's
    subject ("Both animals are asleep"); not over the answer's things ("the child holds both flags") nor
    over one referent's parts ("both hands")."""
    referent_like = set(q.referents) | {plural_of(n) for n in q.referents}
    for m in _QUANTIFIED.finditer(text):
        noun = m.group(1)
        if not (is_plural(noun) or " of " in m.group(0)) or _parts_of_one(q, noun):
            continue
        if _only_places_them(q, text, m):
            continue
        subject = re.search(
            r"(?:^|[.;:!?,\u2013\u2014]\s*|\b(?:and|but|while|whereas)\s+)$", text[: m.start()]
        )
        if " of " in m.group(0) or noun in referent_like or names_person(noun) or subject:
            return f"quantified: {m.group(0)!r}"
    return None


# "one" as a clause's subject, then a further pro-form as a later clause's subject, with its verb or place:
# "one has a hose, another grips an axe, and the third ...", "one by the door, a second by the window"
_PRO_SERIES = re.compile(
    r"(?:^|[.;:,!?\u2013\u2014]\s*|\b(?:and|while|whereas)\s+)(?P<one>one\b[^.?!]*?"
    r"(?:[,;:]\s*(?:and\s+|while\s+|whereas\s+)?|\b(?:and|while|whereas)\s+)"
    r"(?:another|the (?:second|third|fourth|last)|a (?:second|third|fourth))"
    r"(?=\s+(?:[a-z]+s|is|was|has|had|can|could|seems?|appears?|looks?|[a-z]+ing|[a-z]+ed|"
    r"by|near|on|in|at|behind|beside)\b)[^.?!]*)"
)


def _one_and_other(q: QuestionCues, text: str) -> str | None:
    """ "one ... the other", or a series of pro-forms, each a clause's subject ("one has a hose, another grips
    an axe, and the third ..."), unless the pair is of other things named just before ("two people, one ...
    the other ..." for a hat); the pair is the referents' when its own sentence names the referent ("the
    one in front wears a red collar, the other a blue one")."""
    other = re.search(r"\bone\b[^.?!]*\bthe other\b[^.?!]*", text)
    series = None if other else _PRO_SERIES.search(text)
    if other:
        said, start, end = other.group(0), other.start(), other.end()
    elif series:
        said, start, end = series.group("one"), series.start("one"), series.end("one")
    else:
        return None
    # "a cup in one hand and a phone in the other": one referent's two parts, not two referents
    part = re.match(r"one\s+(" + _WORD + ")", said)
    if part and _parts_of_one(q, part.group(1)):
        return None
    names = _alias_pattern(set(q.referents)) if q.referents else None
    own = bool(names and re.search(names, said))
    if own or not (_about_other_things(q, text[:start]) or pair_of_other_things(q, text, start, end)):
        return "one ... the other" if other else "one ... another, each a clause's subject"
    return None


def pair_of_other_things(q: QuestionCues, text: str, start: int, end: int) -> bool:
    """Whether the "one ... the other" at text[start:end] (from "one") tells apart the parts of one
    referent, not referents: a part noun after either word ("a sign in one hand and a coffee in the
    other", "one end of the banner ... the other end"), or, with no verb after "one", right before it
    ("two different coloured eyes, one blue and the other brown"). A part the question asks about
    ("Which hand ...?") still counts as a referent."""
    after_one = re.match(r"one\s+(" + _WORD + ")", text[start:])
    after_other = re.search(r"\bthe other\s+(" + _WORD + ")", text[start:end])
    nouns = [m.group(1) for m in (after_one, after_other) if m]
    if not (after_one and (after_one.group(1) in lx.AUX or after_one.group(1) in VERBS)):
        before = re.search(r"(" + _WORD + r")\s*,\s*$", text[:start])
        nouns += [before.group(1)] if before else []
    return any(_parts_of_one(q, w) for w in nouns)


def _distributes_other_things(q: QuestionCues, before: str) -> bool:
    """Whether a "one" right after `before` opens a distributive apposition of the plural just before it
    ("two cutting boards, one with herbs and one with a fish"; "three mugs: one red, ..."): that "one" is
    one of those things, which are not the referents and not people (people may own the asked thing: "two
    skiers, one in a red helmet" are two helmets' owners), or coordinates a "one" with that counted plural,
    only a place between ("two wheels in front and one behind": `_COORDINATED_AFTER`)."""
    m = re.search(r"(" + _WORD + r")\s*(?:,|:|\s[\u2013\u2014-])\s*$", before)
    m = m or _COORDINATED_AFTER.search(before)
    if m is None:
        return False
    noun = m.group(1)
    referent_like = set(q.referents) | {plural_of(n) for n in q.referents}
    return is_plural(noun) and noun not in referent_like and noun not in STOPWORDS and not is_person(noun)


# an elliptical "one" coordinated with a counted plural in its clause, only a place between: "a deck with
# two wheels in front and one behind" (one wheel), "three lamps on the left and one on the right"
_COORDINATED_AFTER = re.compile(
    r"\b(?:" + _NUMBERS + r"|several|many)\s+(?:" + _WORD + r"\s+)??(" + _WORD + r")"
    r"(?:\s+(?:"
    + "|".join(sorted(lx.PREPOSITIONS, key=len, reverse=True))
    + r"|the|front|back|left|right|top|bottom|middle|side|behind|ahead|below|above|here|there))*\s+and\s*$"
)


def _singular_list(q: QuestionCues, text: str) -> str | None:
    """The rubric's "list of singular nouns": "one by the door and one by the window", "a gold one on the
    left and a silver one on the right", "a chestnut horse in front and a grey horse behind it"; not when
    the ones are of other things named just before ("two people, one rowing and one sitting"), before the
    list or inside it ("a signal box with two panels, one above the other": the later "one" is a panel)."""
    nouns = r"(?:one|" + "|".join(sorted(map(re.escape, q.referents))) + ")" if q.referents else "one"
    single = r"(?:\bone\b|\b(?:an?|another)\s+(?:" + _WORD + r"\s+){1,2}?" + nouns + r"\b)"
    # the later one may take "the" ("one's yellow and the one further down is black"): each pro-form opens
    # its own clause, so the two are two of the referents
    listed = re.search(single + r"[^.?!]{1,80}?(?:\band\b|,|;)\s+(?:the\s+(?=one\b))?(" + single + ")", text)
    if listed is None or _about_other_things(q, text[: listed.start()], counted=False):
        return None
    later = listed.start(1)
    if text[later:].startswith("one") and _about_other_things(q, text[listed.start() : later], counted=False):
        return None
    return "a list of singular referents"


def _plural_subject(q: QuestionCues, text: str) -> str | None:
    """A plural subject that is the referents ("the skiers are ...", "the cows near the fence are
    Holsteins"), their pro-form ("the ones near the fence look like Holsteins") or, through the gate
    (`of_asked_kind`), people of the asked kind or owners of the asked thing: "the students are seated"
    is no second teacher; for a thing, people count as its owners only where their clause speaks of it
    or of nothing else ("the hikers have orange jackets"; not "the two people are on a beach" for the
    hat, as G.3's hat example reads)."""
    referent_like = set(q.referents) | {plural_of(n) for n in q.referents}
    place = r"(?:\s+(?:in|on|at|of|near|by)\s+(?:the\s+)?" + _WORD + r"(?:\s+" + _WORD + r")?)?"
    pattern = (
        r"\bthe\s+(?:" + _WORD + r"\s+){0,2}?(" + _WORD + ")" + place + r"\s+(?=" + _SUBJECT_VERBS + r"\b)"
    )
    for m in re.finditer(pattern, text):
        noun = m.group(1)
        if noun in q.plural_in_question or not is_plural(noun):
            continue
        if noun in referent_like or (noun == "ones" and _ones_for_referents(q, text[: m.start()])):
            return f"plural subject: {noun!r}"
        if not is_person(noun) or of_asked_kind(q, noun, owner=True) is False:
            continue
        if (
            not q.referents
            or asks_about_person(q)
            or _owner_clause_about_referent(referent_like, text[m.end() :])
        ):
            return f"plural subject: {noun!r}"
    return None


def _ones_for_referents(q: QuestionCues, before: str) -> bool:
    """Whether "the ones" stands for the referents: it points back at the last plural noun before it ("several
    cows ... the ones near the fence"), or, with none, at the question's referent; "the big rear wheels and
    the smaller front ones" are wheels, not tractors."""
    plurals = [w for w in re.findall(_WORD, before) if w not in STOPWORDS and w not in VERBS and is_plural(w)]
    if not plurals:
        return True
    last = plurals[-1]
    return last in {plural_of(n) for n in q.referents} or (asks_about_person(q) and is_person(last))


# a clause's subject: after a sentence start, a comma or a conjunction, "the / one ..." (and "a ..." after
# a contrast: "while a defender behind him wears #7"), up to its verb
_SUBJECT = re.compile(
    r"(?:(?:^|[.;:!?\u2013\u2014]\s*|,\s*|\s-\s+|\s(?:and|while|whereas|but)\s+)(?:the\s+|(?=one\b))"
    r"|\s(?:while|whereas)\s+an?\s+)"
    r"((?:" + _WORD + r"\s+){0,1}?" + _WORD + r")\b([^.;:!?,]{0,40}?)"
    r"(?=\s+(?:" + _SUBJECT_VERB_WORDS + r")\b|\s+a\s|\s+an\s|,|;|$)"
)


def _answered_subjects(q: QuestionCues, text: str) -> str | None:
    """Two or more subjects that are the referent or its owner, each with its own answer. For a thing
    (the question's "helmet"), people count as owners apart from the thing itself, and only where their
    clause says nothing of another thing ("the rider is wearing a helmet; the passenger has a cap" is one
    helmet; "the player wears #23, while a defender wears #7" two jerseys). A subject set off by a comma
    right after another ("the sign, the big one above the door, reads ...") is an apposition: the same."""
    referent_like = set(q.referents) | {plural_of(n) for n in q.referents}
    things: list[tuple[str, str]] = []
    owners: list[tuple[str, str]] = []
    last_end = -1
    antecedent: tuple[str, int] | None = None  # the last subject noun, for a pro-form "one" after it
    for m in _SUBJECT.finditer(text):
        apposition = m.group(0).startswith(",") and m.start() == last_end
        last_end = m.end()
        noun = _subject_noun(q, referent_like, m.group(1) + m.group(2))
        if noun == "one" and pair_of_other_things(q, text, m.start(1), m.end()):
            continue  # "two different coloured eyes, one blue and the other brown": eyes, not referents
        if noun == "one" and _distributes_other_things(q, text[: m.start(1)]):
            continue  # "two cutting boards, one with herbs and one with a fish": boards, not chefs
        if noun == "ones" and not _ones_for_referents(q, text[: text.rfind("ones", m.start(), m.end())]):
            continue  # "the rear doors and the front ones": doors, not vans
        if (
            noun in ("one", "ones")
            and antecedent
            and not re.search(r"[.!?\n]", text[antecedent[1] : m.start()])
        ):
            # a pro-form takes the kind of the subject before it in its sentence: "the hiker in front wears a
            # jacket; the one behind has a vest" is a second hiker, not a second jacket
            noun = antecedent[0]
        elif noun is not None and noun not in ("one", "ones"):
            antecedent = (noun, m.end())
        if apposition or noun is None or _only_placed(q, text[m.end() :]):
            continue
        phrase = m.group(0).strip(" ,;:.")
        # a person subject of a person question, or a narrower kind of the asked thing ("the rowboat" for
        # the boat), is a referent when of the asked kind: "the groom" is no second bride
        named = noun in referent_like or noun in ("one", "ones")
        # a question with no concrete referent ("What sport is being played?") counts no person subject as
        # one: "the batsman ..., while the bowler ..." answers the sport once
        kind = True if named else of_asked_kind(q, noun, broader=False) if q.referents else None
        if kind is True or (kind is None and asks_about_person(q)):
            # "the man on the left wears a red cap. the man in the red cap ...": the same man again
            again = named_again(_identifying(phrase, noun), text[: m.start()])
            if again and any(n == noun for n, _ in things):
                continue
            things.append((noun, phrase))
        # "one" stands for whichever came before: "the player on the left ... the one on the right"
        owner = kind is not True and not asks_about_person(q)
        if owner and _owner_clause_about_referent(referent_like, text[m.end() :]):
            owners.append((noun, phrase))
    # the question's own owner and owned thing ("the player's shirt", "the number on the car") are one
    # referent: "The player is shown from behind. The shirt is red" answers for one
    linked = set(q.heads) & set(q.referents) if len(set(q.heads) & set(q.referents)) >= 2 else set()
    for subjects in (things, owners):
        # the same referent named again ("the t-shirt in question ... the t-shirt") is one referent: two
        # subjects count when their nouns differ or each carries its own identifying words
        distinct = {("", d) if n in linked else (n, d) for n, d in _distinct_subjects(subjects)}
        described = {d for _, d in distinct if d}
        if len(distinct) >= 2 and (len({n for n, _ in distinct}) >= 2 or len(described) >= 2):
            return f"{len(subjects)} referents answered: {', '.join(p for _, p in subjects[:3])}"
    return None


def named_again(words: str | frozenset[str] | set[str], before: str) -> bool:
    """Whether a later description's identifying words (space-separated, or a set) were all said before it,
    adverbs aside: "The man on the left wears a red cap. The man in the red cap also has a scarf." names
    the same man again by what the reply said of him, so it adds no second referent. A description with
    no words of its own is left to the caller."""
    wanted = set(words.split()) if isinstance(words, str) else set(words)
    said = set(re.findall(r"[a-z]+", before))
    return bool(wanted) and not {w for w in wanted - said if not en.is_adverb(w)}


# a clause that only places its subject ("The first woman is by the bus."): a mention, not an answer
_ONLY_PLACED = re.compile(
    r"\s*(?:is|are|was|were|stands|sits|waits)\s+(?:(?:right|just)\s+)?"
    r"(?:by|near|next\s+to|beside|behind|at|in\s+front\s+of|on|in)\s+(?:" + _WORD + r"\s*){1,4}(?:[.;!?]|$)"
)


def _only_placed(q: QuestionCues, rest: str) -> bool:
    """Whether the subject's clause (`rest`, from its verb on) says only where the subject is, where the
    question does not ask where: that names a referent but gives it no answer."""
    return "where" not in q.words and _ONLY_PLACED.match(rest) is not None


def _distinct_subjects(subjects: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """(noun, identifying words) of each subject, once; "one" is a pro-form, so "the one on the left" is
    the same referent as "the girl on the left" and is dropped where a noun has its identifying words."""
    distinct = {(noun, _identifying(phrase, noun)) for noun, phrase in subjects}
    named = {d for n, d in distinct if d and n not in ("one", "ones")}
    return {(n, d) for n, d in distinct if n not in ("one", "ones") or d not in named}


def _subject_noun(q: QuestionCues, referent_like: set[str], phrase: str) -> str | None:
    """The subject's referent word, "one", or person (its owner), before any preposition, or its head noun
    where that is a narrower kind of the asked thing ("the small rowboat" for the boat); else None."""
    toks = list(itertools.takewhile(lambda t: t not in PREPOSITIONS, re.findall(_WORD, phrase)))
    named = next((t for t in toks if t in referent_like or t in ("one", "ones")), None)
    named = named or next((t for t in toks if names_person(t)), None)
    if named or not q.referents:  # a question with no concrete referent takes no other noun as one here
        return named
    # not a possessor ("the woman's face": her part, no second woman)
    heads = (t for t in toks if t not in STOPWORDS and not t.endswith("'s"))
    return next((t for t in heads if of_asked_kind(q, t, broader=False) is True), None)


def _owner_clause_about_referent(referent_like: set[str], rest: str) -> bool:
    """The owner's clause (up to its end) names the referent or another of it ("a grey one"), or names no
    other thing at all ("wears #7"); "is the one we need" points back, it names no referent."""
    clause = re.split(r"[.;!?,]|\s(?:and|while|whereas|but)\s", rest, maxsplit=1)[0]
    if re.search(r"\b(?:none|no|not|without|nothing)\b|n't\b", clause):
        return False  # "the person on the right has none": an owner without one adds no referent
    toks = re.findall(_WORD, clause)
    if set(toks) & referent_like or re.search(r"\ban?\s+(?:" + _WORD + r"\s+){0,2}ones?\b", clause):
        return True
    return not any(t in lx.ARTICLES or t in POSSESSIVE_PRONOUNS for t in toks)


def _parts_of_one(q: QuestionCues, noun: str) -> bool:
    """ "both hands", "each paw", "both feet": a quantifier over the parts of one referent (the lexicon's
    part nouns), not over several referents, unless the question asked about those parts."""
    single = _single(noun)
    asked = q.words | q.referents | q.plural_in_question
    return (noun in lx.PART_NOUNS or single in lx.PART_NOUNS) and not {noun, single} & asked


def _identifying(phrase: str, noun: str) -> str:
    """The words of a subject phrase that could tell its referent apart ("on the left"), without the
    noun, articles and the phrases that identify nothing ("in question", "in the image")."""
    for said in NON_IDENTIFYING:
        phrase = re.sub(r"(?:^|\s)" + re.escape(said) + r"(?=\s|$)", " ", phrase)
    return " ".join(sorted(content_words(phrase) - {noun, "one", "ones"}))
