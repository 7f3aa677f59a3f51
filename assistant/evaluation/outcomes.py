"""Whether each record of a run is right, wrong or an error, and its gold and judged labels: what the
example browser, `whichone bench show` and `whichone bench compare` slice a run by.

`outcome` applies the task's own rule (its paper's module says it, with the rules its metrics count as
correct); an "unknown" judgement is wrong, as the metrics count it, a record without a response is an
"error" (there is nothing to be wrong about), and a response no judge looked at (a run with `--judge none`)
is "unjudged": not known to be wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assistant.evaluation.benchmark import Task
from assistant.evaluation.records import UNKNOWN, ResponseRecord

RIGHT, WRONG, ERROR, UNJUDGED = "right", "wrong", "error", "unjudged"


def outcome(task: Task, record: ResponseRecord, gold_masks: Sequence[dict[str, Any]] | None = None) -> str:
    """ "right" / "wrong" / "error" / "unjudged" for one record, by the task's own rule
    (`Scoring.is_right`); `gold_masks` (COCO RLE) only where the task compares masks."""
    if not record.answered:
        return ERROR
    key = task.scoring.judged_label
    if key is not None and key not in record.judgement and f"{key}_error" not in record.judgement:
        return UNJUDGED  # no judge looked (a judge that failed is "unknown": wrong, as the metrics count)
    return RIGHT if task.scoring.is_right(record, gold_masks or []) else WRONG


def judged_label(task: Task, record: ResponseRecord) -> str | None:
    """The label the judging gave the record's response ("A", "clarify", "ambiguous", ...), or None."""
    key = task.scoring.judged_label
    if key is None or not record.answered:
        return None
    return str(record.judgement.get(key, UNKNOWN))


def gold_label(task: Task, record: ResponseRecord) -> str | None:
    """The gold label a judged label is compared with, in the same words, or None where the task has none
    per record (RAcQUEt: every question is ambiguous; the classes are not right or wrong one by one)."""
    return task.scoring.gold_label(record)
