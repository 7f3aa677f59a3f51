"""Which of the routes the app mounts a visitor of a public demo may reach, and how much each may carry.

Gradio mounts some 80 routes (screen recording, deep links, monitoring, streaming inputs, component
servers, run history, vibe editing...), and an upgrade can add more. The door does not keep a list of the
routes to close: it reads the routes the app actually mounts (the FastAPI router, flattened) and, in public
mode, answers 404 to every route that is not in `PAGE_ROUTES`, the routes this page and its API use. A
Gradio upgrade that opens a new route therefore opens nothing until it is added here.

Each allowed route has a body cap (`RouteRule.body_bytes`): a larger declared body is refused with 413
before any of it is read, and a chunked one the moment it passes the cap (ui.gatekeeper). Uploads and
events have their own, larger caps and checks in ui.gatekeeper.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any, Literal

from starlette.routing import Match

RouteKind = Literal["page", "upload", "event", "small_post", "heartbeat"]
KIB = 1024


@dataclass(frozen=True)
class RouteRule:
    """What an allowed route is for the door: its kind (which checks apply) and its body cap."""

    kind: RouteKind
    body_bytes: int


PAGE_GET = RouteRule("page", 0)
SMALL_POST = RouteRule("small_post", 4 * KIB)  # /cancel and /reset: an event id, a session hash, an index

# (method, route template) -> rule. HEAD is checked as GET. Everything else Gradio mounts is refused in
# public mode: /gradio_api/process_recording, /component_server, /stream/..., /deep_link, /monitoring...,
# /proxy=, /file/ (old), /login, /logout, /user, /token, /runs, /run-history/..., /vibe-..., /dev/reload,
# /custom_component/..., /openapi.json (FastAPI's own).
PAGE_ROUTES: dict[tuple[str, str], RouteRule] = {
    **{
        ("GET", path): PAGE_GET
        for path in (
            "/",
            "/config",
            "/config/",
            "/static/{path:path}",
            "/assets/{path:path}",
            "/svelte/{path:path}",
            "/favicon.ico",
            "/theme.css",
            "/robots.txt",
            "/manifest.json",
            "/pwa_icon",
            "/pwa_icon/{size}",
            "/gradio_api/info",
            "/gradio_api/info/",
            "/gradio_api/openapi.json",
            "/gradio_api/app_id",
            "/gradio_api/app_id/",
            "/gradio_api/login_check",
            "/gradio_api/login_check/",
            "/gradio_api/file={path_or_url:path}",
            "/gradio_api/queue/data",
            "/gradio_api/queue/status",
            "/gradio_api/call/{api_name}/{event_id}",
            "/gradio_api/call/v2/{api_name}/{event_id}",
            "/gradio_api/upload_progress",
            "/gradio_api/startup-events",
            "/gradio_api/theme.css",
        )
    },
    ("GET", "/gradio_api/heartbeat/{session_hash}"): RouteRule("heartbeat", 0),
    ("POST", "/gradio_api/upload"): RouteRule("upload", 0),  # capped by ui.upload_quota as bytes arrive
    **{
        ("POST", path): RouteRule("event", 0)  # capped by DoorLimits.max_event_bytes
        for path in (
            "/gradio_api/queue/join",
            "/gradio_api/call/{api_name}",
            "/gradio_api/call/{api_name}/",
            "/gradio_api/call/v2/{api_name}",
            "/gradio_api/call/v2/{api_name}/",
            "/gradio_api/run/{api_name}",
            "/gradio_api/run/{api_name}/",
            "/gradio_api/api/{api_name}",
            "/gradio_api/api/{api_name}/",
        )
    },
    ("POST", "/gradio_api/cancel"): SMALL_POST,
    ("POST", "/gradio_api/reset"): SMALL_POST,
    ("POST", "/gradio_api/reset/"): SMALL_POST,
}


@dataclass(frozen=True)
class MountedRoute:
    method: str
    path: str
    route: Any  # a starlette route (or FastAPI's flattened view of one): has .matches(scope)

    @property
    def rule(self) -> RouteRule | None:
        return PAGE_ROUTES.get(("GET" if self.method == "HEAD" else self.method, self.path))


def _flatten(routes: list[Any]) -> Iterator[Any]:
    for route in routes:
        candidates = getattr(route, "effective_candidates", None)  # FastAPI's included routers
        if callable(candidates):
            yield from _flatten(list(candidates()))
        else:
            yield route


def mounted_routes(app: Any) -> list[MountedRoute]:
    """Every (method, path) the app's router serves, in its matching order."""
    found: list[MountedRoute] = []
    for route in _flatten(list(getattr(getattr(app, "router", None), "routes", []) or [])):
        path = str(getattr(route, "path", ""))
        methods = sorted(getattr(route, "methods", None) or ["*"])
        found.extend(
            MountedRoute(method, path, route) for method in methods if method != "HEAD" or len(methods) == 1
        )
    return found


class RouteTable:
    """The app's mounted routes, read once (the app mounts them all before it serves), matched per
    request."""

    def __init__(self) -> None:
        self._routes: list[MountedRoute] | None = None

    def routes(self, app: Any) -> list[MountedRoute]:
        if self._routes is None:
            self._routes = mounted_routes(app)
        return self._routes

    def find(self, scope: MutableMapping[str, Any]) -> MountedRoute | None:
        """The mounted route a request reaches (None: no route of this method and path)."""
        method = str(scope.get("method"))
        for mounted in self.routes(scope.get("app")):
            if mounted.method not in (method, "*") and not (method == "HEAD" and mounted.method == "GET"):
                continue
            try:
                match, _ = mounted.route.matches(scope)
            except Exception:  # noqa: BLE001 - a route that cannot read this scope does not match it
                continue
            if match == Match.FULL:
                return mounted
        return None


def route_lines(app: Any) -> list[str]:
    """The route table as printed at start-up: every mounted route, and whether public mode allows it."""
    lines = []
    for mounted in mounted_routes(app):
        rule = mounted.rule
        verdict = f"allowed ({rule.kind})" if rule else "refused in public mode (404)"
        lines.append(f"  {mounted.method:5} {mounted.path:70} {verdict}")
    return lines
