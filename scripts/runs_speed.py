"""How long opening a finished run and changing its slice take: a generated aqua-strategy run of N items
(responses.jsonl + summary.json as the runner writes them), opened with assistant.evaluation.runs.Run and
sliced by a confusion cell, a word and an outcome.

Run: .venv/bin/python scripts/runs_speed.py [--items 5000]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.evaluation.records import ResponseRecord  # noqa: E402

STRATEGIES = ("answer", "infer", "enumerate", "clarify")


def generated_run(folder: Path, items: int) -> Path:
    """An aqua-strategy run of `items` records: levels in turn, every other one judged right, 1% errors."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for n in range(items):
        level = n % 4
        judged = STRATEGIES[level] if (n // 4) % 2 == 0 else STRATEGIES[(level + 1) % 4]
        error = "model: timed out" if n % 100 == 99 else None
        record = ResponseRecord(
            model="m",
            variant="base",
            id=f"test-{n}",
            source="aqua",
            split="test",
            question=f"What colour is the {'umbrella' if n % 2 else 'cup'}?",
            gold={"level": level},
            response=None if error else f"A reply about the {'umbrella' if n % 2 else 'cup'}.",
            error=error,
            judgement={} if error else {"aqua_strategy": judged, "aqua_strategy_judge": "rules"},
        )
        lines.append(json.dumps(record.to_json()))
    (folder / "responses.jsonl").write_text("\n".join(lines) + "\n")
    (folder / "summary.json").write_text(
        json.dumps({"task": "aqua-strategy", "results": [], "judge_errors": {}})
    )
    return folder


def main() -> None:
    from assistant.evaluation.runs import Run, Slice

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = generated_run(Path(tmp) / "run", args.items)
        start = time.perf_counter()
        run = Run.open(folder)
        opened = time.perf_counter() - start
        timings = []
        for chosen in (
            Slice(gold="clarify", judged="answer"),
            Slice(word="umbrella"),
            Slice(outcome="wrong"),
        ):
            start = time.perf_counter()
            found = run.slice(chosen)
            run.counts(found)
            timings.append((chosen.describe(), len(found), time.perf_counter() - start))
    print(f"open a {args.items}-item run: {opened * 1000:.0f} ms")
    for what, n, seconds in timings:
        print(f"slice {what} ({n} records) and count its slices: {seconds * 1000:.0f} ms")


if __name__ == "__main__":
    main()
