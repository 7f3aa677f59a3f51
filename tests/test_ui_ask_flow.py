"""The Ask tab's flow after the first reply (issue 21), in Debian's Chromium against the real app:

- errors help and then go away: one line per cause (never piled up), cleared once the cause is gone (the
  offline switch), naming the command that fixes it and the one-click switch; focus lands on the question
  when the switch's button goes;
- follow-ups stay on the chosen one ("Is it big?" after choosing number 2 is about number 2, and says so);
  a question that names a thing starts afresh;
- undo a choice: back to the candidates, the choice's turn gone, focus on the list;
- download the conversation: a file made in the browser with the messages, the candidates and the marked
  photo (with its alt text), nothing written by the server;
- the smaller items: no bubble for an empty question, plain words for "Answer" with nothing to choose and
  "Ask another" with no photo, keyboard wording in the labels;
- Settings by keyboard: one Tab stop per model choice, no list left open, focus never on the page body;
- axe on each of these states, and screenshots of the clarify and enumerate states (desktop and phone).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_ui_a11y import scan
from tests.ui_support import (
    CHROMIUM,
    FOUR_SHAPES,
    TWO_SHAPES,
    app_server,
    draw_scene,
    launch_chromium,
    open_app,
    running_app,
    screenshot_dir,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}"),
]
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python.sync_playwright")

STATUS = "() => document.querySelector('#wh-status')?.innerText || ''"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_app() as url:
        yield url


@pytest.fixture
def page(server: str, tmp_path: Path):
    with sync_api.sync_playwright() as p:
        context, page = open_app(p, server, tmp_path / "profile", accept_downloads=True)
        yield page
        context.close()


def open_photo(page, photo: Path) -> None:
    page.locator("#wh-photo input[type=file]").set_input_files(str(photo))
    page.wait_for_function(f"() => /Photo ready/.test(({STATUS})())")


def bots(page) -> list[str]:
    return [t.strip() for t in page.locator("#wh-chat .message.bot").all_inner_texts()]


def users(page) -> list[str]:
    return [t.strip() for t in page.locator("#wh-chat .message.user").all_inner_texts()]


# A reply has arrived when the page moved focus to it (ui/ask_tab.py FOCUS_REPLY_JS runs after the turn's
# last update): counting messages is not enough, the "thinking" bubble counts too.
REPLY_FOCUSED = """n => {
  const bots = document.querySelectorAll('#wh-chat .message.bot');
  const focused = document.activeElement?.closest('#wh-chat .message.bot');
  return bots.length > n && focused === bots[bots.length - 1];
}"""


def ask(page, question: str) -> str:
    """Type `question`, press Enter, wait for the reply; returns it."""
    before = len(bots(page))
    box = page.locator("#wh-question textarea").first
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(REPLY_FOCUSED, arg=before)
    return bots(page)[-1]


def choose(page, number: int) -> str:
    before = len(bots(page))
    page.locator("#wh-options input[type=radio]").nth(number - 1).check()
    page.locator("#wh-choose").click()
    page.wait_for_function(REPLY_FOCUSED, arg=before)
    return bots(page)[-1]


def options(page) -> list[str]:
    return [t.strip() for t in page.locator("#wh-options label").all_inner_texts()]


def test_follow_ups_stay_on_the_chosen_one_and_a_named_thing_starts_afresh(page, tmp_path: Path) -> None:
    open_photo(page, draw_scene(tmp_path / "four.png", FOUR_SHAPES))
    assert "Which one do you mean" in ask(page, "What colour is the square?")
    chosen = choose(page, 2)
    assert chosen.startswith("About ") and "(number 2)" in chosen
    # A question that points back: about number 2, saying so, with no new list to choose from.
    page.locator("#wh-another").click()
    page.wait_for_function(f"() => /number 2/.test(({STATUS})())")  # the status says where "it" goes
    page.wait_for_function("() => !!document.activeElement?.closest('#wh-question')")  # box cleared, focused
    follow = ask(page, "Is it big?")
    assert re.match(r"About .* \(number 2\), the one you chose: ", follow), follow
    assert page.locator("#wh-options input:checked").input_value() == "2"
    follow = ask(page, "And what colour is he?")
    assert "(number 2), the one you chose" in follow, (follow, bots(page), users(page))
    assert not scan(page, "ask-follow-up")
    # A question that names a thing: a new question, asked afresh.
    fresh = ask(page, "What colour is the square?")
    assert "the one you chose" not in fresh and "Which one do you mean" in fresh


def test_undo_goes_back_to_the_candidates(page, tmp_path: Path) -> None:
    open_photo(page, draw_scene(tmp_path / "four.png", FOUR_SHAPES))
    assert page.locator("#wh-undo").is_disabled()  # nothing to undo: skipped by Tab
    question_reply = ask(page, "What colour is the square?")
    before = options(page)
    choose(page, 3)
    assert page.locator("#wh-undo").is_enabled() and users(page)[-1] == "Number 3"
    page.locator("#wh-undo").click()
    page.wait_for_function(f"() => /Choice undone/.test(({STATUS})())")
    assert bots(page)[-1] == question_reply and users(page) == ["What colour is the square?"]
    assert options(page) == before and page.locator("#wh-options input:checked").count() == 0
    page.wait_for_function("() => document.activeElement?.closest('#wh-options') !== null")
    assert page.locator("#wh-undo").is_disabled()
    assert not scan(page, "ask-after-undo")
    assert "(number 1)" in choose(page, 1)  # and choosing again works


def test_the_conversation_downloads_from_the_browser_with_the_marked_photo(page, tmp_path: Path) -> None:
    page.locator("#wh-download-chat").click()
    page.wait_for_function(  # nothing to download yet
        "() => /no conversation/.test(document.querySelector('#wh-read-status').textContent)"
    )
    open_photo(page, draw_scene(tmp_path / "four.png", FOUR_SHAPES))
    reply = ask(page, "What colour is the square?")
    answer = choose(page, 2)
    with page.expect_download() as download:
        page.locator("#wh-download-chat").click()
    saved = tmp_path / "conversation.html"
    download.value.save_as(saved)
    assert download.value.suggested_filename.startswith("whichone-conversation-")
    html = saved.read_text()
    assert html.count("<h3>You</h3>") == 2 and html.count("<h3>whichone</h3>") == 2
    first_line = reply.splitlines()[0]
    assert first_line.split(":")[0] in html and "Number 2" in html and answer[:30] in html
    assert '<img src="data:image/png;base64,' in html and 'alt="' in html
    assert html.count("<li>") == len(options(page)) == 4
    assert (
        "Downloaded the conversation (4 messages, with the marked photo)"
        in page.locator("#wh-read-status").inner_text()
    )


def test_small_items_say_plain_things_and_add_no_bubbles(page, tmp_path: Path) -> None:
    page.locator("#wh-another").click()
    page.wait_for_function(f"() => /Add a photo first/.test(({STATUS})())")
    # the click's chain ends by focusing the question box: wait for it, or it lands between our focus and key
    page.wait_for_function("() => !!document.activeElement?.closest('#wh-question')")
    # aria-disabled while nothing is chosen, yet still pressable (a keyboard user who presses it hears why)
    page.locator("#wh-choose").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => /no candidates to choose from yet/.test(({STATUS})())")
    open_photo(page, draw_scene(tmp_path / "four.png", FOUR_SHAPES))
    box = page.locator("#wh-question textarea").first
    for _ in range(2):
        box.fill("   ")
        box.press("Enter")
        page.wait_for_function(f"() => /Type a question first/.test(({STATUS})())")
    assert users(page) == [] and bots(page) == []  # no "(empty question)" bubbles
    ask(page, "What colour is the square?")
    # aria-disabled until something is chosen: pressed by keyboard, as a user who hears why
    page.locator("#wh-choose").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => /Choose one of the options first/.test(({STATUS})())")
    assert "arrow keys move through the list and choose" in page.locator("#wh-options").inner_text()
    assert "Space to choose" not in page.locator("#wh-options").inner_text()
    label = page.locator("#wh-overlay [data-testid=block-label]").inner_text()
    assert "choose it in the list" in label and "(click the one you mean)" not in label


def test_settings_model_choices_are_one_tab_stop_each_and_leave_nothing_open(page) -> None:
    page.get_by_role("tab", name="Settings").click()
    page.locator("#wh-stack input:checked").focus()
    stops = []
    for _ in range(6):
        stops.append(
            page.evaluate(
                "() => { const e = document.activeElement;"
                " return [e.tagName, e.type, e.closest('[id^=wh-]')?.id || 'none']; }"
            )
        )
        page.keyboard.press("Tab")
    groups = [s[2] for s in stops]
    assert groups[:5] == ["wh-stack", "wh-vlm", "wh-pointer", "wh-segmenter", "wh-prompt"], stops
    assert all(s[0] != "BODY" for s in stops), stops
    assert page.locator("[role=listbox]").count() == 0  # no dropdown list left open over the labels
    # The arrow keys choose: the stack fills in its models.
    page.locator("#wh-stack input:checked").focus()
    page.keyboard.press("ArrowUp")
    page.wait_for_function("() => document.querySelector('#wh-stack input:checked')?.value === 'cpu-tiny'")
    page.wait_for_function("() => document.querySelector('#wh-vlm input:checked')?.value === 'smolvlm-tiny'")
    assert not scan(page, "settings-radio-groups")


@pytest.mark.parametrize("viewport", [(1280, 1000), (390, 844)], ids=["desktop", "phone"])
def test_screenshots_of_the_clarify_and_enumerate_states(
    server: str, tmp_path: Path, viewport: tuple[int, int]
) -> None:
    with sync_api.sync_playwright() as p:
        context, page = open_app(
            p, server, tmp_path / "profile", viewport={"width": viewport[0], "height": viewport[1]}
        )
        folder = screenshot_dir()
        open_photo(page, draw_scene(tmp_path / "four.png", FOUR_SHAPES))
        assert "Which one do you mean" in ask(page, "What colour is the square?")
        assert not scan(page, f"clarify-{viewport[0]}")
        if folder is not None:
            page.screenshot(path=str(folder / f"ask_clarify_{viewport[0]}.png"), full_page=True)
        open_photo(page, draw_scene(tmp_path / "two.png", TWO_SHAPES))
        assert "could be meant" in ask(page, "What colour is the square?")
        assert not scan(page, f"enumerate-{viewport[0]}")
        if folder is not None:
            page.screenshot(path=str(folder / f"ask_enumerate_{viewport[0]}.png"), full_page=True)
        context.close()


def test_a_missing_model_error_shows_once_names_the_fixes_and_goes_with_the_offline_switch(
    tmp_path: Path,
) -> None:
    """The cpu stack offline with an empty cache: its models are not here."""
    env = dict(
        WHICHONE_STACK="cpu",
        WHICHONE_MODEL="",
        WHICHONE_POINTER="",
        WHICHONE_SEGMENTER="",
        HF_HOME=str(tmp_path / "hf"),
    )
    with app_server(**env) as app, sync_api.sync_playwright() as p:
        context = launch_chromium(p, tmp_path / "profile")
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(app.url)
        page.locator("#wh-try-offline").wait_for()
        page.locator("#wh-photo input[type=file]").set_input_files(
            str(draw_scene(tmp_path / "four.png", FOUR_SHAPES))
        )
        page.wait_for_function(f"() => /Error:/.test(({STATUS})())")
        box = page.locator("#wh-question textarea").first
        for _ in range(2):  # asking again gives the same cause: still one error line
            box.fill("What colour is the square?")
            box.press("Enter")
            page.wait_for_function(f"() => /Error:/.test(({STATUS})())")
            page.wait_for_function("() => !document.querySelector('#wh-chat .pending, #wh-chat .generating')")
            page.wait_for_timeout(500)
            errors = [b for b in bots(page) if b.startswith("⚠️")]
            assert len(errors) == 1 and len(bots(page)) == 1, bots(page)
            assert users(page) == ["What colour is the square?"]
        error = errors[0]
        assert "whichone download --stack cpu" in error
        assert "Try the offline cpu-tiny stack" in error and "at the top of the page" in error
        assert not scan(page, "ask-missing-models")
        page.locator("#wh-try-offline").click()
        page.wait_for_function(f"() => /Now using .*Photo ready: press Ask/.test(({STATUS})())")
        assert bots(page) == [] and users(page) == []  # the error and its question are gone
        page.wait_for_function("() => document.activeElement?.closest('#wh-question') !== null")
        page.locator("#wh-ask").click()  # the question is still in its box: one press asks it again
        page.wait_for_function(REPLY_FOCUSED, arg=0)
        assert users(page) == ["What colour is the square?"] and not bots(page)[-1].startswith("⚠️")
        context.close()
