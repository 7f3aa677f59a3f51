"""axe-core scans of every tab of the real app (Debian's Chromium): no serious or critical violations.

The Ask tab is scanned empty and again with a reply and candidates shown (chat, overlay, options, the
Explain panel open); the Benchmark tab empty, after a run (table, plot, files, example browser) and after
a failed run with the outcome "wrong" chosen. Moderate and minor findings are printed (run with -s to see
them) and, if WHICHONE_A11Y_REPORT is set, written there as JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import bench_page
from tests.ui_support import CHROMIUM, draw_scene, launch_chromium, pick_radio, running_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}"),
]
sync_api = pytest.importorskip("playwright.sync_api")
axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

BLOCKING = {"serious", "critical"}
FINDINGS: dict[str, list[dict]] = {}


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory, bench_cache_root: Path) -> Iterator[object]:
    # the benchmark tab's runs write to the cache dir: the test session's, not the user's
    with running_app(WHICHONE_CACHE_DIR=str(bench_cache_root)) as url, sync_api.sync_playwright() as p:
        context = launch_chromium(p, tmp_path_factory.mktemp("profile"))
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(url)
        page.wait_for_selector("#wh-photo")
        # Scan the page as a user sees it, not half-styled: under load the first scan could run before
        # the theme's fonts and styles were applied (a flaky contrast finding on the empty Ask tab).
        page.wait_for_function(
            "() => document.readyState === 'complete' && document.fonts.status === 'loaded'"
        )
        page.wait_for_timeout(500)
        yield page
        context.close()
    report = os.environ.get("WHICHONE_A11Y_REPORT")
    if report:
        Path(report).write_text(json.dumps(FINDINGS, indent=2))


def wait_until_settled(page) -> None:
    """Wait until no event is in flight: Gradio draws the outputs of a pending event at 20% opacity
    (`.pending`) under a translucent progress overlay, so a scan in that moment finds low contrast
    everywhere (it did once in CI, right after a benchmark run's status line had changed)."""
    page.wait_for_function(
        """() => document.querySelectorAll('.pending, .generating').length === 0
            && [...document.querySelectorAll('[data-testid="status-tracker"]')]
                .every(t => t.classList.contains('hide') || getComputedStyle(t).opacity === '0')"""
    )
    page.wait_for_timeout(300)  # Gradio fades the overlay out


def scan(page, name: str) -> list[dict]:
    wait_until_settled(page)
    results = axe_module.Axe().run(page)
    violations = results.response["violations"]
    FINDINGS[name] = [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": len(v["nodes"]),
            "targets": [n["target"] for n in v["nodes"][:5]],
        }
        for v in violations
    ]
    for v in FINDINGS[name]:
        print(f"[axe {name}] {v['impact']}: {v['id']} ({v['nodes']} nodes) {v['help']} {v['targets']}")
    return [v for v in FINDINGS[name] if v["impact"] in BLOCKING]


def open_tab(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()
    page.wait_for_timeout(300)


def test_ask_tab_empty(page) -> None:
    assert scan(page, "ask (empty)") == []


def test_ask_tab_with_candidates(page, tmp_path: Path) -> None:
    page.locator("#wh-photo input[type=file]").set_input_files(str(draw_scene(tmp_path / "four.png")))
    page.wait_for_function("() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText || '')")
    page.locator("#wh-question textarea, #wh-question input").first.fill("What colour is the square?")
    page.locator("#wh-ask").click()
    page.wait_for_function("() => /Reply ready/.test(document.querySelector('#wh-status')?.innerText || '')")
    page.locator("#wh-explain button").first.click()
    page.wait_for_timeout(300)
    assert page.locator("#wh-options input[type=radio]").count() == 4
    assert scan(page, "ask (with candidates)") == []


def test_ask_tab_after_an_error(page) -> None:
    # nothing chosen: the button is aria-disabled but still pressable; an error line in the chat and status
    page.locator("#wh-choose").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => /Error/.test(document.querySelector('#wh-status')?.innerText || '')")
    assert "Choose one of the options first" in page.locator("#wh-chat").inner_text()
    assert scan(page, "ask (after an error)") == []


def test_settings_tab(page) -> None:
    open_tab(page, "Settings")
    assert page.locator("#wh-loaded").inner_text().strip()
    assert scan(page, "settings") == []


def test_settings_tab_with_the_unavailable_model_banner(page) -> None:
    open_tab(page, "Settings")
    pick_radio(page, "wh-vlm", "smolvlm-256m:")
    page.locator("#wh-apply").click()
    page.locator("#wh-banner [role=alert]").wait_for()
    page.wait_for_timeout(300)
    assert scan(page, "settings (banner shown)") == []


def test_benchmark_tab(page) -> None:
    open_tab(page, "Benchmark")
    page.wait_for_selector("#wh-bench-run")
    assert scan(page, "benchmark") == []


def test_benchmark_tab_after_a_run(page, bench_data) -> None:
    """Table, plot, run files and the example browser (image, details) all shown; then a failed run."""
    open_tab(page, "Benchmark")
    line = bench_page.run(page, "racquet-general", bench_data["general"], limit="2")
    assert line.startswith("Done:"), line
    # the picture sits below the slice controls: a lazy image loads (and has a size) once scrolled to
    page.locator("#wh-bench-image").scroll_into_view_if_needed()
    page.locator("#wh-bench-image img").wait_for()
    assert scan(page, "benchmark (after a run)") == []
    page.locator("#wh-bench-outcome label").filter(has_text="wrong").click()
    bench_page.wait_position(page, "outcome wrong")
    assert bench_page.run(page, "racquet-general", "/nonexistent/data.jsonl").startswith("Error:")
    assert scan(page, "benchmark (outcome wrong, after an error)") == []
