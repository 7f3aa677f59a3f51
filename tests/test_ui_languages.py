"""The page in the browser's language (issue 36): Gradio's I18n with labels from the gettext catalogs, and
Real app (`python app.py`, tiny models) and Debian's Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_support import open_app, running_app, screenshot_dir

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def app_url():
    with running_app() as url:
        yield url


@pytest.mark.parametrize(
    ("locale", "ask", "question"),
    [
        ("es-ES", "Preguntar", "Pregunta sobre la foto"),
        ("fr-FR", "Demander", "Question sur la photo"),
        ("de-DE", "Fragen", "Frage zum Foto"),
        ("pt-BR", "Perguntar", "Pergunta sobre a foto"),
        pytest.param(
            "it-IT",
            "Chiedi",
            "Domanda sulla foto",
            marks=pytest.mark.xfail(
                strict=True,
                reason="Gradio 6.31 ships no Italian locale of its own and shows the English labels in an "
                "Italian browser (seen here); the catalog has them for when it does",
            ),
        ),
        ("zh-CN", "提问", "关于照片的问题"),
        ("en-GB", "Ask", "Question about the photo"),
    ],
)
def test_the_page_follows_the_browsers_language(
    app_url: str, tmp_path: Path, locale: str, ask: str, question: str
):
    with playwright_api.sync_playwright() as p:
        context, page = open_app(p, app_url, tmp_path / "profile", locale=locale)
        try:
            page.wait_for_function(
                "(text) => document.querySelector('#wh-ask')?.textContent.trim() === text", arg=ask
            )
            assert page.get_by_label(question).count() >= 1
            folder = screenshot_dir()
            if folder is not None:
                page.screenshot(path=str(folder / f"page-{locale}.png"), full_page=False)
        finally:
            context.close()
