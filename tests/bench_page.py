"""Driving the Benchmark tab in a Playwright page (shared by the benchmark and axe tests)."""

from __future__ import annotations

from pathlib import Path

FAST = "8"  # new tokens per reply: the tiny model's text is noise either way


def choose(page, elem_id: str, text: str, custom: bool = False) -> None:
    """Type `text` into the dropdown and pick the option it leaves; `custom`: a value no option has (the
    dropdown keeps it when focus leaves)."""
    box = page.locator(f"#{elem_id} input")
    box.click()
    box.fill("")
    box.press_sequentially(text)  # typed key by key, so the list filters
    if not custom:
        # wait until the list shows matching options only
        page.wait_for_function(
            """t => {
                const options = [...document.querySelectorAll('[role=option]')];
                return options.length > 0 && options.every(o => o.innerText.includes(t));
            }""",
            arg=text,
        )
        page.locator("[role=option]").filter(has_text=text).first.click()
    else:
        page.keyboard.press("Tab")


def fill(page, elem_id: str, value: str) -> None:
    """Type `value` into the field and make sure it stayed: a field just shown (the accordion's) can have
    its initial value set again by the page right after a fill, which then never reaches the server."""
    box = page.locator(f"#{elem_id} textarea, #{elem_id} input").first
    for _ in range(5):
        box.fill(value)
        box.press("Tab")  # leave the field, as a user does; Gradio commits a number on blur
        page.wait_for_timeout(100)
        if box.input_value() == value:
            return
    raise AssertionError(f"#{elem_id} did not keep {value!r}")


def run(page, task: str, data: Path | str, limit: str = "4", seed: int = 0) -> str:
    """Fill the form and run; returns the status line once the run has finished or failed."""
    if not page.locator("#wh-bench-tokens").is_visible():  # opened first, so its fields have settled
        page.locator("#wh-bench-more button").first.click()
        page.locator("#wh-bench-tokens input").wait_for(state="visible")
    choose(page, "wh-bench-task", task)
    page.wait_for_function(
        "t => (document.querySelector('#wh-bench-task-info')?.innerText || '').includes(t)", arg=task
    )
    fill(page, "wh-bench-data", str(data))
    fill(page, "wh-bench-limit", limit)
    fill(page, "wh-bench-tokens", FAST)
    fill(page, "wh-bench-seed", str(seed))
    before = status(page)
    page.locator("#wh-bench-run").click()
    # The line is read from the status's own element (not the block, where Gradio's progress text comes
    # and goes) and returned as the wait saw it, so a line from before the click is never taken for it.
    seen = page.wait_for_function(
        """before => {
            const s = (document.querySelector('#wh-bench-status .wh-status')?.innerText || '').trim();
            return s !== before && /^(Done|Error)/.test(s) ? s : null;
        }""",
        arg=before,
    )
    return str(seen.json_value())


def status(page) -> str:
    """The status line itself: the live region inside the block, without Gradio's progress text."""
    return page.locator("#wh-bench-status .wh-status").inner_text().strip()


def position(page) -> str:
    """The position line's own text (the live region, without Gradio's progress note)."""
    return page.locator("#wh-bench-position .wh-status").inner_text().strip()


def wait_position(page, pattern: str) -> str:
    """The position line's own text once it matches regex `pattern`."""
    page.wait_for_function(
        "p => new RegExp(p).test(document.querySelector('#wh-bench-position .wh-status')?.innerText || '')",
        arg=pattern,
    )
    return position(page)
