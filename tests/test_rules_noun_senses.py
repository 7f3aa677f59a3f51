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
