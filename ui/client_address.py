"""Who a client is: the address every per-client limit and every upload's owner is keyed on.

Proxy headers are trusted only from proxies the operator names. uvicorn, under Gradio, rewrites a request's
client address from X-Forwarded-For when the connection comes from an address in FORWARDED_ALLOW_IPS, which
it defaults to 127.0.0.1: anyone on the machine (or behind a local reverse proxy that passes the header on)
could then name any address and reset every per-client limit. `trust_named_proxies` sets that variable from
WHICHONE_TRUSTED_PROXIES (empty by default: no proxy is trusted) before the server starts, so the address in
a request's scope is the connection's own unless an operator-named proxy made it.

On a Hugging Face Space (SPACE_ID set) every request comes through the Space's proxy, which appends the
address it saw to X-Forwarded-For: the last address is the client's (the first is whatever the client
wrote itself).

An IPv6 client is keyed on its /64, not its full address (issue 31, H14).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable

from ui.serving_settings import serving_settings

Headers = Iterable[tuple[bytes, bytes]]


def trust_named_proxies() -> str:
    """Point uvicorn's proxy trust at WHICHONE_TRUSTED_PROXIES (call before the server starts)."""
    named = ",".join(serving_settings().trusted_proxies)
    os.environ["FORWARDED_ALLOW_IPS"] = named
    return named


def client_key(peer: str | None, headers: Headers) -> str:
    """The client's address: the connection's (as uvicorn gives it, after the operator's proxies), or on a
    Space the address its proxy appended."""
    if os.environ.get("SPACE_ID"):
        for name, value in headers:
            if name.lower() == b"x-forwarded-for":
                last = value.decode("latin-1").split(",")[-1].strip()
                if last:
                    return network_key(last)
    return network_key(peer) if peer else "unknown"


def network_key(address: str) -> str:
    """An IPv4 address as it is; an IPv6 address as its /64 (one subscriber's network: a client with a /64
    has 2**64 addresses, so per-address limits would mean nothing); anything else as it is."""
    try:
        parsed = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def scope_client(scope: object) -> str:
    """client_key for an ASGI scope (a mapping with "client" and "headers")."""
    get = getattr(scope, "get", None)
    if get is None:
        return "unknown"
    client = get("client")
    return client_key(str(client[0]) if client else None, get("headers") or [])


def request_client(request: object) -> str | None:
    """client_key for a gr.Request (None without one: a handler called in-process)."""
    inner = getattr(request, "request", None)  # gr.Request wraps the starlette Request
    scope = getattr(inner, "scope", None)
    if scope is not None:
        return scope_client(scope)
    return None
