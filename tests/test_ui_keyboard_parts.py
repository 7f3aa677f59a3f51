"""The keyboard layer's parts without a browser (issue 33): the shortcuts, their help panel and skip links,
and the plain words of the status line."""

from __future__ import annotations

import json

from assistant.types import Box, Candidates, Level, Region, Reply, Strategy, Verdict
from ui.explain import status_line
from ui.keyboard import SHORTCUTS, help_html, shortcuts_js_table, skip_links_html


def test_shortcuts_are_alt_shift_letters_each_once_and_all_listed_in_the_help() -> None:
    codes = [s.key for s in SHORTCUTS]
    assert len(set(codes)) == len(codes)
    assert all(s.keys.startswith("Alt+Shift+") and len(s.keys) == len("Alt+Shift+Q") for s in SHORTCUTS)
    panel = help_html()
    assert (
        panel.startswith('<details id="wh-keys"')
        and '<summary data-wh-text="keys_summary">Keyboard shortcuts</summary>' in panel
    )
    for s in SHORTCUTS:
        assert f"<kbd>{s.keys}</kbd>" in panel
    table = json.loads(shortcuts_js_table())
    assert {t["keys"] for t in table} >= {"Alt+Shift+Q", "Alt+Shift+C", "Alt+Shift+U", "Alt+Shift+N"}


def test_the_skip_links_come_first_and_name_where_they_go() -> None:
    links = skip_links_html()
    assert links.index("Skip to the photo and question") < links.index("Skip to the photos to try")
    assert 'data-wh-focus="#wh-question textarea"' in links


def _reply(strategy: Strategy, n: int, found: int | None = None, resolved: int | None = None) -> Reply:
    regions = [Region(id=i + 1, box=Box(10 * i, 0, 10 * i + 8, 8), label="coin") for i in range(n)]
    return Reply(
        text="...",
        verdict=Verdict.AMBIGUOUS,
        level=Level.MANY,
        strategy=strategy,
        candidates=Candidates(regions, (640, 480), found=found),
        explanation="",
        resolved_region=resolved,
    )


def test_the_status_line_says_what_arrived_in_plain_words() -> None:
    line = status_line(_reply(Strategy.ENUMERATE, 3))
    assert line == "Reply ready: an answer for each. 3 candidates marked, listed after the reply."
    capped = status_line(_reply(Strategy.CLARIFY, 12, found=20))
    assert "12 of the 20 found are marked" in capped and "strategy" not in capped
    assert status_line(_reply(Strategy.ANSWER, 1, resolved=1)) == "Answer about number 1 is ready."
