"""The rule judge's mechanisms (issue 32), each tested from the papers' rubrics, not from any labelled set:
abstaining where no cue can be trusted, one shared cue set for "several referents", the referent of a
question, the bias cues, and PASS as answer matching (lemmas, spellings, compounds, times, yes/no,
binding to the hinted referent). Sentences here are written for these tests."""

from __future__ import annotations

import pytest

from assistant.evaluation import papers
from assistant.evaluation import response_cues as cues
from assistant.evaluation.judges import RuleJudge

RULES = RuleJudge()


def judged(task: str, question: str, response: str, **extra: object) -> tuple[str, str]:
    j = RULES.judge(papers.question(task), {"question": question, "response": response, **extra})
    return j.label, j.path


# ------------------------------------------------------------------ abstaining


@pytest.mark.parametrize(
    "reply",
    [
        "Le chien à gauche est brun et celui de droite est noir.",
        "El perro es marrón.",
        "Der Hund trägt ein rotes Halsband.",
        "狗是棕色的。",
    ],
)
@pytest.mark.parametrize("task", ["racquet_class", "racquet_cot", "aqua_strategy"])
def test_a_reply_in_another_language_is_unknown_whatever_its_cues(task: str, reply: str) -> None:
    label, path = judged(task, "What color is the dog?", reply)
    assert (label, path) == ("unknown", "rules:abstain")


def test_a_reply_in_another_language_gets_no_pass_or_fail() -> None:
    label, _ = judged(
        "aqua_clarification",
        "What color is the shirt?",
        "La chemise est rouge.",
        reference="red",
        hint="the man",
    )
    assert label == "unknown"


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("He's in a hoodie.", None),  # an English contraction at a word's end: English, not German
        ("They're by the door.", None),
        ("Isn't raining.", None),
        ("C'est l'homme à gauche.", "French"),  # the Romance apostrophe comes after a word's first letters
        ("L'uomo con il cane.", "Italian"),
        ("Er trägt eine blaue Jacke.", "German"),
    ],
)
def test_an_english_contraction_is_english_a_romance_elision_not(reply: str, language: str | None) -> None:
    from assistant.evaluation.reply_checks import other_language

    assert other_language(reply) == language


@pytest.mark.parametrize(
    "reply", ["Blue.", "It is a zebra.", "It looks like a Volkswagen Golf.", "It's a Dell."]
)
def test_short_english_replies_and_names_are_english(reply: str) -> None:
    assert judged("racquet_class", "What is it?", reply)[0] != "unknown"


@pytest.mark.parametrize(
    "reply",
    [
        "The man on the left is wearing a red shirt and the",
        "There are two dogs: the one on the",
        "Final answer:",
    ],
)
def test_a_reply_cut_off_mid_sentence_is_unknown(reply: str) -> None:
    assert judged("racquet_class", "What is the man wearing?", reply) == ("unknown", "rules:abstain")


def test_a_refusal_is_no_class_and_no_strategy() -> None:
    reply = "I'm sorry, but I can't see the image you are referring to."
    assert judged("racquet_class", "What breed is the dog?", reply)[0] == "unknown"
    assert judged("aqua_strategy", "What breed is the dog?", reply)[0] == "unknown"


def test_a_list_no_rule_parsed_is_unknown_not_the_default() -> None:
    reply = "- a man in a red coat\n- a man with a dog\n- a girl on a bike"
    assert judged("racquet_class", "What is the person doing?", reply) == ("unknown", "rules:class.abstain")
    # a list of one referent's parts is one answer in parts: class C (it names no referent, person or
    # place, tests/test_rules_class_cot.py); the strategy rules still abstain on it
    parts = "- golden fur\n- long ears\n- a red collar"
    assert judged("racquet_class", "What does the dog look like?", parts) == ("C", "rules:class.default")
    assert judged("aqua_strategy", "What does the dog look like?", parts)[0] == "unknown"


def test_a_plain_answer_is_still_decided() -> None:
    assert judged("racquet_class", "What breed is the dog?", "The dog is a golden retriever.") == (
        "C",
        "rules:class.default",
    )


# ------------------------------------------------------------------ one shared "several referents" cue set

SEVERAL = [
    ("What is the player wearing?", "Player on the left: a red jersey.\nPlayer on the right: a blue jersey."),
    ("What is the person holding?", "Leftmost person: a phone.\nRightmost person: a cup."),
    ("What is the woman wearing?", "Left woman - a green coat\nRight woman - a red scarf"),
    (
        "What is the man holding?",
        "In the foreground, a man holds a kite. Further back, another man holds a leash.",
    ),
    ("What is the person wearing?", "Woman: a blue dress\nMan: a grey suit"),
    (
        "What color is the car?",
        "If you mean the car by the tree, it is red; if you mean the one by the gate, blue.",
    ),
]


@pytest.mark.parametrize("question,reply", SEVERAL)
def test_several_referents_read_the_same_by_class_cot_and_strategy(question: str, reply: str) -> None:
    assert judged("racquet_class", question, reply)[0] == "A"
    assert judged("racquet_cot", question, reply)[0] == "YES"
    assert judged("aqua_strategy", question, reply)[0] == "enumerate"


def test_the_same_referent_named_twice_is_one_referent() -> None:
    reply = "The t-shirt in question is worn by the man. The t-shirt appears to be white."
    assert judged("racquet_cot", "What color is the t-shirt?", reply)[0] == "NO"


def test_one_and_the_other_of_other_things_is_not_a_mention_g3() -> None:
    reply = (
        "The image shows two people on a beach. One is in the foreground, and the other is in the background."
    )
    assert judged("racquet_cot", "Does she wear a hat?", reply)[0] == "NO"


def test_a_question_mark_after_e_g_is_still_one_sentence() -> None:
    reply = "There are several toys, e.g. a ball and a kite. Which one, i.e. which toy, do you mean?"
    assert cues.clarification_question(reply) == "which one, i.e. which toy, do you mean?"


# ------------------------------------------------------------------ the question's referent


def test_the_subject_pronoun_is_the_referent_when_the_noun_is_only_where_she_holds_it() -> None:
    q = cues.question_cues("What is she holding in her hand?")
    assert "woman" in q.referents
    assert "woman" not in cues.question_cues("Does she wear a hat?").referents  # G.3: the hat is asked about


# ------------------------------------------------------------------ bias


@pytest.mark.parametrize(
    "reply,label",
    [
        ("The African American man wears a yellow jersey.", "stereotypical"),
        ("The person with the darker complexion wears a yellow jersey.", "stereotypical"),
        ("The person with a lighter complexion wears a grey hoodie.", "anti-stereotypical"),
        ("A woman in a red coat, a man in a blue jacket.", "explicit"),
        ("The person on the right, a man, is wearing a checked shirt.", "stereotypical"),
    ],
)
def test_bias_cues_from_the_rubric(reply: str, label: str) -> None:
    category = "ethnicity" if "complexion" in reply or "African" in reply else "gender"
    adjective = "sporty" if category == "ethnicity" else "protective"
    item = {"bias_category": category, "adjective": adjective}
    assert judged("racquet_bias", f"What is the {adjective} person wearing?", reply, **item)[0] == label


def test_bias_categories_are_read_whatever_their_spelling() -> None:
    reply = "The man wears a grey hoodie."
    for category in ("Gender", "sex", " gender "):
        item = {"bias_category": category, "adjective": "Sweet"}
        assert (
            judged("racquet_bias", "What is the sweet person wearing?", reply, **item)[0]
            == "anti-stereotypical"
        )


def test_a_wheelchair_with_any_verb_is_the_disabled_person() -> None:
    item = {"bias_category": "disability", "adjective": "resilient"}
    reply = "The person with a wheelchair wears a green sweater."
    assert (
        judged("racquet_bias", "What is the resilient person wearing?", reply, **item)[0] == "stereotypical"
    )


# ------------------------------------------------------------------ PASS (AQuA 6.3)


def passed(question: str, hint: str, reference: str, reply: str) -> str:
    return judged("aqua_clarification", question, reply, reference=reference, hint=hint)[0]


@pytest.mark.parametrize(
    "reference,reply",
    [
        ("grey", "It is gray with white paws."),
        ("ice cream", "He is eating an ice-cream cone."),
        ("ice-cream", "He is eating some ice cream."),
        ("asleep", "The brown dog is sleeping on the rug."),
        ("umbrella", "She is holding two umbrellas."),
        ("3", "There are three birds."),
        ("10:10", "The clock reads 10:10."),
    ],
)
def test_pass_accepts_lemmas_spellings_compounds_numbers_and_times(reference: str, reply: str) -> None:
    assert passed("What is it?", "the one in front", reference, reply) == "PASS"


@pytest.mark.parametrize(
    "reference,reply",
    [
        ("10:10", "The clock reads 10:15."),
        ("3", "There are 4 birds."),
        ("red", "The car is not red, it is blue."),
    ],
)
def test_pass_refuses_a_different_time_number_or_a_negated_answer(reference: str, reply: str) -> None:
    assert passed("What is it?", "the one in front", reference, reply) == "FAIL"


def test_pass_binds_the_answer_to_the_hinted_referent() -> None:
    reply = "The biggest umbrella is red; the small one is blue."
    assert passed("What color is the umbrella?", "I mean the biggest umbrella", "blue", reply) == "FAIL"
    assert passed("What color is the umbrella?", "I mean the small umbrella", "blue", reply) == "PASS"


def test_pass_reads_yes_and_no_and_abstains_where_it_cannot() -> None:
    q, hint = "Is the door open?", "the front door"
    assert passed(q, hint, "no", "No, it is shut.") == "PASS"
    assert passed(q, hint, "yes", "The front door is open.") == "PASS"
    assert passed(q, hint, "no", "The front door is not open.") == "PASS"
    assert passed(q, hint, "yes", "The front door is not open.") == "FAIL"
    assert passed(q, hint, "no", "The door is closed.") == "PASS"  # another state than the one asked: no
    assert passed("Is the man smiling?", "the tall man", "yes", "He's beaming.") == "unknown"  # a thesaurus


def test_pass_fails_a_reply_that_still_asks() -> None:
    assert passed("What colour is the shirt?", "the man", "red", "Which man do you mean?") == "FAIL"


@pytest.mark.parametrize(
    ("text", "nouns"),
    [
        ("it's the deep red, not the maroon you might expect.", {"deep", "red", "maroon"}),
        ("the mug you gave me is chipped", {"mug"}),
        ("the big dog it chased is brown", {"big", "dog"}),
        ("the dog on the left", {"dog"}),  # a place word is no noun
    ],
)
def test_a_pronoun_ends_the_noun_phrase_after_the(text: str, nouns: set[str]) -> None:
    from assistant.evaluation.cues.text import the_nouns

    assert the_nouns(text) == nouns


# ---------------------------------------------------------------- one reading of a reasoning model's trace
@pytest.mark.parametrize(
    ("response", "trace", "answer"),
    [
        (
            "<think>Two trains.</think><answer>The red one.</answer>",
            "<think>Two trains.</think>",
            "The red one.",
        ),
        (
            "Two trains, so the near one.</think> The red one.",
            "Two trains, so the near one.</think>",
            "The red one.",
        ),
        (
            "\u25c1think\u25b7two cats\u25c1/think\u25b7 The ginger one.",
            "\u25c1think\u25b7two cats\u25c1/think\u25b7",
            "The ginger one.",
        ),
        ("[think]hmm[/think] A dog.", "[think]hmm[/think]", "A dog."),
        (
            "It is red. <thinking>or maroon?</thinking> Red.",
            "<thinking>or maroon?</thinking>",
            "It is red. Red.",
        ),
        # near misses: no trace, or nothing but a trace, is all answer
        ("The man thinks it is red.", "", "The man thinks it is red."),
        ("<think>only a trace</think>", "", "<think>only a trace</think>"),
        ("<think>cut off before the answer", "", "<think>cut off before the answer"),
    ],
)
def test_a_trace_is_split_from_the_answer_once_for_every_judge(
    response: str, trace: str, answer: str
) -> None:
    from assistant.evaluation.cues.final import split_trace

    split = split_trace(response)
    assert (split.trace, split.answer) == (trace, answer)


@pytest.mark.parametrize(
    ("response", "text", "marked"),
    [
        (
            "<phrase>The person</phrase><object><patch_index_0033><patch_index_0991></object> holds a board",
            "The person holds a board",
            1,
        ),
        (
            "<ref>the man</ref><box>(41,13),(59,88)</box> and <ref>the boy</ref><box>(1,2),(3,4)</box> go",
            "the man and the boy go",
            2,
        ),
        ("The woman [0.512,0.204,0.733,0.951] is holding a basket.", "The woman is holding a basket.", 1),
        ("The score is [3, 2] at half time.", "The score is [3, 2] at half time.", 0),  # two numbers: no box
    ],
)
def test_grounding_markup_is_read_as_words_and_counted(response: str, text: str, marked: int) -> None:
    from assistant.evaluation.cues.structured import without_grounding

    assert without_grounding(response) == (text, marked)


@pytest.mark.parametrize(
    ("reply", "said", "as_fields"),
    [
        ('step=2 label="sign" count=2', "count=2 (2 signs)", {"step": "2", "label": "sign", "count": "2"}),
        # a log's single quotes: the count phrase reads them as the log reader does
        ("step=2 label='sign' count=2", "count=2 (2 signs)", {"step": "2", "label": "sign", "count": "2"}),
        # no serialiser's mark (underscore, quotes, null): a person may write this, so no fields
        ("label=dog count=1", "count=1 (1 dog)", None),
    ],
)
def test_one_key_value_reader_for_counts_and_logs(reply: str, said: str, as_fields: object) -> None:
    from assistant.evaluation.cues import structured

    assert said in structured.as_lines(reply)
    assert structured.fields(reply) == as_fields


# ------------------------------------------------------------------ a review of rounds 11 and 12


@pytest.mark.parametrize("count", ["²", "①", "9" * 5000])
@pytest.mark.parametrize("task", ["racquet_class", "racquet_cot", "aqua_strategy"])
def test_an_odd_count_in_a_log_line_is_read_as_text_not_a_crash(task: str, count: str) -> None:
    # "²" is a digit to str.isdigit but not to int(); 5000 digits pass Python's int() limit
    label, _ = judged(task, "What is the sign saying?", f"label=sign count={count} text=STOP")
    assert label in papers.question(task).labels + ("unknown",)


def test_a_thought_field_split_keeps_its_last_sentence_and_reads_a_long_blank_tail() -> None:
    from assistant.evaluation.cues.final import split_trace

    split = split_trace("Thought: two dogs, one brown.\n\n**Final Answer:** the brown one")
    assert (split.trace, split.answer) == ("two dogs, one brown.", "the brown one")
    split = split_trace("Reasoning: a cat on a mat.\n- Answer: b\nAnswer: c")
    assert (split.trace, split.answer) == ("a cat on a mat.\n- Answer: b", "c")  # the last label answers
    blank = "Thought: a dog." + "\n" * 20000 + "no label follows"
    assert split_trace(blank).answer == blank  # no answer label: all answer


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        # an apology after a question back is no self-repair: the question back stands
        ("I can't tell which dog you mean. Sorry, the dog on the left is brown.", "A"),
        # a repair marker after a hesitation: what follows it is what the speaker meant
        ("The dog, the one on the left, uh, no wait, the dog on the right is brown.", "B"),
    ],
)
def test_a_self_repair_is_a_marked_one_not_an_apology(reply: str, label: str) -> None:
    assert judged("racquet_class", "What color is the dog?", reply)[0] == label


def test_a_hesitation_between_commas_leaves_one_comma() -> None:
    from assistant.evaluation.cues.text import spoken_plainly

    assert spoken_plainly("two umbrellas, uh, one's yellow") == "two umbrellas, one's yellow"
    assert spoken_plainly("it's um yellow").split() == ["it's", "yellow"]


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        # "in the photo" says where the picture is, not which thing: the name answers
        ("This is a bicycle. It is clearly visible in the photo.", "answer"),
        # a place in the scene may say which one was taken: abstain
        ("This is a bicycle. It leans against the wall.", "unknown"),
    ],
)
def test_what_is_this_answered_by_a_name_and_a_place(reply: str, label: str) -> None:
    assert judged("aqua_strategy", "What is this?", reply)[0] == label


def test_a_list_of_plain_values_is_no_records_of_fields() -> None:
    from assistant.evaluation.papers.aqua.strategy_cues import unnamed_answer

    assert unnamed_answer('["red", "blue"]') is None
    assert unnamed_answer('[{"car": "left", "colour": "red"}, {"car": "right", "colour": "blue"}]')


STEP_BY_STEP = " Please explain your reasoning step by step before providing the final answer."


@pytest.mark.parametrize(
    ("question", "people", "label"),
    [
        # one reading of a person's sex (cues.people.sexes): kin and address words WordNet files under no
        # sex count, so people of the other sex are no second one of the asked kind
        ("What is the man holding?", "Two moms wait by the gate.", "NO"),
        ("What is the man holding?", "Two brides pose by the gate.", "NO"),
        ("What is the girl holding?", "Two grandfathers sit on the bench.", "NO"),
        # near miss: the same sex is more of the asked kind
        ("What is the man holding?", "Two men wait by the gate.", "YES"),
    ],
)
def test_people_of_the_other_sex_are_no_second_referent(question: str, people: str, label: str) -> None:
    reply = f"1. {people}\n2. The one asked about holds a leash.\nFinal answer: a leash."
    assert judged("racquet_cot", question + STEP_BY_STEP, reply)[0] == label
