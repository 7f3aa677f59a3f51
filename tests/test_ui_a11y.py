"""axe-core scans of every tab of the real app (Debian's Chromium): no serious or critical violations.

The Ask tab is scanned empty and again with a reply and candidates shown (chat, overlay, options, the
Explain panel open). Moderate and minor findings are printed (run with -s to see them) and, if
WHICHONE_A11Y_REPORT is set, written there as JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui_support import CHROMIUM, draw_scene, launch_chromium, running_app

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
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    with running_app() as url, sync_api.sync_playwright() as p:
        context = launch_chromium(p, tmp_path_factory.mktemp("profile"))
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(url)
        page.wait_for_selector("#wh-photo")
        yield page
        context.close()
    report = os.environ.get("WHICHONE_A11Y_REPORT")
    if report:
        Path(report).write_text(json.dumps(FINDINGS, indent=2))


def scan(page, name: str) -> list[dict]:
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
    page.locator("#wh-choose").click()  # nothing chosen: an error line in the chat and the status
    page.wait_for_function("() => /Error/.test(document.querySelector('#wh-status')?.innerText || '')")
    assert "Choose one of the options first" in page.locator("#wh-chat").inner_text()
    assert scan(page, "ask (after an error)") == []


def test_settings_tab(page) -> None:
    open_tab(page, "Settings")
    assert page.locator("#wh-loaded").inner_text().strip()
    assert scan(page, "settings") == []


def test_settings_tab_with_the_unavailable_model_banner(page) -> None:
    open_tab(page, "Settings")
    vlm = page.locator("#wh-vlm input")
    vlm.click()
    vlm.fill("smolvlm")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.locator("#wh-apply").click()
    page.locator("#wh-banner [role=alert]").wait_for()
    page.wait_for_timeout(300)
    assert scan(page, "settings (banner shown)") == []


def test_benchmark_tab_if_present(page) -> None:
    if page.get_by_role("tab", name="Benchmark").count() == 0:
        pytest.skip("no benchmark tab in this build (ui/benchmark_tab.py not present)")
    open_tab(page, "Benchmark")
    assert scan(page, "benchmark") == []
