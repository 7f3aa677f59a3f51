"""Gradio sessions per client: who opened each session hash, and how many one client may hold.

Gradio makes a session (a copy of the page's state, about 200 KB, and whichone's UIState) for any session
hash a request names; in public mode one address could name thousands and push other visitors' live
sessions out of Gradio's state holder. The door admits a new session hash only on the page's own
session-opening requests (the heartbeat and the queue join a page sends when it loads or runs an event),
records the client that opened it, refuses it from any other client (404: no such session), and bounds
the sessions of one client: at the bound its least recently used session is forgotten when it has been
idle for `idle_s`, else the new one is refused (429). No client's burst ever touches another's sessions.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

NO_SESSION = "There is no such session; reload the page."
TOO_MANY_SESSIONS = "Too many pages open from your address; close some tabs or wait a minute and reload."


class SessionRefused(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class SessionBound:
    """session hash -> the client that opened it; at most `per_client` per client."""

    def __init__(self, per_client: int, idle_s: float, forget: Callable[[str], None]) -> None:
        self.per_client = per_client
        self.idle_s = idle_s
        self.forget = forget  # drops a session's state (Gradio's entry, whichone's UIState)
        self._owner: dict[str, str] = {}
        self._by_client: dict[str, OrderedDict[str, float]] = {}
        self._lock = threading.Lock()
        self.prune_at = 10_000
        self.forgotten_s = 30 * 60.0  # ui.state.STATE_TTL_S: an idle session's state is gone by then

    def admit(self, client: str, session_hash: str) -> None:
        """Let `client` use `session_hash` (opening it when new), or raise SessionRefused."""
        now = time.monotonic()
        evicted: str | None = None
        with self._lock:
            self._prune(now)
            owner = self._owner.get(session_hash)
            if owner is not None and owner != client:
                raise SessionRefused(404, NO_SESSION)
            sessions = self._by_client.setdefault(client, OrderedDict())
            if owner is None and len(sessions) >= self.per_client:
                oldest, last_used = next(iter(sessions.items()))
                if now - last_used < self.idle_s:
                    raise SessionRefused(429, TOO_MANY_SESSIONS)
                evicted = oldest
                del sessions[oldest]
                self._owner.pop(oldest, None)
            sessions[session_hash] = now
            sessions.move_to_end(session_hash)
            self._owner[session_hash] = client
        if evicted is not None:
            self.forget(evicted)

    def owner(self, session_hash: str) -> str | None:
        with self._lock:
            return self._owner.get(session_hash)

    def _prune(self, now: float) -> None:
        """Forget sessions untouched for `forgotten_s` (Gradio has forgotten them too), once the table is
        large: the table stays bounded however many clients come and go."""
        if len(self._owner) < self.prune_at:
            return
        for client, sessions in list(self._by_client.items()):
            for session_hash, last_used in list(sessions.items()):
                if now - last_used > self.forgotten_s:
                    del sessions[session_hash]
                    self._owner.pop(session_hash, None)
            if not sessions:
                del self._by_client[client]

    def count(self, client: str) -> int:
        with self._lock:
            return len(self._by_client.get(client, ()))
