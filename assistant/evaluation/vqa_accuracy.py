"""ClearVQA's own answer metrics (Jian et al., ACL 2025; their public eval/metrics.py): VQA accuracy
min(1, matches / 3) over the crowd `answers`, and exact match (the answer is one of them), both after the
VQA evaluation's normalisation (lower case, punctuation, number words as digits, no articles).

Differences from their code, stated in the README: we normalise the crowd answers as well as the
prediction (their `compute_vqa_score` normalises only the prediction: its loop over the answers discards
what it computes), and we leave out the VQA contraction table ("dont" -> "don't"), which changes no
answer in which both sides are written the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_NUMBER_WORDS = {
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
_ARTICLES = {"a", "an", "the"}
_PUNCTUATION = re.compile(r"""[;/\[\]"{}()=+\\_\-><@`,?!]""")
_PERIOD = re.compile(r"(?<!\d)\.(?!\d)")  # a full stop, not a decimal point
_THOUSANDS = re.compile(r"(\d),(\d)")


def normalise_answer(text: str) -> str:
    """The VQA evaluation's normal form of an answer: "Two dogs." -> "2 dogs"."""
    text = " ".join(text.lower().split())
    text = _THOUSANDS.sub(r"\1\2", text)
    text = _PUNCTUATION.sub(" ", text)
    text = _PERIOD.sub("", text)
    words = [_NUMBER_WORDS.get(w, w) for w in text.split() if w not in _ARTICLES]
    return " ".join(words)


@dataclass(frozen=True)
class AnswerScore:
    vqa_accuracy: float  # min(1, matching crowd answers / 3)
    exact_match: bool  # the answer is one of the crowd answers


def score_answer(prediction: str, answers: Sequence[str]) -> AnswerScore:
    """One prediction against its crowd answers (both normalised)."""
    pred = normalise_answer(prediction)
    gold = [normalise_answer(a) for a in answers]
    matches = sum(1 for g in gold if g == pred)
    return AnswerScore(min(1.0, matches / 3.0), pred in gold)


def answer_metrics(
    predictions: Sequence[str | None], answers: Sequence[Sequence[str]]
) -> dict[str, float | int]:
    """Mean VQA accuracy and exact-match rate (in [0, 1]) over items; a missing prediction scores 0, and an
    item without crowd answers is left out (n counts the scored items)."""
    scores = [score_answer(p or "", a) for p, a in zip(predictions, answers, strict=True) if a]
    n = len(scores)
    if not n:
        return {"n": 0, "vqa_accuracy": float("nan"), "exact_match": float("nan")}
    return {
        "n": n,
        "vqa_accuracy": sum(s.vqa_accuracy for s in scores) / n,
        "exact_match": sum(s.exact_match for s in scores) / n,
    }
