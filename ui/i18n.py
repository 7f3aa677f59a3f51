"""The page in the browser's language (issue 36): Gradio's I18n, filled from the same gettext catalogs as
the assistant's sentences (assistant/languages/locales), so each label is translated in one place.

Gradio looks a key up in the dictionary of the browser's language (svelte-i18n, from navigator.language)
and shows the English one otherwise. Keys are short names: Gradio reads "." and ":" in a key as nesting.
The override (Settings, "Page language") is kept in the browser's localStorage; `LANGUAGE_HEAD` runs in
the page's <head>, before Gradio starts, and makes navigator.language say the chosen one.
"""

from __future__ import annotations

from functools import cache

import gradio as gr

from assistant.languages import CATALOG_LANGUAGES, language_name
from assistant.languages.catalog import translations
from assistant.languages.say_reply import N_

# key -> the English label (the msgid its translations are found by)
LABELS: dict[str, str] = {
    "tab_ask": N_("Ask"),
    "tab_settings": N_("Settings"),
    "photo": N_("Photo (upload, paste or webcam)"),
    "question": N_("Question about the photo"),
    "ask": N_("Ask"),
    "another": N_("Ask another question about this photo"),
    "start_over": N_("Start over"),
    "overlay": N_(
        "Candidate regions, numbered: click one, or choose it in the list 'Which one do you mean?'"
    ),
    "conversation": N_("Conversation"),
    "choose": N_("Answer about this one"),
    "undo": N_("Undo my choice"),
    "hint": N_("Or describe which one"),
    "read": N_("Read the reply aloud"),
    "stop_reading": N_("Stop reading"),
    "download": N_("Download the conversation"),
    "reading_aloud": N_("Reading aloud"),
    "explain": N_("Explain this reply"),
    "page_language": N_("Page language"),
}

BROWSER = "browser"  # the override's value that follows the browser
STORAGE_KEY = "whichone-page-language"
LANGUAGE_HEAD = f"""
<script>
(() => {{
  // The page language chosen in Settings overrides the browser's for Gradio's I18n (read at start).
  try {{
    const chosen = window.localStorage.getItem('{STORAGE_KEY}');
    if (chosen && chosen !== '{BROWSER}') {{
      Object.defineProperty(window.navigator, 'language', {{ get: () => chosen }});
      Object.defineProperty(window.navigator, 'languages', {{ get: () => [chosen] }});
      document.documentElement.lang = chosen;
    }}
  }} catch (e) {{ /* storage blocked: the browser's language stays */ }}
}})();
</script>
"""
# Settings' dropdown: store the choice, then reload so Gradio starts in it.
SET_LANGUAGE_JS = f"""
(value) => {{
  try {{ window.localStorage.setItem('{STORAGE_KEY}', value); }} catch (e) {{}}
  window.location.reload();
  return value;
}}
"""


@cache
def page_i18n() -> gr.I18n:
    """Every label in English and in each catalog's language."""
    tables = {"en": dict(LABELS)}
    for lang in sorted(CATALOG_LANGUAGES):
        catalog = translations(lang)
        tables[lang] = {key: catalog.gettext(english) for key, english in LABELS.items()}
    return gr.I18n(**tables)


def label(key: str) -> gr.i18n.I18nData:
    """The label `key` (one of LABELS), translated in the page by the browser's language."""
    return page_i18n()(key)


def language_choices() -> list[tuple[str, str]]:
    """The override's choices: the browser's language, English, then the catalogs' languages."""
    return [("Browser", BROWSER), ("English", "en")] + [
        (language_name(code), code) for code in sorted(CATALOG_LANGUAGES)
    ]


__all__ = ["LABELS", "LANGUAGE_HEAD", "SET_LANGUAGE_JS", "label", "language_choices", "page_i18n"]
