"""The public API (gradio_client): the same two-turn flow as the ask tab, with JSON replies.

Endpoints (each client keeps its own session, as a browser tab does):
- /ask(image, question) -> Reply.to_dict(); image may be None to ask about the session's photo again.
- /choose(region) -> the second turn about region number `region`.
- /click(x, y) -> the second turn about the region at (x, y) in working-image pixels.
- /hint(text) -> the second turn from a few words ("the one on the left").
- /start_over() -> {"ok": true}; forgets the photo and the conversation.
- /models() -> the loaded models and the registry.
- /save_conversation(save, include_photo) -> {"saving", "include_photo", "conversation", "message"}: only
  when the operator allows saving (WHICHONE_SAVE_CONVERSATIONS, see ui.conversation_log); off by default.
A user-facing error comes back as gradio_client's AppError with its one-line message.

The image travels as a file (gr.File), not a gr.Image: gr.Image decodes the upload before the handler runs,
so a text file named .jpg, an empty file or a decompression bomb failed inside Gradio with its generic
"has raised an exception" instead of the assistant's one-line reason, and its RGB conversion turned a
transparent background black. Here the assistant's own loader is the only decoder.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from assistant.errors import WhichoneError
from assistant.pipeline import Choice
from assistant.validation import finite_number
from models.registry import list_models
from ui import conversation_log
from ui.client_address import request_client
from ui.engine import ModelPool
from ui.gpu import GAUGE
from ui.handlers import AskHandlers, turn_kind, user_message
from ui.serving_settings import serving_settings
from ui.state import UIState, track_session
from ui.turns import ask_once, choice_json, resolve_once


def refusal(message: str) -> gr.Error:
    """The one-line error a client gets. Not printed with a traceback in the server's log: it is an
    expected outcome, and it may name the user's file ("The image file holiday.jpg is empty")."""
    return gr.Error(message, print_exception=False)


class ApiHandlers:
    def __init__(self, pool: ModelPool, ask: AskHandlers, gpu_limit: int = 1) -> None:
        self.pool = pool
        self.handlers = ask
        self.gpu_limit = gpu_limit

    def ask(
        self, image: str | None, question: str, state: UIState, request: gr.Request | None = None
    ) -> tuple[dict[str, Any], UIState]:
        track_session(state, request)
        try:
            self.handlers.open_photo(image, state, request_client(request))
            assistant = self.pool.assistant(state.choice, state.config)
            reply, state.session = ask_once(assistant, question or "", state.session)
        except Exception as exc:  # noqa: BLE001 - every failure is reported as one line
            conversation_log.remember(state, "ask", question, error=user_message(exc))
            raise refusal(user_message(exc)) from None
        conversation_log.remember(state, "ask", question, reply)
        return {"model": state.choice.label(), **reply.to_dict()}, state

    def choose(self, region: object, state: UIState) -> tuple[dict[str, Any], UIState]:
        number = finite_number(region)
        if number is None or number != int(number):
            raise refusal("Give a region number (1, 2, ...).")
        return self._resolve(state, int(number))

    def click(self, x: object, y: object, state: UIState) -> tuple[dict[str, Any], UIState]:
        point = finite_number(x), finite_number(y)
        if point[0] is None or point[1] is None:
            raise refusal("Give both x and y as numbers, in pixels of the photo.")
        return self._resolve(state, (point[0], point[1]))

    def hint(self, text: str, state: UIState) -> tuple[dict[str, Any], UIState]:
        return self._resolve(state, text or "")

    def start_over(self, state: UIState) -> tuple[dict[str, Any], UIState]:
        state.forget_photo()
        return {"ok": True}, state

    def save_conversation(
        self, save: bool | None, include_photo: bool | None, state: UIState
    ) -> tuple[dict[str, Any], UIState]:
        try:
            message = conversation_log.set_saving(state, bool(save), bool(include_photo))
        except WhichoneError as exc:
            raise refusal(str(exc)) from None
        result = {"saving": state.save, "include_photo": state.save_photo, "message": message}
        return {**result, "conversation": state.conversation_id if state.save else None}, state

    def models(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "loaded": [vars(m) for m in self.pool.loaded()],
            "registry": [
                {"kind": s.kind, "name": s.name, "description": s.description, "needs_gpu": s.needs_gpu}
                for s in list_models()
            ],
        }
        if serving_settings().queue_stats:
            # Counts of model calls only (ui.gpu.GAUGE): how many ran at once, never what they were.
            out["gpu_queue"] = {"limit": self.gpu_limit, **GAUGE.snapshot()}
        return out

    def _resolve(self, state: UIState, choice: Choice) -> tuple[dict[str, Any], UIState]:
        try:
            assistant = self.pool.assistant(state.choice, state.config)
            reply, state.session = resolve_once(assistant, state.session, choice)
        except Exception as exc:  # noqa: BLE001 - every failure is reported as one line
            conversation_log.remember(state, turn_kind(choice), choice_json(choice), error=user_message(exc))
            raise refusal(user_message(exc)) from None
        conversation_log.remember(state, turn_kind(choice), choice_json(choice), reply)
        return reply.to_dict(), state


def add_api(api: ApiHandlers, state: gr.State, gpu_limit: int) -> None:
    """Hidden components (never rendered) that carry the API's inputs and outputs."""
    gpu: dict[str, Any] = {"concurrency_id": "gpu", "concurrency_limit": gpu_limit}
    with gr.Column(visible=False):
        image = gr.File(type="filepath", label="API image")
        question = gr.Textbox(label="API question")
        region = gr.Number(label="API region")  # no precision: 1.5 is refused, not rounded to 2
        x = gr.Number(label="API x")
        y = gr.Number(label="API y")
        hint = gr.Textbox(label="API hint")
        save = gr.Checkbox(label="API save")
        save_photo = gr.Checkbox(label="API include photo")
        result = gr.JSON(label="API result")
        # One never-rendered trigger per endpoint: the endpoints are called by name, never by a click.
        triggers = {
            name: gr.Button(name, visible=False)
            for name in ("ask", "choose", "click", "hint", "start_over", "models", "save_conversation")
        }
    triggers["ask"].click(api.ask, [image, question, state], [result, state], api_name="ask", **gpu)
    raw: dict[str, Any] = {"preprocess": False}  # the handlers read the numbers themselves (finite_number)
    triggers["choose"].click(api.choose, [region, state], [result, state], api_name="choose", **raw, **gpu)
    triggers["click"].click(api.click, [x, y, state], [result, state], api_name="click", **raw, **gpu)
    triggers["hint"].click(api.hint, [hint, state], [result, state], api_name="hint", **gpu)
    triggers["start_over"].click(api.start_over, [state], [result, state], api_name="start_over")
    triggers["models"].click(api.models, None, [result], api_name="models")
    if conversation_log.save_folder() is not None:  # the operator allows saving; off by default
        triggers["save_conversation"].click(
            api.save_conversation, [save, save_photo, state], [result, state], api_name="save_conversation"
        )
