"""ui/connection_guard.py on a real uvicorn server over raw sockets: connections that never finish a
request are closed, a request in progress is not, and one address's connections are capped in public
mode (H13 of issue 31). The app's own server gets the same protocol from `whichone serve`
(tests/test_security_routes.py sweeps it)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn

import ui.connection_guard as guard


async def _slow_app(scope: dict, receive: object, send: object) -> None:
    """Answers after 1.5 s: longer than the test's header timeout, so a request in progress outlives it."""
    if scope["type"] != "http":
        return
    await asyncio.sleep(1.5)
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})  # type: ignore[operator]
    await send({"type": "http.response.body", "body": b"ok"})  # type: ignore[operator]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setattr(guard, "HEADER_TIMEOUT_S", 0.6)
    monkeypatch.setattr(guard, "CHECK_EVERY_S", 0.2)
    monkeypatch.setattr(guard, "MAX_CONNECTIONS_PER_CLIENT", 5)
    monkeypatch.setenv("WHICHONE_PUBLIC", "1")
    monkeypatch.delenv("SPACE_ID", raising=False)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        _slow_app, host="127.0.0.1", port=port, http=guard.GuardedH11Protocol, log_level="warning"
    )
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not uv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert uv.started
    yield port
    uv.should_exit = True
    thread.join(5)


def _closed_by_server(sock: socket.socket, within_s: float) -> bool:
    sock.settimeout(within_s)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_connection_that_never_finishes_its_headers_is_closed(server: int) -> None:
    silent = socket.create_connection(("127.0.0.1", server))
    trickling = socket.create_connection(("127.0.0.1", server))
    started = time.monotonic()
    trickling.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    cut_after = None
    while time.monotonic() - started < 3.0:  # a header line every 0.1 s, never the blank line that ends them
        time.sleep(0.1)
        try:
            trickling.sendall(b"X-Slow: 1\r\n")
        except (BrokenPipeError, ConnectionResetError):
            cut_after = time.monotonic() - started
            break
    assert cut_after is not None and 0.6 <= cut_after < 2.0  # the timeout, whatever trickle arrives
    assert _closed_by_server(silent, within_s=1.0)
    silent.close()
    trickling.close()


def test_a_request_in_progress_is_not_cut_and_the_connection_is_reused(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.settimeout(5)
        for _ in range(2):  # each answer takes 1.5 s, more than the 0.6 s timeout
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            reply = b""
            while not reply.endswith(b"ok"):
                chunk = sock.recv(1024)
                assert chunk, "the server closed a connection whose request was in progress"
                reply += chunk
            assert reply.startswith(b"HTTP/1.1 200")


def test_one_address_holds_at_most_the_cap_and_its_slots_come_back(server: int) -> None:
    held = [socket.create_connection(("127.0.0.1", server)) for _ in range(5)]
    time.sleep(0.1)
    extra = socket.create_connection(("127.0.0.1", server))
    assert _closed_by_server(extra, within_s=1.0)
    assert guard.open_connections() == {"127.0.0.1": 5}
    other = socket.create_connection(("127.0.0.1", server), source_address=("127.0.0.2", 0))  # its own slots
    time.sleep(0.1)
    assert guard.open_connections() == {"127.0.0.1": 5, "127.0.0.2": 1}
    for sock in [*held, extra, other]:
        sock.close()
    deadline = time.monotonic() + 3
    while guard.open_connections() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert guard.open_connections() == {}


def test_install_points_uvicorn_auto_protocol_at_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(uvicorn.config.HTTP_PROTOCOLS, "auto", uvicorn.config.HTTP_PROTOCOLS["auto"])
    guard.install()
    config = uvicorn.Config(_slow_app)
    config.load()
    assert config.http_protocol_class is guard.GuardedH11Protocol
