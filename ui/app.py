"""The whole Gradio app: `build_app()` makes the Blocks, `launch_kwargs()` says how to serve it.

Models are loaded once, here at start-up (the choice from WHICHONE_MODEL / WHICHONE_POINTER /
WHICHONE_SEGMENTER), into a ModelPool shared by all sessions; each browser session has its own UIState in
gr.State. GPU work goes through one queue group ("gpu") with WHICHONE_GPU_CONCURRENCY slots (default 1).
"""

from __future__ import annotations

import logging
from collections.abc import Container
from dataclasses import dataclass
from typing import Any

import gradio as gr
from starlette.middleware import Middleware

from assistant.pipeline import AssistantConfig
from assistant.settings import install as install_settings
from models.catalog import ModelChoice
from models.errors import ModelError
from ui.api import ApiHandlers, add_api
from ui.ask_tab import FOCUS_QUESTION_JS, AskTab, build_ask_tab
from ui.benchmark_tab import build_benchmark_tab
from ui.client_address import scope_client
from ui.endpoints import EndpointTable
from ui.engine import ModelPool, choice_from_env
from ui.gatekeeper import AppView, DoorLimits, Gatekeeper
from ui.handlers import AskHandlers
from ui.i18n import label, page_i18n
from ui.keyboard import help_html, skip_links_html
from ui.page_script import page_js
from ui.privacy import free_unopened, held_bytes, temp_root
from ui.public import public_mode
from ui.serving_settings import serving_settings as read_settings
from ui.settings_tab import OFFLINE_BUTTON, SettingsHandlers, banner_html, build_settings_tab, models_label
from ui.state import (
    STATE_TTL_S,
    UIState,
    end_session,
    forget_session,
    forget_state,
    live_files,
    release_closed_session,
)
from ui.upload_quota import LEDGER, UploadBudget

log = logging.getLogger(__name__)


CSS = """
.wh-banner { border: 3px solid #8a1c00; background: #fff4e5; color: #1a1a1a; padding: 0.75rem 1rem;
  border-radius: 6px; }
.wh-banner p { margin: 0.25rem 0; color: #1a1a1a; }
.wh-status { font-weight: 600; padding: 0.25rem 0; }
.wh-judge-text { white-space: pre-wrap; }
.wh-fetching progress { width: 100%; height: 1rem; }
button[role="tab"].selected { color: #1d4ed8; }  /* Gradio's blue-500 is 3.7:1 on white in the phone layout */
.wh-hidden { display: none !important; }
/* The results table on a phone: words stay whole (it wrapped letter by letter); the box scrolls sideways. */
#wh-bench-table .prose, #wh-bench-plot-text .prose { overflow-x: auto; }
#wh-bench-table td, #wh-bench-table th { word-break: normal; overflow-wrap: normal; white-space: nowrap; }
/* The chat's own Clear wiped the conversation with one key and no way back: Start over (which asks first)
   does it instead. */
#wh-chat button[aria-label="Clear"] { display: none !important; }
.wh-skip a { position: absolute; left: -10000px; top: 0.5rem; padding: 0.5rem 1rem; background: #fff;
  color: #0b3d91; border: 3px solid #0050b3; z-index: 1000; font-weight: 600; }
.wh-skip a:focus { left: 0.5rem; }
.wh-keys summary { cursor: pointer; font-weight: 600; }
.wh-keys table { border-collapse: collapse; margin: 0.5rem 0; }
.wh-keys th, .wh-keys td { text-align: left; padding: 0.2rem 0.75rem 0.2rem 0; }
#wh-chat .message:focus, #wh-chat [data-testid="bot"]:focus {
  outline: 3px solid #0050b3; outline-offset: 2px; }
"""


def theme() -> gr.themes.Base:
    """Gradio's default theme with text colours that meet WCAG AA contrast (4.5:1) on their backgrounds."""
    return gr.themes.Default(primary_hue="blue").set(
        button_primary_background_fill="*primary_700",
        button_primary_background_fill_hover="*primary_800",
        button_primary_text_color="white",
        button_cancel_background_fill="#b91c1c",
        button_cancel_background_fill_hover="#991b1b",
        button_cancel_text_color="white",
        body_text_color_subdued="*neutral_600",
        block_label_text_color="*neutral_700",
        input_placeholder_color="*neutral_500",
        link_text_color="*primary_700",
    )


def gpu_concurrency() -> int:
    return read_settings().gpu_concurrency


def add_benchmark_tab(pool: ModelPool) -> None:
    """The benchmark tab, inside the app's gr.Tabs (its builder lays out the components in this gr.Tab)."""
    with gr.Tab("Benchmark", id="benchmark", elem_id="wh-tab-benchmark"):
        build_benchmark_tab(pool)


def load_at_startup(pool: ModelPool, choice: ModelChoice) -> None:
    """Load the start-up models; a failure is remembered in pool.errors and shown as the banner.

    Online (HF_HUB_OFFLINE unset) with models from the Hub, the first start downloads them: in the
    background, so the page is up at once and its banner shows what is fetched, how much and how far (the
    terminal shows huggingface_hub's progress bars). Offline, or with nothing to fetch, it loads here."""
    if pool.fetches_first(choice):
        pool.fetch_then_load(choice, models_label(choice))
        return
    try:
        pool.load(choice)
    except ModelError as exc:
        log.warning("start-up models not available: %s", exc)


def build_app(
    pool: ModelPool | None = None,
    choice: ModelChoice | None = None,
    config: AssistantConfig | None = None,
) -> gr.Blocks:
    """The app. `choice` defaults to the environment's; `pool` to a new one, loaded now."""
    install_settings()  # models/ read WHICHONE_* (a no-op when the server's start did it)
    choice = choice or choice_from_env()
    if pool is None:
        pool = ModelPool()
        load_at_startup(pool, choice)
    gpu_limit = gpu_concurrency()
    ask_handlers = AskHandlers(pool, offline_button=OFFLINE_BUTTON)
    settings_handlers = SettingsHandlers(pool)

    # analytics_enabled=False: Gradio would otherwise report each start to its makers (no photos, but a
    # private offline tool should not phone home).
    with gr.Blocks(
        title="whichone: which one do you mean?", delete_cache=(300, STATE_TTL_S), analytics_enabled=False
    ) as demo:
        state = gr.State(
            UIState(choice=choice, config=config or AssistantConfig()),  # deep-copied per session
            time_to_live=STATE_TTL_S,
            delete_callback=forget_state,
        )
        page = _page_top(pool, choice)
        with gr.Tabs():
            with gr.Tab(label("tab_ask"), id="ask", elem_id="wh-tab-ask"):
                ask_tab = build_ask_tab(ask_handlers, state, gpu_limit)
            add_benchmark_tab(pool)
            with gr.Tab(label("tab_settings"), id="settings", elem_id="wh-tab-settings") as settings_tab:
                settings = build_settings_tab(
                    settings_handlers,
                    state,
                    choice,
                    page.banner,
                    page.fetch_timer,
                    gpu_limit,
                    offline_button=page.offline,
                )
        add_api(ApiHandlers(pool, ask_handlers, gpu_limit), state, gpu_limit)
        # In this order: the events' order is the config's (and Gradio's event numbers).
        _wire_load_and_progress(demo, page, settings, state, settings_handlers)
        _wire_offline_switch(page, settings, ask_tab, state, ask_handlers, settings_handlers, gpu_limit)
        _wire_refresh_and_unload(demo, page, settings_tab, settings, state, settings_handlers)
    # Only files Gradio received as uploads may be opened as photos (a client can send any path).
    ask_handlers.uploads.received = demo.upload_file_set
    ask_handlers.uploads.ledger = LEDGER  # ... and only by a session of the client that uploaded them
    # api_open=False: Gradio's direct routes (/run, /api), which skip the queue, refuse queued events (the
    # gatekeeper closes them too). More than queue_max waiting are refused.
    demo.queue(default_concurrency_limit=8, max_size=read_settings().queue_max, api_open=False)
    return demo


@dataclass
class _PageTop:
    """What sits above the tabs and the page's events update: the banner, the offline switch, and the
    timer that polls a download's progress."""

    banner: gr.HTML
    offline: gr.Button
    fetch_timer: gr.Timer


def _page_top(pool: ModelPool, choice: ModelChoice) -> _PageTop:
    """The skip links, the title, the keyboard help, the banner and the offline switch."""
    gr.HTML(skip_links_html(), js_on_load=None, elem_id="wh-skip-links", padding=False)
    gr.Markdown("# whichone\nA visual question answering assistant that asks which one you mean.")
    gr.HTML(help_html(), js_on_load=None, elem_id="wh-keys-panel", padding=False)
    banner = gr.HTML(banner_html(pool, choice), js_on_load=None, elem_id="wh-banner")
    offline = gr.Button(
        OFFLINE_BUTTON,
        visible=bool(pool.errors.get(choice)),
        elem_id="wh-try-offline",
        variant="secondary",
    )
    # While a first start (or an Apply in Settings) downloads models: the banner's progress, every 2 s
    # (then it stops).
    fetch_timer = gr.Timer(2.0, active=pool.fetching(choice) is not None)
    return _PageTop(banner, offline, fetch_timer)


def _wire_load_and_progress(
    demo: gr.Blocks,
    page: _PageTop,
    settings: dict[str, Any],
    state: gr.State,
    settings_handlers: SettingsHandlers,
) -> None:
    """The page's load and the download's progress."""
    banner, offline, fetch_timer = page.banner, page.offline, page.fetch_timer
    refresh = settings_handlers.refresh
    demo.load(
        refresh,
        [state],
        [banner, settings["loaded"], fetch_timer],
        api_name="ui_load",
        api_visibility="private",
        show_progress="hidden",  # a refresh of what is shown: no timer flashing in the banner (an alert)
    ).then(settings_handlers.offline_visibility, [state], [offline], api_visibility="private")
    fetch_timer.tick(
        settings_handlers.poll,
        [state],
        [
            banner,
            settings["loaded"],
            offline,
            fetch_timer,
            settings["result"],
            *settings["dropdowns"],
            state,
        ],
        api_name="ui_fetch_progress",
        api_visibility="private",
        show_progress="hidden",
    )


def _wire_refresh_and_unload(
    demo: gr.Blocks,
    page: _PageTop,
    settings_tab: gr.Tab,
    settings: dict[str, Any],
    state: gr.State,
    settings_handlers: SettingsHandlers,
) -> None:
    """The Settings tab's refresh, and the unload event."""
    settings_tab.select(
        settings_handlers.refresh,
        [state],
        [page.banner, settings["loaded"], page.fetch_timer],
        api_name="ui_settings_tab",
        api_visibility="private",
        show_progress="hidden",  # as the page's load: a busy queue showed "0.1s" in the empty banner
    )

    def forget_closed_session(request: gr.Request) -> None:
        """The unload event (tab closed or reloaded, API client closed): forget its photo now (Gradio
        keeps a closed session's state for an hour) and then Gradio's own entry for it."""
        end_session(request)
        release_closed_session(getattr(demo, "state_holder", None), request)

    demo.unload(forget_closed_session)


def _wire_offline_switch(
    page: _PageTop,
    settings: dict[str, Any],
    ask_tab: AskTab,
    state: gr.State,
    ask_handlers: AskHandlers,
    settings_handlers: SettingsHandlers,
    gpu_limit: int,
) -> None:
    """The banner's one-click switch to the offline stack."""
    page.offline.click(
        settings_handlers.try_offline,
        [state],
        [page.banner, settings["loaded"], page.offline, *settings["dropdowns"], state],
        api_name="ui_try_offline",
        api_visibility="private",
        concurrency_id="gpu",
        concurrency_limit=gpu_limit,
    ).then(
        # The Ask tab's error about the missing models goes with them; the button is gone, so focus
        # moves to the question (a screen reader hears the new status line).
        ask_handlers.after_switch,
        [ask_tab.photo, state],
        [ask_tab.chat, ask_tab.status, state],
        api_visibility="private",
        preprocess=False,  # the photo's upload path, checked by open_photo (as the ask events do)
    ).then(None, js=FOCUS_QUESTION_JS)


def waiting_events(demo: gr.Blocks, client: str) -> int:
    """How many events of `client` wait in the app's queue (not yet running). Reads Gradio's queue
    (Blocks._queue.event_queue_per_concurrency_id: EventQueue.queue holds Event objects with the request
    that sent them); tests/test_security_app.py checks it against a real flood."""
    queues = getattr(getattr(demo, "_queue", None), "event_queue_per_concurrency_id", {})
    return sum(
        1
        for event_queue in list(queues.values())
        for event in list(event_queue.queue)
        if scope_client(getattr(event.request, "scope", None)) == client
    )


def pending_sessions(demo: gr.Blocks) -> Container[str]:
    """The sessions with events in Gradio's queue, whose event stream (/queue/data) Gradio serves
    (Blocks._queue.pending_messages_per_session)."""
    return getattr(getattr(demo, "_queue", None), "pending_messages_per_session", {})


def holds_event(demo: gr.Blocks, event_id: str) -> bool:
    """Whether Gradio's queue holds the event `event_id` (waiting, running, or its result not yet read:
    Queue.event_ids_to_events and pending_event_ids_session), whose stream /call/<name>/<id> serves."""
    queue = getattr(demo, "_queue", None)
    if event_id in getattr(queue, "event_ids_to_events", {}):
        return True
    pending = getattr(queue, "pending_event_ids_session", {})
    return any(event_id in ids for ids in list(pending.values()))


def door(demo: gr.Blocks) -> Middleware:
    """The gatekeeper (ui.gatekeeper) for this app, with the limits of the environment."""
    limits = DoorLimits.from_env(public_mode())
    table: list[EndpointTable] = []

    def endpoints() -> EndpointTable:
        if not table:  # the events are fixed once the app is built
            table.append(EndpointTable.of(demo))
        return table[0]

    def make_room(needed: int) -> int:
        return free_unopened(needed, live_files(), LEDGER.older_than, LEDGER.forget)

    budget = UploadBudget(
        client_cap=limits.client_bytes,
        total_cap=limits.total_bytes,
        held_total=lambda: held_bytes(temp_root()),
        held_by=LEDGER.client_bytes,
        make_room=make_room,
    )
    view = AppView(
        endpoints=endpoints,
        waiting=lambda client: waiting_events(demo, client),
        forget_session=lambda session_hash: forget_session(getattr(demo, "state_holder", None), session_hash),
        has_events=lambda session_hash: session_hash in pending_sessions(demo),
        has_event=lambda event_id: holds_event(demo, event_id),
    )
    return Middleware(Gatekeeper, limits=limits, view=view, budget=budget, ledger=LEDGER)


def launch_kwargs(demo: gr.Blocks, host: str | None = None, port: int | None = None) -> dict[str, Any]:
    """Arguments for `demo.launch`. host/port default to GRADIO_SERVER_NAME / GRADIO_SERVER_PORT, which
    Gradio reads itself when they are None (127.0.0.1 and 7860 otherwise). The gatekeeper (ui.gatekeeper)
    limits uploads and events before Gradio sees them."""
    return {
        "app_kwargs": {"middleware": [door(demo)]},
        "server_name": host,
        "server_port": port,
        "max_file_size": read_settings().max_upload,  # larger uploads are refused by Gradio
        "css": CSS,
        "js": page_js(),
        "theme": theme(),
        "show_error": False,  # user-facing errors are shown by the handlers; no tracebacks to users
        "ssr_mode": False,  # server-side rendering needs Node.js, which a plain Python Space lacks
        "footer_links": ["api", "gradio"],
        # The page in the browser's language, or the one chosen in Settings (issue 36; ui/i18n.py).
        "i18n": page_i18n(),
    }
