"""The page's language (issue 36, ui/page_language.py): the choice (the Settings choice's cookie, else
Accept-Language by q-value, else English), the session's language read from each event's request, the
setting's markup, the page's lines from the catalogs, and English unchanged. The browser's side is in
tests/test_ui_languages.py."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import gradio as gr
import pytest
from babel.messages.pofile import read_po
from PIL import Image
from starlette.requests import Request

from assistant.grounding import Grounder
from assistant.languages import CATALOG_LANGUAGES
from assistant.languages.catalog import ENGLISH, Say, catalog_path, translations
from assistant.pipeline import Assistant, AssistantConfig
from assistant.types import Candidates, Region
from models.base import GenerationSettings
from models.blob_pointer import BlobPointer
from models.catalog import ModelChoice
from models.types import Box
from tests.ui_support import FOUR_SHAPES, draw_scene
from ui.engine import ModelPool
from ui.explain import NO_REPLY_YET, OPTIONS_LABEL, explain_markdown, options_label
from ui.handlers import AskHandlers
from ui.i18n import LABELS
from ui.overlay import alt_text
from ui.page_language import (
    MAX_ACCEPT_ENTRIES,
    PAGE_LANGUAGES,
    PAGE_TEXTS,
    accept_languages,
    choose_page_language,
    cookie_language,
    page_language_html,
    page_texts_json,
    remember_page_language,
    request_language,
)
from ui.page_script import page_js
from ui.state import UIState

# --- the choice --------------------------------------------------------------------------------------------


def test_accept_language_is_read_by_q_value() -> None:
    assert accept_languages("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == ["fr", "fr", "en", "de"]
    assert accept_languages("en;q=0.3, es-ES") == ["es", "en"]  # q=1 by default, before 0.3
    assert accept_languages("de;q=0.5, it;q=0.5") == ["de", "it"]  # equal q: the header's order
    assert accept_languages("zh-Hans-CN") == ["zh"]
    assert accept_languages("pt_BR") == ["pt"]


@pytest.mark.parametrize(
    "header", ["", None, "es;q=0", "es;q=abc", "es;q=1.5", ";;;,,,", "ésp", "es;foo=1", "x" * 5000]
)
def test_malformed_or_refused_entries_are_left_out(header: str | None) -> None:
    assert accept_languages(header) == []


def test_a_long_header_is_read_only_so_far() -> None:
    header = ", ".join(["xx"] * MAX_ACCEPT_ENTRIES + ["es"])
    assert "es" not in accept_languages(header)
    assert choose_page_language(None, header) == "en"
    assert choose_page_language(None, ", ".join(["xx"] * (MAX_ACCEPT_ENTRIES - 1) + ["es"])) == "es"


def test_the_cookie_is_read_pair_by_pair() -> None:
    assert cookie_language("whichone_lang=fr") == "fr"
    assert cookie_language("a=1; whichone_lang=de; b=2") == "de"
    assert cookie_language("broken; =; whichone_lang=it") == "it"  # a malformed pair before ours
    assert cookie_language('whichone_lang="pt"') == "pt"
    assert cookie_language("whichone_lang=xx") is None  # a language the page does not have
    assert cookie_language("whichone_lang=") is None
    assert cookie_language("other_lang=es") is None
    assert cookie_language(None) is None


def test_the_choice_comes_first_then_the_browsers_languages_then_english() -> None:
    assert choose_page_language("fr", "es-ES,es;q=0.9") == "fr"
    assert choose_page_language(None, "ja, es-ES;q=0.8, en;q=0.5") == "es"  # no Japanese catalog
    assert choose_page_language(None, "en-GB, es;q=0.9") == "en"  # English is one of the page's
    assert choose_page_language(None, "ja, ko") == "en"
    assert choose_page_language("xx", None) == "en"
    assert set(PAGE_LANGUAGES) == {"en", *CATALOG_LANGUAGES}


def _request(headers: dict[str, str]) -> gr.Request:
    """A gr.Request over a real Starlette request with these headers, as Gradio hands it to a handler."""
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/gradio_api/queue/join",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "query_string": b"",
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 7860),
    }
    return gr.Request(request=Request(scope))


def test_the_session_takes_the_page_language_of_each_event() -> None:
    state = UIState(choice=ModelChoice("tiny", "blobs", None))
    assert request_language(_request({"Accept-Language": "de-DE,de;q=0.9"})) == "de"
    remember_page_language(state, _request({"Accept-Language": "es-ES", "Cookie": "whichone_lang=fr"}))
    assert state.page_lang == "fr"
    remember_page_language(state, None)  # the API, a test: left as it was
    assert state.page_lang == "fr"
    remember_page_language(state, _request({"Accept-Language": "ja"}))
    assert state.page_lang == "en"


def test_the_handlers_write_the_page_lines_in_the_page_language() -> None:
    handlers = AskHandlers(ModelPool())
    state = UIState(choice=ModelChoice("tiny", "blobs", None))
    spanish = _request({"Accept-Language": "es-ES,es;q=0.9"})
    outputs = handlers.start_over(state, spanish)
    status, explain, options = outputs[4], outputs[3], outputs[2]
    assert status.endswith('lang="es">Has empezado de nuevo. Añade una foto para comenzar.</div>')
    assert explain == "Haz una pregunta sobre una foto; aquí aparecerán las razones de la respuesta."
    assert options["label"] == "¿A cuál te refieres?"
    status = handlers.undo_choice(state, _request({"Cookie": "whichone_lang=it"}))[4]
    assert 'lang="it">Non c&#x27;è nessuna scelta da annullare.</div>' in status
    english = handlers.start_over(state, _request({"Accept-Language": "en-US"}))
    assert english[4].endswith('lang="en">Started over. Add a photo to begin.</div>')
    assert english[3] == NO_REPLY_YET and english[2]["label"] == OPTIONS_LABEL


# --- the setting and the page's own texts -----------------------------------------------------------------


def test_the_setting_is_one_native_select_with_each_language_in_its_own_name() -> None:
    html = page_language_html()
    assert html.count("<select") == 1 and 'for="wh-page-language-select"' in html
    assert '<option value="" data-wh-text="browser_language">' in html  # back to the browser's
    for code, name in PAGE_LANGUAGES.items():
        assert f'<option value="{code}" lang="{code}">{name}</option>' in html
    assert "Español" in html and "Deutsch" in html and "中文" in html


def test_the_page_script_parses_and_carries_every_page_text() -> None:
    import json

    tables = json.loads(page_texts_json())
    assert set(tables) == set(PAGE_LANGUAGES)
    assert tables["en"] == PAGE_TEXTS
    assert tables["es"]["page_language"] == "Idioma de la página"
    assert tables["zh"]["tab_settings"] == "设置"
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js here to parse the page's script")
    script = Path(__file__).parent / "_page_script_check.js"
    try:
        script.write_text(f"const pageScript = {page_js()};\n", encoding="utf-8")
        result = subprocess.run([node, "--check", str(script)], capture_output=True, text=True, timeout=60)
    finally:
        script.unlink(missing_ok=True)
    assert result.returncode == 0, result.stderr


# --- the catalogs ------------------------------------------------------------------------------------------

PAGE_MSGIDS = sorted({*LABELS.values(), *PAGE_TEXTS.values()})


@pytest.mark.parametrize("lang", sorted(CATALOG_LANGUAGES))
def test_every_page_text_is_translated(lang: str) -> None:
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    for msgid in PAGE_MSGIDS:
        message = catalog.get(msgid)
        assert message is not None and message.string and not message.fuzzy, (lang, msgid)
    say = Say(lang)
    # the sentences that name another control quote its own translation
    assert f"{say('Answer about this one')}" in say(LABELS["options_info"])
    assert say(OPTIONS_LABEL) in say(LABELS["overlay"])
    assert say(OPTIONS_LABEL) in say(
        "To choose without a mouse, use the list 'Which one do you mean?' next to the picture."
    )
    assert say(PAGE_TEXTS["keys_summary"]) in say(LABELS["intro"])
    assert say(LABELS["ask"]) in say(LABELS["examples_label"])
    assert say(LABELS["ask"]) in say("{now} Photo ready: press Ask to ask your question again.", now="")


def test_english_says_the_msgids_of_the_page() -> None:
    for msgid in PAGE_MSGIDS:
        assert translations("en").gettext(msgid) == msgid


# --- the lines about candidates, in the reply's language; English unchanged ------------------------------


def _coins(n: int, found: int | None = None) -> Candidates:
    regions = [
        Region(id=i + 1, box=Box(40.0 * i, 0, 40.0 * i + 30, 30), description=f"moneda {i + 1}")
        for i in range(n)
    ]
    return Candidates(regions, (640, 480), phrase="moneda", found=found)


def test_the_list_name_and_the_pictures_twin_in_each_language() -> None:
    assert options_label(_coins(4), Say("es")) == (
        "¿A cuál te refieres? 4 candidatos, numerados fila por fila desde arriba, cada fila de izquierda a "
        "derecha"
    )
    assert options_label(_coins(1), Say("de")).startswith("Welches meinen Sie? 1 Kandidat, ")
    assert options_label(_coins(12, found=24), Say("fr")).startswith(
        "Duquel parlez-vous ? 12 des 24 trouvés sont marqués"
    )
    assert alt_text(_coins(2), Say("it")) == (
        "La tua foto con 2 regioni numerate segnate: 1: moneda 1; 2: moneda 2."
    )
    assert alt_text(None, Say("zh")) == "您的照片。没有标出候选区域。"
    # English, as before
    assert options_label(_coins(1)) == (
        "Which one do you mean? 1 candidate, numbered row by row from the top, each row left to right"
    )
    assert alt_text(_coins(1)) == "Your photo with 1 numbered region marked: 1: moneda 1."
    assert (
        alt_text(_coins(2), ENGLISH) == "Your photo with 2 numbered regions marked: 1: moneda 1; 2: moneda 2."
    )


FAST = AssistantConfig(
    recognition_settings=GenerationSettings(max_new_tokens=8),
    answer_settings=GenerationSettings(max_new_tokens=8),
)


def test_the_explain_panel_in_the_page_language_and_english_unchanged(tiny_vlm, tmp_path: Path) -> None:
    photo = Image.open(draw_scene(tmp_path / "four.png", FOUR_SHAPES)).convert("RGB")
    assistant = Assistant(tiny_vlm, Grounder(BlobPointer()), FAST)
    reply, _ = assistant.ask(photo, "¿De qué color es la caja?")
    spanish = explain_markdown(reply, "tiny", Say("es"))
    assert spanish.startswith("- **Veredicto del reconocimiento:** ")
    assert "- **Idioma:** Español (es), detectado en la pregunta; su referente lo leyó: " in spanish
    calls = ", ".join(f"{role} {n}" for role, n in sorted(reply.model_calls.items()))
    assert f"- **Llamadas al modelo:** {calls}\n" in spanish and spanish.endswith("- **Modelos:** tiny")
    english = explain_markdown(reply, "tiny")
    lines = english.splitlines()
    assert lines[0].startswith("- **Recognition verdict:** ")
    assert lines[1].startswith(f"- **Level:** {int(reply.level)} (")
    assert lines[3] == f"- **Why:** {reply.explanation}"
    assert "- **Language:** Spanish (es), detected from the question; its referent read by " in english
    assert f"- **Model calls:** {calls}\n" in english and english.endswith("- **Models:** tiny")
    assert explain_markdown(None) == NO_REPLY_YET and explain_markdown(None, "", Say("pt")).startswith("Faça")


def test_a_reply_without_a_catalog_is_marked_english_with_its_own_language_kept(tiny_vlm, tmp_path) -> None:
    from ui.handlers import reply_status

    photo = Image.open(draw_scene(tmp_path / "four.png", FOUR_SHAPES)).convert("RGB")
    assistant = Assistant(tiny_vlm, Grounder(BlobPointer()), FAST)
    japanese, _ = assistant.ask(photo, "カップは何色ですか？")
    assert japanese.focus is not None and japanese.focus.language == "ja"
    line = reply_status(japanese)
    assert 'data-reply-lang="ja" lang="en">Reply ready: ' in line  # English words, marked English
    spanish, _ = assistant.ask(photo, "¿De qué color es la caja?")
    assert 'data-reply-lang="es" lang="es">Respuesta lista: ' in reply_status(spanish)
