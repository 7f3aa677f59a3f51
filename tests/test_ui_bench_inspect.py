"""Inspecting finished runs in the Benchmark tab (issue 24), in Debian's Chromium against the real app:
runs made by the CLI (`whichone bench ...`, a subprocess, on the bundled samples) are opened by their
folder without asking a model; a cell of the gold-by-judged table is pressed from the keyboard and shows
exactly its records; two models' runs are compared (both replies and judgements side by side, and for
localisation both models' regions drawn over the gold ones, each with alt text); a person's label is kept
and read back by `whichone judge-agreement`; a slice is exported as CSV. axe finds nothing serious or
critical in the slice and side-by-side views.

Expected values are read from the runs' own responses.jsonl, not from the code under test.
Set WHICHONE_SCREENSHOTS=<folder> to save the slice and side-by-side views (bench_slice.png,
bench_compare.png, bench_compare_regions.png).
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.bench_page import wait_position
from tests.test_ui_a11y import scan
from tests.ui_support import CHROMIUM, REPO, launch_chromium, pick_radio, running_app, screenshot_dir

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}"),
]
sync_api = pytest.importorskip("playwright.sync_api")

TIMEOUT_MS = 60_000
STRATEGY_OF_LEVEL = {0: "answer", 1: "infer", 2: "enumerate", 3: "clarify"}
APP: dict[str, str] = {}  # the running app's URL


def whichone(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {"WHICHONE_CACHE_DIR": str(cache), "WHICHONE_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", *args],
        cwd=REPO, env={**os.environ, **env}, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


@pytest.fixture(scope="module")
def cli_runs(bench_cache_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Four runs made by the CLI on the bundled samples: aqua-strategy with two tiny models, and
    focus-localisation (the focus-phrase prompt, boxes) with two pointers."""
    root = tmp_path_factory.mktemp("cli-runs")
    made = {
        "aq-tiny": ["aqua-strategy", "--model", "tiny", "--max-new-tokens", "8"],
        "aq-smol": ["aqua-strategy", "--model", "smolvlm-tiny", "--max-new-tokens", "8"],
        "loc-blobs": ["focus-localisation", "--model", "blobs", "--variant", "focus-phrase"],
        "loc-owl": ["focus-localisation", "--model", "owlvit-random-tiny", "--variant", "focus-phrase"],
    }
    for name, args in made.items():
        # the tiny models' replies are noise the rules may read none of: these runs are for the browser
        extra = ["--data", "sample", "--out", str(root / name), "--no-progress", "--max-unknown-rate", "1"]
        if args[0] == "focus-localisation":
            extra += ["--segmenter", "none"]
        done = whichone("bench", "run", *args, *extra, cache=bench_cache_root)
        assert done.returncode == 0, done.stderr[-2000:]
    return {name: root / name for name in made}


@pytest.fixture(scope="module")
def page(bench_cache_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    with running_app(WHICHONE_CACHE_DIR=str(bench_cache_root)) as url, sync_api.sync_playwright() as p:
        context = launch_chromium(p, tmp_path_factory.mktemp("profile"), accept_downloads=True)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.get_by_role("tab", name="Benchmark").click()
        page.wait_for_selector("#wh-bench-open")
        APP["url"] = url
        yield page
        context.close()


def records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "responses.jsonl").read_text().splitlines()]


def open_run(page, folder: Path) -> str:
    """Type the folder and press Enter, as a keyboard user does; returns the status line."""
    box = page.locator("#wh-bench-folder input, #wh-bench-folder textarea").first
    box.fill(str(folder))
    box.press("Enter")
    return status_line(page, "Opened the run in " + str(folder))


def status_line(page, start: str) -> str:
    """The status line (its text alone, without Gradio's progress note) once it starts with `start`."""
    page.wait_for_function(
        "s => (document.querySelector('#wh-bench-status .wh-status')?.innerText || '').startsWith(s)",
        arg=start,
    )
    return page.locator("#wh-bench-status .wh-status").inner_text().strip()


def compare_with(page, folder: Path) -> str:
    box = page.locator("#wh-bench-other input, #wh-bench-other textarea").first
    box.fill(str(folder))
    page.locator("#wh-bench-compare").click()
    return status_line(page, "Compared with " + str(folder))


def details(page) -> str:
    return page.locator("#wh-bench-details").inner_text()


def test_open_a_cli_run_and_press_a_confusion_cell_by_keyboard(page, cli_runs) -> None:
    folder = cli_runs["aq-tiny"]
    line = open_run(page, folder)
    assert line.startswith(f"Opened the run in {folder}: aqua-strategy with tiny, 15 answers, data sample.")
    assert "No model was asked." in line
    rows = page.locator("#wh-bench-table table tbody tr").all_inner_texts()
    assert [r.split("\t")[1] for r in rows] == ["Base", "CoT", "Strategy prompting"]
    wait_position(page, "Example 1 of 15 \\(all\\)")

    # the confusion cells, counted from responses.jsonl
    got = records(folder)
    cells = Counter(
        (STRATEGY_OF_LEVEL[r["gold"]["level"]], r["judgement"]["aqua_strategy"])
        for r in got
        if not r["error"]
    )
    buttons = page.locator("#wh-bench-slices table button")
    names = {b.get_attribute("aria-label") for b in buttons.all()}
    assert names == {
        f"gold {g}, judged {j}: {n} record{'s' if n != 1 else ''}" for (g, j), n in cells.items()
    }

    (gold, judged), n = max(cells.items(), key=lambda item: item[1])
    cell = page.locator(f'#wh-bench-slices button[aria-label^="gold {gold}, judged {judged}:"]')
    cell.focus()
    page.keyboard.press("Enter")
    shown = wait_position(page, f"of {n} \\(gold {gold}, judged {judged}\\)")
    assert shown.startswith(f"Example 1 of {n} (gold {gold}, judged {judged}).")
    assert page.evaluate("() => document.activeElement?.getAttribute('aria-label') || ''").startswith(
        f"gold {gold}, judged {judged}:"
    )  # focus stays on the pressed cell
    assert page.locator("#wh-bench-gold input:checked").get_attribute("value") == gold
    assert page.locator("#wh-bench-judged input:checked").get_attribute("value") == judged
    wanted = [
        r
        for r in got
        if STRATEGY_OF_LEVEL[r["gold"]["level"]] == gold and r["judgement"]["aqua_strategy"] == judged
    ]
    seen = []
    for k in range(1, n + 1):
        wait_position(page, f"Example {k} of {n}")
        text = details(page)
        seen.append(
            text.split("Example id\t")[1].split("\n")[0] + "/" + text.split("Prompt\t")[1].split("\n")[0]
        )
        assert f"aqua_strategy: {judged}" in text
        if k < n:
            page.locator("#wh-bench-next").click()
    assert sorted(seen) == sorted(f"{r['id']}/{r['variant']}" for r in wanted)
    assert scan(page, "benchmark (an opened run, a confusion cell chosen)") == []
    folder_screens = screenshot_dir()
    if folder_screens is not None:
        page.locator("#wh-bench-slices").scroll_into_view_if_needed()
        page.screenshot(path=str(folder_screens / "bench_slice.png"), full_page=True)

    # a word slice, typed and submitted
    word = got[0]["question"].split()[-1].strip("?").lower()
    with_word = [r for r in got if word in (r["question"] + "\n" + (r["response"] or "")).lower()]
    pick_radio(page, "wh-bench-gold", "all")
    pick_radio(page, "wh-bench-judged", "all")
    box = page.locator("#wh-bench-word input, #wh-bench-word textarea").first
    box.fill(word)
    box.press("Enter")
    assert wait_position(page, f"of {len(with_word)} \\(word {word}\\)").startswith("Example 1 of")


def test_compare_two_models_side_by_side(page, cli_runs) -> None:
    a, b = cli_runs["aq-tiny"], cli_runs["aq-smol"]
    open_run(page, a)
    line = compare_with(page, b)
    ra, rb = records(a), records(b)
    theirs = {(r["id"], r["variant"]): r for r in rb}
    differ = [
        r
        for r in ra
        if r["judgement"].get("aqua_strategy")
        != theirs[(r["id"], r["variant"])]["judgement"].get("aqua_strategy")
    ]
    assert f"15 records on the same example and prompt, judged differently on {len(differ)}." in line
    cli = whichone("bench", "compare", str(a), str(b), cache=a.parent)
    assert f"differ on {len(differ)}" in cli.stdout  # the CLI and the tab count the same

    page.locator("#wh-bench-differ input").check()
    if not differ:
        wait_position(page, "No examples in this slice \\(judged differently\\)")
        return
    wait_position(page, f"Example 1 of {len(differ)} \\(judged differently\\)")
    head = page.locator("#wh-bench-details thead").inner_text()
    assert "This run (tiny)" in head and "Compared run (smolvlm-tiny)" in head
    text = details(page)
    first = next(r for r in differ if f"Example id\t{r['id']}\n" in text and f"\t{r['variant']}\n" in text)
    other = theirs[(first["id"], first["variant"])]
    assert (
        f"aqua_strategy: {first['judgement']['aqua_strategy']}" in text
        and f"aqua_strategy: {other['judgement']['aqua_strategy']}" in text
    )
    assert "Judge's reason (aqua_strategy)" in text
    folder_screens = screenshot_dir()
    if folder_screens is not None:
        page.screenshot(path=str(folder_screens / "bench_compare.png"), full_page=True)

    # localisation: both pointers' regions over the same gold regions, each picture with its text twin
    open_run(page, cli_runs["loc-blobs"])
    compare_with(page, cli_runs["loc-owl"])
    page.locator("#wh-bench-image-b img").wait_for()
    alt_a = page.locator("#wh-bench-image img").get_attribute("alt") or ""
    alt_b = page.locator("#wh-bench-image-b img").get_attribute("alt") or ""
    assert alt_a.startswith("Regions of this run (blobs). Benchmark image of example")
    assert alt_b.startswith("Regions of the compared run (owlvit-random-tiny). Benchmark image of example")
    assert "gold focus region(s) outlined" in alt_a and "gold focus region(s) outlined" in alt_b
    assert "union IoU" in details(page)
    assert scan(page, "benchmark (two localisation runs compared)") == []
    if folder_screens is not None:
        page.locator("#wh-bench-image-b").scroll_into_view_if_needed()
        page.screenshot(path=str(folder_screens / "bench_compare_regions.png"))


def test_a_kept_label_is_read_back_by_judge_agreement_and_a_slice_exports(page, cli_runs, tmp_path) -> None:
    folder = cli_runs["aq-smol"]
    (folder / "labels.jsonl").unlink(missing_ok=True)
    open_run(page, folder)
    wait_position(page, "Example 1 of 15")
    first = records(folder)[0]
    judged = first["judgement"]["aqua_strategy"]
    mine = "clarify" if judged != "clarify" else "answer"
    label = page.locator("#wh-bench-label")
    assert f"the judge said {judged}" in label.inner_text()
    pick_radio(page, "wh-bench-label", mine)
    page.locator("#wh-bench-mark").click()
    page.wait_for_function(
        "() => (document.querySelector('#wh-bench-kept')?.innerText || '').includes('Kept')"
    )
    kept = page.locator("#wh-bench-kept").inner_text()
    assert f"Kept your label {mine} for example {first['id']} ({first['variant']}); it differs from" in kept
    command = kept.split("Measure a judge on your labels: ")[1].split()
    assert command[:4] == ["whichone", "judge-agreement", "--judge", "rules"]
    done = whichone(*command[1:], cache=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "judge rules on aqua_strategy: n=1" in done.stdout
    assert (
        f"disagrees: {folder.name}/{first['id']}/{first['variant']}: gold {mine}, judged {judged}"
        in done.stdout
    )

    # export the slice "prompt cot" as CSV: its rows are the run's cot records
    pick_radio(page, "wh-bench-prompt", "cot")
    wait_position(page, "\\(variant cot\\)")
    page.locator("#wh-bench-export").click()
    link = page.locator("#wh-bench-slice-files a[download$='.csv']").first
    link.wait_for()
    href = link.get_attribute("href") or ""
    url = href if href.startswith("http") else APP["url"].rstrip("/") + "/" + href.lstrip("/")
    rows = list(csv.DictReader(io.StringIO(requests.get(url, timeout=30).text)))
    assert [(r["id"], r["variant"]) for r in rows] == [
        (r["id"], r["variant"]) for r in records(folder) if r["variant"] == "cot"
    ]
    assert all(r["image"] for r in rows)
