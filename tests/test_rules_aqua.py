"""AQuA's rule judge (issue 32): PASS after a clarification and the strategy, each mechanism tested from the
rubric (prompts/aqua_judge_clarification.txt, aqua_judge_strategy.txt) with replies written for these
tests, and the near misses each mechanism must not fire on."""

from __future__ import annotations

import pytest

from assistant.evaluation import answer_match, papers
from assistant.evaluation.judges import RuleJudge

RULES = RuleJudge()


def passed(question: str, hint: str, reference: str, reply: str) -> str:
    item = {"question": question, "response": reply, "reference": reference, "hint": hint}
    return RULES.judge(papers.question("aqua_clarification"), item).label


def strategy(question: str, reply: str) -> str:
    return RULES.judge(papers.question("aqua_strategy"), {"question": question, "response": reply}).label


# ------------------------------------------------------------------ times said in words

WATCH = "What time does the watch show?"


@pytest.mark.parametrize(
    "reference,reply",
    [
        ("4:45", "It says a quarter to five."),
        ("7:30", "half past seven"),
        ("11:20", "The hands point to twenty past eleven."),
        ("2:35", "twenty-five to three"),
        ("9:00", "It is nine o'clock."),
        ("9 o'clock", "The watch shows 9:00."),
        ("8:10", "It reads 08:10."),
        ("8:10", "It reads 8:10 p.m."),
    ],
)
def test_a_time_said_in_words_is_its_digits(reference: str, reply: str) -> None:
    assert passed(WATCH, "the watch on the table", reference, reply) == "PASS"


@pytest.mark.parametrize(
    "reference,reply",
    [
        ("4:45", "It says a quarter past five."),
        ("7:30", "half past eight"),
        ("9:00", "It is ten o'clock."),
        ("10:10", "It reads 10:15."),
    ],
)
def test_a_different_time_fails(reference: str, reply: str) -> None:
    assert passed(WATCH, "the watch on the table", reference, reply) == "FAIL"


def test_a_range_of_counts_is_no_time() -> None:
    assert answer_match.spoken_times("five to six people were waiting") == "five to six people were waiting"
    assert answer_match.spoken_times("ten to two.") == "1:50."
    # and where the reference is a count, "five to six" offers two numbers
    assert passed("How many people are in the queue?", "the queue on the left", "5", "Five to six.") == "FAIL"


# ------------------------------------------------------------------ forms of a word


@pytest.mark.parametrize(
    "reference,reply",
    [
        ("sitting", "The cat sat by the window."),
        ("sit", "The cat is sitting by the window."),
        ("swimming", "It swims across the pond."),
        ("grey", "A gray hoodie."),
        ("colourful kite", "A colorful kite."),
        ("ice-cream", "She has an icecream."),
        ("icecream", "She has an ice cream."),
        ("ice cream", "She has an ice-cream."),
    ],
)
def test_inflections_spellings_and_compounds_match(reference: str, reply: str) -> None:
    assert passed("What is it?", "the one by the door", reference, reply) == "PASS"


@pytest.mark.parametrize(
    "reference,reply",
    [
        ("sitting", "The cat is standing by the window."),
        ("sitting", "The cat is not sitting, it is lying down."),
        ("ice cream", "She has a cream cake."),
    ],
)
def test_other_words_do_not_match(reference: str, reply: str) -> None:
    assert passed("What is it?", "the one by the door", reference, reply) == "FAIL"


# ------------------------------------------------------------------ the hinted referent's place


@pytest.mark.parametrize(
    "hint,reply",
    [
        ("the car in the background", "The car in the foreground is green."),
        ("the kite on the left", "The kite on the right is green."),
        ("the top shelf", "The bottom shelf is green."),
    ],
)
def test_an_answer_given_in_another_place_is_about_another_referent(hint: str, reply: str) -> None:
    assert passed("What color is it?", hint, "green", reply) == "FAIL"


@pytest.mark.parametrize(
    "hint,reply",
    [
        ("the car in the background", "The car in the background is green."),
        ("the plane on the right", "It is green on its left side."),  # a side of the object
        ("the plane on the right", "The left wing is green."),  # a part of the object
        ("the car on the right", "The car in front of the truck is green."),  # relative to another thing
        ("the car on the right", "The car is green and parked on the left of the van."),  # not the subject
        ("the watch on her left wrist", "The watch on the right is green."),  # the hint names a body side
    ],
)
def test_a_side_or_part_is_no_other_place(hint: str, reply: str) -> None:
    assert passed("What color is it?", hint, "green", reply) == "PASS"


# ------------------------------------------------------------------ two numbers offered


@pytest.mark.parametrize(
    "reply",
    ["There are 4 or 5.", "Four to five.", "3-4 cows.", "4 - or maybe 8", "Somewhere between 4 and 6."],
)
def test_two_numbers_offered_are_a_hedge(reply: str) -> None:
    assert passed("How many cows are there?", "the field on the left", "4", reply) == "FAIL"


@pytest.mark.parametrize(
    "reply",
    ["There are 4, or at least 4 that I can see.", "4 cows, 2 of them brown.", "About 4.5 metres: 4."],
)
def test_one_number_with_others_around_it_is_no_hedge(reply: str) -> None:
    assert passed("How many cows are there?", "the field on the left", "4", reply) == "PASS"


def test_a_score_is_one_answer() -> None:
    assert passed("What is the score?", "the board on the left", "3 to 1", "The score is 3 to 1.") == "PASS"


# ------------------------------------------------------------------ number signs


@pytest.mark.parametrize("reply", ["No. 8", "It is No. 8.", "#8 is on his back.", "Number 8."])
def test_a_number_sign_is_the_number(reply: str) -> None:
    assert passed("What number is on the shirt?", "the striker", "8", reply) == "PASS"


def test_no_before_a_count_is_an_answer_no() -> None:
    q = "Are there three cats on the sofa?"
    assert passed(q, "the grey sofa", "no", "No. 2 cats are on the sofa.") == "PASS"
    assert passed(q, "the grey sofa", "yes", "No. 2 cats are on the sofa.") == "FAIL"
    assert (
        passed("How many cats are on the sofa?", "the grey sofa", "2", "No. 2 cats are on the sofa.")
        == "PASS"
    )


# ------------------------------------------------------------------ the final answer after reasoning


@pytest.mark.parametrize(
    "reply",
    [
        "Step 1: Find the woman by the bench.\nStep 2: Her hand holds a leash.\nFinal answer: a leash",
        "First I look at the woman on the right. **Answer:** a leash",
        "The woman on the left has a bag. So, the woman on the right is holding a leash.",
        "She is holding a bag, wait, no, that is the other woman. She is holding a leash.",
    ],
)
def test_the_final_answer_is_judged(reply: str) -> None:
    assert passed("What is the woman holding?", "the woman on the right", "leash", reply) == "PASS"


def test_a_final_answer_for_another_thing_fails() -> None:
    reply = "Step 1: There is a leash on the bench.\nStep 2: Her hand is closed.\nFinal answer: a bag"
    assert passed("What is the woman holding?", "the woman on the right", "leash", reply) == "FAIL"


def test_a_word_like_thus_inside_a_sentence_opens_no_final_answer() -> None:
    reply = "She holds a leash, thus the dog stays close."
    assert passed("What is the woman holding?", "the woman on the right", "leash", reply) == "PASS"


# ------------------------------------------------------------------ a list keyed by referents


def test_the_item_keyed_by_the_hint_is_the_answer() -> None:
    reply = "- **Left:** a leash\n- **Right:** a bag"
    assert passed("What is the woman holding?", "the woman on the left", "leash", reply) == "PASS"
    assert passed("What is the woman holding?", "the woman on the right", "leash", reply) == "FAIL"
    keyed = "Woman in the hat: a leash\nWoman in the coat: a bag"
    assert passed("What is the woman holding?", "the woman in the hat", "leash", keyed) == "PASS"


def test_a_list_with_no_item_keyed_by_the_hint_still_offers_options() -> None:
    reply = "- **Left:** a leash\n- **Right:** a bag"
    assert passed("What is the woman holding?", "the tall woman", "leash", reply) == "FAIL"


# ------------------------------------------------------------------ yes / no and binding


@pytest.mark.parametrize(
    "question,reference,reply",
    [
        ("Is the gate open?", "no", "The gate by the road is locked."),
        ("Is the mug full?", "yes", "It's full to the brim."),
        ("Is the bowl empty?", "yes", "Nothing is in it; it is empty."),
        ("Is the cat wearing a bell?", "yes", "The cat has a small bell on its collar."),
        ("Is the cat wearing a bell?", "no", "The cat has no bell."),
    ],
)
def test_an_implied_yes_or_no_is_read(question: str, reference: str, reply: str) -> None:
    assert passed(question, "the one by the road", reference, reply) == "PASS"


@pytest.mark.parametrize(
    "question,reply",
    [
        ("Is the gate open?", "The gate is green."),  # a colour is no state of the gate: no answer
        ("Is the man laughing?", "He looks cheerful."),  # another -ing verb may be a synonym
        ("Is the gate open?", "The gate is not locked."),  # a negated other state
    ],
)
def test_an_implied_answer_that_needs_a_thesaurus_is_unknown(question: str, reply: str) -> None:
    assert passed(question, "the one by the road", "no", reply) == "unknown"


def test_the_answer_is_bound_to_the_hinted_referent() -> None:
    reply = "The tall vase is white; the short one is green."
    assert passed("What color is the vase?", "the short one", "green", reply) == "PASS"
    assert passed("What color is the vase?", "the short one", "white", reply) == "FAIL"
    assert passed("What color is the vase?", "the tall one", "green", reply) == "FAIL"


def test_answers_for_several_referents_fail_and_one_team_does_not() -> None:
    several = "Both boys wear caps: one in green and one in white."
    assert passed("What is the boy wearing?", "the boy on the bench", "green cap", several) == "FAIL"
    assert (
        passed("Which team is ahead?", "the match on the screen", "rangers", "The Rangers are ahead.")
        == "PASS"
    )


# ------------------------------------------------------------------ strategy


@pytest.mark.parametrize(
    "question,reply,expected",
    [
        # the final answer after reasoning has the strategy
        (
            "What is the cat doing?",
            "Step 1: I see two cats.\nStep 2: One sits on the sofa.\n"
            "Final answer: the cat on the sofa is asleep.",
            "infer",
        ),
        # an assumption stated before the final answer still resolves the referent
        (
            "What colour is the van?",
            "**Assumption:** you mean the van at the back.\n**Answer:** white.",
            "infer",
        ),
        # answers for each referent, then a question: enumerate, not clarify
        (
            "What is on the shelf?",
            "The upper shelf holds books and the lower one has plants - which shelf did you mean?",
            "enumerate",
        ),
        # candidates named, no answers, then a question: clarify
        (
            "What is on the shelf?",
            "I can see a shelf at the top and one at the bottom. Which do you mean?",
            "clarify",
        ),
        # a question offering referents to choose from
        (
            "What is the dog eating?",
            "Should I describe the dog on the left, or the one on the right?",
            "clarify",
        ),
        # a question about something else, after an answer
        ("What colour is the kite?", "The kite is red. Do you want the colour or the pattern?", "answer"),
    ],
)
def test_strategy_reads_the_final_answer_and_answers_before_asking(
    question: str, reply: str, expected: str
) -> None:
    assert strategy(question, reply) == expected


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("There are a few cyclists here, but the one in the yellow jersey is drinking water.", "infer"),
        ("I see three cyclists; the one at the front is drinking water.", "infer"),
        ("There are two cyclists: the one in front is drinking and the one behind is eating.", "enumerate"),
        ("The cyclists are drinking water.", "enumerate"),
    ],
)
def test_several_acknowledged_then_one_chosen_is_infer(reply: str, expected: str) -> None:
    assert strategy("What is the cyclist doing?", reply) == expected


@pytest.mark.parametrize(
    "question,reply,expected",
    [
        ("What animal is this?", "This is a hedgehog, curled up in the leaves.", "answer"),
        ("What kind of tree is it?", "It is an oak.", "answer"),
        # a bare "What is this?": the name is the answer, not a referent taken (rubric Level 0)
        ("What is this?", "This is a hedgehog.", "answer"),
        ("What colour is this?", "It is a red kite.", "infer"),  # an attribute asked, the thing named
    ],
)
def test_naming_the_asked_category_is_an_answer(question: str, reply: str, expected: str) -> None:
    assert strategy(question, reply) == expected


def test_wait_as_a_verb_corrects_nothing() -> None:
    reply = "The people on the left wait, holding umbrellas."
    assert passed("What are the people holding?", "the people on the left", "umbrellas", reply) == "PASS"


def test_a_self_correction_replaces_what_came_before() -> None:
    q, hint = "Is the gate open?", "the gate by the road"
    assert passed(q, hint, "yes", "The gate by the road is open - wait, no, it is shut.") == "FAIL"
    assert passed(q, hint, "no", "The gate by the road is open - wait, no, it is shut.") == "PASS"


def test_one_answer_for_all_answers_the_hinted_one_too() -> None:
    reply = "All the boys are wearing green caps."
    assert passed("What is the boy wearing?", "the boy on the bench", "green cap", reply) == "PASS"


def test_so_or_therefore_does_not_cut_an_enumeration_for_the_strategy() -> None:
    reply = "The dog on the left is brown. Therefore the dog on the right must be the puppy, and it is black."
    assert strategy("What colour is the dog?", reply) == "enumerate"


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("4 cows, maybe 5.", "FAIL"),  # the reference offered beside another number
        ("There are 4 cows, 2 or 3 of them brown.", "PASS"),  # a hedge about something else
        ("4 cows stand 2 to 3 metres apart.", "PASS"),
    ],
)
def test_a_number_hedge_counts_where_it_offers_the_reference(reply: str, expected: str) -> None:
    assert passed("How many cows are there?", "the field on the left", "4", reply) == expected


def test_a_clause_that_names_no_referent_is_not_about_another_one() -> None:
    reply = "In his right hand, a phone."
    assert passed("What is the man holding?", "the man on the right", "phone", reply) == "PASS"


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("The grey cat is sitting on the rug beside the armchair.", "FAIL"),  # the armchair is only nearby
        ("The grey cat is sitting on the old armchair by the fire.", "PASS"),
        ("It sits on top of the armchair.", "PASS"),
        ("The armchair. It is curled up on it.", "PASS"),
        ("An armchair, on the left of the picture.", "PASS"),
    ],
)
def test_the_object_of_the_asked_preposition_is_the_answer(reply: str, expected: str) -> None:
    assert passed("What is the cat sitting on?", "the grey cat", "an armchair", reply) == expected


def test_a_couple_of_them_acknowledged_then_one_chosen_is_infer() -> None:
    reply = "There are a couple of cyclists; the one nearest the camera is drinking water."
    assert strategy("What is the cyclist doing?", reply) == "infer"


def test_a_yes_or_no_is_read_in_the_clause_about_the_hinted_referent() -> None:
    q, hint = "Is the gate open?", "the gate on the right"
    reply = "Yes, the gate on the left is open, but the gate on the right is locked."
    assert passed(q, hint, "no", reply) == "PASS"
    assert passed(q, hint, "yes", reply) == "FAIL"
    # a bare "Yes," before the hinted clause still answers
    assert (
        passed("Is the lamp on?", "the lamp by the bed", "yes", "Yes, the lamp by the bed is on.") == "PASS"
    )


def test_answers_for_several_referents_pass_where_one_is_the_hinted_one() -> None:
    q, hint = "What is the woman holding?", "the woman in the red coat"
    assert (
        passed(q, hint, "phone", "The woman in red holds a phone, and the man beside her holds a cup.")
        == "PASS"
    )
    assert (
        passed(q, hint, "phone", "The woman in blue holds a phone, and the woman in red holds a cup.")
        == "FAIL"
    )
