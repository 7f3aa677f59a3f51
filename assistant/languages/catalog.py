"""The assistant's own sentences in the question's language: gettext catalogs.

Each language has locales/<lang>/LC_MESSAGES/whichone.po beside this module (msgid: the English sentence,
with {named} fields filled after translation). They are compiled in memory with Babel when first needed,
so the .po files are the only source and nothing compiled can go stale; English uses the msgids as they
are (gettext's NullTranslations), so its sentences are exactly the code's.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from assistant.languages import CATALOG_LANGUAGES

LOCALES = Path(__file__).with_name("locales")
DOMAIN = "whichone"


def catalog_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of `lang`; English (and a language without a catalog) says the msgids."""
    if lang not in CATALOG_LANGUAGES or not catalog_path(lang).is_file():
        return gettext.NullTranslations()
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


class Say:
    """Sentences of one language: `say("About {description}: ", description=...)`, and `say.n(...)` for a
    count. The English text is the msgid: what `babel extract -k say -k n:1,2` finds in the code."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self._t = translations(lang)

    def __call__(self, msgid: str, **fields: Any) -> str:
        return self._t.gettext(msgid).format(**fields)

    def n(self, singular: str, plural: str, count: int, **fields: Any) -> str:
        return self._t.ngettext(singular, plural, count).format(count=count, **fields)

    def noun(self, noun: str) -> str:
        """The head noun as this language writes it in a sentence: German nouns with a capital."""
        return noun[:1].upper() + noun[1:] if self.lang == "de" else noun


ENGLISH = Say("en")

__all__ = ["DOMAIN", "ENGLISH", "LOCALES", "Say", "catalog_path", "translations"]
