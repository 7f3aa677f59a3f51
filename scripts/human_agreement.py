"""How often two people agree on the judge questions, beside how often the rules agree with each of them.

A frozen labelled set (gold by its annotator) and a second, independent label for the same items (written
by someone who saw neither the gold labels nor the rules) give the human ceiling a rule judge is measured
against: if two careful people agree at kappa 0.85, a judge cannot be expected to agree with one of them
at 0.95. Printed per judge question, with 95% bootstrap intervals (metrics.kappa_interval):
- people: kappa between the gold label and the second label;
- rules vs gold and rules vs second: kappa on the items the rules decided, and their coverage;
- rules where people agree: kappa on decided items among those where both people gave the same label.

Run: .venv/bin/python scripts/human_agreement.py assistant/evaluation/data/heldout11.jsonl \
         assistant/evaluation/data/heldout11_second_labels.jsonl [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.evaluation import judges, rule_gate  # noqa: E402
from assistant.evaluation.judges import create_judge, judge_agreement, load_labelled  # noqa: E402
from assistant.evaluation.metrics import UNKNOWN, agreement, kappa_interval  # noqa: E402
from assistant.evaluation.papers import question  # noqa: E402


def second_labels(path: Path, labelled: Sequence[dict[str, Any]]) -> dict[str, str]:
    """id -> label of the second annotator; every item of the set once, each label one of its task's."""
    tasks = {str(item["id"]): str(item["task"]) for item in labelled}
    labels: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        obj = json.loads(line)
        item_id, label = str(obj["id"]), str(obj["label"])
        if item_id not in tasks:
            raise SystemExit(f"{path.name} line {number}: id {item_id!r} is not in the labelled set")
        if item_id in labels:
            raise SystemExit(f"{path.name} line {number}: id {item_id!r} labelled twice")
        if label not in question(tasks[item_id]).labels:
            raise SystemExit(f"{path.name} line {number}: {label!r} is not a label of {tasks[item_id]}")
        labels[item_id] = label
    missing = sorted(set(tasks) - set(labels))
    if missing:
        raise SystemExit(f"{path.name}: {len(missing)} items have no second label, e.g. {missing[0]}")
    return labels


def _decided_kappa(reference: list[str], judged: list[str], classes: Sequence[str]) -> dict[str, Any]:
    out = agreement(reference, judged, classes)
    decided = out["n"] - out["unknown"]
    return {
        "n": out["n"],
        "coverage": decided / out["n"] if out["n"] else float("nan"),
        "kappa_decided": out["kappa_decided"],
        "kappa_decided_ci": list(kappa_interval(reference, judged, classes, decided_only=True)),
    }


def compare(labelled_path: Path, second_path: Path, judge: str = "rules") -> dict[str, Any]:
    labelled = load_labelled(labelled_path)
    second = second_labels(second_path, labelled)
    rules = create_judge(judge)
    # a set the gate learned from reads in-sample for the gated rules: say so beside the figures
    trains_gate = labelled_path.resolve() in {p.resolve() for p in rule_gate.TRAINING_SETS}
    result: dict[str, Any] = {
        "labelled": labelled_path.name,
        "second": second_path.name,
        "judge": rules.name,
        "in_sample_for_gate": trains_gate and judge != judges.UNGATED,
        "questions": {},
    }
    for task in sorted({str(item["task"]) for item in labelled}):
        classes = question(task).labels
        judged = {str(i["id"]): str(i["label"]) for i in judge_agreement(rules, labelled, task)["items"]}
        items = [item for item in labelled if item["task"] == task]
        ids = [str(item["id"]) for item in items]
        gold = [str(item["gold"]) for item in items]
        other = [second[i] for i in ids]
        people = agreement(gold, other, classes)
        both = [(g, judged[i]) for i, g, o in zip(ids, gold, other, strict=True) if g == o]
        result["questions"][task] = {
            "n": len(items),
            "people_agree": sum(g == o for g, o in zip(gold, other, strict=True)),
            "people_kappa": people["kappa"],
            "people_kappa_ci": list(kappa_interval(gold, other, classes, decided_only=True)),
            "people_confusion": people["confusion"],
            "labels": people["labels"],
            "rules_vs_gold": _decided_kappa(gold, [judged[i] for i in ids], classes),
            "rules_vs_second": _decided_kappa(other, [judged[i] for i in ids], classes),
            "rules_where_people_agree": _decided_kappa([g for g, _ in both], [j for _, j in both], classes),
            "rules_unknown_where_people_disagree": sum(
                judged[i] == UNKNOWN for i, g, o in zip(ids, gold, other, strict=True) if g != o
            ),
        }
    return result


def _row(name: str, part: dict[str, Any]) -> str:
    low, high = part["kappa_decided_ci"]
    kappa = f"{part['kappa_decided']:.2f} ({low:.2f}-{high:.2f})"
    return f"  {name:26s} n {part['n']:3d}  coverage {part['coverage']:.2f}  kappa {kappa}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("labelled", type=Path, help="the frozen labelled set (its gold labels)")
    parser.add_argument("second", type=Path, help="JSONL of {id, label}: the second annotator's labels")
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    parser.add_argument(
        "--judge", default="rules", help="`rules` (gated, the default) or `rules-ungated` (the rules alone)"
    )
    args = parser.parse_args()
    result = compare(args.labelled, args.second, args.judge)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(
        f"{result['labelled']} (gold) against {result['second']} (second annotator); judge {result['judge']}"
    )
    if result["in_sample_for_gate"]:
        print(
            f"note: {result['labelled']} trains the rules' gate (rule_gate.TRAINING_SETS), so the rules' "
            "figures below are in-sample; --judge rules-ungated reads the rules alone"
        )
    for task, q in result["questions"].items():
        low, high = q["people_kappa_ci"]
        kappa = f"{q['people_kappa']:.2f} ({low:.2f}-{high:.2f})"
        print(f"{task}: people agree on {q['people_agree']} of {q['n']}, kappa {kappa}")
        print(_row("rules vs gold", q["rules_vs_gold"]))
        print(_row("rules vs second", q["rules_vs_second"]))
        print(_row("rules where people agree", q["rules_where_people_agree"]))
        disagree = q["n"] - q["people_agree"]
        abstain = q["rules_unknown_where_people_disagree"]
        print(f"  rules abstain on {abstain} of the {disagree} items people disagree on")


if __name__ == "__main__":
    main()
