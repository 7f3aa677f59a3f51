"""scripts/human_agreement.py: a second annotator's labels read strictly, and the agreement of two people
computed as metrics.agreement computes a judge's (hand-computed kappa on a constructed set)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts.human_agreement import compare, second_labels

COT_SUFFIX = " Please explain your reasoning step by step before providing the final answer."


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def labelled(tmp_path: Path) -> Path:
    replies = [
        ("What colour is the dog?", "There are two dogs: the left one is brown, the right one black.", "YES"),
        ("Is the cat asleep?", "I see three cats on the sofa; the middle one has its eyes shut.", "YES"),
        ("What is the man holding?", "Step 1: the man is at the counter. Final answer: a cup.", "NO"),
        ("Is the door open?", "Step 1: the door is ajar. Final answer: yes, the door is open.", "NO"),
    ]
    rows = [
        {"id": f"t-{n}", "task": "racquet_cot", "question": q + COT_SUFFIX, "response": r, "gold": g}
        for n, (q, r, g) in enumerate(replies)
    ]
    return _write(tmp_path / "set.jsonl", rows)


def test_two_people_agreement_is_cohens_kappa(labelled: Path, tmp_path: Path) -> None:
    # gold YES YES NO NO, second YES NO NO NO: observed 0.75, expected 0.5*0.25 + 0.5*0.75 = 0.5 -> 0.5
    second = _write(
        tmp_path / "second.jsonl",
        [
            {"id": "t-0", "label": "YES"},
            {"id": "t-1", "label": "NO"},
            {"id": "t-2", "label": "NO"},
            {"id": "t-3", "label": "NO"},
        ],
    )
    result = compare(labelled, second)
    assert result["judge"] == "rules" and result["in_sample_for_gate"] is False  # a file the gate never read
    q = result["questions"]["racquet_cot"]
    assert q["people_agree"] == 3
    assert q["people_kappa"] == pytest.approx(0.5)
    assert q["rules_where_people_agree"]["n"] == 3


def test_a_set_the_gate_learned_from_is_flagged_in_sample() -> None:
    from assistant.evaluation.rule_gate import DATA_DIR

    labelled, second = DATA_DIR / "heldout19.jsonl", DATA_DIR / "heldout19_second_labels.jsonl"
    assert compare(labelled, second)["in_sample_for_gate"] is True
    plain = compare(labelled, second, "rules-ungated")
    assert plain["judge"] == "rules-ungated" and plain["in_sample_for_gate"] is False


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"id": "nope", "label": "YES"}], "not in the labelled set"),
        ([{"id": "t-0", "label": "YES"}, {"id": "t-0", "label": "NO"}], "labelled twice"),
        ([{"id": "t-0", "label": "A"}], "is not a label of racquet_cot"),
        ([{"id": "t-0", "label": "YES"}], "3 items have no second label"),
    ],
)
def test_a_bad_second_label_file_is_named(labelled: Path, tmp_path: Path, rows: list, message: str) -> None:
    from assistant.evaluation.judges import load_labelled

    path = _write(tmp_path / "second.jsonl", rows)
    with pytest.raises(SystemExit, match=message):
        second_labels(path, load_labelled(labelled))
