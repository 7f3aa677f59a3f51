"""ClearVQA's own answer metrics (Jian et al., ACL 2025), scored as their public `eval/metrics.py` scores
them: VQA accuracy min(1, matches / 3) over the crowd `answers`, and exact match (the answer is one of
them), after the VQA evaluation's normalisation (`processPunctuation`, then `processDigitArticle`).

Three readings, each a named column:
- `vqa_accuracy` (theirs, `compute_vqa_score`): the prediction is normalised, the crowd answers are
  compared as written. Their loop over the answers computes a normalised form and discards it, so a crowd
  answer "Yes" or "2." matches no prediction.
- `exact_match` (theirs, `compute_exact_match`): both sides normalised (their TextCleaner).
- `vqa_accuracy_both_normalised` (ours, an extra): min(1, matches / 3) with both sides normalised.

The normalisation is the VQA evaluation's, quirks included, because the numbers must equal theirs:
- punctuation in PUNCTUATION is deleted where the text has it next to a space or has a "digit,digit", and
  becomes a space elsewhere;
- a period is deleted unless a digit follows it, so "2." becomes "2". Their lookbehind is written
  `(?!<=\\d)`, a lookahead that always holds. At most 32 periods go, because `re.UNICODE` (32) is passed
  where `sub` takes its count;
- the text is lower-cased and split; number words up to ten become digits ("none" -> "0"); articles go;
  and words in the VQA contraction table get their apostrophes ("dont" -> "don't").

tests/test_metrics.py checks these against a table of cases computed by their own functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

NUMBER_WORDS = {
    "none": "0",
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
}
ARTICLES = frozenset({"a", "an", "the"})
PUNCTUATION = tuple(';/[]"{}()=+\\_-><@`,?!')  # the VQA evaluation's list; its order changes nothing
_DIGIT_COMMA_DIGIT = re.compile(r"\d,\d")
_PERIOD = re.compile(r"\.(?!\d)")  # their periodStrip, as it behaves: a period not before a digit
_PERIODS_REMOVED = 32  # re.UNICODE, passed as sub's count

# The contracted forms of the VQA evaluation's contraction table. Its keys are derived: a form with one
# apostrophe is written without it ("dont"); a form with more, with one of them left out ("couldnt've",
# "couldn'tve"). Forms written with a capital ("I'm") never match a lower-cased word: they change nothing.
_CONTRACTED = """
ain't aren't can't could've couldn't couldn't've didn't doesn't don't hadn't hadn't've hasn't haven't he'd
he'd've he's how'd how'll how's isn't it'd it'd've it'll ma'am mightn't mightn't've might've mustn't
must've needn't not've o'clock oughtn't 'ow's'at shan't she'd've should've shouldn't shouldn't've
somebody'd've somebody'll somebody's someone'd someone'd've someone'll someone's something'd something'd've
something'll that's there'd there'd've there're there's they'd they'd've they'll they're they've 'twas
wasn't we'd've we've weren't what'll what're what's what've when's where'd where's where've who'd who'd've
who'll who's who've why'll why're why's won't would've wouldn't wouldn't've y'all y'all'll y'all'd've you'd
you'd've you'll you're you've
""".split()  # noqa: SIM905 - a word list reads better as text


def _contractions() -> dict[str, str]:
    table: dict[str, str] = {}
    for form in _CONTRACTED:
        marks = [i for i, c in enumerate(form) if c == "'"]
        if len(marks) == 1:
            table[form.replace("'", "")] = form
        else:
            for i in marks:
                table[form[:i] + form[i + 1 :]] = form
    table["somebody'd"] = "somebodyd"  # the table's one entry that goes the other way
    return table


CONTRACTIONS = _contractions()


def process_punctuation(text: str) -> str:
    """The VQA evaluation's processPunctuation (see the module docstring)."""
    out = text
    drop = _DIGIT_COMMA_DIGIT.search(text) is not None
    for mark in PUNCTUATION:
        if drop or f"{mark} " in text or f" {mark}" in text:
            out = out.replace(mark, "")
        else:
            out = out.replace(mark, " ")
    return _PERIOD.sub("", out, count=_PERIODS_REMOVED)


def process_digit_article(text: str) -> str:
    """The VQA evaluation's processDigitArticle: lower case, number words as digits, no articles,
    contractions with their apostrophes."""
    words = [NUMBER_WORDS.get(w, w) for w in text.lower().split()]
    return " ".join(CONTRACTIONS.get(w, w) for w in words if w not in ARTICLES)


def normalise_answer(text: str) -> str:
    """The VQA evaluation's normal form of an answer: "Two dogs." -> "2 dogs"."""
    return process_digit_article(process_punctuation(text))


def _cleaned(text: str) -> str:
    # their TextCleaner: tabs and newlines as spaces, stripped, then normalised
    return normalise_answer(text.replace("\n", " ").replace("\t", " ").strip())


@dataclass(frozen=True)
class AnswerScore:
    vqa_accuracy: float  # theirs: min(1, crowd answers equal to the normalised prediction / 3)
    exact_match: bool  # theirs: the cleaned prediction is one of the cleaned crowd answers
    vqa_accuracy_both_normalised: float  # ours: min(1, matches / 3), both sides normalised


def score_answer(prediction: str, answers: Sequence[str]) -> AnswerScore:
    """One prediction against its crowd answers, in the three readings of the module docstring."""
    pred = normalise_answer(prediction)
    theirs = sum(1 for a in answers if a == pred)
    ours = sum(1 for a in answers if normalise_answer(a) == pred)
    exact = _cleaned(prediction) in [_cleaned(a) for a in answers]
    return AnswerScore(min(1.0, theirs / 3.0), exact, min(1.0, ours / 3.0))


def answer_metrics(
    predictions: Sequence[str | None], answers: Sequence[Sequence[str]]
) -> dict[str, float | int]:
    """Mean VQA accuracy (theirs and ours) and exact-match rate, in [0, 1], over items. A missing
    prediction scores 0. An item whose crowd list is empty scores 0 and stays in the mean, as the authors'
    eval/metrics.py does (no crowd answer can match); "n_empty_crowd" says how many there were."""
    scores = [score_answer(p or "", a) for p, a in zip(predictions, answers, strict=True)]
    n = len(scores)
    empty = sum(1 for a in answers if not a)
    if not n:
        nan = float("nan")
        return {
            "n": 0,
            "n_empty_crowd": 0,
            "vqa_accuracy": nan,
            "exact_match": nan,
            "vqa_accuracy_both_normalised": nan,
        }
    return {
        "n": n,
        "n_empty_crowd": empty,
        "vqa_accuracy": sum(s.vqa_accuracy for s in scores) / n,
        "exact_match": sum(s.exact_match for s in scores) / n,
        "vqa_accuracy_both_normalised": sum(s.vqa_accuracy_both_normalised for s in scores) / n,
    }
