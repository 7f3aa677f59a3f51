"""The rule judge's learned doubt (assistant/evaluation/rule_gate.py): it only takes a rule's label back,
never changes it; it learns from the frozen sets and never from the printed one; `--judge rules` is gated
and `--judge rules-ungated` is not."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from assistant.evaluation import judges, rule_gate
from assistant.evaluation.judgement import JudgeError
from assistant.evaluation.judges import RuleJudge, create_judge, load_labelled
from assistant.evaluation.papers import question
from assistant.evaluation.rule_judge import rule_judge
from ui.cli import app

CLASS = question("racquet_class")
STRATEGY = question("aqua_strategy")
COT = question("racquet_cot")


def _printed() -> list:
    return [p for _, paths in judges.LABELLED_SETS for p in paths]


def test_the_printed_set_never_trains_the_gate() -> None:
    printed = {p.resolve() for p in _printed()}
    assert printed.isdisjoint({p.resolve() for p in rule_gate.TRAINING_SETS})
    # and every frozen set older than the printed one does
    newest = max(int(p.stem.removeprefix("heldout")) for p in printed)
    assert [p.name for p in rule_gate.TRAINING_SETS] == [f"heldout{n}.jsonl" for n in range(3, newest)]
    assert all(p.is_file() for p in rule_gate.TRAINING_SETS)


def _taken_back(gate: rule_gate.RuleGate, items: list, asked) -> tuple[int, int]:
    """(labels the gate took back, items): every other judgement is the rules' own, unchanged."""
    mine = [i for i in items if i["task"] == asked.name]
    plain = RuleJudge().judge_many(asked, mine)
    gated = RuleJudge(gate).judge_many(asked, mine)
    taken = 0
    for before, after in zip(plain, gated, strict=True):
        if after.label != before.label:
            assert before.known and after.label == "unknown" and after.path == "rules:gate", (before, after)
            assert before.path in after.reason  # the rule it doubted is named
            taken += 1
        else:
            assert after == before
    return taken, len(mine)


def test_the_gate_never_changes_a_label_on_the_printed_set() -> None:
    items = load_labelled(_printed()[0])
    for asked in (CLASS, STRATEGY, COT):
        taken, n = _taken_back(rule_gate.RuleGate(), items, asked)
        assert taken < n // 4


def test_the_measurement_that_adopted_the_gate() -> None:
    """Round 13: trained on heldout3-15 and applied to heldout16 (which no rule was written from): it takes
    back a few labels, mostly wrong ones, and kappa on decided items rises (0.80 -> 0.87 class, 0.85 ->
    0.92 strategy) with coverage above 0.80 (rule_gate's docstring)."""
    sets = tuple(rule_gate.DATA_DIR / f"heldout{n}.jsonl" for n in range(3, 16))
    gate = rule_gate.RuleGate(sets, {"racquet_class": 0.10, "aqua_strategy": 0.10})
    items = load_labelled(rule_gate.DATA_DIR / "heldout16.jsonl")
    for asked, plain_kappa, gated_kappa in ((CLASS, 0.80, 0.87), (STRATEGY, 0.85, 0.92)):
        taken, n = _taken_back(gate, items, asked)
        assert 0 < taken < n // 8
        plain = judges.judge_agreement(RuleJudge(), items, asked.name)
        gated = judges.judge_agreement(RuleJudge(gate), items, asked.name)
        assert (
            round(plain["kappa_decided"], 2) == plain_kappa
            and round(gated["kappa_decided"], 2) == gated_kappa
        )
        assert gated["coverage"] >= 0.80


def test_round_14_cot_threshold_on_a_left_out_set() -> None:
    """Round 14 chose CoT's threshold (0.25) from leave-one-set-out runs; on heldout18, left out of the
    training, the gate takes back labels and CoT's kappa on decided rises from 0.75 to 0.81 at coverage
    0.85 (docs/judges.md, round 14)."""
    left_out = rule_gate.DATA_DIR / "heldout18.jsonl"
    gate = rule_gate.RuleGate(tuple(p for p in rule_gate.TRAINING_SETS if p != left_out))
    items = load_labelled(left_out)
    taken, n = _taken_back(gate, items, COT)
    assert 0 < taken < n // 8
    plain = judges.judge_agreement(RuleJudge(), items, COT.name)
    gated = judges.judge_agreement(RuleJudge(gate), items, COT.name)
    assert (round(plain["kappa_decided"], 2), round(gated["kappa_decided"], 2)) == (0.75, 0.81)
    assert round(gated["coverage"], 2) == 0.85


def test_probabilities_are_a_distribution_over_the_question_labels() -> None:
    gate = rule_gate.RuleGate()
    pairs = [
        ("What colour is the cat?", "There are two cats: the orange one on the left and a grey one."),
        ("What is the man holding?", "A red umbrella."),
        ("Who is driving?", ""),
    ]
    for asked in (CLASS, STRATEGY, COT):
        found = gate.probabilities(asked.name, pairs)
        assert len(found) == 3
        for probs in found:
            assert set(probs) == set(asked.labels) - {"unknown"}
            assert sum(probs.values()) == pytest.approx(1.0)
            assert all(0.0 <= p <= 1.0 for p in probs.values())
    # it learns from every class reply of every training set
    texts, labels = rule_gate._training(gate.training_sets, "racquet_class")
    counted = sum(
        json.loads(line)["task"] == "racquet_class"
        for p in rule_gate.TRAINING_SETS
        for line in p.read_text(encoding="utf-8").splitlines()
        if line.strip()
    )
    assert len(texts) == len(labels) == counted > 800 and sorted(set(labels)) == ["A", "B", "C"]
    assert gate.training_sets[0].name == "heldout3.jsonl" and gate.thresholds == rule_gate.THRESHOLDS


def test_a_threshold_decides_what_is_taken_back() -> None:
    pairs = [("What colour is the cat?", "The cat is orange.")]
    never = rule_gate.RuleGate(thresholds={"racquet_class": 0.0})
    always = rule_gate.RuleGate(thresholds={"racquet_class": 1.01})
    assert never.doubts("racquet_class", pairs, ["C"]) == [None]
    (why,) = always.doubts("racquet_class", pairs, ["C"])
    assert why and "the rules said C" in why and "< 1.01" in why
    # an ungated question is never doubted
    assert always.doubts("racquet_cot", pairs, ["NO"]) == [None]
    judged = RuleJudge(always).judge(CLASS, {"question": pairs[0][0], "response": pairs[0][1]})
    assert judged.label == "unknown" and judged.path == "rules:gate"
    assert RuleJudge(never).judge(CLASS, {"question": pairs[0][0], "response": pairs[0][1]}).label == "C"


def test_the_gate_reads_nothing_the_rules_already_left() -> None:
    always = rule_gate.RuleGate(thresholds={"racquet_class": 1.01})
    item = {
        "question": "What colour is the cat?",
        "response": "Le chat est orange et le petit chat est gris.",
    }
    judged = RuleJudge(always).judge(CLASS, item)
    assert judged.label == "unknown" and judged.path == "rules:abstain"  # the language, not the gate


def test_judge_names() -> None:
    assert create_judge("rules").name == "rules" and create_judge("rules").gate is not None
    assert (
        create_judge("rules-ungated").name == "rules-ungated" and create_judge("rules-ungated").gate is None
    )


def test_judge_agreement_cli_gated_and_ungated(tmp_path) -> None:
    rows = [
        {"task": "racquet_class", "question": "What colour is the cat?", "response": r, "gold": g}
        for r, g in (
            ("There are two cats: the one on the left is orange and the one on the right is grey.", "A"),
            ("Which cat do you mean?", "A"),
            ("The cat on the sofa is orange.", "B"),
            ("It is orange.", "C"),
        )
    ]
    path = tmp_path / "labelled.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for name in ("rules", "rules-ungated"):
        result = CliRunner().invoke(
            app, ["judge-agreement", "--judge", name, "--labelled", str(path), "--json"]
        )
        assert result.exit_code == 0, result.stdout
        found = json.loads(result.stdout)
        assert found["judge"] == name
        items = found["questions"]["racquet_class"]["items"]
        assert [i["label"] for i in items if i["path"] != "rules:gate"] == [
            i["gold"] for i in items if i["path"] != "rules:gate"
        ]


def test_the_cli_applies_the_gate_on_the_printed_set() -> None:
    # on heldout20, the printed set, the gate took back eight CoT labels (docs/judges.md, round 14)
    printed = str(_printed()[0])
    found = {}
    for name in ("rules", "rules-ungated"):
        args = ["judge-agreement", "--judge", name, "--labelled", printed, "--task", "racquet_cot", "--json"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.stdout
        found[name] = json.loads(result.stdout)["questions"]["racquet_cot"]["items"]
    gated = [i for i in found["rules"] if i["path"] == "rules:gate"]
    assert len(gated) == 8 and not [i for i in found["rules-ungated"] if i["path"] == "rules:gate"]
    ungated = {i["id"]: i for i in found["rules-ungated"]}
    assert all(ungated[i["id"]]["label"] != "unknown" and i["label"] == "unknown" for i in gated)


def test_a_table_prints_the_gated_agreement_and_a_custom_gate_as_itself() -> None:
    tasks = ["racquet_class", "racquet_cot", "racquet_bias"]
    labelled = load_labelled(_printed()[0])
    rows = {r["task"]: r for r in judges.measured_agreement(rule_judge(), tasks)}
    for task in tasks:
        found = judges.judge_agreement(rule_judge(), labelled, task)
        assert rows[task]["kappa_decided"] == found["kappa_decided"]
        assert rows[task]["coverage"] == found["coverage"]
        assert rows[task]["gate_threshold"] == rule_gate.THRESHOLDS.get(task)
    # a judge whose gate doubts every class label is measured with that gate, not the default one
    doubting = RuleJudge(rule_gate.RuleGate(thresholds={"racquet_class": 1.01}))
    (row,) = judges.measured_agreement(doubting, ["racquet_class"])
    assert row["coverage"] == 0.0 and row["gate_threshold"] == 1.01
    assert [r["gate_threshold"] for r in judges.measured_agreement(RuleJudge(), tasks)] == [None] * 3


def test_a_missing_training_set_is_a_clear_judge_error(tmp_path) -> None:
    gate = rule_gate.RuleGate((tmp_path / "gone.jsonl",))
    with pytest.raises(JudgeError, match="gone.jsonl, which is missing"):
        gate.doubts("racquet_class", [("What colour is the cat?", "Orange.")], ["C"])
    one_label = tmp_path / "one.jsonl"
    row = {"task": "racquet_class", "question": "Q?", "response": "R.", "gold": "C"}
    one_label.write_text(json.dumps(row))
    with pytest.raises(JudgeError, match="at least two labels"):
        rule_gate.RuleGate((one_label,)).doubts("racquet_class", [("Q?", "R.")], ["C"])
    # nothing to score trains nothing (a missing file is not even read)
    assert gate.probabilities("racquet_class", []) == []
