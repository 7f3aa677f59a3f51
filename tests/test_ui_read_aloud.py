"""Replies read aloud in the browser (issue 21, item 5), in Debian's Chromium against the real app: what the
page hands to speechSynthesis (the text of the newest reply, the chosen speed), reading on arrival when the
user asks for it, a stop control, and a plain sentence where the browser has no voices.

speechSynthesis is replaced before the page loads by a recorder (headless Chromium has no voices to speak
with): the test reads what the page asked it to say."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui_support import CHROMIUM, FOUR_SHAPES, draw_scene, launch_chromium, running_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}"),
]
sync_api = pytest.importorskip("playwright.sync_api")

RECORDER = """
(() => {
  window.__spoken = [];
  window.__cancelled = 0;
  const voices = %s;
  const recorder = {
    getVoices: () => voices,
    speak: (utterance) => {
      window.__spoken.push({ text: utterance.text, rate: utterance.rate });  // and speaks until stopped
    },
    cancel: () => { window.__cancelled += 1; },
  };
  Object.defineProperty(window, 'speechSynthesis', { value: recorder, configurable: true });
  window.SpeechSynthesisUtterance = function (text) { this.text = text; this.rate = 1; };
})();
"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_app() as url:
        yield url


def open_page(p, server: str, folder: Path, voices: str):
    context = launch_chromium(p, folder)
    context.add_init_script(RECORDER % voices)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(server)
    page.wait_for_selector("#wh-photo")
    return context, page


def ask(page, photo: Path, question: str, replies: int) -> str:
    page.locator("#wh-photo input[type=file]").set_input_files(str(photo))
    page.wait_for_function("() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText || '')")
    box = page.locator("#wh-question textarea").first
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(
        "n => document.querySelectorAll('#wh-chat .message.bot').length >= n "
        "&& /ready/.test(document.querySelector('#wh-status')?.innerText || '')",
        arg=replies,
    )
    return page.locator("#wh-chat .message.bot").last.inner_text().strip()


def spoken(page) -> list[dict]:
    return page.evaluate("() => window.__spoken")


def test_the_page_reads_the_newest_reply_at_the_chosen_speed_and_stops(server: str, tmp_path: Path) -> None:
    photo = draw_scene(tmp_path / "four.png", FOUR_SHAPES)
    with sync_api.sync_playwright() as p:
        context, page = open_page(p, server, tmp_path / "profile", "[{ name: 'Test voice' }]")
        reply = ask(page, photo, "What colour is the square?", 1)
        assert spoken(page) == []  # not on arrival unless asked for
        page.locator("#wh-read").click()
        assert spoken(page) == [{"text": reply, "rate": 1}]
        assert "Reading the reply aloud" in page.locator("#wh-read-status").inner_text()
        page.locator("#wh-read-stop").click()
        assert page.evaluate("() => window.__cancelled") >= 2  # before speaking, and the stop
        assert page.locator("#wh-read-status").inner_text() == "Stopped reading."
        # The settings: a faster speed, and reading each reply as it arrives.
        page.locator("#wh-read-settings button.label-wrap").click()
        page.locator("#wh-read-rate input[type=number]").fill("1.5")
        page.locator("#wh-read-rate input[type=number]").press("Enter")
        page.locator("#wh-read-auto input[type=checkbox]").check()
        page.locator("#wh-another").click()
        page.wait_for_function("() => !!document.activeElement?.closest('#wh-question')")
        page.keyboard.type("Is the square big?")
        page.keyboard.press("Enter")
        page.wait_for_function("() => window.__spoken.length >= 2")
        newest = page.locator("#wh-chat .message.bot").last.inner_text().strip()
        assert spoken(page)[-1] == {"text": newest, "rate": 1.5}
        context.close()


def test_without_voices_the_page_says_so(server: str, tmp_path: Path) -> None:
    photo = draw_scene(tmp_path / "four.png", FOUR_SHAPES)
    with sync_api.sync_playwright() as p:
        context, page = open_page(p, server, tmp_path / "profile", "[]")
        ask(page, photo, "What colour is the square?", 1)
        page.locator("#wh-read").click()
        assert spoken(page) == []
        assert "no voices to read aloud" in page.locator("#wh-read-status").inner_text()
        context.close()
