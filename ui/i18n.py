"""The page in the browser's language (issue 36): Gradio's I18n, filled from the same gettext catalogs as
the assistant's sentences (assistant/languages/locales), so each label is translated in one place.

Gradio looks a key up in the dictionary of the page's language (svelte-i18n) and shows the English one
otherwise. Gradio picks its locale once, from navigator.language, and only among the locales it ships (no
Italian); the page's script then sets the page's own language (ui/page_language.py: the Settings choice, else
the browser's) with Gradio's changeLocale, which also takes Italian from these tables. Keys are short names:
Gradio reads "." and ":" in a key as nesting.
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
    "intro": N_(
        "Give a photo and ask a question about it. If the question could mean more than one thing in the "
        "photo, the assistant says so: it answers for each, or asks which one you mean. Choose by clicking "
        "a numbered region, picking an option below it, or typing a few words. Keyboard: see 'Keyboard "
        "shortcuts' at the top of the page."
    ),
    "question_placeholder": N_("What colour is the cup?"),
    "question_info": N_("Press Enter to ask. Alt+Shift+Q comes back here."),
    "chat_placeholder": N_("The conversation appears here."),
    "options": N_("Which one do you mean?"),
    "options_info": N_(
        "The arrow keys move through the list and choose; then press 'Answer about this one'."
    ),
    "copy": N_("Copy the conversation"),
    "hint_placeholder": N_("the one on the left"),
    "hint_info": N_("Press Enter to send."),
    "photos_to_try": N_("Photos to try"),
    "examples_label": N_("Each shows one strategy. Pick one, then press Ask."),
    "no_reply_yet": N_("Ask a question about a photo; the reasons for the reply will appear here."),
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
