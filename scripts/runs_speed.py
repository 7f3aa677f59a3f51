"""How long opening a finished run and changing its slice take: a generated aqua-strategy run of N items
(responses.jsonl + summary.json as the runner writes them), opened with assistant.evaluation.runs.Run and
sliced by a confusion cell, a word and an outcome; then the Benchmark tab's own work on it (the view, the
slice radios' counts, the Slices panel, a page of a slice); with --url, the whole round trip in a browser
(Debian's Chromium) against a running app: Open run until the status says so, and a slice radio until
the position line shows the slice.

Run: .venv/bin/python scripts/runs_speed.py [--items 5000] [--url http://127.0.0.1:7860]
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
    parser.add_argument("--url", help="a running app: time the tab in Chromium too")
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
        tab_timings(run)
        if args.url:
            browser_timings(args.url, folder, args.items)


def tab_timings(run) -> None:  # noqa: ANN001 - a Run
    """The tab's server-side work: the view, the radios' counts and the Slices panel, then one page."""
    from assistant.evaluation.runs import Slice
    from ui.bench_browser import BenchView
    from ui.bench_inspect import page
    from ui.bench_slices import choices, slices_html

    start = time.perf_counter()
    view = BenchView.of_run(run, {})
    choices(view)
    panel = slices_html(view)
    built = time.perf_counter() - start
    print(
        f"tab: view, slice counts and Slices panel ({len(panel) // 1024} KiB of HTML): {built * 1000:.0f} ms"
    )
    start = time.perf_counter()
    page(view, 3, Slice(gold="clarify", judged="answer"), False)
    print(
        f"tab: page 3 of the slice gold clarify, judged answer: {(time.perf_counter() - start) * 1000:.0f} ms"
    )


def browser_timings(url: str, folder: Path, items: int) -> None:
    """Open the run in the tab and change a slice, in Chromium, as a person does (Enter, a radio)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        page.set_default_timeout(120_000)
        page.goto(url)
        page.get_by_role("tab", name="Benchmark").click()
        box = page.locator("#wh-bench-folder input, #wh-bench-folder textarea").first
        box.fill(str(folder))
        start = time.perf_counter()
        box.press("Enter")
        page.wait_for_function(
            "n => (document.querySelector('#wh-bench-position .wh-status')?.innerText || '')"
            ".startsWith(`Example 1 of ${n} (all)`)",
            arg=items,
        )
        print(
            f"browser: Open run until the first example shows: {(time.perf_counter() - start) * 1000:.0f} ms"
        )
        start = time.perf_counter()
        page.locator("#wh-bench-outcome label").filter(has_text="wrong").click()
        page.wait_for_function(
            "() => (document.querySelector('#wh-bench-position .wh-status')?.innerText || '')"
            ".includes('(outcome wrong)')"
        )
        took = (time.perf_counter() - start) * 1000
        print(f"browser: outcome wrong until its first example shows: {took:.0f} ms")
        browser.close()


if __name__ == "__main__":
    main()
