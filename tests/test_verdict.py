"""assistant.verdict: free-text replies sorted into ambiguous / unambiguous / undecided, and AQuA levels."""

from __future__ import annotations

import pytest

from assistant.types import Verdict
from assistant.verdict import parse_level, parse_verdict
from prompts import load_prompt, render_prompt

A, U, D = Verdict.AMBIGUOUS, Verdict.UNAMBIGUOUS, Verdict.UNDECIDED

CASES: list[tuple[str, Verdict]] = [
    # the one-word answers the prompts ask for, dressed up
    ("ambiguous", A),
    ("Ambiguous.", A),
    ("unambiguous", U),
    ("UNAMBIGUOUS", U),
    ("**Unambiguous**", U),
    ("“ambiguous”", A),
    ("'unambiguous'", U),
    ("Prediction: ambiguous", A),
    ("Final answer: **ambiguous**", A),
    ('{"prediction": "unambiguous"}', U),
    ("## Answer\n\n`ambiguous`", A),
    ("Non-ambiguous", U),
    ("un-ambiguous", U),
    # negation
    ("The question is not ambiguous.", U),
    ("The question isn’t ambiguous: there is one cup.", U),
    ("It is not unambiguous, since two dogs are visible.", A),
    ("No, it is ambiguous.", A),
    ("The question is not clear and ambiguous.", A),
    ("The question does not specify which cup, so it is ambiguous.", A),
    ("Ambiguous: no", U),
    ("Is the question ambiguous? Yes.", A),
    ("There is no ambiguity here.", U),
    # chain of thought: the final verdict counts
    (
        "Step 1. Understand the Image: a park.\nStep 2. Understand the question: the colour of the kite.\n"
        "Step 3. Find the regions: three kites.\nStep 4. Predict: There are three regions found — multiple "
        "regions make this question ambiguous. Therefore, the prediction is “ambiguous”.",
        A,
    ),
    (
        "Step 3. Find the regions: In the image we can only find one man holding the apple.\n"
        "Step 4. Predict: There is only one region found. Therefore, the question is “unambiguous”.",
        U,
    ),
    ("It could be ambiguous but since only one cup exists it is unambiguous.", U),
    ("Although one might think it is unambiguous, there are three kites, so the question is ambiguous.", A),
    ("The answer is unambiguous. Prediction: ambiguous", A),
    (
        "A question is ambiguous if multiple regions satisfy it. Here only one man holds an apple, so the "
        "answer is unambiguous.",
        U,
    ),
    ("It would be ambiguous if there were two cups. There is one cup. Unambiguous.", U),
    ("Please only output “ambiguous” or “unambiguous”.\nambiguous", A),
    ("If we look closely there are two cups, so the question is ambiguous.", A),
    ("The question might be ambiguous.", A),
    ("I'm sorry, I can't see the image clearly. However, the question seems ambiguous.", A),
    # refusals, hedges, echoes and garbage
    ("I'm unable to fulfill this request.", D),
    ("I need more information to answer.", D),
    ("I cannot determine whether the question is ambiguous or unambiguous without seeing the image.", D),
    ("I'm not sure; it might be ambiguous.", D),
    ("To decide if it is ambiguous I would need to see the image.", D),
    (
        "4. Predict: Predict whether the question is ambiguous or not. "
        "If there are multiple regions found and the question does not use plural form, "
        "it is an ambiguous question. Otherwise, it is an unambiguous question.",
        D,
    ),
    ("Ambiguously worded.", D),
    ("Yes.", D),
    ("asdf qwerty 123", D),
    ("", D),
    ("   \n\t", D),
    ("🤷", D),
]


@pytest.mark.parametrize(("text", "want"), CASES, ids=[t[:40] for t, _ in CASES])
def test_parse_verdict(text: str, want: Verdict) -> None:
    assert parse_verdict(text) is want


@pytest.mark.parametrize(
    "name",
    [
        "focus_recognition_zs",
        "focus_recognition_zs_cot",
        "focus_recognition_zs_ecot",
        "focus_recognition_fs",
        "focus_recognition_fs_ecot",
    ],
)
def test_an_echoed_prompt_is_not_a_verdict_but_its_answer_is(name: str) -> None:
    prompt = render_prompt(name, question="What color is the cup?")
    tail = prompt.split("Below is the task")[-1]  # the few-shot examples carry their own predictions
    assert parse_verdict(tail) is D
    assert parse_verdict(prompt + "\n\nPrediction: unambiguous") is U
    assert parse_verdict(prompt + "\n\nThe cups are two. Therefore the question is ambiguous.") is A


def test_long_reply_is_read_from_its_end() -> None:
    reasoning = "The image shows a table with several objects on it. " * 2000
    assert parse_verdict(reasoning + "Prediction: ambiguous") is A
    assert parse_verdict(reasoning) is D


def test_not_a_string_is_undecided() -> None:
    assert parse_verdict(None) is D  # type: ignore[arg-type]
    assert parse_verdict(3) is D  # type: ignore[arg-type]


LEVELS: list[tuple[str, int | None]] = [
    ("Level: 2\nAnswer: The cup on the left is red; the one on the right is blue.", 2),
    ("**Level:** 3\n**Answer:** Which dog do you mean?", 3),
    ("Level 1 - one salient referent. Answer: the large cup is white.", 1),
    ("level: 0\nanswer: red", 0),
    ("Level: <0>", 0),
    ("Level: two", 2),
    ("LEVEL:3 Answer: which one?", 3),
    ("This is not level 1 but level 2.", 2),
    ("Level: <0, 1, 2 or 3>", None),
    ("Level: 4", None),
    ("Level: 12", None),
    ("Answer: the cup is red.", None),
    ("", None),
]


@pytest.mark.parametrize(("text", "want"), LEVELS, ids=[t[:30] for t, _ in LEVELS])
def test_parse_level(text: str, want: int | None) -> None:
    assert parse_level(text) == want


def test_parse_level_reads_the_strategy_prompts_reply_form() -> None:
    form = load_prompt("aqua_strategy").split("Reply in this form:")[1].split("Question:")[0]
    assert parse_level(form) is None  # the form itself names no level
    assert parse_level(form.replace("<0, 1, 2 or 3>", "1")) == 1
    assert parse_level(None) is None  # type: ignore[arg-type]
