"""The WordNet-derived word lists the rule judges read people and groups of people with
(assistant/evaluation/noun_senses.py, made by scripts/wordnet_lists.py): a person by the word's most
frequent sense, plural forms, the words WordNet cannot decide (left to morphology), groups of people and
their near misses (places, things, colours), relations. The last test re-derives the lists from WordNet
where it is installed (Debian: wordnet-base) and skips elsewhere: the judges read only the committed files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from assistant.evaluation import noun_senses
from assistant.evaluation import response_cues as cues

ROOT = Path(__file__).resolve().parent.parent


def person(word: str, any_sense: bool = False) -> bool | None:
    return noun_senses.person(word, cues._single(word), any_sense)


@pytest.mark.parametrize(
    "word",
    [
        "nurse",
        "chef",
        "runner",
        "sister",
        "pilots",
        "toddler",
        "goalkeeper",
        "waitress",
        "paramedics",
        "snowboarder",
        "natives",
    ],
)
def test_a_word_whose_first_sense_is_a_person_is_one(word: str) -> None:
    assert person(word) is True


@pytest.mark.parametrize(
    "word",
    # food, a garment, shorts (a plural WordNet lists as a word of its own), fries (not the young "fry")
    ["burgers", "burger", "sweater", "boxers", "fries", "ladder", "commuters"],
)
def test_a_word_whose_first_sense_is_a_thing_is_no_person(word: str) -> None:
    assert person(word) is False


@pytest.mark.parametrize("word", ["paddleboarder", "stroller", "monitor", "server", "larger"])
def test_what_wordnet_cannot_decide_is_left_to_the_caller(word: str) -> None:
    """Unknown ("paddleboarder", "larger"), or a person and a thing with no sense tagged in SemCor, so
    WordNet's order says nothing of frequency ("stroller", "monitor", "server")."""
    assert person(word) is None


def test_an_adjective_first_is_a_person_only_in_the_plural() -> None:
    assert person("major") is False and person("majors") is True


def test_any_sense_where_the_context_frames_people() -> None:
    assert person("commuters", any_sense=True) is True
    assert person("fans", any_sense=True) is True and person("fans") is None


@pytest.mark.parametrize(
    "word", ["staff", "couple", "crew", "family", "crowd", "audience", "team", "quartet", "trio", "choir"]
)
def test_a_group_of_people(word: str) -> None:
    assert cues.names_people(word)


@pytest.mark.parametrize(
    "word",
    # institutions and places, things first, colours, events, adjectives, groups of things
    [
        "school",
        "court",
        "company",
        "village",
        "board",
        "band",
        "van",
        "navy",
        "cream",
        "meeting",
        "elderly",
        "pair",
        "herd",
        "row",
    ],
)
def test_no_group_of_people(word: str) -> None:
    assert not cues.names_people(word)


@pytest.mark.parametrize(
    ("noun", "relation"),
    [
        ("sister", True),
        ("cousins", True),
        ("father", True),
        ("teammate", True),
        ("classmates", True),
        ("coworker", True),  # WordNet writes "co-worker"
        ("bandmate", True),  # not in WordNet: the "-mate" compounds
        ("friend", True),
        ("baby", False),
        ("member", False),
        ("champion", False),
        ("bride", False),
        ("nurse", False),
    ],
)
def test_a_person_by_relation_to_another(noun: str, relation: bool) -> None:
    assert cues.is_relation(noun) is relation


@pytest.mark.parametrize(
    ("noun", "person"),
    [("sisters", True), ("chef", True), ("paddleboarder", True), ("burgers", False), ("staff", False)],
)
def test_names_person_reads_wordnet_then_morphology(noun: str, person: bool) -> None:
    assert cues.names_person(noun) is person


def test_is_person_no_longer_takes_every_er_word() -> None:
    assert not cues.is_person("burgers") and cues.is_person("waitresses") and cues.is_person("skateboarders")


@pytest.mark.skipif(not Path("/usr/share/wordnet/index.noun").exists(), reason="WordNet 3.0 not installed")
def test_the_committed_lists_are_wordnet_s() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "wordnet_lists.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


# ------------------------------------------------------------------ kinds and synonyms (round 45)


@pytest.mark.parametrize(
    ("word", "kind", "expected"),
    [
        ("catcher", "player", True),  # a catcher is a ballplayer, a player
        ("goalkeeper", "player", True),
        ("pigeon", "bird", True),
        ("puppy", "dog", True),
        ("girl", "woman", True),  # WordNet's first sense of girl: a young woman
        ("player", "goalkeeper", False),  # the kind, not an instance of the narrower kind
        ("spectator", "player", False),
        ("student", "teacher", False),
        ("child", "woman", False),
        ("mother", "baby", False),
        ("paddleboarder", "person", None),  # WordNet lacks the word
    ],
)
def test_kind_of_reads_hypernyms_of_the_first_sense(word: str, kind: str, expected: bool | None) -> None:
    from assistant.evaluation import noun_senses

    assert noun_senses.kind_of(word, kind) is expected


@pytest.mark.parametrize(
    ("word", "reference", "expected"),
    [
        ("fiddle", "violin", True),
        ("bike", "bicycle", True),  # bike is first a motorcycle, but one of its senses is the bicycle
        ("grey", "gray", True),
        ("sofa", "couch", True),
        ("cap", "hat", False),  # a kind of hat is not the same thing
        ("mug", "cup", False),
        ("lens", "camera", False),
    ],
)
def test_same_thing_takes_a_sense_shared_with_the_references_first(
    word: str, reference: str, expected: bool
) -> None:
    from assistant.evaluation import noun_senses

    assert noun_senses.same_thing(word, reference) is expected


@pytest.mark.parametrize(
    ("word", "generic"),
    [
        ("person", True),
        ("individual", True),
        ("man", True),
        ("woman", True),
        ("girl", True),
        ("child", True),
        ("lady", True),
        ("toddler", True),
        # roles, kin and an offspring are no person by age or sex alone (a teacher is under "adult" too)
        ("player", False),
        ("teacher", False),
        ("waitress", False),
        ("mother", False),
        ("baby", False),
        ("figure", False),
    ],
)
def test_a_generic_person_is_named_by_age_or_sex_alone(word: str, generic: bool) -> None:
    assert noun_senses.generic_person(word) is generic


@pytest.mark.parametrize(
    ("word", "of", "peer"),
    [
        ("teammate", "player", True),
        ("colleague", "doctor", True),
        ("opponent", "player", True),  # both contestants: the same contest
        ("spectator", "player", False),
        ("friend", "student", False),
        ("opponent", "teacher", False),  # a teacher competes in nothing
        ("striker", "player", True),  # another contestant, for a referent named as a bare contestant
        ("striker", "goalkeeper", False),  # a role of its own: no second goalkeeper
        ("opponent", "goalkeeper", True),  # named by the relation
        ("groom", "bride", False),  # WordNet files a groom under "peer" (a participant): no relation word
    ],
)
def test_a_peer_shares_the_referents_group_or_contest(word: str, of: str, peer: bool) -> None:
    assert noun_senses.peer(word, of) is peer


def test_age_and_sex_tell_generic_people_apart() -> None:
    child, woman, boy = (noun_senses.age_and_sex(w) for w in ("child", "woman", "boy"))
    assert child[0] and woman[0] and child[0] != woman[0]  # a juvenile is no adult
    assert not boy[0] and boy[1] and boy[1] != woman[1]  # WordNet gives a boy a sex and no age


@pytest.mark.parametrize("plural", ["strings", "beats", "reserves"])
def test_a_things_plural_is_no_group_of_people(plural: str) -> None:
    """WordNet lists "strings" (a string section) as a group of its own; a reply's strings are a racket's."""
    assert not noun_senses.people_group(plural, plural[:-1]) and not noun_senses.group(plural)


@pytest.mark.parametrize(
    ("word", "other", "near"),
    [
        ("monitor", "screen", True),  # siblings under a display: a reply may call the screen a monitor
        ("sofa", "couch", True),  # one synset
        ("jacket", "coat", True),  # a child and its parent
        ("bench", "woman", False),
        ("load", "crane", False),  # four links apart, through "device"
        ("lid", "laptop", False),
    ],
)
def test_near_senses(word: str, other: str, near: bool) -> None:
    assert noun_senses.near(word, other) is near


# ---------------------------------------------------------------- a referent must be of the asked kind


@pytest.mark.parametrize(
    ("question", "noun", "owner", "expected"),
    [
        ("What colour is the boat?", "boat", False, True),
        ("What colour is the boat?", "rowboat", False, True),  # a narrower kind
        ("What colour is the bicycle?", "bike", False, True),  # a synonym
        ("What is the dog doing?", "animal", False, True),  # a broader word points back at it
        ("What is the child building?", "kids", False, True),  # a synonym, plural
        ("What is the skier wearing?", "athlete", False, True),  # a broader person word
        ("What is the player holding?", "catcher", False, True),  # people_verdict: a narrower kind
        ("What is this?", "mug", False, True),  # no concrete referent: any noun
        ("What colour is the hat?", "man", True, True),  # an owner, where owners are asked for
        ("What colour is the collar?", "dog", True, True),
        ("What colour is the hat?", "man", False, False),  # no owner: no hat
        ("What is the crane lifting?", "load", False, False),
        ("What is the chef cutting?", "board", False, False),  # a thing for a person
        ("What is the bride holding?", "groom", False, False),  # another kind of person for a role
        ("What is the goalkeeper wearing?", "striker", False, False),
        ("What is the woman doing?", "bench", True, False),
        ("What does the screen show?", "monitor", False, None),  # a near sense: the caller decides
        ("What is the cyclist wearing?", "peloton", False, None),  # WordNet lacks the word
    ],
)
def test_of_asked_kind(question: str, noun: str, owner: bool, expected: bool | None) -> None:
    assert cues.of_asked_kind(cues.question_cues(question), noun, owner=owner) is expected


def test_a_second_subject_under_a_broader_word_is_no_second_referent() -> None:
    """Where a subject would be counted as one more referent, a broader word is not taken: "the car ...
    the vehicle" names one car."""
    q = cues.question_cues("What colour is the car?")
    assert cues.of_asked_kind(q, "vehicle") is True
    assert cues.of_asked_kind(q, "vehicle", broader=False) is not True


@pytest.mark.parametrize(
    ("question", "referent"),
    [
        ("What is the child building?", "child"),  # an -ing verb after a living thing
        ("What is the man painting?", "man"),
        ("What is the tall building?", "building"),  # after an adjective: the noun
    ],
)
def test_a_last_ing_word_after_a_living_thing_is_its_verb(question: str, referent: str) -> None:
    assert cues.question_cues(question).referents == {referent}


@pytest.mark.parametrize(
    ("question", "reply", "found"),
    [
        ("Is the traffic light green?", "There are two traffic lights over the road.", ["traffic lights"]),
        ("Is the traffic light green?", "The traffic is heavy.", []),
        ("What time does the clock show?", "The clock shows 3:25.", []),  # a verb after do-support
    ],
)
def test_a_compound_named_by_its_first_word_counts_in_the_plural(
    question: str, reply: str, found: list[str]
) -> None:
    assert cues.plural_mentions(cues.question_cues(question), reply) == found


@pytest.mark.parametrize(
    ("question", "reply", "several"),
    [
        (
            "What colour is the boat?",
            "The fishing boat is white, and the small rowboat next to it is yellow.",
            True,
        ),
        (
            "What colour is the boat?",
            "The fishing boat is white, and the small jetty next to it is grey.",
            False,
        ),
        # no concrete referent: people answered in turn are not counted as referents of the sport
        ("What sport is being played?", "The batsman is at the crease while the bowler runs in.", False),
    ],
)
def test_subjects_answered_in_turn_are_referents_only_of_the_asked_kind(
    question: str, reply: str, several: bool
) -> None:
    assert bool(cues.several_answered(cues.question_cues(question), reply)) is several


# ------------------------------------------------------------------ round 47: any sense, births, youth


def test_any_kind_of_reads_every_sense_of_the_word() -> None:
    assert noun_senses.any_kind_of("sneaker", "shoe") is True  # first the shoe
    assert noun_senses.any_kind_of("glove", "shoe") is False
    assert noun_senses.any_kind_of("glove", "covering", any_kind_sense=True) is True
    # WordNet has no worn trainer: a person or a simulator
    assert noun_senses.any_kind_of("trainer", "covering", any_kind_sense=True) is False


@pytest.mark.parametrize("word", ["twin", "triplet", "quadruplet"])
def test_a_sibling_of_one_birth(word: str) -> None:
    assert noun_senses.multiple_birth(word)


@pytest.mark.parametrize("word", ["brother", "sister", "sibling", "cousin", "baby"])
def test_other_kin_are_no_siblings_of_one_birth(word: str) -> None:
    assert not noun_senses.multiple_birth(word)


@pytest.mark.parametrize("word", ["baby", "toddler", "child", "infant"])
def test_a_person_named_by_youth_is_young(word: str) -> None:
    assert noun_senses.young(word)


@pytest.mark.parametrize("word", ["man", "teacher", "nurse", "grandfather"])
def test_an_adult_or_a_role_is_not_young(word: str) -> None:
    assert not noun_senses.young(word)


def test_twins_are_two_of_an_age_named_referent_and_no_role() -> None:
    assert cues.people_verdict(cues.question_cues("What is the baby doing?"), "twins") == cues.SEVERAL
    assert cues.people_verdict(cues.question_cues("What is the nurse doing?"), "twins") == cues.NONE


GENERATIONS = [
    ("What is the girl holding?", "dad", cues.NONE),  # a forebear of a young referent
    ("What is the boy wearing?", "grandmother", cues.NONE),
    ("What is the girl wearing on her feet?", "parents", cues.NONE),  # the named girl, not her aliases
    ("What is the man carrying?", "daughter", cues.NONE),  # a child of an adult referent
    ("What is the woman reading?", "children", cues.NONE),
    # near misses: of the referent's own generation; a pronoun of any age; a role referent
    ("What is the girl holding?", "sister", cues.UNSURE),
    ("What is she holding?", "mother", cues.UNSURE),
    ("What is the child eating?", "kids", cues.SEVERAL),
]


@pytest.mark.parametrize(("question", "noun", "verdict"), GENERATIONS)
def test_a_person_of_another_generation_is_not_of_an_age_named_kind(
    question: str, noun: str, verdict: str
) -> None:
    assert cues.people_verdict(cues.question_cues(question), noun) == verdict


def test_a_pronoun_with_a_bare_plural_object_asks_about_the_object() -> None:
    q = cues.question_cues("Does she wear glasses?")
    assert not q.referents and "glasses" in q.plural_in_question
    # near misses: a possessive, a determiner object and no object leave the person the referent
    assert "woman" in cues.question_cues("What colour are her glasses?").referents
    assert cues.question_cues("Does she wear a hat?").referents == {"hat"}
    assert "woman" in cues.question_cues("Is she smiling?").referents


@pytest.mark.parametrize(
    ("word", "kind", "young"),
    [
        ("calf", "elephant", True),
        ("puppy", "dog", True),
        ("kitten", "cat", True),
        ("foal", "horse", True),
        ("calf", "dog", False),
        ("kid", "goat", False),
        ("puppy", "cat", False),
        ("elephant", "elephant", False),
    ],
)
def test_the_young_of_an_animal_by_its_glosses(word: str, kind: str, young: bool) -> None:
    assert noun_senses.young_of(word, kind) is young
