"""The ask tab's event logic: open a photo, ask, resolve (option, click or hint), start over.

Every handler takes the session's UIState and gives it back; nothing about a conversation is kept
anywhere else. A user-facing error (bad photo, empty question, model not available) becomes a warning
line in the chat (and in the live status line); the session stays as it was.

Handlers that update the whole ask view yield a `View` (see `View.outputs` for the component order).

Replies stream: the assistant's turn is a stream of events (ui.turns.ask_stream / resolve_stream, the
functions wrapped for the GPU), and each growing text becomes a chat update, at most one every
ui.turns.STREAM_INTERVAL_S; the final view (overlay, options, explain, status) follows with TurnDone.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from html import escape
from typing import Any

import gradio as gr
from PIL import Image

from assistant.errors import InputError, WhichoneError
from assistant.images import DecodeBusy
from assistant.languages import CATALOG_LANGUAGES
from assistant.languages.catalog import Say
from assistant.languages.say_reply import N_
from assistant.pipeline import Choice, ReplyText, TurnDone, UserTurn
from assistant.types import Reply
from models.errors import ModelError, ModelUnavailable
from ui import conversation_log
from ui.client_address import request_client
from ui.engine import ModelPool
from ui.explain import (
    NO_REPLY_YET,
    OPTIONS_LABEL,
    explain_markdown,
    option_choices,
    options_label,
    reply_language,
    status_line,
)
from ui.overlay import alt_text, draw_overlay, overlay_scale
from ui.page_language import page_say, remember_page_language
from ui.privacy import cache_image
from ui.settings_tab import stack_of
from ui.state import UIState, track_session
from ui.turns import ask_stream, choice_json, resolve_stream
from ui.uploads import UploadGate, upload_path

log = logging.getLogger(__name__)

THINKING = "…"
BEGIN = N_("Add a photo to begin.")


@dataclass
class View:
    """One update of the ask view; `None` leaves a component as it is (gr.skip()); to clear the overlay
    pass gr.update(value=None, visible=False)."""

    state: UIState
    chat: list[dict[str, str]] | None = None
    overlay: Any = None
    options: Any = None
    explain: str | None = None
    status: str | None = None
    undo: Any = None  # the "Undo my choice" button: interactive only while the last turn is a choice

    def outputs(self) -> tuple[Any, ...]:
        """(chat, overlay, options, explain, status, undo, state), the order ask_tab wires them."""
        return tuple(
            gr.skip() if v is None else v
            for v in (self.chat, self.overlay, self.options, self.explain, self.status, self.undo)
        ) + (self.state,)


def undo_button(state: UIState) -> Any:
    return gr.update(interactive=state.before_choice is not None)


def status_html(text: str, lang: str = "en", text_key: str | None = None) -> str:
    """The status line. role=status is a polite live region: screen readers announce each new line without
    moving focus; `lang` (the text's language) lets them read it with the right voice, and the page script
    gives the newest reply the same `lang` (ui/page_script.py). `text_key`: a key of the page's own texts
    (ui/page_language.py), which the page's script shows in the page's language."""
    key = f' data-wh-text="{escape(text_key)}"' if text_key else ""
    return (
        f'<div role="status" aria-live="polite" class="wh-status" lang="{escape(lang)}"{key}>'
        f"{escape(text)}</div>"
    )


def reply_status(reply: Reply) -> str:
    """The status line after a reply, in the reply's language where a catalog has it (else English, marked
    English); `data-reply-lang` keeps the reply's own language for the reply's voice (ui/ask_tab.py)."""
    reply_lang = reply_language(reply)
    lang = reply_lang if reply_lang in CATALOG_LANGUAGES else "en"
    line = status_html(status_line(reply), lang=lang)
    return line.replace(' class="wh-status"', f' class="wh-status" data-reply-lang="{escape(reply_lang)}"', 1)


def page_status(state: UIState, text: str, **fields: Any) -> str:
    """A status line about the page, in the page's language: `text` is the msgid."""
    say = page_say(state)
    return status_html(say(text, **fields), lang=say.lang)


def turn_kind(choice: Choice) -> str:
    """How the user chose, for the conversation's record: choose, click or hint."""
    if isinstance(choice, str):
        return "hint"
    return "click" if isinstance(choice, tuple) else "choose"


def user_message(exc: BaseException, offline_button: str | None = None) -> str:
    """The one line a user sees for an error. `offline_button`: the label of the page's one-click switch to
    the offline stack, where it is offered (a model that is not here says so, and names it)."""
    if isinstance(exc, ModelUnavailable) and offline_button:
        return (
            f'{str(exc).rstrip(".")}. Or press "{offline_button}" at the top of the page to try the app now.'
        )
    if isinstance(exc, (WhichoneError, ModelError)):
        return str(exc)
    if isinstance(exc, MemoryError):
        return "Out of memory; try a smaller photo or a smaller model in Settings."
    return f"Something went wrong ({type(exc).__name__}); your conversation is kept, please try again."


class AskHandlers:
    def __init__(
        self, pool: ModelPool, uploads: UploadGate | None = None, offline_button: str | None = None
    ) -> None:
        self.pool = pool
        self.uploads = uploads or UploadGate()  # only files Gradio received as uploads are opened
        self.offline_button = offline_button  # the label of the page's offline switch, if it has one

    # ---------------------------------------------------------------- photo

    def open_photo(self, path: str | None, state: UIState, client: str | None = None) -> UIState:
        """Make `path` (a Gradio upload that `client` sent) the session's photo; a no-op if it already is."""
        if not path or path == state.image_path:
            return state
        # A client may send any path: only its own uploads open (each upload opens once).
        shared = path not in state.files and self.uploads.check(path, client).is_example
        if not shared and path not in state.files:
            state.files.append(path)  # tracked before decoding, so even a refused file is deleted later
        assistant = self.pool.assistant(state.choice, state.config)
        try:
            assistant.open_image(path, state.session)  # decodes, starts the segmentation embedding
        except DecodeBusy:
            raise  # the photo may be tried again
        except InputError:
            state.release_file(path)  # an undecodable upload is freed at once, not held by the session
            raise
        state.release_files(keep=None if shared else path)  # the previous photo's upload
        state.image_path = path
        state.overlay_scale = 1.0
        state.new_conversation()  # a new photo is a new conversation
        return state

    def on_image(self, path: object, state: UIState, request: gr.Request | None = None) -> tuple[Any, ...]:
        """The photo input changed: open the new photo (new conversation), or forget a cleared one."""
        track_session(state, request)
        remember_page_language(state, request)
        path = upload_path(path)  # checked by open_photo
        if not path:
            if state.image_path:
                # Removing the photo keeps the conversation on screen (nothing lost to one key); a new photo
                # starts a new one, as Start over does.
                chat = list(state.chat)
                state.forget_photo()
                state.chat = chat
                text = (
                    N_(
                        "Photo removed; the conversation stays on screen. Add a photo to ask about it (that "
                        "starts a new conversation), or download the conversation to keep it."
                    )
                    if chat
                    else N_("Photo removed. Add a photo to begin.")
                )
                return self._blank(state, text).outputs()
            return View(state).outputs()
        try:
            self.open_photo(path, state, request_client(request))
        except Exception as exc:  # noqa: BLE001 - shown to the user, the session survives
            return self._error(state, exc).outputs()
        w, h = state.session.image.size if state.session.image else (0, 0)
        ready = N_("Photo ready ({width} x {height} pixels). Type a question and press Enter.")
        return self._blank(state, ready, width=w, height=h).outputs()

    # ---------------------------------------------------------------- turn 1

    def ask(
        self, path: object, question: str, state: UIState, request: gr.Request | None = None
    ) -> Iterator[tuple[Any, ...]]:
        track_session(state, request)
        remember_page_language(state, request)
        path = upload_path(path)
        question = question or ""
        asked = {"role": "user", "content": question.strip()} if question.strip() else None
        try:
            # In case the question overtook the photo's upload event.
            self.open_photo(path, state, request_client(request))
        except Exception as exc:  # noqa: BLE001
            yield self._error(state, exc, asked=asked).outputs()
            return
        if not question.strip():
            # No bubble for nothing: the status line says what to do, the chat stays as it was.
            if state.session.image is None:
                text = N_("Add a photo, then type a question and press Enter.")
            else:
                text = N_("Type a question first, then press Enter.")
            yield View(
                state, chat=self._shown_chat(state, clear=True), status=page_status(state, text)
            ).outputs()
            return
        chat = [*state.chat, {"role": "user", "content": question.strip()}]
        yield View(
            state,
            chat=[*chat, {"role": "assistant", "content": THINKING}],
            status=page_status(state, N_("Thinking about your question…")),
        ).outputs()
        done: TurnDone | None = None
        try:
            assistant = self.pool.assistant(state.choice, state.config)
            with closing(ask_stream(assistant, question, state.session)) as events:
                for event in events:
                    if isinstance(event, ReplyText):
                        reply_so_far = {"role": "assistant", "content": event.text}
                        yield View(state, chat=[*chat, reply_so_far]).outputs()
                    elif isinstance(event, TurnDone):
                        done = event
            if done is None:
                raise RuntimeError("the reply ended without a result")
        except Exception as exc:  # noqa: BLE001
            # The question and the error show under the conversation until the next try replaces them.
            view = self._error(state, exc, asked=chat[-1])
            conversation_log.remember(state, "ask", question, error=user_message(exc))
            yield view.outputs()
            return
        state.session = done.session
        # The choice before this question stays undoable: undo goes back to its candidates and says that
        # the questions asked after it leave the conversation.
        yield self._reply_view(state, chat, done.reply, turn=("ask", question)).outputs()

    # ---------------------------------------------------------------- turn 2

    def choose(
        self, region_id: int | None, state: UIState, request: gr.Request | None = None
    ) -> Iterator[tuple[Any, ...]]:
        remember_page_language(state, request)
        if region_id is None:
            say = page_say(state)
            if state.session.candidates is None or not state.session.candidates.regions:
                text = say(
                    "There are no candidates to choose from yet: ask a question about the photo first."
                )
            else:
                text = say(
                    "Choose one of the options first (arrow keys in the list), then press this button."
                )
            yield self._error(state, WhichoneError(text)).outputs()
            return
        yield from self._resolve(state, int(region_id))

    def click(
        self, state: UIState, evt: gr.SelectData, request: gr.Request | None = None
    ) -> Iterator[tuple[Any, ...]]:
        remember_page_language(state, request)
        index = evt.index if isinstance(evt.index, (list, tuple)) else None
        if not index or len(index) < 2 or index[0] is None:
            # Enter on the focused picture "clicks" it without a position: point to the options list.
            without_mouse = N_(
                "To choose without a mouse, use the list 'Which one do you mean?' next to the picture."
            )
            yield View(state, status=page_status(state, without_mouse)).outputs()
            return
        scale = state.overlay_scale or 1.0
        # The overlay may be smaller than the working image: map the click back onto session.image.
        try:
            x, y = float(index[0]) / scale, float(index[1]) / scale
        except (TypeError, ValueError, OverflowError):
            x = y = float("nan")  # refused by the assistant with its one line
        yield from self._resolve(state, (x, y))

    def hint(self, text: str, state: UIState, request: gr.Request | None = None) -> Iterator[tuple[Any, ...]]:
        remember_page_language(state, request)
        yield from self._resolve(state, text or "")

    def _resolve(self, state: UIState, choice: Choice) -> Iterator[tuple[Any, ...]]:
        chat = list(state.chat)
        yield View(
            state,
            chat=[*chat, {"role": "assistant", "content": THINKING}],
            status=page_status(state, N_("Answering about your choice…")),
        ).outputs()
        done: TurnDone | None = None
        user: list[dict[str, str]] = []  # the domain writes "Number 2" / "(clicked at x, y)" / the hint
        try:
            assistant = self.pool.assistant(state.choice, state.config)
            with closing(resolve_stream(assistant, state.session, choice)) as events:
                for event in events:
                    if isinstance(event, UserTurn):
                        user = [{"role": "user", "content": event.text}]
                    elif isinstance(event, ReplyText):
                        reply_so_far = {"role": "assistant", "content": event.text}
                        yield View(state, chat=[*chat, *user, reply_so_far]).outputs()
                    elif isinstance(event, TurnDone):
                        done = event
            if done is None:
                raise RuntimeError("the reply ended without a result")
        except Exception as exc:  # noqa: BLE001
            view = self._error(state, exc)
            conversation_log.remember(state, turn_kind(choice), choice_json(choice), error=user_message(exc))
            yield view.outputs()
            return
        if done.reply.resolved_region is not None:
            state.before_choice = (state.session, list(state.chat))  # what Undo goes back to
        state.session = done.session
        # A click may add a candidate: the overlay and options are redrawn.
        turn = (turn_kind(choice), choice_json(choice))
        yield self._reply_view(state, [*chat, *user], done.reply, turn=turn).outputs()

    # ---------------------------------------------------------------- opt-in to save

    def set_saving(self, save: bool, include_photo: bool, state: UIState) -> tuple[str, UIState]:
        """The "Save this conversation" / "Include the photo" checkboxes changed: (status, state)."""
        try:
            line = conversation_log.set_saving(state, save, include_photo)
        except WhichoneError as exc:
            return page_status(state, N_("Error: {message}"), message=str(exc)), state
        return status_html(line), state

    # ---------------------------------------------------------------- reset

    def another_question(self, state: UIState, request: gr.Request | None = None) -> tuple[Any, ...]:
        """Keep the photo (and its segmentation embedding) and the chat; hide the candidates. The chosen
        one stays in the session: a question that points back to it ("what is he holding?") is about it."""
        remember_page_language(state, request)
        session, say = state.session, page_say(state)
        if session.image is None:
            text = say("Add a photo first, then ask a question about it.")
        elif (chosen := session.chosen()) is not None:
            text = say(
                "Ask another question about this photo. A question about 'it', 'he' or 'she' is about "
                "number {id}, {description}; name a thing to start afresh.",
                id=chosen.id,
                description=chosen.description,
            )
        else:
            text = say("Ask another question about this photo.")
        return View(
            state,
            chat=self._shown_chat(state, clear=True),
            overlay=gr.update(value=None, visible=False),
            options=gr.update(choices=[], value=None, label=say(OPTIONS_LABEL)),
            explain=say(NO_REPLY_YET),
            status=status_html(text, lang=say.lang),
            undo=undo_button(state),
        ).outputs()

    def undo_choice(self, state: UIState, request: gr.Request | None = None) -> tuple[Any, ...]:
        """Back to the candidates as they were before the latest choice, at any point: its turn, and any
        question asked after it, leave the chat (the status says how many)."""
        remember_page_language(state, request)
        if state.before_choice is None:
            return View(state, status=page_status(state, N_("There is no choice to undo."))).outputs()
        session, chat = state.before_choice
        later = sum(1 for m in state.chat[len(chat) :] if m.get("role") == "user") - 1  # after the choice
        state.session, state.chat, state.before_choice = session, list(chat), None
        state.notice = []
        reply = session.last_reply
        view = View(state, chat=list(chat), undo=undo_button(state))
        if reply is not None:
            view.overlay, view.options = self._candidates_view(state, reply, selected=None)
            count = len(reply.candidates)
            say = page_say(state)
            view.explain = explain_markdown(reply, state.choice.label(), say)
            gone = ""
            if later > 0:
                gone = say.n(
                    " The question you asked after it left the conversation with it.",
                    " The {count} questions you asked after it left the conversation with it.",
                    later,
                )
            undone = say(
                "Choice undone.{gone} Choose again from the {count} candidates.", gone=gone, count=count
            )
            view.status = status_html(undone, lang=say.lang)
        conversation_log.remember(state, "undo", None)
        return view.outputs()

    def start_over(self, state: UIState, request: gr.Request | None = None) -> tuple[Any, ...]:
        remember_page_language(state, request)
        state.forget_photo()
        return self._blank(state, N_("Started over. Add a photo to begin.")).outputs()

    # ---------------------------------------------------------------- views

    def _reply_view(
        self, state: UIState, chat: list[dict[str, str]], reply: Reply, turn: tuple[str, Any] | None = None
    ) -> View:
        """The final view of a reply: the whole text, the candidates (a click may have added one), explain
        and status. `turn` (kind, input) is recorded before the view goes out, so a save the user asks for
        right after it already holds this turn."""
        final = [*chat, {"role": "assistant", "content": reply.text}]
        state.chat = list(final)
        state.notice = []  # the cause of any error shown is gone: this turn worked
        view = View(
            state,
            chat=final,
            explain=explain_markdown(reply, state.choice.label(), page_say(state)),
            status=reply_status(reply),
            undo=undo_button(state),
        )
        view.overlay, view.options = self._candidates_view(state, reply)
        if turn is not None:
            conversation_log.remember(state, *turn, reply)
        return view

    def _candidates_view(
        self, state: UIState, reply: Reply, selected: int | None | bool = True
    ) -> tuple[Any, Any]:
        """(overlay, options) updates for `reply`'s candidates; `selected`: True selects the reply's chosen
        one, else the value to select."""
        image = state.session.image
        if image is None:
            return gr.update(value=None, visible=False), gr.update(
                choices=[], value=None, label=page_say(state)(OPTIONS_LABEL)
            )
        candidates = reply.candidates
        # The list and the picture's text twin speak of the reply's candidates: in the reply's language.
        say = Say(reply_language(reply))
        state.overlay_scale = overlay_scale(image.size)
        picture: Image.Image = draw_overlay(image, candidates)
        # The overlay shows the photo: written where the session can delete it with the upload.
        path = cache_image(picture)
        if path not in state.files:
            state.files.append(path)
        overlay = gr.update(value=path, alt_text=alt_text(candidates, say), visible=True)
        options = gr.update(
            choices=option_choices(candidates),
            value=reply.resolved_region if selected is True else selected,
            label=options_label(candidates, say),
        )
        return overlay, options

    def _blank(self, state: UIState, status: str, **fields: Any) -> View:
        """The view without candidates; `status` (a msgid, with `fields`) in the page's language."""
        state.notice = []
        state.before_choice = None
        say = page_say(state)
        return View(
            state,
            chat=list(state.chat),
            undo=undo_button(state),
            overlay=gr.update(value=None, visible=False),
            options=gr.update(choices=[], value=None, label=say(OPTIONS_LABEL)),
            explain=say(NO_REPLY_YET),
            status=page_status(state, status, **fields),
        )

    def _error(self, state: UIState, exc: BaseException, asked: dict[str, str] | None = None) -> View:
        """The error as the one line under the conversation (with the question it answers, if any),
        replacing the error shown before: the conversation itself (state.chat) is unchanged."""
        offline = self.offline_button if self.pool.errors.get(state.choice) else None
        message = user_message(exc, offline)
        stack = stack_of(state.choice)
        if stack:  # the models do not know which stack they are in; this session does
            message = message.replace("--stack NAME", f"--stack {stack}")
        if not isinstance(exc, (WhichoneError, ModelError, MemoryError)):
            log.exception("unexpected error in the ask tab")  # the traceback, never the photo
        # No gr.Warning toast: Gradio 6.31's toast nests interactive controls (axe: serious), and the chat
        # line plus the live status already say it, to sighted and screen-reader users alike.
        state.notice = [*([asked] if asked else []), {"role": "assistant", "content": f"⚠️ {message}"}]
        return View(
            state,
            chat=self._shown_chat(state),
            status=page_status(state, N_("Error: {message}"), message=message),
        )

    def after_switch(
        self, path: object, state: UIState, request: gr.Request | None = None
    ) -> tuple[Any, Any, UIState]:
        """The session's stack changed (the offline switch): where its models are loaded now, the error
        about the old ones goes, the photo on the page opens with them (it could not before), and the
        status says what to do next. (chat, status, state)"""
        if not self.pool.is_loaded(state.choice):
            return gr.skip(), gr.skip(), state
        had_error = bool(state.notice)
        state.notice = []
        say = page_say(state)
        now = say("Now using {models}.", models=state.choice.label())
        path = upload_path(path)
        if path and path != state.image_path:
            try:
                self.open_photo(path, state, request_client(request))
            except Exception as exc:  # noqa: BLE001 - shown to the user, the session survives
                view = self._error(state, exc)
                return view.chat, view.status, state
        if state.session.image is None:
            text = say("{now} Add a photo to begin.", now=now)
        elif had_error:
            text = say("{now} Photo ready: press Ask to ask your question again.", now=now)
        else:
            text = now
        return list(state.chat), status_html(text, lang=say.lang), state

    @staticmethod
    def _shown_chat(state: UIState, clear: bool = False) -> list[dict[str, str]]:
        """The conversation as shown: with the current error under it, unless `clear`."""
        if clear:
            state.notice = []
        return [*state.chat, *state.notice]
