"""The toy paper: its dataset (a jsonl of photo pairs with a number of squares), its task (asked with both
pictures: its own kind, kinds.py), how a response is scored (the first number it says, and a judge
question of its own with its rules), its aggregation, its table and its class bars.

Gold fields: "count" (how many squares the two photos show together).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from assistant.evaluation.benchmark import (
    Bar,
    Layout,
    MetricsContext,
    Paper,
    RunItem,
    Scoring,
    Task,
    Variant,
    default_judge_input,
)
from assistant.evaluation.dataset_base import DatasetLoad, DatasetSpec, DatasetUnavailable, read_jsonl
from assistant.evaluation.judgement import UNKNOWN, JudgeItem, Judgement, JudgeQuestion
from assistant.evaluation.records import ResponseRecord, RunSummary
from assistant.evaluation.schema import Example, ImageRef
from models.base import GenerationSettings
from tests.toy_paper.kinds import SECOND, TWO_PICTURES

DATASET = "toy-squares"
TASK = "toy-count"
_WORDS = {
    w: n
    for n, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    )
}
_NUMBER = re.compile(r"\b(\d+|" + "|".join(_WORDS) + r")\b", re.IGNORECASE)


# ------------------------------------------------------------------------------------------ data


def _squares(path: Path, count: int) -> None:
    image = Image.new("RGB", (160, 120), "white")
    draw = ImageDraw.Draw(image)
    for k in range(count):
        x = 8 + 36 * k
        draw.rectangle((x, 40, x + 28, 68), fill=(200, 30, 30))
    image.save(path)


def write_sample(
    folder: Path, counts: Sequence[tuple[int, int]] = ((1, 0), (1, 1), (2, 1), (3, 1), (1, 1), (0, 1))
) -> Path:
    """photos/<i>a.png and <i>b.png with their counts of red squares, and squares.jsonl, one line per pair."""
    (folder / "photos").mkdir(parents=True, exist_ok=True)
    lines = []
    for i, (first, second) in enumerate(counts):
        _squares(folder / "photos" / f"{i}a.png", first)
        _squares(folder / "photos" / f"{i}b.png", second)
        pair = {"photo": f"photos/{i}a.png", "second_photo": f"photos/{i}b.png"}
        lines.append({"id": f"sq{i}", **pair, "count": first + second})
    table = folder / "squares.jsonl"
    table.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return table


def load_squares(data: str | Path | None, split: str) -> DatasetLoad:
    if data is None:
        raise DatasetUnavailable(f"{DATASET} has no published copy: pass a folder made by write_sample")
    folder = Path(data)
    table = folder / "squares.jsonl" if folder.is_dir() else folder
    notes: list[str] = []
    examples = [
        Example(
            str(rec["id"]),
            ImageRef("path", str(table.parent / rec["photo"])),
            "How many squares are in the two pictures together?",
            DATASET,
            split,
            {"count": int(rec["count"])},
            {SECOND: str(table.parent / rec["second_photo"])},
        )
        for _, rec in read_jsonl(table, notes)
    ]
    return DatasetLoad(DATASET, split, examples, notes)


DATASETS = (DatasetSpec(DATASET, ("all",), "all", "(a test fixture)", load_squares),)


# ------------------------------------------------------------------------------------------ scoring


def said_count(response: str) -> int | None:
    """The first number a response says, in digits or in words; None when it says none."""
    found = _NUMBER.search(response)
    if found is None:
        return None
    word = found.group(1).lower()
    return int(word) if word.isdigit() else _WORDS[word]


def _counted(item: RunItem, judged: bool) -> dict[str, Any]:
    count = said_count(item.response or "")
    return {"count": "unknown" if count is None else str(count)}


def _agreement_rules(item: JudgeItem, response: str) -> Judgement:
    said = said_count(response)
    if said is None:
        return Judgement(UNKNOWN, reason="says no number")
    wanted = int(str(item["count"]))
    label = "agrees" if said == wanted else "disagrees"
    return Judgement(label, reason=f"says {said}, the photo has {wanted}")


def _agreement_input(question: str, item: RunItem) -> dict[str, Any]:
    return {**default_judge_input(question, item), "count": item.example.gold["count"]}


# a judge question of its own: labels, rubric (the app's plain answer prompt stands in), parser and rules
AGREES = JudgeQuestion(
    name="toy_count_agrees",
    labels=("agrees", "disagrees"),
    title="count agreement",
    prompt="answer",
    max_new_tokens=8,
    fields=("question", "response", "count"),
    parse=lambda text: (
        "disagrees" if "disagree" in text.lower() else "agrees" if "agree" in text.lower() else UNKNOWN
    ),
    rules=_agreement_rules,
)

COUNT = Scoring(
    name="count",
    right_means="the first number the response says is the number of squares in both pictures",
    is_right=lambda record, gold_masks: record.judgement.get("count") == str(record.gold.get("count")),
    direct=_counted,
    asks=(AGREES,),
    judge_input=_agreement_input,
    judged_label="count",
    gold_label=lambda record: str(record.gold["count"]) if "count" in record.gold else None,
)


# ------------------------------------------------------------------------------------------ aggregation


def _accuracy(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    n = len(records)
    right = sum(COUNT.is_right(r, []) for r in records)
    unknown = sum(r.judgement.get("count") == "unknown" for r in records)
    return {
        "n": n,
        "accuracy": right / n if n else None,
        "right": right / n if n else None,
        "wrong": (n - right - unknown) / n if n else None,
        "unknown": unknown / n if n else None,
    }


def _layout(task: Task, summary: RunSummary) -> Layout:
    rows = [
        [r.model, r.label, "-" if r.metrics.get("accuracy") is None else f"{100 * r.metrics['accuracy']:.0f}"]
        for r in summary.results
    ]
    return "Squares counted right (%)", ["Model", "Prompt", "Accuracy"], rows, []


SEGMENTS = (("right", "Right"), ("wrong", "Wrong"), ("unknown", "No number"), ("none", "-"))


def _bars(summary: RunSummary) -> tuple[tuple[tuple[str, str], ...], list[Bar]]:
    bars = [
        Bar(f"{r.model} ({r.label})", tuple(r.metrics.get(k) for k, _ in SEGMENTS))
        for r in summary.results
        if r.metrics.get("n")
    ]
    return SEGMENTS, bars


TASKS = (
    Task(
        name=TASK,
        description="Count the squares: the first number in the reply against the photo's count",
        dataset=DATASET,
        kind=TWO_PICTURES,
        variants=(Variant("plain", "Plain question", "answer"),),
        scoring=COUNT,
        aggregate=_accuracy,
        layout=_layout,
        reproduces="a test fixture (no paper)",
        default_judge="rules",
        plots=("class-bars",),
        bars=_bars,
        settings=GenerationSettings(max_new_tokens=16, temperature=0.0),
    ),
)

PAPER = Paper(
    name="toy-squares", title="Squares (a test fixture)", datasets=DATASETS, tasks=TASKS, questions=(AGREES,)
)
