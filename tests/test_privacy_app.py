"""Privacy at the app level, through the public API against the real server (tiny VLM, blobs pointer).

- A full session (ask, choose, click, hint, another question, start over) of a user who does not opt in
  writes no image and no question anywhere outside the RAM temp folder: before and after, every new or
  changed file under tempfile.gettempdir(), ~/.cache (whichone's and Gradio's caches), the repository and
  the save folder is read, and none may hold the question's or hint's unique words or be an image with
  this test's pixels (each run draws its own colours). The RAM folder (the server prints it at start)
  holds the upload during the session and no file of the session after start over; the server's own
  stdout/stderr never contain the question or the hint.
- Closing the client (a tab closed) deletes its upload at once, not when Gradio expires the state.
- The opt-in: this server runs with WHICHONE_SAVE_CONVERSATIONS (the operator allows saving); only a user
  who asks (/save_conversation, the UI's checkbox) gets the conversation written, the photo only if asked
  too, and unticking deletes it. Without the setting (in-process build) there is neither the endpoint nor
  the checkbox; test_ui_api checks the default server's public endpoints exactly.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from stat import S_ISREG

import numpy as np
import pytest
from PIL import Image

from tests.ui_support import FOUR_SHAPES, REPO, AppServer, app_server, box_centre, draw_scene

pytestmark = pytest.mark.slow

gradio_client = pytest.importorskip("gradio_client")
from gradio_client import Client, handle_file  # noqa: E402
from gradio_client.exceptions import AppError  # noqa: E402

IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"RIFF", b"BM")
QUESTION = "What colour is the square?"
SKIP_PARTS = ("pytest-of-", ".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache")


@pytest.fixture(scope="module")
def save_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("saved-conversations")


@pytest.fixture(scope="module")
def server(save_dir: Path) -> Iterator[AppServer]:
    # A 1 s heartbeat: Gradio notices a closed client within about a second (default 15 s).
    with app_server(WHICHONE_SAVE_CONVERSATIONS=str(save_dir), GRADIO_HEARTBEAT_INTERVAL="1") as running:
        yield running


@pytest.fixture(scope="module")
def ram_dir(server: AppServer) -> Path:
    found = re.search(r"uploads are kept in (\S+)", server.log_text())
    if not found:
        pytest.skip("an external server (WHICHONE_UI_URL): its temp folder is not known here")
    folder = Path(found.group(1))
    assert str(folder).startswith("/dev/shm/"), folder  # RAM by default
    return folder


def unique_scene(path: Path) -> tuple[Path, list[tuple[int, int, int]]]:
    """FOUR_SHAPES in colours of this run only (so a copy of this photo is recognisable anywhere)."""
    rng = np.random.default_rng(uuid.uuid4().int % 2**32)
    colours = [tuple(int(max(0, min(255, c + rng.integers(-12, 13)))) for c in col) for _, col in FOUR_SHAPES]
    shapes = [(box, colour) for (box, _), colour in zip(FOUR_SHAPES, colours, strict=True)]
    return draw_scene(path, shapes), colours


def is_our_photo(path: Path, colours: list[tuple[int, int, int]]) -> bool:
    """Whether `path` is an image showing this run's squares (at any scale, in any format)."""
    try:
        with Image.open(path) as im:
            rgb = im.convert("RGB")
    except Exception:  # noqa: BLE001 - not an image
        return False
    sx, sy = rgb.width / 640, rgb.height / 480
    for (box, _), colour in zip(FOUR_SHAPES, colours, strict=True):
        cx, cy = box_centre(box)
        pixel = rgb.getpixel((min(rgb.width - 1, int(cx * sx)), min(rgb.height - 1, int(cy * sy))))
        if max(abs(a - b) for a, b in zip(pixel, colour, strict=True)) > 6:
            return False
    return True


def watched_dirs(save_dir: Path) -> list[Path]:
    return [Path(tempfile.gettempdir()), Path.home() / ".cache", REPO, save_dir]


def snapshot(dirs: list[Path], skip: Path | None = None) -> dict[str, tuple[float, int]]:
    """path -> (mtime, size) of every file under `dirs`, not descending into SKIP_PARTS or `skip`."""
    out: dict[str, tuple[float, int]] = {}
    for root in dirs:
        for folder, subdirs, names in os.walk(root):
            subdirs[:] = [
                d for d in subdirs if not any(p in d for p in SKIP_PARTS) and Path(folder, d) != skip
            ]
            for name in names:
                path = os.path.join(folder, name)
                try:
                    info = os.stat(path, follow_symlinks=False)
                except OSError:
                    continue  # removed meanwhile (other processes use /tmp too)
                if S_ISREG(info.st_mode):
                    out[path] = (info.st_mtime, info.st_size)
    return out


def leaks(before: dict, after: dict, secrets: list[str], colours) -> list[str]:
    """New or changed files that hold a secret word or are a copy of this run's photo."""
    found = []
    for name, stamp in after.items():
        if before.get(name) == stamp:
            continue
        path = Path(name)
        try:
            data = path.read_bytes()[:50_000_000]
        except OSError:
            continue
        if any(s.encode() in data for s in secrets):
            found.append(f"{name}: holds the question or hint")
        elif data.startswith(IMAGE_MAGIC) and is_our_photo(path, colours):
            found.append(f"{name}: a copy of the photo")
    return found


def files_in(folder: Path) -> set[str]:
    return {str(p) for p in folder.rglob("*") if p.is_file()}


def wait_until(condition, timeout_s: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.25)
    return condition()


def test_a_full_session_writes_no_photo_or_question_and_start_over_empties_the_ram_folder(
    server: AppServer, ram_dir: Path, save_dir: Path, tmp_path: Path
) -> None:
    token, hint_token = f"zq{uuid.uuid4().hex[:10]}", f"hq{uuid.uuid4().hex[:10]}"
    photo, colours = unique_scene(tmp_path / f"private-{token}.png")
    dirs = watched_dirs(save_dir)
    ram_before = files_in(ram_dir)
    before = snapshot(dirs, skip=ram_dir)
    log_before = len(server.log_text())

    client = Client(server.url, verbose=False)
    first = client.predict(handle_file(str(photo)), f"What colour is the {token} square?", api_name="/ask")
    assert len(first["candidates"]) == 4
    during = files_in(ram_dir) - ram_before
    assert any(is_our_photo(Path(p), colours) for p in during), during  # the upload is in RAM, here
    client.predict(2, api_name="/choose")
    x0, y0, x1, y1 = first["candidates"][0]["box"]
    client.predict((x0 + x1) / 2, (y0 + y1) / 2, api_name="/click")
    client.predict(f"the {hint_token} one on the top left", api_name="/hint")
    client.predict(None, f"Is the {token} square big?", api_name="/ask")
    with pytest.raises(AppError):
        client.predict(9, api_name="/choose")  # an error turn too
    assert client.predict(api_name="/start_over") == {"ok": True}

    after = snapshot(dirs, skip=ram_dir)
    assert not leaks(before, after, [token, hint_token], colours)
    # No file of the session in the RAM folder after start over. Gradio's upload parser leaves one empty
    # (0-byte) staging file per upload in the folder's top level: it holds nothing; delete_cache sweeps it.
    left = {p for p in files_in(ram_dir) - ram_before if Path(p).stat().st_size > 0}
    assert not left, left
    assert not any(save_dir.iterdir())  # not opted in: nothing saved
    log = server.log_text()[log_before:]
    assert token not in log and hint_token not in log and photo.name not in log, log[-2000:]
    client.close()


def test_closing_the_client_deletes_its_upload_at_once(
    server: AppServer, ram_dir: Path, tmp_path: Path
) -> None:
    photo, colours = unique_scene(tmp_path / "closing.png")
    ram_before = files_in(ram_dir)
    client = Client(server.url, verbose=False)
    client.predict(handle_file(str(photo)), "What colour is the square?", api_name="/ask")
    ours = {p for p in files_in(ram_dir) - ram_before if is_our_photo(Path(p), colours)}
    assert ours
    client.close()  # the heartbeat stops: Gradio's unload event, as when a tab is closed
    assert wait_until(lambda: not any(Path(p).exists() for p in ours)), ours


def read_saved(save_dir: Path) -> dict[str, dict]:
    return {
        p.parent.name: json.loads(p.read_text(encoding="utf-8")) for p in save_dir.glob("*/conversation.json")
    }


def test_saving_happens_only_on_opt_in_with_the_photo_only_if_asked_and_untick_deletes(
    server: AppServer, save_dir: Path, tmp_path: Path
) -> None:
    token = f"sq{uuid.uuid4().hex[:10]}"
    photo, colours = unique_scene(tmp_path / f"name-{token}.png")
    user = Client(server.url, verbose=False)
    other = Client(server.url, verbose=False)  # never opts in
    question = f"What colour is the {token} square?"
    user.predict(handle_file(str(photo)), question, api_name="/ask")
    other.predict(handle_file(str(photo)), question, api_name="/ask")
    user.predict(2, api_name="/choose")
    assert not read_saved(save_dir)  # nobody opted in yet

    result = user.predict(True, False, api_name="/save_conversation")
    assert result["saving"] and not result["include_photo"] and "without the photo" in result["message"]
    saved = read_saved(save_dir)
    assert list(saved) == [result["conversation"]]
    record = saved[result["conversation"]]
    folder = save_dir / result["conversation"]
    assert record["photo"] is None and not (folder / "photo.png").exists()
    assert [t["kind"] for t in record["turns"]] == ["ask", "choose"]
    assert record["turns"][0]["input"] == question
    assert len(record["turns"][0]["reply"]["candidates"]) == 4
    assert record["turns"][1]["reply"]["resolved_region"] == 2 and record["chat"] == []  # API: no chat shown
    assert record["image_size"] == [640, 480] and "tiny" in record["models"]
    assert photo.name not in (folder / "conversation.json").read_text(encoding="utf-8")  # no file name

    # Later turns, errors included, are added while the opt-in holds.
    user.predict("the one on the left", api_name="/hint")
    with pytest.raises(AppError, match="no region number 9"):
        user.predict(9, api_name="/choose")
    record = read_saved(save_dir)[result["conversation"]]
    assert [t["kind"] for t in record["turns"]] == ["ask", "choose", "hint", "choose"]
    assert "no region number 9" in record["turns"][-1]["error"]

    with_photo = user.predict(True, True, api_name="/save_conversation")
    assert with_photo["conversation"] == result["conversation"] and with_photo["include_photo"]
    saved_photo = folder / "photo.png"
    assert saved_photo.exists() and is_our_photo(saved_photo, colours)
    assert read_saved(save_dir)[result["conversation"]]["photo"] == "photo.png"
    assert not Image.open(saved_photo).getexif()  # no metadata

    other.predict(1, api_name="/choose")
    assert list(read_saved(save_dir)) == [result["conversation"]]  # the other session saved nothing

    off = user.predict(False, True, api_name="/save_conversation")
    assert not off["saving"] and "deleted" in off["message"]
    assert not folder.exists() and not any(save_dir.iterdir())
    user.predict(None, question, api_name="/ask")
    assert not any(save_dir.iterdir())  # unticked: later turns are not saved either

    # Start over forgets the opt-in with the conversation.
    user.predict(True, False, api_name="/save_conversation")
    user.predict(api_name="/start_over")
    user.predict(handle_file(str(photo)), question, api_name="/ask")
    assert len(read_saved(save_dir)) == 1  # only the conversation saved before start over
    user.predict(False, False, api_name="/save_conversation")
    user.close()
    other.close()


def test_the_ask_tabs_checkboxes_save_and_start_over_unticks_them(
    server: AppServer, save_dir: Path, tmp_path: Path
) -> None:
    """The same opt-in through the browser (Chromium): tick to save, tick to add the photo, start over."""
    from tests.ui_support import CHROMIUM, launch_chromium

    if not CHROMIUM.exists():
        pytest.skip(f"Debian's Chromium is not installed at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    token = f"bq{uuid.uuid4().hex[:10]}"
    photo, colours = unique_scene(tmp_path / "browser.png")
    before = set(read_saved(save_dir))
    status = "() => document.querySelector('#wh-status')?.innerText || ''"
    with sync_api.sync_playwright() as playwright:
        context = launch_chromium(playwright, tmp_path / "profile")
        try:
            page = context.new_page()
            page.set_default_timeout(30_000)
            page.goto(server.url)
            page.locator("#wh-photo input[type=file]").set_input_files(str(photo))
            page.wait_for_function(f"() => /Photo ready/.test(({status})())")
            page.locator("#wh-question textarea").fill(f"What colour is the {token} square?")
            page.locator("#wh-question textarea").press("Enter")
            page.wait_for_function("() => document.querySelectorAll('#wh-options label').length === 4")
            assert set(read_saved(save_dir)) == before  # not ticked: nothing saved

            page.get_by_label("Save this conversation for error inspection").check()
            page.wait_for_function(
                f"() => /saved for error inspection, without the photo/.test(({status})())"
            )
            new = set(read_saved(save_dir)) - before
            assert len(new) == 1
            (conversation,) = new
            record = read_saved(save_dir)[conversation]
            assert record["turns"][0]["input"].endswith(f"{token} square?")
            assert any(token in m["content"] for m in record["chat"])  # the chat as shown
            assert not (save_dir / conversation / "photo.png").exists()

            page.get_by_label("Include the photo").check()
            page.wait_for_function(f"() => /with the photo/.test(({status})())")
            assert is_our_photo(save_dir / conversation / "photo.png", colours)

            page.locator("#wh-start-over").click()
            page.locator("#wh-confirm-start-over").click()  # it asks first
            page.wait_for_function(f"() => /Started over/.test(({status})())")
            page.wait_for_function(
                "() => [...document.querySelectorAll('#wh-save input, #wh-save-photo input')]"
                ".every(box => !box.checked)"
            )
        finally:
            context.close()
    # Start over ends the opt-in but keeps what was saved with consent; the user can delete it by
    # unticking before starting over (the API test checks that).
    assert (save_dir / conversation / "conversation.json").exists()


def test_without_the_setting_there_is_no_endpoint_and_no_checkbox(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.app import build_app
    from ui.conversation_log import SAVE_ENV
    from ui.engine import ModelChoice, ModelPool

    def build() -> tuple[set[str], set[str]]:
        demo = build_app(pool=ModelPool(), choice=ModelChoice("tiny", "blobs", None))  # nothing loaded
        names = {fn.api_name for fn in demo.fns.values()}
        labels = {getattr(b, "label", None) for b in demo.blocks.values()}
        return names, labels

    monkeypatch.delenv(SAVE_ENV, raising=False)
    names, labels = build()
    assert "save_conversation" not in names
    assert "Save this conversation for error inspection" not in labels and "Include the photo" not in labels
    monkeypatch.setenv(SAVE_ENV, "/nonexistent/whichone-saved")
    names, labels = build()
    assert "save_conversation" in names
    assert {"Save this conversation for error inspection", "Include the photo"} <= labels


def test_untick_deletes_every_copy_in_any_order_of_photo_start_over_and_tick(
    server: AppServer, save_dir: Path, tmp_path: Path
) -> None:
    photo_a, _ = unique_scene(tmp_path / "a.png")
    photo_b, _ = unique_scene(tmp_path / "b.png")
    question = "What colour is the square?"
    user = Client(server.url, verbose=False)
    earlier = set(read_saved(save_dir))  # other tests' sessions share the folder

    def ours() -> dict[str, dict]:
        return {k: v for k, v in read_saved(save_dir).items() if k not in earlier}

    # Tick before any photo: nothing to save yet, so no (empty) file; the first question writes it.
    early = user.predict(True, True, api_name="/save_conversation")
    assert "from your first question" in early["message"] and not ours()
    user.predict(handle_file(str(photo_a)), question, api_name="/ask")
    assert len(ours()) == 1

    # Another photo is another conversation, saved beside the first; untick deletes both.
    user.predict(handle_file(str(photo_b)), question, api_name="/ask")
    saved = ours()
    assert len(saved) == 2 and all((save_dir / c / "photo.png").exists() for c in saved)
    off = user.predict(False, False, api_name="/save_conversation")
    assert "2 saved copies were deleted" in off["message"], off
    assert not ours()

    # Tick, start over (which ends the opt-in), untick: the copy made before start over goes too.
    user.predict(handle_file(str(photo_a)), question, api_name="/ask")
    user.predict(True, False, api_name="/save_conversation")
    assert len(ours()) == 1
    user.predict(api_name="/start_over")
    off = user.predict(False, False, api_name="/save_conversation")
    assert "1 saved copy was deleted" in off["message"], off
    assert not ours()
    user.close()


def test_stopping_the_server_with_sigterm_removes_the_ram_folder(
    server: AppServer, ram_dir: Path, tmp_path: Path
) -> None:
    """SIGTERM is how a container or Space is stopped; the photos in /dev/shm must not outlive the app.
    Last in this module: it stops the module's server, with a session's photo still open."""
    photo, colours = unique_scene(tmp_path / "sigterm.png")
    Client(server.url, verbose=False).predict(handle_file(str(photo)), QUESTION, api_name="/ask")
    assert any(is_our_photo(Path(p), colours) for p in files_in(ram_dir))
    assert server.stop() == 0  # a clean shutdown, not a kill
    assert not ram_dir.exists()
