"""The app on the `cpu-tiny` stack (the cpu stack's code path: SmolVLM int8, an OWL-ViT detector, SAM 2.1),
started with WHICHONE_STACK alone, in Debian's Chromium: candidates appear, the Explain panel gives
P(ambiguous), a candidate is chosen by keyboard, the Settings tab names the stack, and axe finds nothing
serious."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_ui_a11y import wait_until_settled
from tests.test_ui_browser import (
    QUESTION,
    bot_messages,
    option_labels,
    shoot,
    tab_to,
    upload,
    wait_for_bot_text,
)
from tests.ui_support import CHROMIUM, draw_scene, launch_chromium, running_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}"),
]
sync_api = pytest.importorskip("playwright.sync_api")
axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    # Only the stack: the test helpers' own model choices are cleared, as a user who sets nothing else.
    with running_app(
        WHICHONE_STACK="cpu-tiny", WHICHONE_MODEL="", WHICHONE_POINTER="", WHICHONE_SEGMENTER=""
    ) as url:
        yield url


@pytest.fixture
def page(server: str, tmp_path: Path):
    with sync_api.sync_playwright() as p:
        context = launch_chromium(p, tmp_path / "profile")
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(server)
        page.wait_for_selector("#wh-photo")
        yield page
        context.close()


def test_the_cpu_tiny_stack_shows_candidates_and_p_ambiguous(page, tmp_path: Path) -> None:
    upload(page, draw_scene(tmp_path / "four.png"))
    page.locator("#wh-question textarea, #wh-question input").first.fill(QUESTION)
    page.keyboard.press("Enter")
    wait_for_bot_text(page, ".")
    options = option_labels(page)
    assert options and options[0].startswith("1: "), bot_messages(page)  # the detector's candidates
    alt = page.locator("#wh-overlay img").get_attribute("alt") or ""
    assert "numbered region" in alt

    page.locator("#wh-explain button").first.click()
    explain = page.locator("#wh-explain-text").inner_text()
    assert "P(ambiguous) = " in explain and "one forward pass" in explain
    assert "owlvit-random-tiny" in explain or "pointer" in explain

    results = axe_module.Axe().run(page)
    serious = [v["id"] for v in results.response["violations"] if v["impact"] in {"serious", "critical"}]
    assert not serious, serious

    # Keyboard only: choose the first candidate and get the answer about it.
    tab_to(page, "#wh-options")
    page.keyboard.press("Space")
    tab_to(page, "#wh-choose")
    page.keyboard.press("Enter")
    answer = wait_for_bot_text(page, r"\(number 1\)", count=2)
    assert answer.startswith("About ")


def test_an_example_photo_by_keyboard_candidates_a_choice_and_the_second_answer(page) -> None:
    """A photo to try (Three coins), picked with the keyboard: its question fills in, the detector path
    finds candidates, one is chosen and answered about. Screenshots for the README (WHICHONE_SCREENSHOTS)."""
    example = page.get_by_role("button", name="Three coins: Whose head is on the coin?")
    example.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText || '')")
    assert page.locator("#wh-question textarea").input_value() == "Whose head is on the coin?"
    page.locator("#wh-ask").click()
    wait_for_bot_text(page, ".")
    options = option_labels(page)
    assert options and options[0].startswith("1: "), bot_messages(page)
    assert "Greek coins from Pompeii" in page.locator("#wh-example-credits").inner_text()
    shoot(page, "cpu_tiny_1_example_candidates.png")
    page.locator("#wh-options label").nth(1).click()
    page.locator("#wh-choose").click()
    answer = wait_for_bot_text(page, r"\(number 2\)", count=2)
    assert answer.startswith("About ")
    shoot(page, "cpu_tiny_2_after_choosing.png")


def test_settings_name_the_stack_and_its_loaded_models(page) -> None:
    page.get_by_role("tab", name="Settings").click()
    loaded = page.locator("#wh-loaded")
    loaded.get_by_text("owlvit-random-tiny").first.wait_for()
    text = loaded.inner_text()
    assert "smolvlm-tiny" in text and "sam2-random-tiny" in text and "int8" in text
    assert page.locator("#wh-stack input:checked").input_value().startswith("cpu-tiny")


def test_an_unavailable_stack_offers_the_offline_one_in_one_click(tmp_path: Path) -> None:
    """The default cpu stack offline with nothing downloaded: the banner says what to download, and one
    click moves the session to cpu-tiny, after which a question gets candidates."""
    env = {"WHICHONE_STACK": "cpu", "WHICHONE_MODEL": "", "WHICHONE_POINTER": "", "WHICHONE_SEGMENTER": ""}
    with running_app(**env, HF_HUB_OFFLINE="1") as url, sync_api.sync_playwright() as p:
        context = launch_chromium(p, tmp_path / "profile")
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(url)
        banner = page.locator("#wh-banner [role=alert]")
        banner.wait_for()
        assert "Model not available: smolvlm-256m / owlvit-b32 / sam2-hiera-tiny" in banner.inner_text()
        assert "whichone download --stack cpu`" in banner.inner_text() and "NAME" not in banner.inner_text()
        button = page.locator("#wh-try-offline")
        button.wait_for()
        wait_until_settled(page)  # Gradio fades a pending event's outputs: a scan then finds low contrast
        serious = [
            v["id"]
            for v in axe_module.Axe().run(page).response["violations"]
            if v["impact"] in {"serious", "critical"}
        ]
        assert not serious, serious
        button.click()
        page.get_by_text("Now using the cpu-tiny stack").wait_for()
        page.wait_for_function(
            "() => !document.querySelector('#wh-try-offline') || "
            "getComputedStyle(document.querySelector('#wh-try-offline')).display === 'none' || "
            "document.querySelector('#wh-try-offline').offsetParent === null"
        )
        # Settings name what the session now uses (they showed the cpu stack before the click).
        page.get_by_role("tab", name="Settings").click()
        assert page.locator("#wh-stack input:checked").input_value().startswith("cpu-tiny")
        assert page.locator("#wh-vlm input:checked").input_value().startswith("smolvlm-tiny")
        assert page.locator("#wh-pointer input:checked").input_value().startswith("owlvit-random-tiny")
        page.get_by_role("tab", name="Ask").click()
        upload(page, draw_scene(tmp_path / "four.png"))
        page.locator("#wh-question textarea, #wh-question input").first.fill(QUESTION)
        page.keyboard.press("Enter")
        wait_for_bot_text(page, ".")
        assert option_labels(page), bot_messages(page)
        context.close()
