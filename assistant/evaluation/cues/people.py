"""People and kinds: whether a word names a person (`names_person`, `is_person`, `is_relation`,
`names_people`), which people count as more of the question's person (`people_verdict`), and the one gate
for referents of the asked kind (`of_asked_kind`).

A referent must be of the asked kind (`of_asked_kind`, the one gate): a reply's subject, list key,
quantified set ("both of them") or singled-out phrase counts as a referent only when its noun is the
referent word, "one", a synonym or narrower kind (WordNet's first sense: "rowboat" for the boat, "kids"
for the child), a broader word pointing back ("the animal"), people `people_verdict` counts, or, where the
question asks about a thing, its owner; "the load" beside "the crane", "the groom" beside "the bride" and
"the bench" the woman sits on are no referents. A near sense ("the monitor" for the screen) or a word
WordNet lacks leaves the cue's own reading.
"""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant.evaluation import noun_senses
from assistant.evaluation.cues.question import QuestionCues
from assistant.evaluation.cues.text import PRONOUN_PEOPLE, _single, is_plural, plural_of
from assistant.lexicon import NOT_AGENTS, PERSON_NOUNS


def names_person(noun: str, any_sense: bool = False) -> bool:
    """A word for a person, more strictly than `is_person`: a person or relation noun, a word whose most
    frequent sense in WordNet is a person ("nurse", "sister", "chefs"; not "burgers", "sweater"), or, for
    a word WordNet cannot say of, an agent noun whose stem is a known word ("paddleboarder" from
    "paddleboard"); not a comparative ("larger": simplemma reads it as "large") or a listed non-agent, and
    not an -er word with no word under it. `any_sense` where the context already frames people ("a
    crowd of commuters", "a group of fans"): any of WordNet's senses will do."""
    single = _single(noun)
    if single in PERSON_NOUNS or single == "people" or is_relation(noun):
        return True
    known = noun_senses.person(noun, single, any_sense)
    if known is not None:
        return known
    if single in NOT_AGENTS or len(single) <= 4:
        return False
    import simplemma  # its dictionaries load on first use, as in answer_match

    if simplemma.lemmatize(single, lang="en") != single:  # an inflected form: "larger", "bigger"
        return False
    if single.endswith(("ist", "ian")):
        return True
    # a compound's agent head counts: "goalkeeper" is a keeper, "firefighter" a fighter; so does a person
    # noun head after a known word, in a word WordNet lacks: "baseman" is a man, as "linesman" is in
    # WordNet ("snowman", "ottoman": WordNet knows them as things)
    unknown = not noun_senses.senses(single)
    person_head = unknown and any(
        single[i:] in PERSON_NOUNS and _known(single[:i]) for i in range(3, len(single) - 2)
    )
    return person_head or any(
        _agent_stem(single[i:]) for i in range(0, len(single) - 4) if i == 0 or _known(single[:i])
    )


def _known(word: str) -> bool:
    import simplemma

    return len(word) >= 3 and simplemma.is_known(word, lang="en")


def _agent_stem(word: str) -> bool:
    """An -er / -or word whose stem is a known word ("skier": "ski", "rider": "ride")."""
    return word.endswith(("er", "or")) and (_known(word[:-2]) or _known(word[:-1]))


def is_relation(noun: str) -> bool:
    """A person named by relation to another, who is so a second person ("her sister", "his friend",
    "teammates", "her cousin"): WordNet's kin, associates, friends, neighbours, partners and opponents,
    and the "-mate" compounds it lacks ("bandmate")."""
    single = _single(noun)
    hyphened = single.startswith("co") and noun_senses.relation("co-" + single[2:], "")  # "coworker"
    return noun_senses.relation(noun, single) or hyphened or (single.endswith("mate") and len(single) > 5)


def names_people(noun: str) -> bool:
    """A word for several people at once: a collective of people ("staff", "a couple", "the crew", "her
    family", "a quartet"), or "people"."""
    return noun == "people" or noun_senses.people_group(noun, _single(noun))


def asks_about_person(q: QuestionCues) -> bool:
    """The question's referent (or its owner: "the man's hat") is a person; "Does she wear a hat?" asks
    about the hat (the people are not its referents)."""
    return any(names_person(r) for r in q.referents) or (
        q.pronoun in PRONOUN_PEOPLE and bool(q.referents & PERSON_NOUNS)
    )


def sexes(word: str) -> frozenset[str]:
    """ "female" / "male" for a person word: the gendered kin and address words WordNet files under no sex
    ("grandfather", "sister": lx.FEMALE_WORDS, lx.MALE_WORDS) and their compounds ("grandson"), or
    WordNet's sexes above its first sense ("woman", "boy"); empty for a word of no sex ("people")."""
    single = _single(word)
    # a kin compound takes its head's sex: "grandson", "stepdaughter", "godmother", "great-grandfather"
    single = re.sub(r"^(?:great-)*(?:grand|step-?|god|half-)", "", single) or single
    found = {"female" for w in (word, single) if w in lx.FEMALE_WORDS}
    found |= {"male" for w in (word, single) if w in lx.MALE_WORDS}
    if not found:
        _, senses = noun_senses.age_and_sex(single)
        female = noun_senses.age_and_sex("woman")[1]
        found = {"female" if s in female else "male" for s in senses}
    return frozenset(found)


def other_sex(q: QuestionCues, noun: str) -> bool:
    """A person of the other sex than every person the question names ("her grandfather", "two women" for
    "the man", "girls" for the boy): no second one of the asked kind, whatever else may leave its kind
    open."""
    mine = sexes(noun)
    theirs = [sexes(r) for r in person_referents(q)]
    return bool(mine) and bool(theirs) and all(t and not (t & mine) for t in theirs)


def person_referents(q: QuestionCues) -> frozenset[str]:
    """The question's referents that are people, as narrowly as it names them: "person" (a pronoun's and
    `racquet.judge._as_person`'s catch-all) and, for a pronoun, its "player" alias only where nothing
    narrower is left ("What is he holding?": man, boy, guy, ...)."""
    people = {r for r in q.referents if names_person(r) or noun_senses.kind_of(r, "person")}
    aliases = {"person", "player"} if q.pronoun in PRONOUN_PEOPLE else {"person"}
    return frozenset(people - aliases or people)


SEVERAL, UNSURE, NONE = "several", "unsure", "none"


def people_verdict(q: QuestionCues, noun: str) -> str:
    """Whether a mention of other people (`noun`: "spectators", "a catcher", "her dad", "people", or a
    collective: "a crowd") is more of the question's person: SEVERAL, UNSURE or NONE. RAcQUEt G.3 counts
    more of "the entity mentioned in the question": a catcher for "the player" (the same kind or a narrower
    one: noun_senses.kind_of; or a peer, "teammates", who shares the referent's group), "several people"
    for "the man" (a broader person word or a collective, for a referent named only by age or sex:
    noun_senses.generic_person). Other kinds are no mention for a role ("spectators", "students",
    "a patient" for the player, the teacher, the doctor: G.3's "man ... does not mention several people"
    reads people of the asked kind, and the annotators count no others), and a generic word for a role
    ("a crowd", "two people" for the player) or another kind for a generic referent ("her sister" for the
    girl, "a nurse" for the woman) is ambiguous: the annotators split on these. A person of another
    generation than a referent named by age ("children" for the woman, "her dad" for the girl:
    `_other_generation`) is NONE: the annotators label these NO."""
    referents = person_referents(q)
    if not referents:
        return NONE
    single = "person" if noun == "people" else _single(noun)
    group = names_people(noun) and not names_person(noun)
    # a fellow member of the referent's class, team or crew ("classmates", "teammates", "bandmate")
    mate = single.endswith("mate") and len(single) > 5
    same = single in referents or mate or any(_same_person(single, r) for r in referents)
    if not group and same:
        return SEVERAL
    # "the twins" for the baby, the girl: siblings of one birth, so of one age, as two people named by age
    # or sex alone would be; no second teacher
    if is_plural(noun) and noun_senses.multiple_birth(single):
        alike_kind = all(noun_senses.generic_person(r) or noun_senses.young(r) for r in referents)
        return SEVERAL if alike_kind else NONE
    generic = [r for r in referents if noun_senses.generic_person(r)]
    if not generic:
        return UNSURE if group or noun_senses.generic_person(single) else NONE
    broader = group or any(noun_senses.kind_of(r, single) for r in generic)
    alike = noun_senses.generic_person(single) and any(_alike(single, r) for r in generic)
    if broader or alike:
        return SEVERAL
    # "her dad", "her parents" for the girl, "his daughter", "two small children" for the man: of another
    # generation than the referent, so no second one (heldout8-12: eight such items, all labelled NO); the
    # generation of the nouns the question names ("the girl ... her feet": the girl, not the aliases of
    # her pronoun, "woman", "lady"); a pronoun alone ("What is she holding?") may be of any age
    named = [r for r in generic if r in q.heads] or generic
    return NONE if all(_other_generation(single, r) for r in named) else UNSURE


def _same_person(word: str, referent: str) -> bool:
    """The same kind of person as the referent, or a narrower one ("catcher" for "player", "girl" for
    "woman"), or its peer ("teammate", "opponent": noun_senses.peer). Both singular."""
    return bool(noun_senses.kind_of(word, referent)) or noun_senses.peer(word, referent)


def _other_generation(word: str, referent: str) -> bool:
    """A person a generation away from a generic referent, by WordNet: a forebear ("dad", "grandmother",
    "parents": under "ancestor") or an adult of a young referent ("the girl", "the boy", "the child"), or
    a young person ("children", "his daughter": under "juvenile" or the offspring sense) of an adult one
    ("the man", "the woman"). "Her sister" or "a cousin" may be of the referent's own age: not this. Both
    singular."""

    def adult(w: str) -> bool:
        ages = noun_senses.age_and_sex(w)[0]
        return ages == noun_senses.age_and_sex("adult")[0] and bool(ages) and not noun_senses.young(w)

    forebear = noun_senses.kind_of(word, "ancestor") is True
    if noun_senses.young(referent):
        return forebear or adult(word)
    return adult(referent) and noun_senses.young(word)


def _alike(word: str, referent: str) -> bool:
    """Two generic person words that agree in age and sex where WordNet gives them ("children" and "the
    boy", of no age in WordNet; not "children" and "the woman", nor "men" and "the girl")."""
    (ages, sexes), (r_ages, r_sexes) = noun_senses.age_and_sex(word), noun_senses.age_and_sex(referent)
    return not (ages and r_ages and ages != r_ages) and not (sexes and r_sexes and sexes != r_sexes)


def _worn_pair(q: QuestionCues, noun: str) -> str:
    """How things worn in pairs (the lexicon's pair nouns: "sneakers", "trainers", "gloves"), gathered by
    a collective ("a pair of trainers"), count for an asked thing that is worn in pairs too ("the shoe"):
    SEVERAL where any WordNet sense is of its kind ("sneaker": first the shoe), NONE where a sense is
    another worn thing ("gloves": handwear), UNSURE where WordNet has no worn sense at all though the
    lexicon lists the word as worn ("trainer": a person or a simulator): it may be the asked kind."""
    worn = {r for r in q.referents if plural_of(r) in lx.PAIR_NOUNS}
    if noun not in lx.PAIR_NOUNS or not worn:
        return NONE
    single = noun.removesuffix("s")
    if any(noun_senses.any_kind_of(single, r) for r in worn):
        return SEVERAL
    other = any(noun_senses.any_kind_of(single, k, any_kind_sense=True) for k in ("covering", "adornment"))
    return NONE if other else UNSURE


def of_asked_kind(q: QuestionCues, noun: str, owner: bool = False, broader: bool = True) -> bool | None:
    """Whether a noun the reply uses for a subject, a list key, a quantified set or a singled-out phrase can
    name a referent of the question: the one gate for the cues that count referents ("answers for several",
    "keyed by different referents", "both of them") or single one out ("the dog on the sofa"). A referent
    noun is of the asked kind: the question's referent word (any form), the pro-form "one", a synonym or a
    narrower kind ("kids" for the child, "a rowboat" for the boat, "the tabby" for the cat: WordNet's
    first sense), a broader word that can point back at it ("the animal" for the dog; not with `broader`
    False, where a second subject so named would be counted as a second referent), or, for a person, the
    people `people_verdict` counts (SEVERAL; UNSURE keeps the caller's reading). With `owner`, for a
    question about a thing, a person or an animal may stand for it as its owner ("the skier on the right
    has red boots"). A question with no concrete referent ("What is this?") takes any noun. True / False /
    None, None where WordNet lacks the noun or every referent (the caller keeps its reading): why the crane's
    "load", the chef's "board" or the bride's "groom" are no second referent, while "the striker" is no
    goalkeeper either."""
    word = noun.removesuffix("'s")
    single = _single(word)
    if not q.referents or word in ("one", "ones", "other") or {word, single} & q.referents:
        return True
    people = person_referents(q)
    things = {r for r in q.referents if r not in people and not names_person(r)}
    person = names_person(word) or names_people(word)
    verdicts: list[bool | None] = []
    if people and person and broader and any(noun_senses.kind_of(r, single) for r in people):
        return True  # "the athlete with the red poles" for the skier
    if people and person:
        verdict = people_verdict(q, word)
        verdicts.append(True if verdict == SEVERAL else None if verdict == UNSURE else False)
    if things and (person or noun_senses.kind_of(single, "animal")) and owner and not people:
        return True
    for ref in things:
        narrower = noun_senses.kind_of(single, ref)
        if narrower is None:
            verdicts.append(None)
        elif (
            narrower
            or noun_senses.same_thing(single, ref)
            or bool(broader and noun_senses.kind_of(ref, single))
        ):
            return True
        else:  # a near sense ("the monitor" for the screen) may be another word for it
            verdicts.append(None if noun_senses.near(single, ref) else False)
    if people and not person:
        verdicts.append(False if noun_senses.senses(single) else None)
    if True in verdicts:
        return True
    return None if None in verdicts or not verdicts else False


def is_person(noun: str) -> bool:
    """A word for a person, by its singular form, more loosely than `names_person`: the person nouns, a
    word whose most frequent sense in WordNet is a person, or, for a word WordNet does not know, any
    agent-like ending ("paddleboarders": -er / -or / -ist), plural or not ("peoples", "skiers")."""
    single = _single(noun)
    if single in PERSON_NOUNS or single == "people":
        return True
    known = noun_senses.person(noun, single)
    if known is not None:
        return known
    return len(single) > 4 and single.endswith(("er", "or", "ist")) and single not in NOT_AGENTS
