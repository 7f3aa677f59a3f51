"""A finished run, opened again: any folder with `responses.jsonl` and `summary.json` (from the CLI, the tab,
another machine, a server model), read without rerunning anything, sliced, exported and compared.

`Run.open(folder)` reads it once; `Run.slice(Slice(...))` gives the indices of the records that match;
`Run.counts()` says how many each slice value has; `compare(a, b)` pairs two runs' records on the same
example and prompt and says where their judgements agree. `whichone bench show` and `whichone bench
compare` print these (ui/cli/bench.py).
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.errors import WhichoneError
from assistant.evaluation.benchmark import RunItem
from assistant.evaluation.datasets import load_dataset
from assistant.evaluation.outcomes import ERROR, gold_label, judged_label, outcome
from assistant.evaluation.papers import judge_questions
from assistant.evaluation.records import UNKNOWN, ResponseRecord, RunSummary
from assistant.evaluation.schema import Example, ImageRef
from assistant.evaluation.tasks import Task, Variant, get_task


class RunNotReadable(WhichoneError):
    """The folder is not a finished run (no responses.jsonl / summary.json, or they cannot be read)."""


@dataclass(frozen=True)
class Slice:
    """Which records to keep; a field left None keeps all. `word` matches the question or the reply, case
    insensitive. `unknown`: only records some judging left "unknown"."""

    model: str | None = None
    variant: str | None = None
    gold: str | None = None
    judged: str | None = None
    outcome: str | None = None
    unknown: bool = False
    word: str | None = None

    def describe(self) -> str:
        parts = [f"{k} {v}" for k, v in vars(self).items() if v not in (None, False)]
        return ", ".join(parts) or "all records"


@dataclass
class Run:
    folder: Path
    task: Task
    summary: dict[str, Any]
    records: list[ResponseRecord]
    outcomes: list[str] = field(default_factory=list)
    golds: list[str | None] = field(default_factory=list)
    judged: list[str | None] = field(default_factory=list)

    @classmethod
    def open(cls, folder: str | Path) -> Run:
        """The run in `folder` (its responses.jsonl and summary.json); RunNotReadable says what is wrong."""
        root = Path(folder)
        responses, summary_file = root / "responses.jsonl", root / "summary.json"
        if not responses.is_file() or not summary_file.is_file():
            raise RunNotReadable(f"{root} is not a finished run: it needs responses.jsonl and summary.json")
        try:
            summary = json.loads(summary_file.read_text(encoding="utf-8"))
            lines = responses.read_text(encoding="utf-8").splitlines()
            records = [ResponseRecord.from_json(json.loads(line)) for line in lines if line.strip()]
        except (OSError, ValueError, TypeError) as exc:
            raise RunNotReadable(f"{root}: cannot read the run ({exc})") from exc
        try:
            task = get_task(str(summary.get("task")))
        except KeyError as exc:
            raise RunNotReadable(f"{root}: summary.json names no known task ({exc.args[0]})") from None
        return cls(root, task, summary, records)

    def __post_init__(self) -> None:
        # localisation outcomes need the gold masks, which only the dataset has: with_gold_masks adds them
        self.outcomes = [outcome(self.task, r) for r in self.records]
        self.golds = [gold_label(self.task, r) for r in self.records]
        self.judged = [judged_label(self.task, r) for r in self.records]

    def with_gold_masks(self, masks: Mapping[str, Sequence[dict[str, Any]]]) -> None:
        """Outcomes again with the examples' gold masks (COCO RLE, by Example.key): localisation records
        are right or wrong by their overlap with them."""
        if self.task.scoring.gold_masks_field is not None:
            self.outcomes = [outcome(self.task, r, masks.get(r.key, [])) for r in self.records]

    def examples(self, keys: set[str] | None = None) -> tuple[dict[str, Example], str]:
        """The run's examples by key (or those of `keys`), loaded again from the dataset its summary names
        (their images and gold regions), and a note saying why when they cannot be had ({} then)."""
        wanted = keys if keys is not None else {r.key for r in self.records}
        data = self.summary.get("data")
        try:
            loaded = load_dataset(
                str(self.summary.get("dataset") or self.task.dataset),
                None if data in (None, "", "published") else str(data),
                self.summary.get("split") or self.task.split,
            )
        except WhichoneError as exc:
            return {}, f"its examples cannot be loaded again ({exc}), so images and gold regions are missing"
        return {e.key: e for e in loaded.examples if e.key in wanted}, ""

    def with_gold_from_dataset(self) -> str:
        """For a localisation run, its outcomes by overlap with the dataset's gold masks; "" or a note
        saying why they could not be had (the outcomes then count every record wrong)."""
        if self.task.scoring.gold_masks_field is None:
            return ""
        examples, note = self.examples()
        self.with_gold_masks({k: self.task.scoring.gold_masks(e) for k, e in examples.items()})
        return note

    def summary_of_results(self) -> RunSummary:
        """summary.json as the report's RunSummary (for the paper-style table and the plots' text)."""
        return RunSummary.from_json(self.summary)

    @property
    def judging(self) -> str | None:
        """The judging task whose labels a person can correct (mark), or None where the task has none."""
        return self.task.scoring.judged_label

    def labels(self) -> tuple[str, ...]:
        """The labels a person can give this run's responses (the judging's own vocabulary)."""
        asked = next((q for q in self.task.judge_questions if q.name == self.judging), None)
        return asked.labels if asked is not None else ()

    def crosstab(self, indices: Sequence[int] | None = None) -> Counter[tuple[str, str]]:
        """(gold label, judged label) -> how many records: the confusion matrix of the run's judged labels
        against gold, over answered records that have both."""
        chosen = range(len(self.records)) if indices is None else indices
        return Counter(
            (g, j) for i in chosen if (g := self.golds[i]) is not None and (j := self.judged[i]) is not None
        )

    def slice(self, chosen: Slice) -> list[int]:
        """Indices of the records in `chosen`, in file order."""
        word = chosen.word.lower() if chosen.word else None
        keep = []
        for i, r in enumerate(self.records):
            if chosen.model is not None and r.model != chosen.model:
                continue
            if chosen.variant is not None and r.variant != chosen.variant:
                continue
            if chosen.gold is not None and self.golds[i] != chosen.gold:
                continue
            if chosen.judged is not None and self.judged[i] != chosen.judged:
                continue
            if chosen.outcome is not None and self.outcomes[i] != chosen.outcome:
                continue
            if chosen.unknown and not any(v == UNKNOWN for v in r.judgement.values()):
                continue
            if word is not None and word not in f"{r.question}\n{r.response or ''}".lower():
                continue
            keep.append(i)
        return keep

    def counts(self, indices: Sequence[int] | None = None) -> dict[str, Counter[str]]:
        """How many of the records (all, or `indices`) have each outcome, judged label, gold label, prompt
        and model: the size of every slice one step from here."""
        chosen = range(len(self.records)) if indices is None else indices
        out: dict[str, Counter[str]] = {
            k: Counter() for k in ("outcome", "judged", "gold", "variant", "model")
        }
        for i in chosen:
            out["outcome"][self.outcomes[i]] += 1
            out["judged"][self.judged[i] or "-"] += 1
            out["gold"][self.golds[i] or "-"] += 1
            out["variant"][self.records[i].variant] += 1
            out["model"][self.records[i].model] += 1
        return out

    def rows(self, indices: Sequence[int]) -> list[dict[str, Any]]:
        """The records `indices` as flat rows for a table or an export (with the image's source)."""
        rows = []
        for i in indices:
            r = self.records[i]
            rows.append(
                {
                    "id": r.id,
                    "model": r.model,
                    "variant": r.variant,
                    "question": r.question,
                    "response": r.response or "",
                    "error": r.error or "",
                    "gold": self.golds[i] or "",
                    "judged": self.judged[i] or "",
                    "outcome": self.outcomes[i],
                    "image": r.image,
                }
            )
        return rows


def find_runs(roots: Sequence[Path], limit: int = 12) -> list[Path]:
    """Finished run folders (responses.jsonl + summary.json) under `roots`, newest first, at most `limit`."""
    found: dict[Path, float] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for summary in root.rglob("summary.json"):
            folder = summary.parent
            if (folder / "responses.jsonl").is_file():
                try:
                    found[folder.resolve()] = summary.stat().st_mtime
                except OSError:  # deleted while looking
                    continue
    return sorted(found, key=lambda f: found[f], reverse=True)[:limit]


def export(rows: Sequence[dict[str, Any]], path: str | Path) -> Path:
    """Write rows as CSV (`.csv`) or JSON lines (`.jsonl`)."""
    target = Path(path)
    if target.suffix not in (".csv", ".jsonl"):
        raise WhichoneError(f"export to a .csv or .jsonl file, not {target.name}")
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.suffix == ".jsonl":
        target.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        return target
    with target.open("w", newline="", encoding="utf-8") as handle:
        fields = list(rows[0]) if rows else ["id"]
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return target


LABELS_FILE = "labels.jsonl"  # beside a run's responses.jsonl: judgements a person corrected


def item_of(task: Task, record: ResponseRecord) -> RunItem:
    """A finished run's record as the item it was made from (its example from the record's own fields,
    without the image), for what reads items: the task's judge input."""
    example = Example(
        record.id,
        ImageRef("path", record.image or "-"),
        record.question,
        record.source,
        record.split,
        record.gold,
    )
    try:
        variant = task.variant(record.variant)
    except KeyError:  # a prompt the task no longer has: its name is all there is
        variant = Variant(record.variant, record.variant, "")
    return RunItem(example, variant, record.model, record.response, list(record.turns or []))


def mark(
    run: Run, record_id: str, label: str, *, variant: str | None = None, judging: str | None = None
) -> Path:
    """Keep a person's label for one record's response (the judge got it wrong, or right) in the run's
    labels.jsonl, in the format `whichone judge-agreement --labelled` reads: inspection becomes held-out
    labels. `judging` defaults to the task's main judging task."""
    judging = judging or run.judging
    asked = judge_questions().get(judging or "")  # a name: the task's own, or one given on the command line
    if judging is None or asked is None:
        raise WhichoneError(f"task {run.task.name} has no judging to label; name one with --judging")
    if label not in asked.labels:
        raise WhichoneError(f"{judging} labels are {', '.join(asked.labels)}; not {label!r}")
    found = [r for r in run.records if r.id == record_id and (variant is None or r.variant == variant)]
    if not found:
        raise WhichoneError(f"no record {record_id!r}" + (f" with prompt {variant!r}" if variant else ""))
    if len(found) > 1:
        prompts = ", ".join(r.variant for r in found)
        raise WhichoneError(f"record {record_id!r} was asked with several prompts ({prompts}): add --variant")
    record = found[0]
    if not record.answered:
        raise WhichoneError(f"record {record_id!r} has no response to label ({record.error})")
    item: dict[str, Any] = {
        "id": f"{run.folder.name}/{record.id}/{record.variant}",
        "task": judging,
        # what the task's judge reads for this question (its scoring says: the question as the model saw
        # it, a hint, a reference answer, the bias category...), so a judge can be measured on it again
        **run.task.scoring.judge_input(judging, item_of(run.task, record)),
        "gold": label,
        "judged": record.judgement.get(judging, UNKNOWN),
        "source": f"marked in {run.folder}",
    }
    path = run.folder / LABELS_FILE
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(item, ensure_ascii=False) + "\n")
    return path


@dataclass
class Comparison:
    """Two runs on the same items: the pairs (index in a, index in b) and where their judgements differ."""

    a: Run
    b: Run
    pairs: list[tuple[int, int]]
    only_a: int
    only_b: int

    def disagreements(self) -> list[tuple[int, int]]:
        """Pairs whose judgements differ: any label a record carries (the class, a CoT mention, PASS, a
        direct judgement), its main label, or its outcome (localisation has no label: its outcome)."""
        a, b = self.a, self.b
        return [
            (i, j)
            for i, j in self.pairs
            if a.judged[i] != b.judged[j]
            or a.outcomes[i] != b.outcomes[j]
            or judgement_labels(a.records[i]) != judgement_labels(b.records[j])
        ]

    def differing_judgings(self) -> Counter[str]:
        """How many paired records differ in each judgement ("racquet_cot 3")."""
        found: Counter[str] = Counter()
        for i, j in self.pairs:
            la, lb = judgement_labels(self.a.records[i]), judgement_labels(self.b.records[j])
            found.update(k for k in sorted(set(la) | set(lb)) if la.get(k) != lb.get(k))
        return found

    def outcome_changes(self) -> Counter[str]:
        """ "right -> wrong" and the like, over the paired records."""
        return Counter(f"{self.a.outcomes[i]} -> {self.b.outcomes[j]}" for i, j in self.pairs)

    def lines(self) -> list[str]:
        agree = len(self.pairs) - len(self.disagreements())
        out = [
            f"{len(self.pairs)} records on the same example and prompt ({self.only_a} only in A, "
            f"{self.only_b} only in B); judged alike on {agree}, differ on {len(self.pairs) - agree}",
            "outcomes: " + ", ".join(f"{k} {n}" for k, n in sorted(self.outcome_changes().items())),
        ]
        per = self.differing_judgings()
        if per:
            out.append("judgements that differ: " + ", ".join(f"{k} {n}" for k, n in sorted(per.items())))
        return out


# a record's judgement keys that say how a label was made, not a label
_JUDGEMENT_DETAILS = ("_reason", "_judge", "_text", "_prompt", "_path", "_error")


def judgement_labels(record: ResponseRecord) -> dict[str, object]:
    """Every label a record's judgement carries ({"racquet_class": "A", "racquet_cot": "YES", ...})."""
    return {
        k: v
        for k, v in record.judgement.items()
        if not k.endswith(_JUDGEMENT_DETAILS) and isinstance(v, (str, int, float, bool))
    }


def compare(a: Run, b: Run) -> Comparison:
    """Pair the records of two runs of the same task by example and prompt (by example alone when the
    prompts differ, e.g. two prompts compared), each record used once, in file order."""
    if a.task.name != b.task.name:
        raise WhichoneError(f"the runs are of different tasks ({a.task.name}, {b.task.name})")
    same_prompts = {r.variant for r in a.records} == {r.variant for r in b.records}

    def key(r: ResponseRecord) -> tuple[str, ...]:
        return (r.key, r.variant) if same_prompts else (r.key,)

    waiting: dict[tuple[str, ...], list[int]] = {}
    for j, r in enumerate(b.records):
        waiting.setdefault(key(r), []).append(j)
    pairs = []
    for i, r in enumerate(a.records):
        candidates = waiting.get(key(r))
        if candidates:
            pairs.append((i, candidates.pop(0)))
    return Comparison(a, b, pairs, len(a.records) - len(pairs), sum(len(v) for v in waiting.values()))


__all__ = [
    "ERROR",
    "Comparison",
    "Run",
    "RunNotReadable",
    "Slice",
    "compare",
    "export",
    "find_runs",
    "mark",
]
