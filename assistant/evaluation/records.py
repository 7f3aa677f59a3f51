"""What a run produces, typed: one `ResponseRecord` per (model, variant, example), one `ResultRow` per
(model, variant), and the run's `RunSummary`. The runner makes them, the papers' metrics and tables read
them, the report writes them (responses.jsonl, summary.json) and the benchmark tab shows them.

The nested parts stay JSON mappings because their shape is their owner's: a record's judgement (labels by
judging task, "<judging>_error" / "_reason" / "_text" ... beside them), the parts its task's kind adds
(assistant.evaluation.kinds: Kind.parts), and a row's metrics (each paper's numbers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from assistant.evaluation.schema import example_key

# A JSON value as the report writes it (records and summaries are JSON on disk).
JSON = Any

UNKNOWN = "unknown"  # a judgement that could not be made: counted and shown as such, never dropped


def json_safe(value: JSON) -> JSON:
    """JSON-safe: NaN / inf become null, tuples lists, dict keys strings."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


@dataclass
class ResponseRecord:
    """One line of responses.jsonl: an example as asked of one model with one prompt variant, its
    response (or the error that stopped it) and what the judging made of it."""

    model: str
    variant: str  # the Variant's name
    id: str
    source: str = ""
    split: str = ""
    image: str = ""  # where the image came from (Example.image.describe())
    question: str = ""
    gold: dict[str, JSON] = field(default_factory=dict)  # Example.gold_for_report()
    turns: list[dict[str, str]] = field(default_factory=list)
    response: str | None = None
    error: str | None = None  # why the model gave no response ("model: ...", "example 3: ...")
    # {judging task: label} plus "<judging>_reason" / "_judge" / "_text" (a judge model's whole reply) /
    # "_prompt" / "_error" (scoring.audit), and the direct judgements
    # (each task's own: Scoring.direct)
    judgement: dict[str, JSON] = field(default_factory=dict)
    # what the task's kind adds (Kind.parts), by name; each is written beside the response in the JSON line
    parts: dict[str, JSON] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The key of the example this record is about (Example.key)."""
        return example_key(self.source, self.split, self.id)

    @property
    def answered(self) -> bool:
        return self.error is None and self.response is not None

    def judged(self, judging: str) -> JSON:
        """The judgement `judging` made, or "unknown" when none was."""
        return self.judgement.get(judging, UNKNOWN)

    def failed_judgings(self) -> list[str]:
        """The judging tasks whose judge call failed for this record (they count as unknown)."""
        return [k.removesuffix("_error") for k in self.judgement if k.endswith("_error")]

    def to_json(self) -> dict[str, JSON]:
        """The responses.jsonl line: the record's fields, then the kind's parts, each under its own name."""
        out = asdict(self)
        out.update(out.pop("parts"))
        return json_safe(out)

    @classmethod
    def from_json(cls, line: Mapping[str, JSON]) -> ResponseRecord:
        """A responses.jsonl line back as a record (a mapping under a name that is no field is a part;
        other unknown keys are ignored, missing ones defaulted)."""
        known = {f.name for f in fields(cls)} - {"parts"}
        parts = {k: v for k, v in line.items() if k not in known and isinstance(v, dict)}
        return cls(**{k: v for k, v in line.items() if k in known}, parts=parts)


@dataclass(frozen=True)
class ResultRow:
    """One (model, variant) of a run's summary: its paper's numbers and what they were made from."""

    model: str
    variant: str
    label: str  # the variant as the paper's table writes it
    n: int  # items
    errors: int  # items the model did not answer
    judge_errors: int  # answered items a judging failed for (they count as unknown)
    metrics: dict[str, JSON]  # the paper's numbers (assistant/evaluation/papers/<paper>.py)

    def to_json(self) -> dict[str, JSON]:
        return json_safe(asdict(self))


@dataclass
class RunSummary:
    """summary.json, less its "run" facts (calls, hits, seconds, which differ between a run and its rerun):
    the results and everything that says how they were made."""

    results: list[ResultRow]
    judge_errors: dict[str, int]  # {judging: how many records it failed for}
    task: str = ""
    reproduces: str = ""
    dataset: str = ""
    split: str | None = None
    data: str = "published"  # the --data file, or the published dataset
    models: list[str] = field(default_factory=list)
    judge: str | None = None
    judge_agreement: list[dict[str, JSON]] = field(default_factory=list)  # judges.measured_agreement
    judge_paths: dict[str, dict[str, int]] = field(default_factory=dict)  # scoring.decided_by
    provenance: dict[str, JSON] = field(default_factory=dict)  # evaluation.provenance: code, libraries
    variants: list[str] = field(default_factory=list)
    n_examples: int = 0
    limit: int | None = None
    seed: int = 0
    settings: dict[str, JSON] = field(default_factory=dict)
    pointer: str | None = None  # tasks that use a pointer only

    def to_json(self) -> dict[str, JSON]:
        out = asdict(self)
        out["results"] = [row.to_json() for row in self.results]
        if self.pointer is None:
            del out["pointer"]
        return json_safe(out)

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> RunSummary:
        """summary.json back as a summary (its "run" facts and unknown keys are ignored)."""
        known = {f.name for f in fields(cls)} - {"results"}
        row_fields = {f.name for f in fields(ResultRow)}
        rows = [ResultRow(**{k: v for k, v in r.items() if k in row_fields}) for r in data.get("results", [])]
        values = {k: v for k, v in data.items() if k in known}
        values.setdefault("judge_errors", {})
        return cls(results=rows, **values)
