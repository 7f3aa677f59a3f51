"""Who said what, and what the photo is, as a screen reader hears it (issue 21, item 4), in Debian's
Chromium against the real app: each chat message is an article named for its speaker, and the photo has
alt text (an example's description, or "Your photo, W x H pixels" for an upload)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui_support import CHROMIUM, FOUR_SHAPES, draw_scene, launch_chromium, running_app
from ui.example_photos import example_photos

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


def test_messages_name_their_speaker_and_the_photo_has_alt_text(server: str, tmp_path: Path) -> None:
    photo = draw_scene(tmp_path / "four.png", FOUR_SHAPES)
    with sync_api.sync_playwright() as p:
        context = launch_chromium(p, tmp_path / "profile")
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(server)
        page.wait_for_selector("#wh-photo")
        page.locator("#wh-photo input[type=file]").set_input_files(str(photo))
        page.wait_for_function(
            "() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText || '')"
        )
        page.wait_for_function(
            "() => document.querySelector('#wh-photo img')?.alt === 'Your photo, 640 x 480 pixels'"
        )
        box = page.locator("#wh-question textarea").first
        box.fill("What colour is the square?")
        box.press("Enter")
        page.wait_for_function(
            "() => /Reply ready/.test(document.querySelector('#wh-status')?.innerText || '')"
        )
        tree = page.locator("#wh-chat").aria_snapshot()
        assert '- article "Your message"' in tree and '- article "whichone\'s reply"' in tree, tree
        assert tree.index('article "Your message"') < tree.index('article "whichone\'s reply"')
        # An example photo, on a new page: its description.
        page = context.new_page()
        page.goto(server)
        cat = next(p for p in example_photos() if p.file == "cat.jpg")
        page.get_by_role("button", name=cat.label()).focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText || '')"
        )
        page.wait_for_function("alt => document.querySelector('#wh-photo img')?.alt === alt", arg=cat.alt)
        context.close()
