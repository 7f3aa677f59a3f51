"""The HTTP door of the app: what an anonymous client may send before Gradio handles it.

`Gatekeeper` is an ASGI middleware (given to Gradio's FastAPI app through launch's `app_kwargs`). It sees
two of Gradio's routes:

- `POST .../upload` (files, before any session exists): refused with 413 when the upload folder already
  holds `total_bytes` or this client already holds `client_bytes` there (uploads it made that still exist),
  and, in public mode, with 429 beyond `uploads_per_minute` from one client. The paths Gradio answers with
  are recorded in `LEDGER` (which client, when), so ui.privacy's sweep can delete uploads that no session
  opened.
- `POST .../queue/join` (every event): a body over `max_event_bytes` is refused (413), an event index the
  app does not have gets 400 (Gradio answered 500), a file value (`{"path": ...}` anywhere in the data)
  naming anything but a file in Gradio's upload folder gets 400 with one sentence for every such path
  (Gradio's own check, where it applies, logged a traceback per try), and in public mode more than
  `events_per_minute` from one client get 429.

A client is its address; on a Hugging Face Space (SPACE_ID set), where every request comes through the
Space's proxy, the first address of X-Forwarded-For. Nothing about a request is logged.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Iterator, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.settings import settings
from ui.privacy import folder_bytes, temp_root
from ui.uploads import NOT_UPLOADED, in_upload_folder

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MIB = 2**20


@dataclass(frozen=True)
class DoorLimits:
    """What one client, and all of them together, may make the server hold or do."""

    total_bytes: int = 1024 * MIB  # the whole upload folder (RAM on /dev/shm)
    client_bytes: int = 100 * MIB  # one client's uploads still in the folder (five 20 MB photos)
    uploads_per_minute: int = 20  # public mode only
    events_per_minute: int = 120  # public mode only: a turn is 2-4 events (photo, ask, its .then steps)
    max_event_bytes: int = 256 * 1024  # an event's JSON (a question is at most 500 characters)
    public: bool = False

    @classmethod
    def from_env(cls, public: bool) -> DoorLimits:
        current = settings()
        return cls(
            total_bytes=current.uploads_max_mb * MIB,
            client_bytes=current.uploads_per_client_mb * MIB,
            uploads_per_minute=current.public_uploads_per_minute,
            events_per_minute=current.public_events_per_minute,
            public=public,
        )


@dataclass
class UploadLedger:
    """Uploads Gradio received: path -> (client, time). Thread-safe; forgets a path once deleted."""

    _entries: dict[str, tuple[str, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, client: str, paths: Collection[str]) -> None:
        now = time.time()
        with self._lock:
            for path in paths:
                self._entries[path] = (client, now)

    def client_bytes(self, client: str) -> int:
        """Bytes of this client's uploads that are still on disk (forgetting the ones that are gone)."""
        total = 0
        with self._lock:
            for path, (owner, _) in list(self._entries.items()):
                if owner != client:
                    continue
                try:
                    total += Path(path).stat().st_size
                except OSError:
                    del self._entries[path]
        return total

    def older_than(self, seconds: float) -> list[str]:
        cutoff = time.time() - seconds
        with self._lock:
            return [p for p, (_, at) in self._entries.items() if at < cutoff]

    def forget(self, path: str) -> None:
        with self._lock:
            self._entries.pop(path, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


LEDGER = UploadLedger()


class RateWindow:
    """At most `limit` hits per client in any 60 s (a sliding window of hit times)."""

    def __init__(self, limit: int, window_s: float = 60.0) -> None:
        self.limit = limit
        self.window_s = window_s
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        with self._lock:
            hits = self._hits.setdefault(client, deque())
            while hits and hits[0] <= now - self.window_s:
                hits.popleft()
            if not hits:  # forget idle clients, so the table does not grow with every address seen
                for key in [k for k, v in self._hits.items() if not v and k != client]:
                    del self._hits[key]
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            return True


def client_key(scope: Scope) -> str:
    """The client's address (on a Space, the first X-Forwarded-For address: its proxy's client)."""
    if os.environ.get("SPACE_ID"):
        for name, value in scope.get("headers") or []:
            if name == b"x-forwarded-for":
                first = value.decode("latin-1").split(",")[0].strip()
                if first:
                    return first
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class Gatekeeper:
    """ASGI middleware enforcing `DoorLimits` on Gradio's upload and event routes (see the module doc)."""

    def __init__(
        self,
        app: ASGIApp,
        limits: DoorLimits,
        events: Callable[[], Collection[int]],
        ledger: UploadLedger = LEDGER,
    ) -> None:
        self.app = app
        self.limits = limits
        self.events = events  # the app's event indexes (Blocks.fns' keys), read per request
        self.ledger = ledger
        self.upload_rate = RateWindow(limits.uploads_per_minute)
        self.event_rate = RateWindow(limits.events_per_minute)
        self._folder_size: tuple[float, int] = (0.0, 0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path") or "")
        if path.endswith("/upload"):
            await self._upload(scope, receive, send)
        elif path.endswith("/queue/join"):
            await self._join(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # ---------------------------------------------------------------- uploads

    async def _upload(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = client_key(scope)
        if self.limits.public and not self.upload_rate.allow(client):
            await _refuse(send, 429, "Too many uploads from your address; wait a minute and try again.")
            return
        incoming = _content_length(scope)
        if self.ledger.client_bytes(client) + incoming > self.limits.client_bytes:
            await _refuse(
                send, 413, "You have too many photos uploaded at once; start over or wait a few minutes."
            )
            return
        if self._held_bytes() + incoming > self.limits.total_bytes:
            await _refuse(send, 413, "The server holds too many uploads now; try again in a few minutes.")
            return
        status: list[int] = []
        body = bytearray()

        async def record(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
            elif message["type"] == "http.response.body" and status and status[0] == 200:
                body.extend(message.get("body", b""))
                if not message.get("more_body"):
                    self._note_upload(client, bytes(body))
            await send(message)

        await self.app(scope, receive, record)

    def _note_upload(self, client: str, body: bytes) -> None:
        try:
            paths = json.loads(body)
        except ValueError:
            return
        if isinstance(paths, list):
            self.ledger.add(client, [p for p in paths if isinstance(p, str)])
            self._folder_size = (0.0, 0)  # measure again on the next upload

    def _held_bytes(self) -> int:
        """Bytes in the upload folder, measured at most once a second."""
        measured_at, size = self._folder_size
        if time.monotonic() - measured_at > 1.0:
            size = folder_bytes(temp_root())
            self._folder_size = (time.monotonic(), size)
        return size

    # ---------------------------------------------------------------- events

    async def _join(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = client_key(scope)
        if self.limits.public and not self.event_rate.allow(client):
            await _refuse(send, 429, "Too many requests from your address; wait a minute and try again.")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limits.max_event_bytes:
                await _refuse(send, 413, "The request is too large.")
                return
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        try:
            parsed = json.loads(body)
            fn_index, data = parsed.get("fn_index"), parsed.get("data")
        except (ValueError, AttributeError):
            fn_index = data = None
        if isinstance(fn_index, int) and not isinstance(fn_index, bool) and fn_index not in self.events():
            await _refuse(send, 400, "There is no such event on this page.")
            return
        if any(in_upload_folder(path) is None for path in _file_paths(data)):
            await _refuse(send, 400, NOT_UPLOADED)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _file_paths(value: object, depth: int = 0) -> Iterator[str]:
    """Every "path" of a file value (a dict with a "path") in an event's data, at any depth (to 32)."""
    if depth > 32:
        yield ""  # deeper than any real value: refused as a path nobody uploaded
    elif isinstance(value, dict):
        if "path" in value:
            yield str(value["path"]) if value["path"] else ""
        for item in value.values():
            yield from _file_paths(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _file_paths(item, depth + 1)


def _content_length(scope: Scope) -> int:
    for name, value in scope.get("headers") or []:
        if name == b"content-length":
            try:
                return max(0, int(value))
            except ValueError:
                return 0
    return 0


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
