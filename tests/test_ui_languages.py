"""The page in the browser's language, or the one chosen in Settings (issue 36): Gradio's I18n with labels
from the gettext catalogs, the page's own texts and the server's lines in the page's language, a Spanish
reply marked Spanish and read with a Spanish voice. Real app (`python app.py`, tiny models) and Debian's
Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_support import open_app, running_app

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def app_url():
    with running_app() as url:
        yield url


# (browser locale, the Ask button, the question's label, <html lang>, the first status line)
PAGES = [
    ("es-ES", "Preguntar", "Pregunta sobre la foto", "es", "Añade una foto para empezar."),
    ("fr-FR", "Demander", "Question sur la photo", "fr", "Ajoutez une photo pour commencer."),
    ("de-DE", "Fragen", "Frage zum Foto", "de", "Fügen Sie ein Foto hinzu, um zu beginnen."),
    ("pt-BR", "Perguntar", "Pergunta sobre a foto", "pt", "Adicione uma foto para começar."),
    # Gradio 6.31 ships no Italian locale: the page script's changeLocale brings the catalog's
    ("it-IT", "Chiedi", "Domanda sulla foto", "it", "Aggiungi una foto per iniziare."),
    ("zh-CN", "提问", "关于照片的问题", "zh", "添加一张照片即可开始。"),
    ("en-GB", "Ask", "Question about the photo", "en", "Add a photo to begin."),
]
ASK_IS = "(text) => document.querySelector('#wh-ask')?.textContent.trim() === text"
STATUS = "#wh-status .wh-status"


@pytest.mark.parametrize(("locale", "ask", "question", "lang", "status"), PAGES, ids=[p[0] for p in PAGES])
def test_the_page_follows_the_browsers_language(
    app_url: str, tmp_path: Path, locale: str, ask: str, question: str, lang: str, status: str
):
    with playwright_api.sync_playwright() as p:
        context, page = open_app(p, app_url, tmp_path / "profile", locale=locale)
        try:
            page.wait_for_function(ASK_IS, arg=ask)
            assert page.get_by_label(question).count() >= 1
            page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
            page.wait_for_function(
                "(text) => document.querySelector('#wh-status .wh-status')?.textContent === text", arg=status
            )
            assert page.locator(STATUS).get_attribute("lang") == lang
        finally:
            context.close()


def _tab_names(page) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('button[role=tab]')].map(b => b.textContent.trim())"
    )


def test_the_override_in_settings_switches_at_once_and_persists(app_url: str, tmp_path: Path):
    from tests.ui_support import draw_scene

    photo = draw_scene(tmp_path / "shapes.png")
    with playwright_api.sync_playwright() as p:
        context, page = open_app(p, app_url, tmp_path / "profile", locale="es-ES")
        try:
            page.wait_for_function(ASK_IS, arg="Preguntar")
            page.get_by_role("tab", name="Ajustes").click()
            select = page.locator("#wh-page-language-select")
            select.wait_for()
            # the Settings tab opens with it; its name, in the page's language
            assert page.get_by_label("Idioma de la página").count() == 1
            assert select.input_value() == ""  # the browser's language, until one is chosen
            select.focus()
            for _ in range(3):  # one Tab stop; the arrow keys choose: English, Español, Français
                page.keyboard.press("ArrowDown")
            page.wait_for_function(ASK_IS, arg="Demander")
            assert select.input_value() == "fr"
            assert page.evaluate("() => document.documentElement.lang") == "fr"
            assert _tab_names(page) == ["Demander", "Évaluation", "Paramètres"]
            assert page.get_by_label("Langue de la page").count() == 1
            cookies = {c["name"]: c["value"] for c in context.cookies()}
            assert cookies.get("whichone_lang") == "fr"

            page.reload()
            page.wait_for_selector("#wh-photo")
            page.wait_for_function(ASK_IS, arg="Demander")  # still French after a reload
            page.locator("#wh-photo input[type=file]").set_input_files(str(photo))
            page.wait_for_function(
                "() => /^Photo prête/.test(document.querySelector('#wh-status .wh-status')?.textContent)"
            )  # the server's lines follow the choice
            assert page.locator(STATUS).get_attribute("lang") == "fr"

            page.get_by_role("tab", name="Paramètres").click()
            select.focus()
            page.keyboard.press("Home")  # "The browser's language": Spanish again
            page.wait_for_function(ASK_IS, arg="Preguntar")
            assert page.evaluate("() => document.documentElement.lang") == "es"
            assert "whichone_lang" not in {c["name"] for c in context.cookies()}
        finally:
            context.close()


def test_axe_finds_nothing_on_the_spanish_page_and_its_setting(app_url: str, tmp_path: Path):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    with playwright_api.sync_playwright() as p:
        context, page = open_app(p, app_url, tmp_path / "profile", locale="es-ES")
        try:
            page.wait_for_function(ASK_IS, arg="Preguntar")
            page.wait_for_function("() => document.fonts.status === 'loaded'")
            page.wait_for_timeout(500)
            found = []
            for tab in ("Preguntar", "Ajustes"):
                page.get_by_role("tab", name=tab).click()
                page.wait_for_timeout(500)
                violations = axe_module.Axe().run(page).response["violations"]
                found += [
                    (tab, v["id"], v["impact"]) for v in violations if v["impact"] in {"serious", "critical"}
                ]
            assert found == []
        finally:
            context.close()


# A stand-in for the Web Speech API: headless Chromium has no voices (and takes only its own voice objects),
# so the page's choice of voice is checked against a list it is given (an English and a Spanish voice,
# then only the English one) and what it would speak is recorded.
FAKE_VOICES = """
(voices) => {
  window.__spoken = [];
  const synth = {
    getVoices: () => window.__voices,
    cancel: () => {},
    speak: (u) => window.__spoken.push({ lang: u.lang, voice: u.voice ? u.voice.name : null }),
  };
  window.__voices = voices;
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
}
"""
REPLY_ARRIVED = """() => {
  const bots = document.querySelectorAll('#wh-chat .message.bot');
  const focused = document.activeElement?.closest('#wh-chat .message.bot');
  return bots.length > 0 && focused === bots[bots.length - 1];
}"""


def test_a_spanish_reply_is_marked_spanish_and_read_with_a_spanish_voice(app_url: str, tmp_path: Path):
    from tests.ui_support import draw_scene

    photo = draw_scene(tmp_path / "shapes.png")
    with playwright_api.sync_playwright() as p:
        context, page = open_app(p, app_url, tmp_path / "profile", locale="es-ES")
        try:
            page.evaluate(
                FAKE_VOICES, [{"lang": "en-US", "name": "English"}, {"lang": "es-ES", "name": "Monica"}]
            )
            page.locator("#wh-photo input[type=file]").set_input_files(str(photo))
            page.wait_for_function("() => /Foto lista/.test(document.querySelector('#wh-status')?.innerText)")
            box = page.locator("#wh-question textarea").first
            box.fill("¿De qué color es el círculo?")
            box.press("Enter")
            page.wait_for_function(REPLY_ARRIVED)
            status = page.locator("#wh-status .wh-status")
            assert status.get_attribute("lang") == "es"
            assert status.inner_text().startswith("Respuesta lista")  # the status line in Spanish too
            # the list's name and the numbered photo's text twin name the reply's candidates in Spanish
            name = page.locator("#wh-options [data-testid=block-info]").first.inner_text()
            assert name.startswith("¿A cuál te refieres? 4 candidatos, numerados fila por fila"), name
            alt = page.locator("#wh-overlay img").first.get_attribute("alt") or ""
            assert alt.startswith("Tu foto con 4 regiones numeradas marcadas: 1: "), alt
            # the reply a screen reader lands on (focus moved to it) is marked Spanish: its voice switches
            assert (
                page.evaluate("() => document.activeElement.closest('[lang]').getAttribute('lang')") == "es"
            )

            page.locator("#wh-read").click()
            page.wait_for_function("() => window.__spoken.length === 1")
            assert page.evaluate("() => window.__spoken[0]") == {"lang": "es", "voice": "Monica"}

            page.evaluate("() => { window.__voices = [{ lang: 'en-US', name: 'English' }]; }")
            page.locator("#wh-read").click()
            page.wait_for_function("() => window.__spoken.length === 2")
            assert page.evaluate("() => window.__spoken[1]") == {"lang": "es", "voice": None}
            said = page.locator("#wh-read-status").inner_text()
            assert "No Spanish voice is installed" in said, said
        finally:
            context.close()
