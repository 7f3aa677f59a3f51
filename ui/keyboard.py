"""The page's keyboard layer (issue 33): skip links, the shortcuts and their help panel.

Shortcuts are Alt+Shift+letter (Option+Shift on a Mac), matched on the physical key (event.code), so they
work in any keyboard layout and inside the text boxes. They avoid the screen readers' own keys: NVDA and
JAWS use Insert or Caps Lock, VoiceOver Control+Option, and none of them binds Alt+Shift+letter; browsers
bind Alt+Shift only to accesskey in Firefox, and this page declares no accesskey. Each control declares
its shortcut with aria-keyshortcuts (ui/page_script.py sets it), so a screen reader names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class Shortcut:
    key: str  # the letter, as event.code names it: "KeyQ"
    target: str  # the CSS selector of the control it focuses or presses
    does: str  # what it does, for the help panel
    press: bool = False  # press the control (a button) rather than focus it
    last: bool = False  # the last element `target` matches, not the first

    @property
    def keys(self) -> str:
        """As aria-keyshortcuts spells it: "Alt+Shift+Q"."""
        return f"Alt+Shift+{self.key.removeprefix('Key')}"


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("KeyQ", "#wh-question textarea", "go to the question (type, then Enter to ask)"),
    Shortcut(
        "KeyC",
        "#wh-options input:checked, #wh-options input[type=radio]",
        "go to the candidates' list (arrow keys choose, then 'Answer about this one')",
    ),
    Shortcut("KeyR", "#wh-chat .message.bot", "go to the newest reply", last=True),
    Shortcut("KeyU", "#wh-undo", "undo my choice (back to the candidates)", press=True),
    Shortcut("KeyP", "#wh-photo button", "go to the photo (upload, paste or webcam)"),
    Shortcut("KeyN", "#wh-start-over", "start over (asks first)", press=True),
    Shortcut("KeyK", "#wh-keys summary", "open or close this list of shortcuts", press=True),
)


def skip_links_html() -> str:
    """The page's first focus stops: to the question, and to the photos to try (their words in the page's
    language: data-wh-text, ui/page_language.py)."""
    return (
        '<nav aria-label="Skip links" data-wh-label="skip_nav" class="wh-skip">'
        '<a href="#wh-question" data-wh-focus="#wh-question textarea" data-wh-text="skip_question">'
        "Skip to the photo and question</a> "
        '<a href="#wh-examples" data-wh-focus="#wh-examples button:not(.label-wrap)" '
        'data-wh-text="skip_examples">Skip to the photos to try</a></nav>'
    )


def help_html() -> str:
    """The "Keyboard shortcuts" panel: a native disclosure (it exposes its expanded state)."""
    rows = "".join(
        f"<tr><th scope='row'><kbd>{escape(s.keys)}</kbd></th><td>{escape(s.does)}</td></tr>"
        for s in SHORTCUTS
    )
    return (
        '<details id="wh-keys" class="wh-keys">'
        '<summary data-wh-text="keys_summary">Keyboard shortcuts</summary>'
        "<p>On a Mac, Option+Shift. They work in the text boxes too, and do not clash with NVDA, JAWS or "
        "VoiceOver. Without them: Tab and Shift+Tab move, the arrow keys choose in a list, Enter presses.</p>"
        f"<table><caption>Shortcuts of the Ask tab</caption><tbody>{rows}</tbody></table>"
        "<p>After a reply, focus is on it: Tab once reaches the candidates (twice after a choice), "
        "Shift+Tab twice the question.</p></details>"
    )


def shortcuts_js_table() -> str:
    """The shortcuts as a JSON list for the page's script."""
    import json

    return json.dumps(
        [
            {"code": s.key, "target": s.target, "keys": s.keys, "press": s.press, "last": s.last}
            for s in SHORTCUTS
        ]
    )
