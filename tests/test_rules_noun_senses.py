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
