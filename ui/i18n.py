"""The page in the browser's language (issue 36): Gradio's I18n, filled from the same gettext catalogs as
the assistant's sentences (assistant/languages/locales), so each label is translated in one place.

Gradio looks a key up in the dictionary of the browser's language (svelte-i18n, from navigator.language)
and shows the English one otherwise. Keys are short names: Gradio reads "." and ":" in a key as nesting.
Not here yet: a setting that overrides the browser's language (a <head> script that set navigator.language
from a stored choice did not take effect before Gradio read it, so it was taken out).
"""

from __future__ import annotations

from functools import cache

import gradio as gr

from assistant.languages import CATALOG_LANGUAGES
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
}


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


__all__ = ["LABELS", "label", "page_i18n"]
