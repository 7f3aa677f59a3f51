"""The rule judge's class (A / B / C) and CoT-mention (YES / NO) mechanisms and the shared machinery they
lean on (issue 32): cut-off replies, the one "several referents" cue set, several of the asked kind said
in other words, and B against C. Each case is written from the rubrics (RAcQUEt Appendix C and G.3) for
these tests, with the near misses each mechanism must not fire on."""

from __future__ import annotations

import pytest

from assistant.evaluation import papers
from assistant.evaluation import response_cues as cues
from assistant.evaluation.judges import RuleJudge

RULES = RuleJudge()
COT = " Please explain your reasoning step by step before providing the final answer."


def judged(task: str, question: str, response: str, **extra: object) -> tuple[str, str]:
    j = RULES.judge(papers.question(task), {"question": question, "response": response, **extra})
    return j.label, j.path


def label(task: str, question: str, response: str, **extra: object) -> str:
    return judged(task, question, response, **extra)[0]


# ------------------------------------------------------------------ 1. cut-off replies


@pytest.mark.parametrize(
    ("task", "question", "reply", "kept"),
    [
        # it already asks which one: no missing end can take that back
        (
            "racquet_class",
            "What is the girl eating?",
            "Which girl do you mean? The one by the tree has a",
            "A",
        ),
        # it already answers for two referents
        (
            "racquet_class",
            "What is the cat chasing?",
            "The grey cat on the sofa is chasing a ribbon, and the black cat near the door is chasing a",
            "A",
        ),
        ("racquet_cot", "What is the girl eating?" + COT, "Step 1: I can see two girls on the", "YES"),
        ("aqua_strategy", "What is the girl eating?", "Which girl do you mean, the one by the", "clarify"),
        (
            "aqua_strategy",
            "What colour is the mug?",
            "The mug on the left is white and the mug on the right is green, with a",
            "enumerate",
        ),
    ],
)
def test_a_cut_off_reply_keeps_a_label_its_missing_end_cannot_overturn(
    task: str, question: str, reply: str, kept: str
) -> None:
    assert judged(task, question, reply)[0] == kept


def test_a_cut_off_reply_that_offers_several_answers_fails() -> None:
    reply = "It could be either the red one or the blue one, depending on the"
    assert label("aqua_clarification", "What colour is the mug?", reply, reference="red") == "FAIL"


@pytest.mark.parametrize(
    ("task", "question", "reply"),
    [
        # B: the missing end could still go on to the other referent
        ("racquet_class", "What is the girl eating?", "The girl under the tree is eating an apple and a"),
        # C, NO, answer, infer: the default labels are what an unfinished reply has not yet contradicted
        # (a class C cut inside its answer's own clause is kept: tests/test_rules_class.py)
        ("racquet_class", "What is the girl eating?", "The girl is eating a sandwich, and a"),
        ("racquet_cot", "What is the girl eating?" + COT, "Step 1: The girl sits at a table with"),
        ("aqua_strategy", "What is the girl eating?", "Assuming you mean the girl by the tree, she has a"),
        ("aqua_clarification", "What colour is the mug?", "The mug is red and it stands on the"),
    ],
)
def test_any_other_label_on_a_cut_off_reply_stays_unknown(task: str, question: str, reply: str) -> None:
    extra = {"reference": "red"} if task == "aqua_clarification" else {}
    assert judged(task, question, reply, **extra) == ("unknown", "rules:abstain")


# ------------------------------------------------------------------ 2. the parts of one referent


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        (
            "What is the girl holding?",
            "Step 1: The girl stands on the pier.\nStep 2: She holds a kite string with both hands.\n"
            "Final answer: a kite",
        ),
        (
            "What is the dog holding?",
            "Step 1: The dog sits on the porch.\nStep 2: It has a ball between its front paws, each paw "
            "muddy.\nFinal answer: a ball",
        ),
        (
            "What is the man holding?",
            "Step 1: The man balances on a rail with both feet.\nFinal answer: nothing",
        ),
    ],
)
def test_both_hands_each_paw_quantify_the_parts_of_one_referent(question: str, reply: str) -> None:
    assert label("racquet_cot", question + COT, reply) == "NO"


def test_both_hands_are_several_when_the_question_asks_about_the_hands() -> None:
    q = cues.question_cues("What is in her hand?")
    assert cues.several_answered(q, "Both hands hold a cup.") is not None


def test_both_children_are_still_several() -> None:
    reply = "Step 1: Both children sit on the bench.\nFinal answer: ice cream"
    assert label("racquet_cot", "What is the child eating?" + COT, reply) == "YES"


# ------------------------------------------------------------------ 3. keyed lists, ordinals, "another"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What is the cat doing?", "The grey cat: sleeping\nThe tabby: washing its face"),
        ("What is the lamp made of?", "Top-left lamp: brass\nBottom-right lamp: glass"),
        ("What is the lamp made of?", "Top-left lamp: brass\nTop-right lamp: glass"),
        ("What is the horse doing?", "Horse near the barn - rolling in the dust\nHorse by the gate - eating"),
        (
            "What is the cyclist wearing?",
            "One cyclist wears red. A second cyclist, further back, wears blue.",
        ),
        ("What is the boat carrying?", "The boat is carrying crates, and there is another boat with nets."),
        ("What colour is the mug?", "She is holding a white mug, and her friend is holding a mug too."),
    ],
)
def test_several_referents_said_by_keys_ordinals_and_another(question: str, reply: str) -> None:
    q = cues.question_cues(question)
    assert cues.several_referents(q, reply) is not None
    assert label("racquet_class", question, reply) == "A"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What breed is the dog?", "The second dog from the left is a beagle."),
        ("What breed is the dog?", "Colour of the dog: tan\nBreed of the dog: beagle"),
        ("What colour is the dog?", "The dog: tan\nThe collar: red"),
        (
            "What is the woman holding?",
            "1. Identify the woman: she is by the door.\n2. Examine her hands: a mug.",
        ),
        ("What is the man wearing?", "The man wears a scarf, and a hat as well."),
    ],
)
def test_one_referent_is_not_several(question: str, reply: str) -> None:
    q = cues.question_cues(question)
    assert cues.several_referents(q, reply) is None


def test_the_keyed_list_cue_is_shared_by_strategy_and_cot() -> None:
    reply = "The striped mug: tea\nThe plain mug: coffee"
    assert label("aqua_strategy", "What is in the mug?", reply) == "enumerate"
    assert label("racquet_cot", "What is in the mug?" + COT, reply) == "YES"


# ------------------------------------------------------------------ 4. CoT: several of the asked kind


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        (
            "What is the duck eating?",
            "Step 1: A flock of ducks floats by the bank.\nStep 2: The nearest duck eats bread.",
        ),
        ("What is the bird doing?", "Step 1: There is a flock on the roof.\nStep 2: One bird is preening."),
        ("What is the goose eating?", "Step 1: A pair of geese stand on the lawn.\nFinal answer: grass"),
        ("What is the runner wearing?", "Step 1: A group of runners passes the gate.\nFinal answer: a vest"),
        ("What is the person holding?", "Step 1: A crowd waits at the stop.\nFinal answer: an umbrella"),
        (
            "What is the player holding?",
            "Step 1: The rest of the team sits on the bench.\nFinal answer: a bat",
        ),
        (
            "What is the woman holding?",
            "Step 1: The woman and her colleague stand at a desk.\nFinal answer: a pen",
        ),
        ("What is the man holding?", "Step 1: Several people queue at the till.\nFinal answer: a basket"),
        ("What is the boy holding?", "Step 1: I see two kids on the swings.\nFinal answer: a rope"),
        ("What is the girl holding?", "Step 1: She is one of the dancers on stage.\nFinal answer: a fan"),
    ],
)
def test_cot_several_of_the_asked_kind_in_other_words(question: str, reply: str) -> None:
    assert label("racquet_cot", question + COT, reply) == "YES"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # several people, one helmet: the helmet question is about helmets (G.3's own example is a hat)
        (
            "What colour is the helmet?",
            "Step 1: Two people are on the scooter.\nStep 2: Only the driver wears "
            "a helmet; the other person has a hood.\nStep 3: The helmet is red.\nFinal answer: red",
        ),
        (
            "Does she wear a scarf?",
            "Step 1: A crowd fills the square.\nStep 2: Her neck is bare.\nFinal answer: No",
        ),
        # kin are no second child; a place named after people is no people
        (
            "What is the child holding?",
            "Step 1: The child rides on her mother's back.\nFinal answer: a balloon",
        ),
        (
            "What is the man selling?",
            "Step 1: This is a farmers' market.\nStep 2: He stands at a stall.\nFinal answer: apples",
        ),
        # a comparative is no person, a body part no people
        (
            "What is the man holding?",
            "Step 1: The man raises his shoulders and holds a larger box.\nFinal answer: a box",
        ),
    ],
)
def test_cot_plurals_of_other_kinds_stay_no(question: str, reply: str) -> None:
    assert label("racquet_cot", question + COT, reply) == "NO"


@pytest.mark.parametrize(
    ("noun", "person"),
    [
        ("skier", True),
        ("goalkeeper", True),
        ("cyclist", True),
        ("friend", True),
        ("ladder", False),
        ("larger", False),
        ("sweater", False),
    ],
)
def test_names_person(noun: str, person: bool) -> None:
    assert cues.names_person(noun) is person


# ------------------------------------------------------------------ 5. class B against C


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What is the dog chewing?", "The spotted dog is chewing a bone."),
        ("What is the man holding?", "The man who is leaning on the rail holds a map."),
        ("What is the woman reading?", "The one with the red hat is reading a novel."),
        ("What is the woman drinking?", "woman w/ a red hat: tea"),
        ("What number is on the shirt?", "Runner nearest the camera: 12"),
        ("What is the player doing?", "The pitcher is throwing the ball."),
        ("What colour is the jersey?", "Of the two players, the goalkeeper wears an orange jersey."),
        ("What is the man holding?", "There are two men here. The man (by the car) holds keys."),
    ],
)
def test_one_referent_singled_out_by_any_description_is_b(question: str, reply: str) -> None:
    assert label("racquet_class", question, reply) == "B"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # a plural that only says what is there, then a bare single answer: C, not A
        ("What is the girl eating?", "There are three girls at the table. The girl is eating cake."),
        ("What is the man holding?", "I can see several men. He is holding a newspaper."),
        # a trait no photo shows singles no one out
        ("What is the dog chewing?", "The friendly dog is chewing a bone."),
        # repeating the question's own words is no description
        ("What is the man on the left holding?", "The man on the left is holding a newspaper."),
        # a thing named by what it is is no role
        ("What is the man wearing?", "The blazer is navy and the shirt white."),
        # a list of what one referent wears is one answer in parts
        ("What is the man wearing?", "Clothes:\n- grey coat\n- black boots\n- wool hat"),
    ],
)
def test_a_bare_single_answer_is_c(question: str, reply: str) -> None:
    assert label("racquet_class", question, reply) == "C"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        # A needs the answer itself to treat the ambiguity
        ("What is the girl eating?", "The girls are eating cake."),
        (
            "What is the girl eating?",
            "There are three girls: one eats cake, one eats fruit and one eats bread.",
        ),
        ("What colour is the scarf?", "The woman wears a red scarf and the man a striped grey one."),
    ],
)
def test_an_answer_that_treats_several_referents_is_a(question: str, reply: str) -> None:
    assert label("racquet_class", question, reply) == "A"


# ------------------------------------------------------------------ shared cues found on the way


def test_all_with_a_number_quantifies_the_referents() -> None:
    q = cues.question_cues("What is the child holding?")
    assert cues.several_answered(q, "All four children are holding flags.") is not None
    assert cues.several_answered(q, "The child holds all four flags.") is None


@pytest.mark.parametrize(
    ("reply", "asks"),
    [
        ("There are two boats. Shall I describe the one at the jetty or the one further out?", True),
        ("Would you like me to describe the dog on the left, or the dog on the right?", True),
        ("Would you like more details or a short summary?", False),
    ],
)
def test_an_offer_to_choose_between_referents_asks_which(reply: str, asks: bool) -> None:
    assert (cues.clarification_question(reply) is not None) is asks


def test_one_named_again_by_its_pro_form_is_one_referent() -> None:
    q = cues.question_cues("What is the girl doing?")
    reply = "The one on the left is clearer. The girl on the left is skipping."
    assert cues.several_answered(q, reply) is None
    assert (
        cues.several_answered(q, "The girl on the left is skipping; the one on the right reads.") is not None
    )


def test_owners_of_a_thing_count_apart_from_the_thing() -> None:
    q = cues.question_cues("What colour is the helmet?")
    one = "Only the driver wears a helmet; the passenger has a hood. The helmet is red."
    two = "The driver wears a red helmet, while a pillion rider behind him wears a white one."
    assert cues.several_answered(q, one) is None
    assert cues.several_answered(q, two) is not None


def test_a_clause_that_only_places_its_subject_gives_it_no_answer() -> None:
    worn = cues.question_cues("What is the woman wearing?")
    placed = "The first woman is by the bus. The other woman wears a fleece."
    assert cues.several_answered(worn, placed) is None
    assert cues.several_answered(worn, "The first woman wears a coat. The other woman wears a fleece.")
    # where the question asks where, the place is the answer
    where = cues.question_cues("Where is the dog?")
    assert cues.several_answered(where, "The first dog is by the door. The other dog is on the sofa.")
