"""The HTTP door of the app: what an anonymous client may send before Gradio handles it.

`Gatekeeper` is an ASGI middleware (given to Gradio's FastAPI app through launch's `app_kwargs`). Every
route that runs an event or takes a file goes through it:

- `POST .../upload`: the bytes are counted as they arrive (ui.upload_quota.UploadBudget), per client and in
  total, whatever the headers say; a request is cut off with 413 the moment it would pass a cap, and one
  that carries more than `files_per_upload` files with 400 (the page sends one photo per request). Gradio
  removes the part-written files of a cut request (the door stops it through the multipart parser's own
  error path). In public mode more than `uploads_per_minute` from one client get 429. The paths Gradio
  answers with are recorded in the ledger (which client, when), which grants that client the opening of
  each and lets ui.privacy's sweep delete uploads that no session opened.
- `POST .../queue/join` (the page's events, by index) and `POST .../call/<name>`, `.../call/v2/<name>`
  (the API, by name): one door. A name that is not a public API endpoint is a 404 (the page's own events
  are not API endpoints), an index the page does not have a 400, a body over `max_event_bytes` a 413, a
  value that does not fit its input (ui.endpoints) a 400 with one sentence, a file value naming anything
  but a file in Gradio's upload folder a 400; text with lone surrogates or control characters is cleaned
  (U+FFFD) before Gradio reads it; a body with a number JSON cannot carry (NaN, Infinity, 1e999) is a
  400, on these routes and on every other POST. In public mode more than `events_per_minute` from one
  client, or more than `waiting_per_client` of its events waiting in the queue, get 429.
- `POST .../run/predict` (how the page runs its few unqueued events, such as loading a photo to try) passes
  the same door, by index, for unqueued events only; any other `.../run/<name>` and `.../api/<name>`
  (Gradio's direct routes, which skip the queue) are closed with 404: every queued event runs through the
  queue and its limits.

A client is its address (ui.client_address). Nothing about a request is logged beyond one line per
refusal (method, route, address, status and reason; never a body), at most 30 a minute per client.
A GET whose file goes away while Gradio serves it (an upload the app refused and deleted) is a 404, or an
answer cut short once its headers are out; never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import re
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from python_multipart.exceptions import MultipartParseError

from ui.client_address import scope_client
from ui.endpoints import EndpointTable
from ui.route_door import SMALL_POST, MountedRoute, RouteRule, RouteTable
from ui.serving_settings import serving_settings
from ui.session_bound import SessionBound, SessionRefused
from ui.upload_quota import LEDGER, OverBudget, UploadBudget, UploadLedger
from ui.uploads import NOT_UPLOADED, in_upload_folder

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger(__name__)

MIB = 2**20
NO_ENDPOINT = "There is no such API endpoint; see the API page for the ones this app has."
DIRECT_CLOSED = "This app runs every event through its queue: use /gradio_api/call/<name> or gradio_client."
TOO_MANY_FILES = "Send one photo per upload."
# Lone surrogates (JSON can carry them as \\udXXX escapes, UTF-8 cannot) and control characters other than
# tab and line breaks: they broke a session's chat for good (it could not be serialised).
SESSION_HASH = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what Gradio's page and gradio_client make
UNENCODABLE = re.compile(r"[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class DoorLimits:
    """What one client, and all of them together, may make the server hold or do."""

    total_bytes: int = 1024 * MIB  # the whole upload folder (RAM on /dev/shm)
    client_bytes: int = 100 * MIB  # one client's uploads still in the folder (five 20 MB photos)
    uploads_per_minute: int = 20  # public mode only
    events_per_minute: int = 120  # public mode only: a turn is 2-4 events (photo, ask, its .then steps)
    waiting_per_client: int = 4  # public mode only: one client's events waiting in the queue at once
    max_event_bytes: int = 256 * 1024  # an event's JSON (a question is at most 500 characters)
    files_per_upload: int = 1
    requests_per_minute: int = 600  # public mode only: every route (a page load fetches ~40 files)
    sessions_per_client: int = 32  # public mode only: Gradio sessions (pages, API clients) per client
    session_idle_s: float = 60.0  # at that bound, the client's least recent session goes if idle this long
    trust_forwarded_host: bool = False  # X-Forwarded-Host/-Proto pass only behind a named (or Space) proxy
    public: bool = False

    @classmethod
    def from_env(cls, public: bool) -> DoorLimits:
        current = serving_settings()
        return cls(
            total_bytes=current.uploads_max_mb * MIB,
            client_bytes=current.uploads_per_client_mb * MIB,
            uploads_per_minute=current.public_uploads_per_minute,
            events_per_minute=current.public_events_per_minute,
            waiting_per_client=current.public_waiting_per_client,
            trust_forwarded_host=bool(current.trusted_proxies) or bool(os.environ.get("SPACE_ID")),
            public=public,
        )


class RateWindow:
    """At most `limit` hits per client in any 60 s (a sliding window of hit times)."""

    def __init__(self, limit: int, window_s: float = 60.0) -> None:
        self.limit = limit
        self.window_s = window_s
        self._hits: dict[str, deque[float]] = {}

    def allow(self, client: str) -> bool:
        now = time.monotonic()
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


@dataclass(frozen=True)
class AppView:
    """What the door reads of the app, each read per request: its events, and how many events a client
    has waiting in the queue."""

    endpoints: Callable[[], EndpointTable]
    waiting: Callable[[str], int] = lambda client: 0
    forget_session: Callable[[str], None] = lambda session_hash: None
    has_events: Callable[[str], bool] = lambda session_hash: True
    has_event: Callable[[str], bool] = lambda event_id: True


class Refused(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class Gatekeeper:
    """ASGI middleware enforcing `DoorLimits` on every route that runs an event or takes a file."""

    def __init__(
        self,
        app: ASGIApp,
        limits: DoorLimits,
        view: AppView,
        budget: UploadBudget,
        ledger: UploadLedger = LEDGER,
    ) -> None:
        self.app = app
        self.limits = limits
        self.view = view
        self.budget = budget
        self.ledger = ledger
        self.upload_rate = RateWindow(limits.uploads_per_minute)
        self.event_rate = RateWindow(limits.events_per_minute)
        self.request_rate = RateWindow(limits.requests_per_minute)
        self.log_rate = RateWindow(30)
        self.routes = RouteTable()
        self.sessions = SessionBound(limits.sessions_per_client, limits.session_idle_s, view.forget_session)
        self._joining: Counter[str] = Counter()  # events between the door's check and Gradio's queue

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path") or "").rstrip("/")
        client = scope_client(scope)
        mounted: MountedRoute | None = None
        try:
            mounted = self._allowed(scope, client)
            if not self.limits.trust_forwarded_host:
                scope = _without_forwarded_host(scope)
            if scope.get("method") != "POST":
                self._check_stream(scope, client, path, mounted)
                await _gone_file_ends_quietly(self.app, scope, receive, send)
                return
            route = _event_route(path)
            if path.endswith("/upload"):
                await self._upload(scope, receive, send)
            elif route is not None:
                await self._event(scope, receive, send, *route)
            else:
                await self._small_post(scope, receive, send, client, mounted)
        except Refused as refused:
            where = mounted.path if mounted is not None else path[:120]
            if self.log_rate.allow(client):  # one line per refusal, at most 30 a minute per client
                method = scope.get("method")
                log.warning(
                    "refused %s %s from %s: %d %s", method, where, client, refused.status, refused.detail
                )
            await _refuse(send, refused.status, refused.detail)

    def _allowed(self, scope: Scope, client: str) -> MountedRoute | None:
        """The mounted route this request reaches; in public mode a 404 for any route not on the page's
        allow-list (ui.route_door), a 429 past the client's requests a minute, and a 413 for a declared body
        over the route's cap (before any of it is read)."""
        mounted = self.routes.find(scope)
        if not self.limits.public:
            return mounted
        if mounted is None or mounted.rule is None:
            raise Refused(404, "Not Found")
        if not self.request_rate.allow(client):
            raise Refused(429, "Too many requests from your address; wait a minute and try again.")
        declared = _content_length(scope)
        small = mounted.rule.kind in ("page", "heartbeat", "small_post")
        if small and declared and declared > mounted.rule.body_bytes:
            raise Refused(413, "The request is too large.")
        return mounted

    def _check_stream(self, scope: Scope, client: str, path: str, mounted: MountedRoute | None) -> None:
        """A heartbeat opens (or keeps) a session of this client; an event stream (/queue/data, or
        /call/<name>/<event id>) must name a session with events or an event Gradio holds (Gradio answers
        any other with an error after its stream began: a traceback in the log)."""
        kind = mounted.rule.kind if mounted is not None and mounted.rule is not None else None
        if kind == "heartbeat":
            self._admit(client, path.rsplit("/", 1)[-1])
        elif mounted is not None and mounted.path.endswith("/{api_name}/{event_id}"):  # /call/<name>/<id>
            if not self.view.has_event(path.rsplit("/", 1)[-1]):
                raise Refused(404, "There is no such event; it may have finished already.")
        elif path.endswith("/queue/data"):
            session_hash = _query_value(scope, "session_hash")
            if not SESSION_HASH.fullmatch(session_hash) or not self.view.has_events(session_hash):
                raise Refused(404, "There is no such session; reload the page.")
            if self.limits.public and self.sessions.owner(session_hash) not in (None, client):
                raise Refused(404, "There is no such session; reload the page.")

    def _admit(self, client: str, session_hash: str) -> None:
        if not SESSION_HASH.fullmatch(session_hash):
            raise Refused(400, "The request must name its session (session_hash: letters and digits).")
        if not self.limits.public:
            return
        try:
            self.sessions.admit(client, session_hash)
        except SessionRefused as refused:
            raise Refused(refused.status, refused.detail) from None

    async def _small_post(
        self, scope: Scope, receive: Receive, send: Send, client: str, mounted: MountedRoute | None
    ) -> None:
        """Any other POST (/cancel, /reset; in private mode all of Gradio's): the body is read up to its cap
        (413 past it, chunked or not) and then handed on; a named session must be the client's own."""
        rule: RouteRule = mounted.rule if mounted is not None and mounted.rule else SMALL_POST
        cap = rule.body_bytes if self.limits.public else self.limits.max_event_bytes
        declared = _content_length(scope)
        if declared is not None and declared > cap:
            raise Refused(413, "The request is too large.")
        raw = await _read_body(receive, cap)
        with contextlib.suppress(ValueError):  # not JSON: Gradio's to answer
            _read_json(raw)  # refuses NaN and Infinity
        if self.limits.public:
            session_hash = _json_object(raw).get("session_hash")
            owner = self.sessions.owner(session_hash) if isinstance(session_hash, str) else None
            if owner is not None and owner != client:
                raise Refused(404, "There is no such session; reload the page.")
        await self.app(scope, _replay(raw, receive), send)

    # ---------------------------------------------------------------- uploads

    async def _upload(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope_client(scope)
        if self.limits.public and not self.upload_rate.allow(client):
            raise Refused(429, "Too many uploads from your address; wait a minute and try again.")
        declared = _content_length(scope)
        reserved = 0
        try:
            if declared is not None:  # refused at once when it cannot fit; counted again as it arrives
                self._reserve(client, declared)
                reserved = declared
            await self._pass_upload(scope, receive, send, client, reserved)
        finally:
            self.budget.release(client, reserved)

    def _reserve(self, client: str, size: int) -> None:
        try:
            self.budget.reserve(client, size)
        except OverBudget as over:
            raise Refused(over.status, over.detail) from None

    async def _pass_upload(
        self, scope: Scope, receive: Receive, send: Send, client: str, reserved: int
    ) -> None:
        counter = _PartCounter(_boundary(scope))
        arrived = 0
        cut: list[Refused] = []
        reservation = [reserved]

        async def counted() -> Message:
            nonlocal arrived
            message = await receive()
            if message["type"] == "http.disconnect":  # cut off mid-upload: Gradio's own error path again
                cut.append(Refused(400, "The upload ended early."))
                raise MultipartParseError("the client disconnected")
            if message["type"] != "http.request":
                return message
            chunk = message.get("body", b"")
            arrived += len(chunk)
            try:
                if arrived > reservation[0]:
                    self._reserve(client, arrived - reservation[0])
                    reservation[0] = arrived
                if counter.feed(chunk) > self.limits.files_per_upload:
                    raise Refused(400, TOO_MANY_FILES)
            except Refused as refused:
                cut.append(refused)
                # Stops Gradio's multipart parser through its own error path, which removes the files it
                # had begun to write (a disconnect would leave them in the upload folder).
                raise MultipartParseError(refused.detail) from None
            return message

        status: list[int] = []
        body = bytearray()

        async def record(message: Message) -> None:
            if cut:
                return  # Gradio's own answer to the cut request; the door answers instead
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
            elif message["type"] == "http.response.body" and status and status[0] == 200:
                body.extend(message.get("body", b""))
                if not message.get("more_body"):
                    self._note_upload(client, bytes(body))
            await send(message)

        try:
            await self.app(scope, counted, record)
        finally:
            self.budget.release(client, reservation[0] - reserved)  # the caller releases `reserved`
        if cut:
            raise cut[0]

    def _note_upload(self, client: str, body: bytes) -> None:
        try:
            paths = json.loads(body)
        except ValueError:
            return
        if isinstance(paths, list):
            self.ledger.add(client, [p for p in paths if isinstance(p, str)])

    # ---------------------------------------------------------------- events

    async def _event(self, scope: Scope, receive: Receive, send: Send, kind: str, name: str) -> None:
        if kind == "direct":
            raise Refused(404, DIRECT_CLOSED)
        client = scope_client(scope)
        table = self.view.endpoints()
        if kind not in ("join", "predict") and table.by_name.get(name) is None:
            raise Refused(404, NO_ENDPOINT)
        if self.limits.public:
            if not self.event_rate.allow(client):
                raise Refused(429, "Too many requests from your address; wait a minute and try again.")
            # Check and count in one step (no await between): parallel joins see each other, so no more
            # than waiting_per_client get past however many arrive at once.
            if self.view.waiting(client) + self._joining[client] >= self.limits.waiting_per_client:
                raise Refused(429, "You have several requests waiting already; wait for their answers.")
        self._joining[client] += 1
        try:
            body = await self._checked_event(receive, client, kind, name, table)
            await self.app(scope, _replay(body, receive), send)
        finally:
            self._joining[client] -= 1
            if self._joining[client] <= 0:
                del self._joining[client]

    async def _checked_event(
        self, receive: Receive, client: str, kind: str, name: str, table: EndpointTable
    ) -> bytes:
        """The event's body, read to its cap and checked against its event's inputs (cleaned of text that
        cannot be encoded), or Refused."""
        raw = await _read_body(receive, self.limits.max_event_bytes)
        parsed = _json_object(raw)
        endpoint = table.by_name.get(name)
        if kind in ("join", "predict"):
            fn_index = parsed.get("fn_index")
            if not isinstance(fn_index, int) or isinstance(fn_index, bool):
                raise Refused(400, "The request must name its event by number (fn_index).")
            endpoint = table.by_index.get(fn_index)
            if endpoint is None:
                raise Refused(400, "There is no such event on this page.")
            if kind == "predict" and endpoint.queued:
                raise Refused(404, DIRECT_CLOSED)  # a queued event runs through the queue and its limits
        if kind == "join":
            session_hash = parsed.get("session_hash")
            self._admit(client, session_hash if isinstance(session_hash, str) else "")
        assert endpoint is not None  # noqa: S101 - set on every branch above
        data: object = parsed  # /call/v2: the body is the named inputs themselves
        if kind == "call_v2":
            problem = endpoint.check_named(parsed)
        else:
            data = parsed.get("data")
            problem = endpoint.check(data, by_name=kind == "call")
        if problem:
            raise Refused(400, problem)
        if any(in_upload_folder(path) is None for path in _file_paths(data)):
            raise Refused(400, NOT_UPLOADED)
        cleaned = _clean_text(parsed)
        return json.dumps(cleaned).encode() if cleaned != parsed else raw


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then the connection's own messages (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _without_forwarded_host(scope: Scope) -> Scope:
    """The scope without X-Forwarded-Host / -Proto (no proxy is trusted to set them): Gradio builds the
    API page's and the files' URLs from them, and a client could otherwise point them at its own host."""
    headers = scope.get("headers") or []
    if not any(name.lower() in (b"x-forwarded-host", b"x-forwarded-proto") for name, _ in headers):
        return scope
    kept = [(n, v) for n, v in headers if n.lower() not in (b"x-forwarded-host", b"x-forwarded-proto")]
    return {**scope, "headers": kept}


def _event_route(path: str) -> tuple[str, str] | None:
    """(kind, api name) for a route that runs an event: join, call, call_v2 or direct (/run, /api)."""
    if path.endswith("/queue/join"):
        return "join", ""
    parts = path.split("/")
    if (
        len(parts) >= 3
        and parts[-2] in ("run", "api")
        and parts[-1] == "predict"
        and _api_prefixed(parts[:-2])
    ):
        return "predict", ""  # the page's unqueued events, by index
    for marker, kind in (("call", "call"), ("run", "direct"), ("api", "direct")):
        if len(parts) >= 3 and parts[-2] == marker and _api_prefixed(parts[:-2]):
            return kind, parts[-1]
    if len(parts) >= 4 and parts[-3:-1] == ["call", "v2"] and _api_prefixed(parts[:-3]):
        return "call_v2", parts[-1]
    return None


def _api_prefixed(parts: list[str]) -> bool:
    # Gradio's routes sit under /gradio_api (and a mounted app's root path before it); /api/<name> is
    # also served at the top level.
    return bool(parts) and (parts[-1] == "gradio_api" or parts == [""])


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise Refused(400, "The request ended early.")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise Refused(413, "The request is too large.")
        chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


NON_FINITE = "The request holds a number JSON cannot carry (NaN or Infinity)."


def _finite(text: str) -> float:
    """A JSON number as Python reads it, refused when it is no finite float (1e999 reads as inf)."""
    value = float(text)
    if not math.isfinite(value):
        raise Refused(400, NON_FINITE)
    return value


def _no_constant(name: str) -> float:
    raise Refused(400, NON_FINITE)  # NaN, Infinity, -Infinity: Python's json reads them, JSON has none


def _read_json(body: bytes) -> Any:
    """The body as JSON, with no number JSON cannot carry (an error that echoed one back could not be
    written: a 500 and a traceback); ValueError when it is not JSON."""
    return json.loads(body, parse_float=_finite, parse_constant=_no_constant)


def _json_object(body: bytes) -> dict[str, Any]:
    try:
        parsed = _read_json(body)
    except ValueError:
        raise Refused(400, "The request must be a JSON object.") from None
    if not isinstance(parsed, dict):
        raise Refused(400, "The request must be a JSON object.")
    return parsed


def _clean_text(value: object, depth: int = 0) -> object:
    """`value` with every string's lone surrogates and control characters replaced by U+FFFD."""
    if depth > 32:
        return None
    if isinstance(value, str):
        return UNENCODABLE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_clean_text(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {_clean_text(k, depth + 1): _clean_text(v, depth + 1) for k, v in value.items()}
    return value


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


def _query_value(scope: Scope, name: str) -> str:
    """The first value of `name` in the request's query string ("" when absent or not decodable)."""
    try:
        query = parse_qs(bytes(scope.get("query_string") or b"").decode("latin-1"), errors="strict")
    except (UnicodeDecodeError, ValueError):
        return ""
    values = query.get(name) or [""]
    return values[0]


def _header(scope: Scope, wanted: bytes) -> bytes | None:
    for name, value in scope.get("headers") or []:
        if name.lower() == wanted:
            return bytes(value)
    return None


def _content_length(scope: Scope) -> int | None:
    value = _header(scope, b"content-length")
    try:
        return max(0, int(value)) if value is not None else None
    except ValueError:
        return None


def _boundary(scope: Scope) -> bytes:
    found = re.search(rb'boundary="?([^";,\s]+)', _header(scope, b"content-type") or b"")
    return found.group(1) if found else b""


class _PartCounter:
    """Counts the parts of a multipart body as it streams past (a part opens with --boundary CRLF)."""

    def __init__(self, boundary: bytes) -> None:
        self.opener = b"--" + boundary + b"\r\n" if boundary else b""
        self.tail = b""
        self.parts = 0

    def feed(self, chunk: bytes) -> int:
        if not self.opener:
            return 0
        window = self.tail + chunk
        self.parts += window.count(self.opener)
        self.tail = window[-(len(self.opener) - 1) :]
        return self.parts


async def _gone_file_ends_quietly(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """Run a GET; a file removed between Gradio's check and its read (an upload the app refused and
    deleted while the browser asked for its preview) is a 404 before the answer starts, and after its
    headers an answer cut short (the client sees a broken download); never a traceback in the log."""
    started = False

    async def sending(message: Message) -> None:
        nonlocal started
        started = started or message.get("type") == "http.response.start"
        await send(message)

    try:
        await app(scope, receive, sending)
    except (FileNotFoundError, RuntimeError) as error:
        # Starlette's FileResponse turns the FileNotFoundError of its stat into a RuntimeError ("File at
        # path ... does not exist."): the same vanished file
        if not isinstance(error, FileNotFoundError) and not isinstance(error.__context__, FileNotFoundError):
            raise
        if not started:
            await _refuse(send, 404, "Not Found")
            return
        # uvicorn closes the connection on an answer left unfinished, with one line of its own
        log.info("a file went away while it was sent: %s", str(scope.get("path") or "")[:120])


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
