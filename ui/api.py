"""The public API (gradio_client): the same two-turn flow as the ask tab, with JSON replies.

Endpoints (each client keeps its own session, as a browser tab does):
- /ask(image, question) -> Reply.to_dict(); image may be None to ask about the session's photo again.
- /choose(region) -> the second turn about region number `region`.
- /click(x, y) -> the second turn about the region at (x, y) in working-image pixels.
- /hint(text) -> the second turn from a few words ("the one on the left").
- /start_over() -> {"ok": true}; forgets the photo and the conversation.
- /models() -> the loaded models and the registry.
A user-facing error comes back as gradio_client's AppError with its one-line message.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from assistant.pipeline import Choice
from models.registry import list_models
from ui.engine import ModelPool
from ui.handlers import AskHandlers, _ask_on_device, _resolve_on_device, user_message
from ui.state import UIState


class ApiHandlers:
    def __init__(self, pool: ModelPool, ask: AskHandlers) -> None:
        self.pool = pool
        self.handlers = ask

    def ask(self, image: str | None, question: str, state: UIState) -> tuple[dict[str, Any], UIState]:
        try:
            self.handlers.open_photo(image, state)
            assistant = self.pool.assistant(state.choice, state.config)
            reply, state.session = _ask_on_device(assistant, question or "", state.session)
        except Exception as exc:  # noqa: BLE001 - every failure is reported as one line
            raise gr.Error(user_message(exc)) from None
        return {"model": state.choice.label(), **reply.to_dict()}, state

    def choose(self, region: float | None, state: UIState) -> tuple[dict[str, Any], UIState]:
        if region is None or float(region) != int(region):
            raise gr.Error("Give a region number (1, 2, ...).")
        return self._resolve(state, int(region))

    def click(self, x: float | None, y: float | None, state: UIState) -> tuple[dict[str, Any], UIState]:
        if x is None or y is None:
            raise gr.Error("Give both x and y, in pixels of the photo.")
        return self._resolve(state, (float(x), float(y)))

    def hint(self, text: str, state: UIState) -> tuple[dict[str, Any], UIState]:
        return self._resolve(state, text or "")

    def start_over(self, state: UIState) -> tuple[dict[str, Any], UIState]:
        state.forget_photo()
        return {"ok": True}, state

    def models(self) -> dict[str, Any]:
        return {
            "loaded": [vars(m) for m in self.pool.loaded()],
            "registry": [
                {"kind": s.kind, "name": s.name, "description": s.description, "needs_gpu": s.needs_gpu}
                for s in list_models()
            ],
        }

    def _resolve(self, state: UIState, choice: Choice) -> tuple[dict[str, Any], UIState]:
        try:
            assistant = self.pool.assistant(state.choice, state.config)
            reply = _resolve_on_device(assistant, state.session, choice)
        except Exception as exc:  # noqa: BLE001 - every failure is reported as one line
            raise gr.Error(user_message(exc)) from None
        return reply.to_dict(), state


def add_api(api: ApiHandlers, state: gr.State, gpu_limit: int) -> None:
    """Hidden components (never rendered) that carry the API's inputs and outputs."""
    gpu = {"concurrency_id": "gpu", "concurrency_limit": gpu_limit}
    with gr.Column(visible=False):
        image = gr.Image(type="filepath", label="API image", sources=["upload"])
        question = gr.Textbox(label="API question")
        region = gr.Number(label="API region", precision=0)
        x = gr.Number(label="API x")
        y = gr.Number(label="API y")
        hint = gr.Textbox(label="API hint")
        result = gr.JSON(label="API result")
        # One never-rendered trigger per endpoint: the endpoints are called by name, never by a click.
        triggers = {
            name: gr.Button(name, visible=False)
            for name in ("ask", "choose", "click", "hint", "start_over", "models")
        }
    triggers["ask"].click(api.ask, [image, question, state], [result, state], api_name="ask", **gpu)
    triggers["choose"].click(api.choose, [region, state], [result, state], api_name="choose", **gpu)
    triggers["click"].click(api.click, [x, y, state], [result, state], api_name="click", **gpu)
    triggers["hint"].click(api.hint, [hint, state], [result, state], api_name="hint", **gpu)
    triggers["start_over"].click(api.start_over, [state], [result, state], api_name="start_over")
    triggers["models"].click(api.models, None, [result], api_name="models")
