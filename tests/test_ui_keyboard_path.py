"""The candidates are one key away from the reply (issue 21.1), in Debian's Chromium against the real app:
a keyboard user who has just heard the reply reaches the first candidate in at most 3 Tab presses, and the
list says how many candidates there are; the photos to try sit below and close once a photo is open."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui_support import CHROMIUM, FOUR_SHAPES, draw_scene, launch_chromium, running_app, screenshot_dir

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}"),
]
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_app() as url:
        yield url


def ask_by_keyboard(page, photo: Path) -> None:
    page.locator("#wh-photo input[type=file]").set_input_files(str(photo))
    page.wait_for_function("() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText || '')")
    page.locator("#wh-question textarea").first.focus()
    page.keyboard.type("What colour is the square?")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !!document.activeElement?.closest('#wh-chat .message.bot')")
    page.wait_for_function("() => /Which one/.test(document.activeElement?.innerText || '')")


def tabs_to(page, selector: str, limit: int = 40) -> int:
    for count in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!document.activeElement?.closest(s)", selector):
            return count
    raise AssertionError(f"Tab never reached {selector} in {limit} presses")


@pytest.mark.parametrize("viewport", [(1280, 1000), (390, 844)], ids=["desktop", "phone"])
def test_the_first_candidate_is_at_most_three_tabs_from_the_reply(
    server: str, tmp_path: Path, viewport: tuple[int, int]
) -> None:
    photo = draw_scene(tmp_path / "four.png", FOUR_SHAPES)
    with sync_api.sync_playwright() as p:
        context = launch_chromium(
            p, tmp_path / "profile", viewport={"width": viewport[0], "height": viewport[1]}
        )
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(server)
        page.wait_for_selector("#wh-photo")
        ask_by_keyboard(page, photo)
        presses = tabs_to(page, "#wh-options")
        print(f"\nTab presses from the reply to the first candidate ({viewport[0]} px): {presses}")
        assert presses <= 3, presses
        assert page.evaluate("() => document.activeElement.type") == "radio"
        group = page.locator("#wh-options").aria_snapshot()
        assert group.startswith('- group "Which one do you mean? 4 candidates'), group
        # The photos to try closed once a photo was open, and they come after the candidates.
        page.wait_for_function("() => !document.querySelector('#wh-examples button.label-wrap.open')")
        order = page.evaluate(
            """() => {
              const o = document.querySelector('#wh-options'), e = document.querySelector('#wh-examples');
              return !!(o.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING);
            }"""
        )
        assert order
        folder = screenshot_dir()
        if folder is not None:
            page.screenshot(path=str(folder / f"keyboard_path_{viewport[0]}.png"), full_page=True)
        context.close()
