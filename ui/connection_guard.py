"""Connections that never send a whole request are closed; one address cannot hold hundreds open (H13).

Gradio starts uvicorn itself, and uvicorn's HTTP protocol has no header timeout: a connection that sends
nothing, or a request's headers one byte at a time, stays open for ever (3,000 such connections were still
open after 60 s in the hostile sweep), each holding a file descriptor and a protocol object. uvicorn's own
keep-alive timeout only starts after a first response.

`GuardedH11Protocol` is uvicorn's h11 protocol with a watch every `CHECK_EVERY_S`: a connection with no
request in progress (just opened, or its last response sent) for more than `HEADER_TIMEOUT_S` is closed,
whatever trickle of bytes it sends; a request in progress (an upload, a streamed reply) is never cut. In
public mode an address (an IPv6 /64) may hold `MAX_CONNECTIONS_PER_CLIENT` connections at once; more are
closed as they open (one log line each, at most 30 a minute per address). Behind a proxy (a Hugging Face
Space, or an operator's trusted proxies) every connection comes from the proxy, so there only the timeout
applies.

`install` points uvicorn's "auto" HTTP protocol at this class; `whichone serve` calls it before launch
(Gradio builds uvicorn's Config itself and takes no protocol class).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import Counter

import uvicorn.config
from uvicorn.protocols.http.h11_impl import H11Protocol

from ui.client_address import network_key
from ui.gatekeeper import RateWindow
from ui.public import public_mode
from ui.serving_settings import serving_settings

log = logging.getLogger(__name__)

HEADER_TIMEOUT_S = 20.0  # from connect (or the last response) to a whole request's headers
CHECK_EVERY_S = 5.0  # so a connection is closed 20-25 s after it stopped being served: within 30 s
MAX_CONNECTIONS_PER_CLIENT = 64  # a browser opens at most 6 per host, plus its event streams

_OPEN: Counter[str] = Counter()  # connections open per address; only touched on the server's event loop
_LOG_RATE = RateWindow(30)  # one line per refusal, at most 30 a minute per address (as the door's)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's H11Protocol with a header timeout and, in public mode, a cap on connections per address."""

    _guard_key: str | None = None
    _guard_check: asyncio.TimerHandle | None = None
    _idle_since: float | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._idle_since = self.loop.time()
        key = _capped_key(self.client[0] if self.client else None)
        if key is not None:
            if _OPEN[key] >= MAX_CONNECTIONS_PER_CLIENT:
                if _LOG_RATE.allow(key):
                    log.warning("refused a connection from %s: %d already open", key, _OPEN[key])
                transport.close()
                return
            _OPEN[key] += 1
            self._guard_key = key
        self._guard_check = self.loop.call_later(CHECK_EVERY_S, self._check_idle)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._guard_check is not None:
            self._guard_check.cancel()
            self._guard_check = None
        if self._guard_key is not None:
            _OPEN[self._guard_key] -= 1
            if _OPEN[self._guard_key] <= 0:
                del _OPEN[self._guard_key]
            self._guard_key = None
        super().connection_lost(exc)

    def _check_idle(self) -> None:
        self._guard_check = None
        if self.transport.is_closing():
            return
        now = self.loop.time()
        if self.cycle is not None and not self.cycle.response_complete:
            self._idle_since = None  # a request in progress: its headers arrived
        elif self._idle_since is None:
            self._idle_since = now
        elif now - self._idle_since > HEADER_TIMEOUT_S:
            self.transport.close()  # no whole request within the timeout (connection_lost follows)
            return
        self._guard_check = self.loop.call_later(CHECK_EVERY_S, self._check_idle)


def _capped_key(peer: str | None) -> str | None:
    """The address whose connections are counted; None where no cap applies (private mode, a proxy)."""
    if peer is None or not public_mode() or os.environ.get("SPACE_ID"):
        return None
    if peer in serving_settings().trusted_proxies:
        return None
    return network_key(peer)


def open_connections() -> dict[str, int]:
    """Connections open now per address (public mode; for the sweep's figures and the tests)."""
    return dict(_OPEN)


def install() -> None:
    """Make uvicorn's "auto" HTTP protocol this guarded one (call before the server starts)."""
    uvicorn.config.HTTP_PROTOCOLS["auto"] = f"{__name__}:{GuardedH11Protocol.__name__}"
