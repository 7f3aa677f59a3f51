"""Labelled responses: the one reader of a labelled JSONL set (judge-agreement, the printed agreement, the
rules' gate), each line checked against its judge question."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assistant.evaluation.judgement import JudgeError, check_item
from assistant.evaluation.papers import DEFAULT_LABELLED, DEFAULT_QUESTION, judge_questions


def load_labelled(path: str | Path | None = None) -> list[dict[str, Any]]:
    """Labelled responses from a JSONL file: one {"task", "question", "response", "gold", ...} per line."""
    path = Path(path) if path is not None else DEFAULT_LABELLED
    if not path.is_file():
        raise JudgeError(f"no labelled file at {path}")
    known = judge_questions()
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            raise JudgeError(f"{path.name} line {number}: not JSON") from None
        if not isinstance(obj, dict):
            raise JudgeError(f"{path.name} line {number}: expected a JSON object")
        task = obj.setdefault("task", DEFAULT_QUESTION)
        asked = known.get(task)
        if asked is None:
            raise JudgeError(f"{path.name} line {number}: unknown task {task!r}")
        labels = asked.labels
        if obj.get("gold") not in labels:
            raise JudgeError(f"{path.name} line {number}: gold {obj.get('gold')!r} is not one of {labels}")
        try:
            check_item(asked, obj)
        except JudgeError as exc:
            raise JudgeError(f"{path.name} line {number}: {exc}") from None
        records.append(obj)
    return records
