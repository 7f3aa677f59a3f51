"""Security round 3 (issue 31): every route Gradio mounts goes through the door, in raw HTTP against the
running app in public mode, from several loopback addresses.

1. The routes the app mounts are printed at start; every one not on the page's allow-list answers 404
   (screen recording, component servers, streaming inputs, deep links, monitoring...).
2. An oversized body to an allowed small route is a 413 before it is read, chunked or not.
3. A burst of new session hashes from one address is bounded and evicts no other client's live session.
4. The waiting cap holds however many joins arrive at once.
5. X-Forwarded-Host from a client names no other host on the API page.
6. Client mistakes on every mounted route: a 4xx and no traceback in the server's log.
"""

from __future__ import annotations

import collections
import concurrent.futures
import json
import re
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.ui_support import (
    FOUR_SHAPES,
    AppServer,
    app_server,
    draw_scene,
    event_index,
    raw_event,
    raw_upload,
)

pytestmark = pytest.mark.slow

ROUTE_LINE = re.compile(
    r"^  (GET|POST|PUT|DELETE|PATCH|\*)\s+(\S+)\s+(allowed \(\w+\)|refused in public mode)", re.M
)


@pytest.fixture(scope="module")
def server() -> Iterator[AppServer]:
    with app_server(WHICHONE_PUBLIC="1") as running:
        yield running


def client(address: int, timeout: float = 60.0) -> httpx.Client:
    """An HTTP client whose connections come from 127.0.0.<address>."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=f"127.0.0.{address}"), timeout=timeout)


def routes(server: AppServer) -> list[tuple[str, str, bool]]:
    """(method, path template, allowed) for every route the server said it mounts."""
    deadline = time.monotonic() + 30  # printed just after the server answers its first request
    while True:
        text = server.log_text()
        found = [(m, p, verdict.startswith("allowed")) for m, p, verdict in ROUTE_LINE.findall(text)]
        if "vibe-starter-queries/" in text or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert len(found) > 50, text[-3000:]
    return found


def concrete(template: str) -> str:
    """A path for a route template: each {parameter} filled in."""
    return re.sub(r"\{[^}]+\}", "x1", template)


def tracebacks(server: AppServer) -> int:
    return server.log_text().count("Traceback (most recent call last)")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# ---------------------------------------------------------------- 1. one door for every route


def test_every_mounted_route_off_the_allow_list_is_a_404(server: AppServer) -> None:
    table = routes(server)
    refused = [(m, p) for m, p, allowed in table if not allowed]
    for side_door in ("/gradio_api/process_recording", "/gradio_api/component_server", "/monitoring"):
        assert any(p == side_door for _, p in refused), side_door
    assert ("GET", "/gradio_api/deep_link") in refused and (
        "POST",
        "/gradio_api/stream/{event_id}",
    ) in refused
    with client(2) as http:
        for method, template in refused:
            response = http.request(method, server.url.rstrip("/") + concrete(template), content=b"{}")
            assert response.status_code == 404, (method, template, response.status_code)
    assert tracebacks(server) == 0, server.log_text()[-3000:]


def test_a_recording_upload_is_refused_before_it_is_read_and_leaves_no_file(server: AppServer) -> None:
    body = b'--b\r\nContent-Disposition: form-data; name="data"; filename="a.mp4"\r\n\r\n' + b"x" * 4_000_000
    with client(3) as http:
        response = http.post(
            server.url.rstrip("/") + "/gradio_api/process_recording",
            content=iter([body, b"\r\n--b--\r\n"]),
            headers={"Content-Type": "multipart/form-data; boundary=b"},
        )
    assert response.status_code == 404


# ---------------------------------------------------------------- 2. body caps


@pytest.mark.parametrize("route", ["/gradio_api/reset", "/gradio_api/cancel"])
def test_an_oversized_body_is_a_413_declared_or_chunked(server: AppServer, route: str) -> None:
    assert server.proc is not None
    before = rss_mb(server.proc.pid)
    with client(4) as http:
        declared = http.post(server.url.rstrip("/") + route, content=b"x" * 5_000_000)
        chunked = http.post(server.url.rstrip("/") + route, content=(b"x" * 65536 for _ in range(1600)))
    assert declared.status_code == 413 and chunked.status_code == 413, (declared.text, chunked.text)
    assert rss_mb(server.proc.pid) - before < 50  # 100 MB sent in all; none of it held


# ---------------------------------------------------------------- 3. sessions


def test_a_burst_of_new_sessions_is_bounded_and_evicts_no_live_session(
    server: AppServer, tmp_path: Path
) -> None:
    assert server.proc is not None
    photo = draw_scene(tmp_path / "four.png", FOUR_SHAPES)
    status, paths = raw_upload(server.url, "four.png", photo.read_bytes())
    assert status == 200, paths
    victim = "victim" + uuid.uuid4().hex[:8]
    ask = event_index(server.url, "ui_ask")
    asked = raw_event(server.url, ask, [{"path": paths[0]}, "What colour is the square?", None], victim)
    assert asked.get("msg") == "process_completed", asked
    before = rss_mb(server.proc.pid)

    def heartbeat(_: int) -> int:
        with (
            client(5, 10) as http,
            http.stream("GET", f"{server.url}gradio_api/heartbeat/{uuid.uuid4().hex}") as r,
        ):
            return r.status_code

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        codes = collections.Counter(pool.map(heartbeat, range(400)))
    # At most 32 at once; a session idle for 60 s makes room for a new one, so a slow burst gets a few more.
    assert codes[200] <= 96 and codes[429] >= 300, codes
    assert rss_mb(server.proc.pid) - before < 100
    # The victim's session is still there: a second turn about its photo is answered.
    again = raw_event(server.url, ask, [None, "What colour is the square?", None], victim)
    text = json.dumps(again.get("output", {}))
    assert "Please add a photo first" not in text, text
    # Another address cannot use the victim's session hash.
    with client(6) as http:
        stolen = http.post(
            server.url + "gradio_api/queue/join",
            json={"data": [None, "hi", None], "fn_index": ask, "session_hash": victim},
        )
    assert stolen.status_code == 404


# ---------------------------------------------------------------- 4. waiting cap


def test_forty_joins_at_once_get_at_most_the_waiting_cap(server: AppServer, tmp_path: Path) -> None:
    # The queue is kept busy first by three asks about a photo from another address: the forty below then
    # all wait instead of some ending during the burst (where more would rightly pass: the cap is on
    # waiting events). All forty leave together (a barrier after each client is made).
    photo = draw_scene(tmp_path / "busy.png", FOUR_SHAPES)
    ask = event_index(server.url, "ui_ask")
    busy = []
    for _ in range(3):
        status, paths = raw_upload(server.url, "busy.png", photo.read_bytes())
        assert status == 200, paths
        data = [{"path": paths[0]}, "What colour is the square?", None]
        busy.append(threading.Thread(target=raw_event, args=(server.url, ask, data), daemon=True))
    for thread in busy:
        thread.start()
    time.sleep(0.3)
    start = threading.Barrier(40)

    def join(_: int) -> int:
        with client(7) as http:
            start.wait()
            return http.post(
                server.url + "gradio_api/call/ask", json={"data": [None, "What is it?"]}
            ).status_code

    with concurrent.futures.ThreadPoolExecutor(40) as pool:
        codes = collections.Counter(pool.map(join, range(40)))
    for thread in busy:
        thread.join(120)
    # The cap is on waiting events: 4 wait (the gpu group runs one at a time, busy with the three asks).
    assert codes[200] <= 4 + 1 and codes[200] + codes[429] == 40, codes


# ---------------------------------------------------------------- 5. forwarded host


def test_a_clients_forwarded_host_names_nothing(server: AppServer) -> None:
    with client(8) as http:
        http.get(server.url + "gradio_api/info", headers={"X-Forwarded-Host": "attacker.example"})
        text = http.get(server.url + "gradio_api/info").text + http.get(server.url + "config").text
    assert "attacker.example" not in text


# ---------------------------------------------------------------- 6. client mistakes, every route

MISTAKES: list[bytes] = [
    b"",
    b"{not json",
    b'{"fn_index": 1' + b"0" * 400 + b"}",
    b"\x00\x07",
    b"[]",
    b'"x"',
    # numbers JSON cannot carry: Python reads them as inf / nan, and an error that echoes them back
    # could not be written (a 500 and a traceback on /reset, /cancel and the vibe routes)
    b'{"event_id": 1e999, "session_hash": NaN, "data": [-Infinity]}',
]


def test_client_mistakes_on_every_mounted_route_log_no_traceback(server: AppServer) -> None:
    before = tracebacks(server)
    statuses: collections.Counter[int] = collections.Counter()
    cut: list[str] = []
    with client(9, 30) as http:
        for method, template, _ in routes(server):
            path = concrete(template).replace("x1", "%00")
            if "heartbeat" in path or "queue/data" in path:
                continue  # event streams: answered below without waiting for their end
            for body in MISTAKES:
                content = body if method != "GET" else None
                try:
                    response = http.request(method, server.url.rstrip("/") + path, content=content)
                except httpx.RemoteProtocolError:
                    cut.append(f"{method} {path}")  # an event stream Gradio ends abruptly: no 5xx, no log
                    continue
                statuses[response.status_code] += 1
        for path in (
            "gradio_api/heartbeat/%00",
            "gradio_api/queue/data?session_hash=%00",
            "gradio_api/dev/reload",
        ):
            with http.stream("GET", server.url + path) as response:
                statuses[response.status_code] += 1
    assert not [code for code in statuses if code >= 500], (statuses, cut)
    assert tracebacks(server) == before, server.log_text()[-4000:]
    assert server.alive()


@pytest.fixture(scope="module")
def private_server() -> Iterator[AppServer]:
    """The app as the README starts it on a laptop (private mode: every mounted route answers)."""
    with app_server() as running:
        yield running


def test_a_number_json_cannot_carry_is_a_400_on_every_post_in_private_mode(
    server: AppServer, private_server: AppServer
) -> None:
    # /reset, /cancel and the vibe routes answered NaN or 1e999 with a 500 and a traceback: the error
    # that echoed the body back could not be written as JSON. The same app mounts the same routes in both
    # modes; the public one prints their table.
    posts = [template for method, template, _ in routes(server) if method == "POST"]
    assert "/gradio_api/reset" in posts and "/gradio_api/cancel" in posts and len(posts) > 20
    before = tracebacks(private_server)
    answers = {}
    with client(11, 30) as http:
        for template in posts:
            url = private_server.url.rstrip("/") + concrete(template)
            response = http.post(url, content=MISTAKES[-1], headers={"content-type": "application/json"})
            answers[template] = (response.status_code, "NaN or Infinity" in response.text)
    # every POST is refused: by the door's reading of the body, or (an unknown API name, an upload that is
    # no multipart body) before it is read
    assert {status for status, _ in answers.values()} <= {400, 404}, answers
    for template in (
        "/gradio_api/reset",
        "/gradio_api/cancel",
        "/gradio_api/queue/join",
        "/gradio_api/vibe-code",
    ):
        assert answers[template] == (400, True), (template, answers[template])
    assert tracebacks(private_server) == before, private_server.log_text()[-4000:]
    assert private_server.alive()
