"""The README's start command on a first run: `python app.py` with nothing set but where the Hub is (a local
server speaking the Hub's file API, tests/hub_server.py, serving the tiny checkpoints of the cpu stack's
classes under the cpu stack's real repository ids). The page is up at once; its banner says what is being
fetched, how much and how far while the terminal prints the same; asking meanwhile says to wait; then the
models load and a question gets candidates. A download that breaks off leaves a banner that says so, and
the next start resumes it."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hub_server import Hub, serve_hub
from tests.test_ui_a11y import wait_until_settled
from tests.test_ui_browser import bot_messages, option_labels, shoot, wait_for_bot_text
from tests.ui_support import CHROMIUM, AppServer, app_server, launch_chromium, open_examples, pick_radio

pytestmark = [pytest.mark.slow]

SMOLVLM = "HuggingFaceTB/SmolVLM-256M-Instruct"


def cpu_stack_hub(**options: object) -> Hub:
    from models.tiny import build_tiny
    from models.tiny_detectors import TINY_DETECTOR_RECIPES
    from models.tiny_sam2 import TINY_SAM2
    from models.tiny_smolvlm import TINY_SMOLVLM

    folders = {
        SMOLVLM: build_tiny(TINY_SMOLVLM),
        "google/owlvit-base-patch32": build_tiny(TINY_DETECTOR_RECIPES["owlvit"]),
        "facebook/sam2.1-hiera-tiny": build_tiny(TINY_SAM2),
    }
    return Hub.from_folders(folders, **options)  # type: ignore[arg-type]


def first_start(url: str, home: Path) -> object:
    """The app as a new user starts it: no stack or model chosen, online, an empty Hugging Face cache."""
    return app_server(
        WHICHONE_STACK="cpu",  # what a machine without CUDA picks by itself (explicit: CI may have a GPU)
        WHICHONE_MODEL="",
        WHICHONE_POINTER="",
        WHICHONE_SEGMENTER="",
        HF_HUB_OFFLINE="",
        TRANSFORMERS_OFFLINE="",
        HF_ENDPOINT=url,
        HF_HOME=str(home),
    )


def wait_for_log(server: AppServer, text: str, timeout_s: float = 120) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        log = server.log_text()
        if text in log:
            return log
        time.sleep(0.5)
    raise AssertionError(f"{text!r} never printed:\n{server.log_text()[-3000:]}")


@pytest.fixture
def hub_url() -> Iterator[tuple[Hub, str]]:
    hub = cpu_stack_hub(bytes_per_second=200_000)  # 2.4 MB in about 12 s: time to watch it
    with serve_hub(hub) as url:
        yield hub, url


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}")
def test_a_first_start_downloads_the_stack_with_progress_then_answers(
    hub_url: tuple[Hub, str], tmp_path: Path
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    hub, url = hub_url
    with first_start(url, tmp_path / "hf") as server, sync_api.sync_playwright() as p:  # type: ignore[attr-defined]
        context = launch_chromium(p, tmp_path / "profile")
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(server.url)
        banner = page.locator("#wh-banner .wh-fetching")
        page.wait_for_function(
            "() => /Downloading the cpu stack: .* of 2\\.43 MB \\(\\d+%\\)/"
            ".test(document.querySelector('#wh-banner')?.innerText || '')"
        )
        first = banner.inner_text()
        shoot(page, "first_start_downloading.png")
        assert page.locator("#wh-banner progress[aria-label='Download progress']").count() == 1
        serious = [
            v["id"]
            for v in axe_module.Axe().run(page).response["violations"]
            if v["impact"] in {"serious", "critical"}
        ]
        assert not serious, serious

        # Asking before the models are here: the reply says how far the download is, and nothing breaks.
        page.get_by_text("Three coins: Whose head is on the coin?").click()
        page.wait_for_function(
            "() => /Ask again when the models are ready/.test("
            "document.querySelector('#wh-status')?.innerText || '')"
        )
        # The banner moves on, then goes once the models are loaded (its timer stops).
        page.wait_for_function(
            "(first) => { const t = document.querySelector('#wh-banner')?.innerText || '';"
            " return t !== first; }",
            arg=first,
        )
        page.wait_for_function("() => !(document.querySelector('#wh-banner')?.innerText || '').trim()",
                               timeout=180_000)  # fmt: skip
        log = server.log_text()
        assert "whichone: downloading the cpu stack, 2.43 MB" in log
        assert f"whichone: fetching {SMOLVLM}" in log and "whichone: the cpu stack is loaded" in log
        assert re.search(r"Fetching \d+ files: 100%", log)  # huggingface_hub's own bars, in the terminal

        # The photos to try closed once the first was open: open them again, as a user would.
        open_examples(page)
        page.get_by_text("Twenty-four coins: Whose head is on the coin?").click()
        page.wait_for_function("() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText)")
        page.locator("#wh-ask").click()
        wait_for_bot_text(page, ".")
        assert option_labels(page), bot_messages(page)  # the detector's candidates, from downloaded weights
        wait_until_settled(page)
        context.close()
    assert {p.split("/")[0] for p, _ in hub.gets} == {"HuggingFaceTB", "google", "facebook"}


def test_a_broken_download_says_so_and_the_next_start_resumes(tmp_path: Path) -> None:
    hub = cpu_stack_hub()
    key = f"{SMOLVLM}/model.safetensors"
    hub.breaks[key] = 50  # every try of the first start breaks off halfway
    home = tmp_path / "hf"
    with serve_hub(hub) as url:
        with first_start(url, home) as server:
            log = wait_for_log(server, "not available")
            assert f"The download did not finish (could not download {SMOLVLM}" in log
            assert "resume" in log and "Traceback" not in log
            assert server.alive()
        hub.breaks[key] = 0
        hub.gets.clear()
        with first_start(url, home) as server:
            log = wait_for_log(server, "whichone: the cpu stack is loaded")
        fetched = {path for path, _ in hub.gets}
        # The broken file again, none of its repository's files that were whole, then the repositories
        # the first start never reached.
        assert {p for p in fetched if p.startswith("HuggingFaceTB/")} == {key}
        assert "google/owlvit-base-patch32/model.safetensors" in fetched


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}")
def test_settings_fetch_a_stack_in_the_background_and_the_session_keeps_its_own_meanwhile(
    tmp_path: Path,
) -> None:
    """Online, on the cpu-tiny stack (built here), Settings -> the cpu stack -> Apply: the banner shows the
    download while questions still get answers from cpu-tiny. A download that breaks off says so and the
    session keeps cpu-tiny (its model choices come back); Apply again resumes it, and the session then uses
    the cpu stack by itself."""
    sync_api = pytest.importorskip("playwright.sync_api")

    hub = cpu_stack_hub(bytes_per_second=400_000)
    key = f"{SMOLVLM}/model.safetensors"
    hub.breaks[key] = 50  # every try breaks off halfway, until the test mends it
    with serve_hub(hub) as url:
        env = dict(
            WHICHONE_STACK="cpu-tiny", WHICHONE_MODEL="", WHICHONE_POINTER="", WHICHONE_SEGMENTER="",
            HF_HUB_OFFLINE="", TRANSFORMERS_OFFLINE="", HF_ENDPOINT=url, HF_HOME=str(tmp_path / "hf"),
        )  # fmt: skip
        with app_server(**env) as server, sync_api.sync_playwright() as p:  # type: ignore[attr-defined]
            context = launch_chromium(p, tmp_path / "profile")
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(server.url)
            page.get_by_role("tab", name="Settings").click()
            page.locator("#wh-loaded").get_by_text("smolvlm-tiny").first.wait_for()
            pick_radio(page, "wh-stack", "cpu: a laptop")
            page.locator("#wh-apply").click()
            page.get_by_text(
                "This session keeps smolvlm-tiny / owlvit-random-tiny / sam2-random-tiny until"
            ).wait_for()
            # what was applied
            assert page.locator("#wh-vlm input:checked").input_value().startswith("smolvlm-256m")

            # It breaks off: the banner says why, the session keeps cpu-tiny and the model choices say so.
            banner = page.locator("#wh-banner [role=alert]")
            banner.wait_for(timeout=120_000)
            assert "The download did not finish" in banner.inner_text()
            page.get_by_text("Not applied: The download did not finish").wait_for()
            assert page.locator("#wh-stack input:checked").input_value().startswith("cpu-tiny")
            assert page.locator("#wh-vlm input:checked").input_value().startswith("smolvlm-tiny")

            # Apply again with the Hub mended: the download resumes, and a question asked meanwhile is
            # answered by cpu-tiny.
            hub.breaks[key] = 0
            pick_radio(page, "wh-stack", "cpu: a laptop")
            page.locator("#wh-apply").click()
            page.wait_for_function(
                "() => /Downloading the cpu stack|Loading the cpu stack/"
                ".test(document.querySelector('#wh-banner')?.innerText || '')"
            )
            page.get_by_role("tab", name="Ask").click()
            page.get_by_text("Three coins: Whose head is on the coin?").click()
            page.wait_for_function(
                "() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText)"
            )
            page.locator("#wh-ask").click()
            wait_for_bot_text(page, ".")

            page.get_by_role("tab", name="Settings").click()
            page.get_by_text("Applied: smolvlm-256m / owlvit-b32 / sam2-hiera-tiny.").wait_for(
                timeout=180_000
            )
            page.locator("#wh-loaded").get_by_text("owlvit-b32").first.wait_for()
            assert not page.locator("#wh-banner").inner_text().strip()
            assert page.locator("#wh-stack input:checked").input_value() == "cpu"
            context.close()
            log = server.log_text()
    assert "whichone: the cpu stack is loaded" in log and "Traceback" not in log


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Debian's Chromium is not installed at {CHROMIUM}")
def test_the_offline_switch_after_a_failed_first_start_is_not_wiped_by_the_fetch_timer(
    tmp_path: Path,
) -> None:
    """The page is built while the first start is fetching, so its fetch timer starts active. A page opened
    after the fetch failed: one click on the banner's offline switch says "Now using the cpu-tiny stack",
    and that line stays (the timer's next tick used to blank the banner 2 s after the page loaded)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with serve_hub(Hub.from_folders({})) as url, first_start(url, tmp_path / "hf") as server:
        wait_for_log(server, "not available")  # the Hub has none of the cpu stack's repositories
        with sync_api.sync_playwright() as p:  # type: ignore[attr-defined]
            context = launch_chromium(p, tmp_path / "profile")
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(server.url)
            page.locator("#wh-banner [role=alert]").wait_for()
            page.locator("#wh-try-offline").click()
            said = "Now using the cpu-tiny stack"
            page.locator("#wh-banner").get_by_text(said).wait_for()
            page.wait_for_timeout(5_000)  # more than two of the timer's 2 s ticks
            assert said in page.locator("#wh-banner").inner_text()
            context.close()
