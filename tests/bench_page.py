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
    page.locator(f"#{elem_id} textarea, #{elem_id} input").first.fill(value)


def run(page, task: str, data: Path | str, limit: str = "4", seed: int = 0) -> str:
    """Fill the form and run; returns the status line once the run has finished or failed."""
    choose(page, "wh-bench-task", task)
    page.wait_for_function(
        "t => (document.querySelector('#wh-bench-task-info')?.innerText || '').includes(t)", arg=task
    )
    fill(page, "wh-bench-data", str(data))
    fill(page, "wh-bench-limit", limit)
    if not page.locator("#wh-bench-tokens").is_visible():
        page.locator("#wh-bench-more button").first.click()
    fill(page, "wh-bench-tokens", FAST)
    fill(page, "wh-bench-seed", str(seed))
    before = status(page)
    page.locator("#wh-bench-run").click()
    page.wait_for_function(
        """before => {
            const s = document.querySelector('#wh-bench-status')?.innerText || '';
            return s !== before && /^(Done|Error)/.test(s.trim());
        }""",
        arg=before,
    )
    return status(page)


def status(page) -> str:
    return page.locator("#wh-bench-status").inner_text().strip()


def position(page) -> str:
    return page.locator("#wh-bench-position").inner_text().strip()


def wait_position(page, pattern: str) -> str:
    page.wait_for_function(
        "p => new RegExp(p).test(document.querySelector('#wh-bench-position')?.innerText || '')", arg=pattern
    )
    return position(page)
