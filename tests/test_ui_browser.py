"""The Ask flow in Debian's Chromium (Playwright) against the real app on 127.0.0.1 (tiny VLM, blobs pointer).

- by mouse: upload -> ask -> candidates shown (overlay with alt text, options list) -> click a region on
  the picture -> the second answer is about that region;
- by keyboard only: the same flow, choosing from the options list and by a typed hint, with focus moving
  to each new reply;
- two browser contexts at once do not see each other's conversation.
Set WHICHONE_SCREENSHOTS=<folder> to save screenshots of the flow.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.ui_support import (
    CHROMIUM,
    TWO_SHAPES,
    draw_scene,
    launch_chromium,
    pick_radio,
    running_app,
    screenshot_dir,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}"),
]
sync_api = pytest.importorskip("playwright.sync_api")

QUESTION = "What colour is the square?"
TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_app() as url:
        yield url


@pytest.fixture(scope="module")
def playwright() -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture
def page(playwright, server: str, tmp_path: Path):
    context = launch_chromium(playwright, tmp_path / "profile")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server)
    page.wait_for_selector("#wh-photo")
    yield page
    context.close()


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("scenes")
    return {"four": draw_scene(folder / "four.png"), "two": draw_scene(folder / "two.png", TWO_SHAPES)}


# ---------------------------------------------------------------- page helpers


def bot_messages(page) -> list[str]:
    return page.locator("#wh-chat .message.bot").all_inner_texts()


def wait_for_bot_text(page, pattern: str, count: int | None = None) -> str:
    """Wait until the newest assistant message matches `pattern` and is complete (not streaming).

    Complete: the status line says the turn is over and the message's text has not changed for half a
    second, because the chat's markdown can be drawn a moment after the status line that came with it (on a
    loaded machine the status said "ready" while the message still showed the last streamed piece)."""
    page.wait_for_function(
        """([pattern, count]) => {
            const bots = document.querySelectorAll('#wh-chat .message.bot');
            if (!bots.length || (count !== null && bots.length < count)) return false;
            const text = bots[bots.length - 1].innerText;
            const status = document.querySelector('#wh-status')?.innerText || '';
            if (!(new RegExp(pattern).test(text) && /ready|Error/.test(status))) return false;
            const seen = window.whLastBotText;
            if (!seen || seen.text !== text) {
                window.whLastBotText = { text, since: Date.now() };
                return false;
            }
            return Date.now() - seen.since >= 500;
        }""",
        arg=[pattern, count],
        polling=100,
    )
    return bot_messages(page)[-1]


def upload(page, path: Path) -> None:
    page.locator("#wh-photo input[type=file]").set_input_files(str(path))
    page.wait_for_function("() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText || '')")


def option_labels(page) -> list[str]:
    return page.locator("#wh-options label").all_inner_texts()


def click_region(page, x: float, y: float) -> None:
    """Click at working-image pixel (x, y) of the overlay, mapped the way Gradio maps it back."""
    img = page.locator("#wh-overlay img")
    img.scroll_into_view_if_needed()  # a mouse click lands only inside the viewport
    natural = img.evaluate("i => [i.naturalWidth, i.naturalHeight]")
    box = img.bounding_box()
    assert box is not None
    scale = min(box["width"] / natural[0], box["height"] / natural[1], 1.0)
    left = box["x"] + (box["width"] - natural[0] * scale) / 2
    top = box["y"] + (box["height"] - natural[1] * scale) / 2
    page.mouse.click(left + x * scale, top + y * scale)


def tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element is inside `selector` (keyboard only, like a user); nothing when
    focus is already there (the page moves it to the question once a photo opens)."""
    if page.evaluate("s => !!document.activeElement?.closest(s)", selector):
        return
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!document.activeElement?.closest(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def focused_text(page) -> str:
    return page.evaluate("() => document.activeElement?.innerText || ''")


def shoot(page, name: str) -> None:
    folder = screenshot_dir()
    if folder is not None:
        page.screenshot(path=str(folder / name), full_page=True)


# ---------------------------------------------------------------- tests


def test_mouse_flow_upload_ask_click_region(page, scenes: dict[str, Path]) -> None:
    upload(page, scenes["four"])
    page.locator("#wh-question textarea, #wh-question input").first.fill(QUESTION)
    page.locator("#wh-ask").click()
    reply = wait_for_bot_text(page, "Which one do you mean")
    assert re.search(r"I see four squares", reply, re.I)
    options = option_labels(page)
    assert len(options) == 4 and options[0].startswith("1: ")
    alt = page.locator("#wh-overlay img").get_attribute("alt") or ""
    assert "4 numbered regions" in alt and options[1] in alt
    shoot(page, "ask_1_candidates.png")

    click_region(page, 530, 120)  # the centre of the blue square, top right (working-image pixels)
    answer = wait_for_bot_text(page, r"About .*\(number \d\)", count=2)
    clicked = int(re.search(r"\(number (\d)\)", answer).group(1))
    assert "blue" in option_labels(page)[clicked - 1] or "right" in option_labels(page)[clicked - 1]
    chat_user = page.locator("#wh-chat .message.user").all_inner_texts()
    assert chat_user[0].strip() == QUESTION and "clicked at" in chat_user[-1]

    page.locator("#wh-explain button").first.click()
    explain = page.locator("#wh-explain-text").inner_text()
    assert "Strategy: answer" in explain and f"number {clicked}" in explain and "Timings" in explain
    shoot(page, "ask_2_after_choosing.png")

    # Another question about the same photo: no new upload, candidates come back.
    page.locator("#wh-another").click()
    page.wait_for_function("() => document.activeElement?.closest('#wh-question')")  # focus on the question
    assert page.locator("#wh-overlay").count() == 0 or not page.locator("#wh-overlay").is_visible()
    page.keyboard.type("Is the square big?")
    page.keyboard.press("Enter")
    wait_for_bot_text(page, "Which one do you mean", count=3)
    assert len(option_labels(page)) == 4

    # Start over: chat, photo and candidates are gone.
    page.locator("#wh-start-over").click()
    page.locator("#wh-confirm-start-over").click()  # it asks first
    page.wait_for_function("() => /Started over/.test(document.querySelector('#wh-status')?.innerText || '')")
    page.wait_for_function("() => !document.querySelector('#wh-photo img')")  # the photo is cleared next
    assert bot_messages(page) == [] and len(option_labels(page)) == 0


def test_keyboard_only_flow(page, scenes: dict[str, Path]) -> None:
    tab_to(page, "#wh-photo")
    chooser = None
    for _ in range(3):
        # Space activates a button. (Enter does too, but on Gradio 6.31's upload button in headless
        # Chromium it opens no file chooser about half the time once the page has idled a few seconds; on a
        # loaded CI machine Space once missed too, so a second press is allowed, as a user would press again.)
        try:
            with page.expect_file_chooser(timeout=10_000) as waiting:
                page.keyboard.press("Space")
            chooser = waiting.value
            break
        except PlaywrightTimeout:
            assert page.evaluate("() => !!document.activeElement?.closest('#wh-photo')")  # focus stayed
    assert chooser is not None, "Space on the photo's upload button never opened a file chooser"
    chooser.set_files(str(scenes["four"]))
    page.wait_for_function("() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText || '')")

    tab_to(page, "#wh-question")
    page.keyboard.type(QUESTION)
    page.keyboard.press("Enter")
    reply = wait_for_bot_text(page, "Which one do you mean")
    page.wait_for_function("() => !!document.activeElement?.closest('#wh-chat .message.bot')")
    assert "Which one do you mean" in focused_text(page)  # focus moved to the new reply

    tab_to(page, "#wh-options")  # the first option
    page.keyboard.press("Space")
    # One radio group (ui/page_script.py repairs Gradio's markup): the arrow keys move the choice.
    page.keyboard.press("ArrowDown")
    radios = page.locator("#wh-options input[type=radio]")
    assert [radios.nth(i).is_checked() for i in range(4)] == [False, True, False, False]
    names = radios.evaluate_all("rs => new Set(rs.map(r => r.name)).size")
    assert names == 1
    group = page.locator("#wh-options").aria_snapshot()
    assert group.startswith('- group "Which one do you mean? 4 candidates, numbered row by row from the top')
    tab_to(page, "#wh-choose")
    page.keyboard.press("Enter")
    answer = wait_for_bot_text(page, r"\(number 2\)", count=2)
    assert answer.startswith("About ")
    page.wait_for_function("() => !!document.activeElement?.closest('#wh-chat .message.bot')")
    assert "(number 2)" in focused_text(page)

    tab_to(page, "#wh-hint")
    page.keyboard.type("the one on the bottom right")
    page.keyboard.press("Enter")
    hinted = wait_for_bot_text(page, r"\(number \d\)", count=3)
    number = int(re.search(r"\(number (\d)\)", hinted).group(1))
    assert "bottom right" in option_labels(page)[number - 1] or number == 4
    assert reply  # the first reply stayed in the chat
    assert len(bot_messages(page)) == 3


def test_two_contexts_do_not_share_a_conversation(playwright, server: str, scenes, tmp_path: Path) -> None:
    a_ctx = launch_chromium(playwright, tmp_path / "a")
    b_ctx = launch_chromium(playwright, tmp_path / "b")
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        for p in (a, b):
            p.set_default_timeout(TIMEOUT_MS)
            p.goto(server)
            p.wait_for_selector("#wh-photo")
        upload(a, scenes["four"])
        upload(b, scenes["two"])
        a.locator("#wh-question textarea, #wh-question input").first.fill("What colour is the square?")
        b.locator("#wh-question textarea, #wh-question input").first.fill("Is the square big?")
        a.locator("#wh-ask").click()
        b.locator("#wh-ask").click()  # both requests are in the queue at once
        wait_for_bot_text(a, "Which one do you mean")
        wait_for_bot_text(b, "could be meant")
        a_text = a.locator("#wh-chat").inner_text()
        b_text = b.locator("#wh-chat").inner_text()
        assert "colour" in a_text and "big?" not in a_text
        assert "big?" in b_text and "colour" not in b_text
        assert len(option_labels(a)) == 4 and len(option_labels(b)) == 2
    finally:
        a_ctx.close()
        b_ctx.close()


def test_settings_list_loaded_models_and_raise_a_banner_for_an_unavailable_one(page, scenes) -> None:
    page.get_by_role("tab", name="Settings").click()
    loaded = page.locator("#wh-loaded")
    loaded.get_by_text("tiny").first.wait_for()
    text = loaded.inner_text()
    assert "| vlm |" not in text and "cpu" in text and "blobs" in text  # a rendered table, with the device
    assert page.locator("#wh-banner [role=alert]").count() == 0

    pick_radio(page, "wh-vlm", "smolvlm-256m:")
    page.locator("#wh-apply").click()
    banner = page.locator("#wh-banner [role=alert]")
    banner.wait_for()
    assert "Model not available: smolvlm-256m" in banner.inner_text()
    assert "What to do" in banner.inner_text()
    page.get_by_text("This session keeps tiny / blobs / no segmenter").wait_for()
    # the choice shown is the one still in use
    assert page.locator("#wh-vlm input:checked").input_value().startswith("tiny")
    shoot(page, "settings_unavailable_model.png")

    # The session still works on its previous models.
    page.get_by_role("tab", name="Ask").click()
    upload(page, scenes["two"])
    page.locator("#wh-question textarea, #wh-question input").first.fill(QUESTION)
    page.keyboard.press("Enter")
    assert "could be meant" in wait_for_bot_text(page, "could be meant")


RECORD_BUSY_JS = """
() => {
  // Each change of the chat (a message growing, or aria-busy set): the log region's aria-busy and the
  // newest assistant message's text at that moment.
  window.whBusyLog = [];
  const chat = document.querySelector('#wh-chat');
  const record = () => {
    const log = chat.querySelector('[role="log"][aria-live]');
    const bots = chat.querySelectorAll('.message.bot');
    window.whBusyLog.push({
      busy: log ? log.getAttribute('aria-busy') : null,
      text: bots.length ? bots[bots.length - 1].innerText : '',
    });
  };
  new MutationObserver(record).observe(chat, {
    subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['aria-busy'],
  });
}
"""
LIVE_REGIONS_BUSY_JS = (
    "() => [...document.querySelectorAll('#wh-chat [aria-live]')].map((r) => r.getAttribute('aria-busy'))"
)


def test_chat_is_aria_busy_while_a_reply_streams(page, scenes: dict[str, Path]) -> None:
    upload(page, scenes["four"])
    page.evaluate(RECORD_BUSY_JS)  # before the first reply: the chat's log region does not exist yet
    page.locator("#wh-question textarea, #wh-question input").first.fill(QUESTION)
    page.locator("#wh-ask").click()
    wait_for_bot_text(page, "Which one do you mean")
    page.wait_for_function(f"() => {LIVE_REGIONS_BUSY_JS}().every((b) => b === 'false')")
    first = page.evaluate("() => window.whBusyLog")
    # The log appeared with the "thinking" message and was marked busy at once (a newly drawn region is
    # marked as it appears), until the final reply was in.
    assert any(r["busy"] == "true" and r["text"] == "…" for r in first), first
    assert first[-1]["busy"] == "false" and "Which one do you mean" in first[-1]["text"]

    page.evaluate(RECORD_BUSY_JS)
    page.locator("#wh-options label").nth(1).click()
    page.locator("#wh-choose").click()  # the answer about number 2 streams from the model
    answer = wait_for_bot_text(page, r"\(number 2\)", count=2)
    page.wait_for_function(f"() => {LIVE_REGIONS_BUSY_JS}().every((b) => b === 'false')")
    log = page.evaluate("() => window.whBusyLog")
    # The reply grew piece by piece (texts starting as the answer does, shorter), all while the log was
    # busy; the final text came in busy too, and then the log was cleared.
    growing = [r for r in log if r["text"] != answer and answer.startswith(r["text"][:12]) and r["text"]]
    assert {r["text"] for r in growing} and all(r["busy"] == "true" for r in growing), log
    final = [r["busy"] for r in log if r["text"] == answer]
    assert "true" in final and final[-1] == "false" and log[-1]["busy"] == "false", log
    print(f"\nbrowser: {len({r['text'] for r in growing})} partial texts of the answer shown, all aria-busy")
    page.wait_for_function("() => !!document.activeElement?.closest('#wh-chat .message.bot')")
