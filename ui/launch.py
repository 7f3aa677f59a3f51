"""Build the UI once (models load at start-up), launch it, and serve until SIGTERM or Ctrl-C.

Imports gradio: ui.serve.main points the upload folder at RAM first, then calls `run`.
"""

from __future__ import annotations

from ui import connection_guard
from ui.app import build_app, launch_kwargs
from ui.client_address import trust_named_proxies
from ui.privacy import STOPPING, start_sweeper, stop_on_sigterm, temp_root
from ui.public import public_mode
from ui.route_door import mounted_routes, route_lines
from ui.state import live_files
from ui.upload_quota import LEDGER


def run(host: str | None = None, port: int | None = None) -> None:

    demo = build_app()
    trust_named_proxies()  # before the server starts: uvicorn reads it then
    connection_guard.install()  # a header timeout and a cap per address (ui/connection_guard.py)
    stop_on_sigterm()
    # Says where uploads live (no user data): operators and the privacy tests check that folder.
    print(f"whichone: uploads are kept in {temp_root()} until start over, session end or exit", flush=True)
    start_sweeper(live_files, LEDGER.older_than, LEDGER.forget)  # uploads no session opened, staging files
    # launch() returns once the server answers; this thread then waits for SIGTERM or Ctrl-C and closes.
    demo.launch(**launch_kwargs(demo, host=host, port=port), prevent_thread_lock=True)
    print_route_table(demo)
    try:
        while not STOPPING.wait(0.5):
            pass
    except KeyboardInterrupt:  # Ctrl-C in a terminal: the same clean stop, without a traceback
        pass
    finally:
        demo.close()


def print_route_table(demo: object) -> None:
    """Every route the app mounts, and which ones a visitor may reach in public mode (docs/security.md)."""
    app = getattr(demo, "server_app", None) or getattr(demo, "app", None)
    if not public_mode():
        # On a laptop the table is noise before the URL a newcomer looks for: one line says what it is.
        routes = mounted_routes(app)
        allowed = sum(route.rule is not None for route in routes)
        print(
            f"whichone: the app mounts {len(routes)} routes, all answering (private mode); in public mode"
            f" (WHICHONE_PUBLIC=1, or on a Space) only the {allowed} the page uses do,"
            " and their table is printed",
            flush=True,
        )
        return
    lines = route_lines(app)
    mode = "public mode: only the allowed routes answer"
    print(f"whichone: the app mounts {len(lines)} routes ({mode}):", *lines, sep="\n", flush=True)
