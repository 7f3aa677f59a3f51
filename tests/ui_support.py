"""Helpers for the UI tests: the real app in a subprocess on a free 127.0.0.1 port, Debian's Chromium,
and generated test scenes (coloured shapes on white, which the "blobs" pointer finds).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SERVER_START_TIMEOUT_S = 180

# Edges on multiples of 4 pixels (PIL's rectangle includes x1, y1): the blobs pointer analyses a 640 x 480
# scene at 160 x 120, and a square edge that falls inside a 4-pixel cell blends into a pale strip that it
# reports as a separate "white" blob.
# Four squares of one size spread over a white 640 x 480 scene: four candidates, all salient -> clarify.
FOUR_SHAPES = (
    ((48, 60, 167, 179), (220, 30, 30)),  # red, top left
    ((472, 60, 591, 179), (30, 60, 220)),  # blue, top right
    ((48, 300, 167, 419), (30, 160, 60)),  # green, bottom left
    ((472, 300, 591, 419), (240, 150, 0)),  # orange, bottom right
)
# Two squares: two candidates -> enumerate.
TWO_SHAPES = (
    ((80, 160, 239, 319), (220, 30, 30)),
    ((400, 160, 559, 319), (30, 60, 220)),
)


def draw_scene(path: Path, shapes=FOUR_SHAPES, size: tuple[int, int] = (640, 480)) -> Path:
    image = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for box, colour in shapes:
        draw.rectangle(box, fill=colour)
    image.save(path)
    return path


def box_centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def app_env(port: int, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        WHICHONE_MODEL="tiny",
        WHICHONE_POINTER="blobs",
        WHICHONE_SEGMENTER="none",
        GRADIO_SERVER_NAME="127.0.0.1",
        GRADIO_SERVER_PORT=str(port),
        GRADIO_ANALYTICS_ENABLED="False",
        HF_HUB_OFFLINE="1",
        PYTHONUNBUFFERED="1",
    )
    env.pop("GRADIO_TEMP_DIR", None)  # the app picks its own RAM folder
    env.update(extra)
    return env


@dataclass
class AppServer:
    """A running app: its URL, and (when this process started it) the process and its output so far."""

    url: str
    proc: subprocess.Popen | None = None
    _log: Any = None

    def log_text(self) -> str:
        """Everything the server printed to stdout and stderr so far ("" for an external server)."""
        if self._log is None:
            return ""
        self._log.flush()
        with open(self._log.name, "rb") as handle:
            return handle.read().decode("utf-8", "replace")

    def alive(self) -> bool:
        return self.proc is None or self.proc.poll() is None

    def stop(self) -> int | None:
        """SIGTERM, as a container or Space is stopped; returns the exit status (None: external server)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return self.proc.returncode


@contextlib.contextmanager
def running_app(**extra_env: str) -> Iterator[str]:
    """`python app.py` on a free port with the tiny models; yields its URL; stops it afterwards.

    WHICHONE_UI_URL=<url> tests an app already running there instead (started with the same settings).
    """
    with app_server(**extra_env) as server:
        yield server.url


@contextlib.contextmanager
def app_server(**extra_env: str) -> Iterator[AppServer]:
    """Like running_app, yielding an AppServer (URL, process, output). The output goes to a file under the
    test's own temp folder, deleted afterwards; stopping is SIGTERM, as a container or Space stops it."""
    if os.environ.get("WHICHONE_UI_URL"):
        yield AppServer(os.environ["WHICHONE_UI_URL"])
        return
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with tempfile.NamedTemporaryFile(prefix="whichone-app-log-", suffix=".txt") as log:
        proc = subprocess.Popen(
            [sys.executable, str(REPO / "app.py")],
            cwd=REPO,
            env=app_env(port, **extra_env),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        server = AppServer(url, proc, log)
        try:
            _wait_until_up(url, proc, log)
            yield server
        finally:
            server.stop()


def _wait_until_up(url: str, proc: subprocess.Popen, log) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the app exited with status {proc.returncode}:\n{_tail(log)}")
        try:
            with urllib.request.urlopen(url + "config", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"the app did not start within {SERVER_START_TIMEOUT_S} s:\n{_tail(log)}")


def _tail(log, limit: int = 4000) -> str:
    log.seek(0)
    return log.read().decode("utf-8", "replace")[-limit:]


def launch_chromium(playwright, user_data_dir: Path, **context_options):
    """Debian's Chromium in a browser context of its own, on a fresh profile folder `user_data_dir`
    (Playwright takes the profile as launch_persistent_context's argument, not as --user-data-dir)."""
    return playwright.chromium.launch_persistent_context(
        str(user_data_dir),
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        headless=True,
        **{"viewport": {"width": 1280, "height": 1000}, **context_options},
    )


def open_app(playwright, url: str, user_data_dir: Path, timeout_ms: int = 30_000, **context_options):
    """(context, page): Chromium on a fresh profile, the app's page open and its photo input drawn."""
    context = launch_chromium(playwright, user_data_dir, **context_options)
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    page.goto(url)
    page.wait_for_selector("#wh-photo")
    return context, page


def open_examples(page) -> None:
    """Open the "Photos to try" (they close once a photo is open) if they are closed."""
    header = page.locator("#wh-examples button.label-wrap")
    if "open" not in (header.get_attribute("class") or ""):
        header.click()


def screenshot_dir() -> Path | None:
    """Where to save screenshots: $WHICHONE_SCREENSHOTS, if set."""
    folder = os.environ.get("WHICHONE_SCREENSHOTS")
    if not folder:
        return None
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


# ---------------------------------------------------------------- raw HTTP, as a hostile client speaks it


def event_index(url: str, api_name: str) -> int:
    """The fn_index of the page's event named `api_name` (from the app's /config)."""
    import json

    with urllib.request.urlopen(url.rstrip("/") + "/config", timeout=10) as response:
        config = json.load(response)
    for index, dependency in enumerate(config["dependencies"]):
        if dependency.get("api_name") == api_name:
            return int(dependency.get("id", index))
    raise KeyError(api_name)


def raw_event(
    url: str,
    fn_index: int,
    data: list,
    session: str | None = None,
    timeout: float = 120,
    headers: dict[str, str] | None = None,
) -> dict:
    """Join Gradio's queue with `data` for event `fn_index`, as any HTTP client can, and read the event
    stream to its end. Returns {"status": code, "detail": text} when the join is refused, else the
    process_completed message (its "output"["data"] are the event's outputs)."""
    import json
    import uuid

    import httpx

    session = session or uuid.uuid4().hex[:12]
    base = url.rstrip("/")
    body = {
        "data": data,
        "fn_index": fn_index,
        "session_hash": session,
        "event_data": None,
        "trigger_id": None,
    }
    with httpx.Client(timeout=timeout, headers=headers) as client:
        joined = client.post(f"{base}/gradio_api/queue/join", json=body)
        if joined.status_code != 200:
            return {"status": joined.status_code, "detail": joined.text}
        with client.stream(
            "GET", f"{base}/gradio_api/queue/data", params={"session_hash": session}
        ) as stream:
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    message = json.loads(line[5:])
                    if message.get("msg") == "process_completed":
                        return message
    raise RuntimeError("the event stream ended without a result")


def raw_upload(url: str, name: str, data: bytes, headers: dict[str, str] | None = None) -> tuple[int, object]:
    """POST one file to Gradio's /upload as a browser does; (status, JSON or text)."""
    import httpx

    response = httpx.post(
        url.rstrip("/") + "/gradio_api/upload", files={"files": (name, data)}, timeout=60, headers=headers
    )
    try:
        return response.status_code, response.json()
    except ValueError:
        return response.status_code, response.text


def pick_radio(page, elem_id: str, text: str) -> None:
    """Choose the option of the radio group `elem_id` whose label holds `text`, as a click does."""
    page.locator(f"#{elem_id} label").filter(has_text=text).first.click()
    page.wait_for_function(
        "([id, t]) => (document.querySelector(`#${id} input:checked`)?.closest('label')?.innerText || '')"
        ".includes(t)",
        arg=[elem_id, text],
    )
