"""The page's language, with an override (issue 36).

The order: the language chosen in Settings ("Page language", kept in the browser's localStorage and sent
to the server as the cookie `whichone_lang`, which holds only the code), else the first of the browser's
languages that the page has (Accept-Language by q-value; navigator.languages in the page), else English.

The browser applies it (ui/page_script.py: Gradio's own changeLocale, `<html lang>`, the tab names and the
page's own texts); the server reads it on every event into the session (`remember_page_language`), so the
lines it writes about the page (status lines, the Explain panel) are in the page's language. Lines about the
conversation are in the language the question was asked in.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from assistant.languages import CATALOG_LANGUAGES
from assistant.languages.catalog import Say, translations
from assistant.languages.say_reply import N_

# Each language in its own name, in the order the select lists them.
PAGE_LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "pt": "Português",
    "it": "Italiano",
    "zh": "中文",
}
ENGLISH = "en"
COOKIE = "whichone_lang"  # also the localStorage key the page script keeps the choice under
MAX_ACCEPT_ENTRIES = 20  # an Accept-Language header is read this far, no further
MAX_HEADER_CHARS = 2000

# The page's own texts (not Gradio's components): the script shows them in the page's language. Elements
# carry data-wh-text="key" (their text) or data-wh-label="key" (their aria-label).
PAGE_TEXTS: dict[str, str] = {
    "skip_nav": N_("Skip links"),
    "skip_question": N_("Skip to the photo and question"),
    "skip_examples": N_("Skip to the photos to try"),
    "keys_summary": N_("Keyboard shortcuts"),
    "page_language": N_("Page language"),
    "browser_language": N_("The browser's language"),
    "page_language_info": N_(
        "The language of the page's labels and messages. Replies follow the language of each question."
    ),
    "status_begin": N_("Add a photo to begin."),
    "tab_ask": N_("Ask"),
    "tab_benchmark": N_("Benchmark"),
    "tab_settings": N_("Settings"),
}


def accept_languages(header: str | None) -> list[str]:
    """The languages of an Accept-Language header, best first (by q-value; equal ones in the header's
    order), as primary subtags ("es-ES" -> "es"); q=0 and malformed entries are left out."""
    ranked: list[tuple[float, int, str]] = []
    for index, entry in enumerate((header or "")[:MAX_HEADER_CHARS].split(",")[:MAX_ACCEPT_ENTRIES]):
        tag, _, params = entry.strip().partition(";")
        code = tag.strip().lower().replace("_", "-").split("-")[0]
        if not code.isascii() or not code.isalpha() or len(code) > 8:
            continue
        quality = 1.0
        params = params.strip()
        if params:
            name, _, value = params.partition("=")
            try:
                quality = float(value) if name.strip().lower() == "q" else -1.0
            except ValueError:
                continue
        if 0.0 < quality <= 1.0:
            ranked.append((-quality, index, code))
    return [code for _, _, code in sorted(ranked)]


def cookie_language(header: str | None) -> str | None:
    """The code the Cookie header holds as `whichone_lang`, where it is one the page has; read pair by
    pair, so a malformed pair before it does not lose it."""
    for pair in (header or "")[: MAX_HEADER_CHARS * 2].split(";"):
        name, sep, value = pair.strip().partition("=")
        if sep and name.strip() == COOKIE:
            code = value.strip().strip('"').lower()
            if code in PAGE_LANGUAGES:
                return code
    return None


def choose_page_language(chosen: str | None, accept_language: str | None) -> str:
    """The page's language: the one chosen, else the first of the browser's that the page has, else
    English."""
    if chosen in PAGE_LANGUAGES:
        return str(chosen)
    for code in accept_languages(accept_language):
        if code in PAGE_LANGUAGES:
            return code
    return ENGLISH


def request_language(request: Any) -> str:
    """The page's language for a gr.Request (or None: English)."""
    headers = getattr(request, "headers", None)
    if headers is None:
        return ENGLISH
    return choose_page_language(cookie_language(headers.get("cookie")), headers.get("accept-language"))


def remember_page_language(state: Any, request: Any) -> None:
    """Read the page's language of `request` into the session (UIState.page_lang); a call without a
    request (the API, a test) leaves it as it was."""
    if request is not None and getattr(request, "headers", None) is not None:
        state.page_lang = request_language(request)


def page_say(state: Any) -> Say:
    """The sentences of the page's language of the session."""
    return Say(getattr(state, "page_lang", ENGLISH) or ENGLISH)


def page_language_html() -> str:
    """The Settings tab's first control: a native select (one Tab stop, the arrow keys choose), each
    language in its own name and `lang`. The page's script keeps it and applies the choice."""
    options = "".join(
        f'<option value="{code}" lang="{code}">{escape(name)}</option>'
        for code, name in PAGE_LANGUAGES.items()
    )
    return (
        '<div class="wh-page-language">'
        '<label for="wh-page-language-select" data-wh-text="page_language">Page language</label>'
        '<select id="wh-page-language-select" aria-describedby="wh-page-language-info">'
        '<option value="" data-wh-text="browser_language">The browser\'s language</option>'
        f"{options}</select>"
        '<p id="wh-page-language-info" data-wh-text="page_language_info">'
        f"{escape(PAGE_TEXTS['page_language_info'])}</p></div>"
    )


def page_texts_json() -> str:
    """PAGE_TEXTS in every page language ({"es": {"skip_nav": "..."}, ...}), for the page's script."""
    tables: dict[str, dict[str, str]] = {}
    for code in PAGE_LANGUAGES:
        catalog = translations(code) if code in CATALOG_LANGUAGES else translations(ENGLISH)
        tables[code] = {key: catalog.gettext(english) for key, english in PAGE_TEXTS.items()}
    return json.dumps(tables, ensure_ascii=False)


__all__ = [
    "COOKIE",
    "PAGE_LANGUAGES",
    "PAGE_TEXTS",
    "accept_languages",
    "choose_page_language",
    "cookie_language",
    "page_language_html",
    "page_say",
    "page_texts_json",
    "remember_page_language",
    "request_language",
]
