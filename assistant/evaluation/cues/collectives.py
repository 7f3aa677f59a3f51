"""Several of the asked kind in other words (CoT only, `same_kind_mention`): a collective ("a flock", "a
group of skiers", "the rest of the team"), and for a person question people of its kind, read by WordNet
(`people_verdict`: "catchers" and "teammates" for the player, "several people" for the man; "spectators"
for the player are none, "children" for the woman unsure).
"""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant import words as en
from assistant.evaluation import noun_senses
from assistant.evaluation.cues.people import (
    NONE,
    SEVERAL,
    UNSURE,
    _worn_pair,
    asks_about_person,
    is_relation,
    names_people,
    names_person,
    of_asked_kind,
    other_sex,
    people_verdict,
    person_referents,
)
from assistant.evaluation.cues.question import QuestionCues
from assistant.evaluation.cues.text import (
    _WORD,
    DETERMINERS,
    PREPOSITIONS,
    STOPWORDS,
    VERBS,
    _alias_pattern,
    _single,
    is_plural,
    normalise,
)
from assistant.lexicon import word_set

# Heads that gather several things of one kind ("a group of skiers", "a pair of dogs", "a herd of cows"):
# WordNet's group words, and the quantity words that gather as well. The kinds that a specific collective
# gathers ("a flock of seagulls" is several birds); a collective of people is any of WordNet's
# (`noun_senses.people_group`: "a crowd", "the crew", "a string quartet"), read in `same_kind_mention`.
_QUANTITY_HEADS = word_set("group number lot handful few several")
KIND_COLLECTIVES: dict[str, frozenset[str]] = {
    "bird": word_set("flock"),
    "sheep": word_set("flock herd"),
    "animal": word_set("herd pack"),
    "cow": word_set("herd"),
    "horse": word_set("herd"),
    "elephant": word_set("herd"),
    "zebra": word_set("herd"),
    "dog": word_set("pack"),
    "wolf": word_set("pack"),
    "fish": word_set("school shoal"),
    "bee": word_set("swarm"),
    "insect": word_set("swarm"),
    "boat": word_set("fleet"),
    "ship": word_set("fleet"),
    "car": word_set("fleet"),
    "vehicle": word_set("fleet"),
}


def _collective_head(word: str) -> bool:
    return word in _QUANTITY_HEADS or noun_senses.group(word)


def _of_kind(q: QuestionCues, noun: str, framed: bool = False) -> str:
    """How `noun` (plural) names things of the question's kind: its referent's plural (SEVERAL), or, for a
    question about a person, people by `people_verdict`; `framed` after a collective of people ("a crowd
    of commuters", "a team of fans"), which frames them: any sense of the word will do."""
    single = _single(noun)
    if single in q.referents or noun in q.referents:
        return SEVERAL
    if asks_about_person(q) and names_person(noun, any_sense=framed):
        return people_verdict(q, noun)
    # a narrower kind or a synonym of the asked thing ("a troop of macaques" for the monkey); a broader one
    # ("a group of animals" for the dog) may be of other kinds
    if q.referents and of_asked_kind(q, noun, broader=False) is True:
        return SEVERAL
    return _worn_pair(q, noun)


_INSIDE_GROUP = (
    r"\b(?:left|right|front|back|middle|centre|center|end|edge|head|rear)\s+of\s+(?:an?|the|his|her|their)\s+"
    r"(?:" + _WORD + r"\s+)?$"
)


_OTHER_OF_THEM = r"\b(?:the|her|his|their|its|two|three|several|some|many)\s+other\s+(?:" + _WORD + r"\s+)?$"


def same_kind_mention(q: QuestionCues, response: str) -> tuple[str | None, str | None]:
    """(why, None) for several instances of the question's entity said in other words, (None, why unsure)
    for other people whose kind may or may not be the asked one (`people_verdict`), or (None, None).
    RAcQUEt G.3 counts any mention: a collective head over them ("a group of skiers", "a pair of dogs"),
    membership ("one of the players", "the rest of the crew": the referent is one of them, so they are
    of its kind), a collective of their kind ("a flock" for a bird), or, for a question about a person,
    other people in the plural ("several people", "catchers"), by relation ("her friend") or as a
    collective ("a crowd", "staff"), as `people_verdict` reads them. Plurals of other kinds ("two people"
    for a helmet) are no mention."""
    text = normalise(response)
    unsure: str | None = None
    for m in re.finditer(
        r"\b(?:an?|the|one|two|three|several)\s+(" + _WORD + r")\s+of\s+(?:the\s+)?(" + _WORD + ")", text
    ):
        head, noun = m.group(1), m.group(2)
        membership = head in ("one", "rest")
        # "the rest of the team", "one of the crew": a collective the referent is a member of
        crew = membership and asks_about_person(q) and names_people(noun) and not is_plural(noun)
        # "the rest of the pride", "one of the herd" for an animal: a group of animals it is one of
        if membership and not is_plural(noun) and _animal_group_of(q, noun):
            return f"several of the asked kind: {m.group(0)!r}", None
        if not (_collective_head(head) or membership) or not (is_plural(noun) or crew):
            continue
        kind = UNSURE if crew else _of_kind(q, noun, framed=names_people(head))
        if kind == UNSURE and _onlookers(q, head):  # "a crowd of people" for the drummer: onlookers
            continue
        member = membership and kind != NONE  # the referent is one of them: they are of its kind
        if kind == SEVERAL or member:
            return f"several of the asked kind: {m.group(0)!r}", None
        if kind == UNSURE:
            unsure = unsure or f"{m.group(0)!r} may or may not be of the asked kind"
    kinds = {k for r in q.referents for k in (r, en.lemma(r))}
    for kind in kinds & set(KIND_COLLECTIVES):
        gathered = _alias_pattern(set(KIND_COLLECTIVES[kind]))
        for m in re.finditer(r"\b(?:an?|the|of the)\s+(?:" + _WORD + r"\s+)?" + gathered, text):
            if _gathers(q, text[m.end() :]):
                return f"a collective of the asked kind: {m.group(0)!r}", None
    if not asks_about_person(q):
        return None, unsure
    for m in re.finditer(_WORD, text):
        w = m.group(0)
        # "a farmers' market" names a kind of place; "her father's shoulders" a part of someone
        owned = re.search(r"(?:'s|\b(?:his|her|their|its))\s+$", text[: m.start()])
        classifier = text[m.end() : m.end() + 1] == "'"
        # "she is a partner at a law firm": a role she has, no second person
        role = re.search(r"\b(?:is|was|be|as)\s+an?\s+(?:" + _WORD + r"\s+)?$", text[: m.start()])
        if is_relation(w) and not role:
            why = f"another person, by relation: {w!r}"
        elif (
            is_plural(w)
            and (names_person(w) or noun_senses.multiple_birth(_single(w)))
            and not owned
            and not classifier
        ):
            why = f"several people: {w!r}"
        # "staff in black aprons", "a couple on a beach", "there is a family": heading its phrase ("a
        # team jersey", "she is a crew member" only modify a noun)
        elif names_people(w) and not classifier and _gathers(q, text[m.end() :]):
            why = f"a group of people: {w!r}"
        else:
            continue
        # placed inside the group ("seated on the left of a string quartet", "at the back of the crew"):
        # the referent is a member, so they are of its kind
        inside = why.startswith("a group") and _placed_inside(q, text[: m.start()])
        # "the woman leads the other hikers": "other" makes her one of them
        inside = inside or (why.startswith("several") and bool(re.search(_OTHER_OF_THEM, text[: m.start()])))
        # a group, or "people" that may or may not be of a role's kind, read by the members listed after it
        # ("People: the doctor ..., a patient ... and a nurse": one doctor); "several people: a man, a
        # woman and a child" stays several people for the man (G.3's man example)
        grouped = why.startswith("a group") or (w == "people" and people_verdict(q, w) == UNSURE)
        listed = _members_verdict(q, text[m.end() :]) if grouped and not inside else None
        # "a crowd of spectators": the members it is "of" say who they are, as a list after it does
        listed = listed or (_of_members_verdict(q, text[m.end() :]) if grouped and not inside else None)
        # "a crowd of people" for the drummer: people a gathering frames are onlookers as it is
        framing = re.search(r"\b(" + _WORD + r")\s+of\s+(?:the\s+)?$", text[: m.start()])
        onlookers = _onlookers(q, w) or (_onlookers(q, framing.group(1)) if framing else None)
        of_other_sex = NONE if other_sex(q, w) else None  # "two women" for the man: no second man
        verdict = SEVERAL if inside else listed or onlookers or of_other_sex or people_verdict(q, w)
        if verdict == SEVERAL:
            return why, None
        if verdict == UNSURE:
            unsure = unsure or f"{why[0].upper()}{why[1:]}, may or may not be of the asked person's kind"
    return None, unsure


def _animal_group_of(q: QuestionCues, noun: str) -> bool:
    """Whether a question about an animal meets a word one of whose WordNet senses is a group of animals
    ("pride", "herd", "pack", "school", "litter"): WordNet's animal-group synset is the hypernym of the
    first sense of "herd". What makes it the asked animal's group is the caller's frame ("the rest of the
    pride": the referent is one of them)."""
    if not any(noun_senses.kind_of(r, "animal") for r in q.referents):
        return False
    herd = noun_senses.senses("herd")
    groups = set(noun_senses.hypernyms(herd[0])) if herd else set()
    return any(groups & noun_senses.ancestors(s) for s in noun_senses.senses(noun))


def _onlookers(q: QuestionCues, group: str) -> str | None:
    """NONE for a gathering (WordNet: "crowd", "audience", "crowds") where every person the question names
    is a role ("the singer", "the referee", "the drummer"), else None: a gathering of people no kind is
    given for is onlookers to a role, not more of it (heldout10-14: a crowd for the singer, the drummer,
    the referee, the police officer, all labelled NO); what it is "of" or who is listed after it is read
    before this (`_of_members_verdict`, `_members_verdict`: "a crowd of runners" for the runner). A
    referent named by age or sex ("the man") may be in any crowd: `people_verdict` reads it."""
    referents = person_referents(q)
    roles = bool(referents) and not any(noun_senses.generic_person(r) for r in referents)
    return NONE if roles and noun_senses.kind_of(_single(group), "gathering") else None


def _of_members_verdict(q: QuestionCues, rest: str) -> str | None:
    """How a group of people counts by the plural people it is "of" (`rest` follows the group word): "a
    crowd of spectators" for the player is spectators (NONE), "a team of nurses" for the nurse SEVERAL;
    None where no people are named so ("a crowd of people" is read as people, "the crowd cheers") or where
    the members' kind is unsure (the group word then decides: "a crowd of commuters" for the man)."""
    of = re.match(r"\s+of\s+(?:the\s+)?(" + _WORD + r")(?:\s+(" + _WORD + r"))?", rest)
    if of is None:
        return None
    # the members are the first word, or the second after one modifier ("a crowd of young spectators")
    noun = of.group(1) if is_plural(of.group(1)) or not of.group(2) else of.group(2)
    if noun == "people" or not is_plural(noun):
        return None
    verdict = people_verdict(q, noun) if names_person(noun, any_sense=True) else None
    # "a crowd of commuters" for the man: commuters may or may not be men, but a crowd is several people
    return None if verdict == UNSURE else verdict


# a group's members listed right after it: "a family on a crossing: a man, a woman and a boy", "a couple (a
# man and a woman)", "a crew, including two divers and a pilot"
_MEMBER_LIST = re.compile(
    r"^[^.;!?\n:(]{0,40}?(?::|\(|\s[\u2013\u2014-]\s|,?\s(?:including|consisting of|made up of)\s)"
    r"([^.;!?\n)]*)"
)


def _members_verdict(q: QuestionCues, rest: str) -> str | None:
    """How a group of people whose members the reply lists right after it (`rest`) counts, by those
    members rather than by the group word: SEVERAL where two or more are of the asked kind (its word, or
    a narrower kind: "two catchers" in a team for the player), NONE where at most one is and the others
    are named by other generic words ("a family: a man, a woman and a boy" has one man: the reply's own
    words tell them apart), UNSURE where a role may be of the asked kind ("a nurse" for the woman; not
    for the doctor: `people_verdict`); None
    where no two people are listed (the group word decides)."""
    listing = _MEMBER_LIST.match(rest)
    if listing is None:
        return None
    referents = person_referents(q)
    counted = unsure = people = 0
    for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", listing.group(1)):
        toks = re.findall(_WORD, item)
        noun = next((t for t in toks[:4] if t not in STOPWORDS and names_person(t)), None)
        if noun is None:
            continue
        n = next((lx.NUMBER_WORDS[t] for t in toks[:2] if t in lx.NUMBER_WORDS), 2 if is_plural(noun) else 1)
        people += n
        single = _single(noun)
        if single in referents or any(noun_senses.kind_of(single, r) for r in referents):
            counted += n
        elif not noun_senses.generic_person(single) and people_verdict(q, noun) != NONE:
            unsure += n  # "a nurse" may be the woman; no nurse is the doctor (people_verdict)
    if people < 2:
        return None
    return SEVERAL if counted >= 2 else UNSURE if counted + unsure >= 2 else NONE


def _placed_inside(q: QuestionCues, before: str) -> bool:
    """Whether the referent is placed inside the group named next ("the cellist is seated on the left of a
    string quartet"): `before` ends in a place inside a group, and its clause's subject is the referent, a
    pronoun for it or another noun of its kind; "the ball is at the back of the ruck" places the ball."""
    if not re.search(_INSIDE_GROUP, before):
        return False
    clause = re.split(r"[.;:!?\n]|\s(?:and|while|whereas|but)\s", before)[-1]
    pronouns = {"he", "she", "they", "who", "it"}
    said = re.findall(_WORD, clause)
    first = next((w for w in said if w in pronouns or w not in STOPWORDS | DETERMINERS), None)
    return first is None or first in pronouns or of_asked_kind(q, first) is not False


def _gathers(q: QuestionCues, rest: str) -> bool:
    """Whether a collective noun, followed by `rest`, gathers things of the asked kind: it heads its
    phrase ("a crew-neck sweater", "a team jersey" only modify a noun), and what it is "of" is not
    another kind ("a team of huskies" for a person, "a flock of sheep" for a bird)."""
    nxt = re.match(r"(-|\s*(" + _WORD + r"))(?:\s+(" + _WORD + "))?", rest)
    if nxt is None:
        return True
    if nxt.group(1) == "-":
        return False
    word, after = nxt.group(2), nxt.group(3) or ""
    if word == "of":
        single = _single(after)
        other_kind = single in KIND_COLLECTIVES and single not in q.referents
        people = names_person(after, any_sense=True)  # "a crowd of commuters": the crowd frames people
        return not (other_kind or (asks_about_person(q) and after and not people))
    function = word in STOPWORDS or word in PREPOSITIONS or word in VERBS or word in lx.AUX
    return function or word.endswith(("s", "ing", "ed"))
