"""A local OpenAI-compatible HTTP server for tests: the JSON plumbing and the serving thread.

Each test module keeps its own handler logic (what the server answers); this holds what they share: a
quiet handler base that writes JSON replies, and `serve()`, which runs a handler class on 127.0.0.1 on a
free port in a daemon thread and yields the chat-completions base URL.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class JSONHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing (keeps pytest output clean) and sends JSON replies."""

    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)


@contextmanager
def serve_local(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve `handler` on 127.0.0.1 (a free port) until the block ends; yields "http://127.0.0.1:<port>"."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True  # sleeping handlers must not hold up the teardown
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextmanager
def serve(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """serve_local, yielding the chat-completions base URL "http://127.0.0.1:<port>/v1"."""
    with serve_local(handler) as url:
        yield f"{url}/v1"
