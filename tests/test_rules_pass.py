"""AQuA's PASS-after-clarification rules (round 10): quantities in dozens, British / American terms, an
answer bound to another owner or to a referent told apart by another modifier than the hint's, an "or"
that hedges a detail, options then one answer settled on, and a <think> block. Each mechanism tested from
the rubric (prompts/aqua_judge_clarification.txt) with replies written for these tests, and the near
misses it must not fire on."""

from __future__ import annotations

import pytest

from assistant.evaluation import answer_match, papers
from assistant.evaluation.judges import RuleJudge

RULES = RuleJudge()


def judged(question: str, hint: str, reference: str, reply: str) -> str:
    item = {"question": question, "response": reply, "reference": reference, "hint": hint}
    return RULES.judge(papers.question("aqua_clarification"), item).label


# ------------------------------------------------------------------ quantities in dozens

APPLES = "How many apples are in the bowl?"


@pytest.mark.parametrize(
    "reference,reply",
    [
        ("6", "Half a dozen."),
        ("12", "There's a dozen apples in it."),
        ("24", "About two dozen, all green."),
        ("36", "3 dozen"),
    ],
)
def test_a_count_in_dozens_is_its_number(reference: str, reply: str) -> None:
    assert judged(APPLES, "the bowl on the table", reference, reply) == "PASS"


@pytest.mark.parametrize("reference,reply", [("6", "A dozen."), ("12", "Half a dozen."), ("2", "a couple")])
def test_another_count_or_a_vague_one_is_no_match(reference: str, reply: str) -> None:
    assert judged(APPLES, "the bowl on the table", reference, reply) == "FAIL"


def test_dozens_are_tokens_of_their_number() -> None:
    assert answer_match.tokens("half a dozen eggs") == ["6", "eggs"]
    assert answer_match.tokens("two dozen") == ["24"]


# ------------------------------------------------------------------ British / American terms


@pytest.mark.parametrize(
    "question,reference,reply",
    [
        ("What is the boy wearing on his feet?", "sneakers", "White trainers."),
        ("What is the girl wearing?", "a sweater", "A woolly jumper."),
        ("What is parked by the kerb?", "a truck", "A big lorry."),
        ("What is the man holding?", "a phone", "He has his mobile in his hand."),
    ],
)
def test_the_other_varietys_word_gives_the_reference(question: str, reference: str, reply: str) -> None:
    assert judged(question, "the one on the left", reference, reply) == "PASS"


@pytest.mark.parametrize(
    "question,reference,reply",
    [
        ("What is the boy wearing on his feet?", "sneakers", "Black boots."),
        ("What is parked by the kerb?", "a truck", "A red car."),
    ],
)
def test_another_thing_is_no_regional_word(question: str, reference: str, reply: str) -> None:
    assert judged(question, "the one on the left", reference, reply) == "FAIL"


def test_a_regional_term_is_read_both_ways() -> None:
    assert answer_match.in_regional_words(["trainers"], "grey sneakers") is not None
    assert answer_match.in_regional_words(["sneakers"], "grey sneakers") is None  # the head itself
    # a word of several regional senses gives its counterparts, not the other way round
    assert answer_match.in_regional_words(["truck"], "a shopping trolley") is None


# ------------------------------------------------------------------ possessives and a new subject after "and"

COAT = "What color is the coat?"


def test_an_answer_given_to_another_owner_fails() -> None:
    reply = "The girl's coat is green and the boy's is yellow."
    assert judged(COAT, "the girl's coat", "yellow", reply) == "FAIL"
    assert judged(COAT, "the girl's coat", "green", reply) == "PASS"
    assert judged(COAT, "the boy's coat", "yellow", reply) == "PASS"


def test_an_and_joining_two_objects_splits_nothing() -> None:
    assert answer_match.clauses("She holds a phone and the keys.") == ["she holds a phone and the keys"]
    assert answer_match.clauses("The hat is blue and the scarf is grey.") == [
        "the hat is blue and the scarf is grey"
    ]
    assert answer_match.clauses("The boy's hat is blue and the girl's hat is grey.") == [
        "the boy's hat is blue",
        "the girl's hat is grey",
    ]


@pytest.mark.parametrize(
    "reply",
    ["The small dog is brown and its collar is red.", "The small dog is brown and the collar is red."],
)
def test_an_and_going_on_about_the_same_referent_splits_nothing(reply: str) -> None:
    assert judged("What color is the collar?", "the small dog", "red", reply) == "PASS"


def test_a_contraction_names_no_owner() -> None:
    reply = "The girl's coat is green and it's got a yellow hood."
    assert judged(COAT, "the girl's coat", "green", reply) == "PASS"


# ------------------------------------------------------------------ another modifier than the hint's


@pytest.mark.parametrize(
    "question,hint,reference,reply",
    [
        (
            "What is the cook stirring?",
            "the cook by the stove",
            "soup",
            "The cook by the fryer is stirring soup.",
        ),
        ("What is the cat wearing?", "the fat cat", "a bell", "The thin cat has a bell on."),
    ],
)
def test_a_subject_told_apart_by_another_modifier_abstains(
    question: str, hint: str, reference: str, reply: str
) -> None:
    assert judged(question, hint, reference, reply) == "unknown"


def test_a_subject_with_another_colour_than_the_hints_fails() -> None:
    reply = "The man in the green jacket is holding a map."
    assert judged("What is the man holding?", "the man in the red jacket", "a map", reply) == "FAIL"


@pytest.mark.parametrize(
    "hint,reply",
    [
        ("the cat on the windowsill", "The cat on the sill is asleep."),  # a shortened compound
        ("the cat on the windowsill", "The cat is asleep."),  # no modifier of its own
        ("the cat on the windowsill", "The ginger cat on the windowsill is asleep."),  # the hint's words
        ("the fat cat", "Sleeping - a big one."),  # no verb, no subject
    ],
)
def test_the_hinted_referent_or_no_modifier_of_its_own_still_passes(hint: str, reply: str) -> None:
    assert judged("What is the cat doing?", hint, "sleeping", reply) == "PASS"


# ------------------------------------------------------------------ "X or Y": an answer or a detail


def test_an_or_between_details_of_one_answer_is_no_option() -> None:
    reply = "A bowl of stew, probably beef or lamb."
    assert judged("What is the man eating?", "the man at the bar", "stew", reply) == "PASS"


@pytest.mark.parametrize(
    "reply",
    [
        "Stew or maybe soup.",
        "It's stew, or possibly soup.",
        "Soup, stew, or chili.",  # a series reaches back over its commas
        "Probably beef or lamb.",  # no reference at all: the options are the answer
    ],
)
def test_an_or_whose_sides_give_the_answer_offers_options(reply: str) -> None:
    assert judged("What is the man eating?", "the man at the bar", "stew", reply) == "FAIL"


# ------------------------------------------------------------------ options, then one settled on


def test_options_then_one_answer_settled_on_abstain() -> None:
    reply = "It could be a fox or a dog. The tail is bushy and the ears are pointed. It's a fox."
    assert judged("What animal is by the fence?", "the one by the gate", "a fox", reply) == "unknown"


@pytest.mark.parametrize(
    "reply",
    [
        "It could be a fox or a dog. It's probably a fox.",  # the last sentence is unsure too
        "It could be a fox or a dog, hard to say.",  # one sentence
        "It could be a fox or a dog. Hard to tell from here.",  # nothing settled
    ],
)
def test_options_not_settled_still_fail(reply: str) -> None:
    assert judged("What animal is by the fence?", "the one by the gate", "a fox", reply) == "FAIL"


# ------------------------------------------------------------------ <think> blocks


def test_the_answer_after_a_think_block_is_judged() -> None:
    reply = (
        "<think>Is it a pen or a pencil? Which one do they mean? The tip is sharp graphite.</think>A pencil."
    )
    assert judged("What is the girl holding?", "the girl at the desk", "a pencil", reply) == "PASS"


def test_a_reference_only_in_the_think_block_abstains() -> None:
    reply = "<think>Looks like a pencil in her hand.</think><answer>She is holding a pen.</answer>"
    assert judged("What is the girl holding?", "the girl at the desk", "a pencil", reply) == "unknown"


def test_no_reference_anywhere_after_thinking_fails() -> None:
    reply = "<think>Something thin in her hand.</think><answer>She is holding a pen.</answer>"
    assert judged("What is the girl holding?", "the girl at the desk", "a pencil", reply) == "FAIL"
