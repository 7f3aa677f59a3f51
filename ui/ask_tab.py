"""The Ask tab: photo, question, chat; the candidates as a numbered overlay and as a list; Explain.

Keyboard path (issue 33; docs/accessibility.md): the page's first link skips to the question, the second to
the photos to try. Once a photo opens, focus moves to the question (Enter asks); after a reply, focus moves
to it, and the candidates are one Tab on (two after a choice: "Undo my choice" comes first), the question two
Shift+Tab back. Alt+Shift+Q, C, U, N (question, candidates, undo, start over) and Alt+Shift+K (this help) are
declared with aria-keyshortcuts and listed in the "Keyboard shortcuts" panel (ui/page_script.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from ui.conversation_log import save_folder
from ui.example_photos import example_photos, examples_markdown
from ui.handlers import BEGIN, AskHandlers, status_html
from ui.i18n import label
from ui.limits import decode_concurrency

# Before a reply streams (the `js` of the events that ask for one, run before their Python function): mark the
# chat's live regions aria-busy, so a screen reader waits for the whole reply instead of announcing it piece
# by piece. A region Gradio draws later (the log appears with the first message) is marked as it appears.
# The function hands the event's inputs on unchanged (Gradio sends what it returns to the Python function).
BUSY_JS = """
(...inputs) => {
  const chat = document.querySelector('#wh-chat');
  if (chat) {
    const mark = () => {
      chat.querySelectorAll('[aria-live]').forEach((r) => r.setAttribute('aria-busy', 'true'));
    };
    chat.dataset.whBusy = 'true';
    mark();
    if (!chat.whBusyObserver) {
      chat.whBusyObserver = new MutationObserver(() => { if (chat.dataset.whBusy === 'true') mark(); });
      chat.whBusyObserver.observe(chat, { childList: true, subtree: true });
    }
  }
  return inputs;
}
"""
# After a reply: the chat is no longer busy (the final reply is announced), and keyboard focus moves to the
# newest assistant message, so a screen reader reads it next.
FOCUS_REPLY_JS = """
() => {
  const chat = document.querySelector('#wh-chat');
  if (!chat) return;
  chat.dataset.whBusy = 'false';
  chat.querySelectorAll('[aria-live]').forEach((r) => r.setAttribute('aria-busy', 'false'));
  const bots = chat.querySelectorAll('.message.bot, [data-testid="bot"]');
  const last = bots[bots.length - 1];
  if (!last) return;
  last.setAttribute('tabindex', '-1');
  // The reply's language (the status line carries it): screen readers and read-aloud pick its voice.
  const line = document.querySelector('#wh-status .wh-status[lang]');
  if (line) last.setAttribute('lang', line.dataset.replyLang || line.getAttribute('lang'));
  last.focus();
  if (window.whichoneRead) window.whichoneRead.onArrival();  // read aloud, when the user asked for it
}
"""
# Once a photo is open the photos to try close (they sit last on the page; a click opens them again), and
# focus moves to the question (scrolled into view on a phone); once the photo is removed, to the upload
# button. Focus never drops to the page body when the accordion closes round the example pressed.
AFTER_PHOTO_JS = """
() => {
  const header = document.querySelector('#wh-examples button.label-wrap.open');  // Gradio 6's accordion
  if (document.querySelector('#wh-photo img')) {
    if (header) header.click();
    const q = document.querySelector('#wh-question textarea');
    if (q) { q.focus({ preventScroll: true }); q.scrollIntoView({ block: 'center' }); }
  } else {
    const b = document.querySelector('#wh-photo button');
    if (b) b.focus();
  }
}
"""
FOCUS_QUESTION_JS = "() => { const q = document.querySelector('#wh-question textarea'); if (q) q.focus(); }"
FOCUS_OPTIONS_JS = """
() => {
  const r = document.querySelector('#wh-options input:checked')
    || document.querySelector('#wh-options input');
  if (r) { r.focus({ preventScroll: true }); r.scrollIntoView({ block: 'center' }); }
}
"""
FOCUS_PHOTO_JS = "() => { const b = document.querySelector('#wh-photo button'); if (b) b.focus(); }"


@dataclass
class AskTab:
    photo: gr.Image
    question: gr.Textbox
    chat: gr.Chatbot
    status: gr.HTML
    overlay: gr.Image
    options: gr.Radio
    hint: gr.Textbox
    explain: gr.Markdown
    save: gr.Checkbox | None = None  # only when the operator allows saving (WHICHONE_SAVE_CONVERSATIONS)
    save_photo: gr.Checkbox | None = None


@dataclass
class _AskColumn:
    """The photo, the question and its Ask button, and the numbered picture of the candidates."""

    photo: gr.Image
    question: gr.Textbox
    ask_btn: gr.Button
    overlay: gr.Image


@dataclass
class _ReplyColumn:
    """The conversation, the status line, the candidates' list and what answers about one, reading aloud,
    and the conversation's own controls (download, copy, another question, start over)."""

    chat: gr.Chatbot
    status: gr.HTML
    options: gr.Radio
    choose_btn: gr.Button
    undo_btn: gr.Button
    hint: gr.Textbox
    read_btn: gr.Button
    stop_btn: gr.Button
    download_btn: gr.Button
    copy_btn: gr.Button
    another_btn: gr.Button
    start_btn: gr.Button
    start_now_btn: gr.Button


def build_ask_tab(handlers: AskHandlers, state: gr.State, gpu_limit: int) -> AskTab:
    gr.Markdown(label("intro"))
    # Page order is the keyboard's order: question, Ask, then the conversation (no button between them, so
    # two Shift+Tab go from a reply back to the question), "Undo my choice", the candidates' list (one Tab
    # from a reply), reading aloud and the conversation's controls; the photos to try come last (closed
    # once a photo is open).
    with gr.Row(equal_height=False):
        with gr.Column(scale=1):
            ask = _ask_column()
        with gr.Column(scale=1):
            reply = _reply_column()
    with gr.Accordion(label("explain"), open=False, elem_id="wh-explain"):
        explain = gr.Markdown(label("no_reply_yet"), elem_id="wh-explain-text")
    save, save_photo = _saving()
    _photos_to_try(ask.photo, ask.question)
    _wire(handlers, state, gpu_limit, ask, reply, explain, save, save_photo)
    return AskTab(
        ask.photo,
        ask.question,
        reply.chat,
        reply.status,
        ask.overlay,
        reply.options,
        reply.hint,
        explain,
        save,
        save_photo,
    )


def _ask_column() -> _AskColumn:
    photo = gr.Image(
        label=label("photo"),
        sources=["upload", "clipboard", "webcam"],
        type="filepath",
        image_mode=None,  # keep the file as sent: the assistant decodes it (EXIF, size checks)
        elem_id="wh-photo",
        height=360,
    )
    question = gr.Textbox(
        label=label("question"),
        placeholder=label("question_placeholder"),
        lines=1,
        max_length=500,
        elem_id="wh-question",
        info=label("question_info"),
    )
    ask_btn = gr.Button(label("ask"), variant="primary", elem_id="wh-ask")
    # A plain picture with its text twin (the list of candidates): no toolbar, no focus stop; a click on a
    # region still chooses it (ui/page_script.py keeps the picture out of the tab order).
    overlay = gr.Image(
        label=label("overlay"),
        interactive=False,
        type="pil",
        format="png",  # crisp numbers and outlines
        elem_id="wh-overlay",
        buttons=[],
        visible=False,  # shown with the first candidates (an empty picture has no text twin)
        height=420,
    )
    return _AskColumn(photo, question, ask_btn, overlay)


def _reply_column() -> _ReplyColumn:
    chat = gr.Chatbot(
        label=label("conversation"),
        elem_id="wh-chat",
        # No scroll box of its own: it grows with the page (a screen reader reads on, and Chromium does not
        # make it a focus stop between a reply and the question).
        height=None,
        min_height=240,
        feedback_options=None,
        buttons=[],  # no button per message: the conversation's own controls sit below (copy, download)
        # A plain string to the Chatbot: its marker (I18nData's str) is translated by the page all the same.
        placeholder=str(label("chat_placeholder")),
    )
    # Its first line is shown in the page's language by the page's script (data-wh-text).
    status = gr.HTML(status_html(BEGIN, text_key="status_begin"), js_on_load=None, elem_id="wh-status")
    # Back to the candidates as they were before the last choice (disabled, so skipped by Tab, while there
    # is none): first after the reply, as it is the next thing a user who chose wrongly wants.
    undo_btn = gr.Button(label("undo"), elem_id="wh-undo", interactive=False, size="sm")
    options = gr.Radio(
        choices=[],
        label=label("options"),
        info=label("options_info"),
        elem_id="wh-options",
    )
    # Marked aria-disabled by ui/page_script.py while nothing is chosen (it stays in the tab order).
    choose_btn = gr.Button(label("choose"), variant="primary", elem_id="wh-choose")
    with gr.Row():
        read_btn = gr.Button(label("read"), elem_id="wh-read", size="sm")
        stop_btn = gr.Button(label("stop_reading"), elem_id="wh-read-stop", size="sm")
    with gr.Row():
        # Made in the browser (ui/page_script.py): the server writes nothing for it.
        download_btn = gr.Button(label("download"), elem_id="wh-download-chat", size="sm")
        copy_btn = gr.Button(label("copy"), elem_id="wh-copy-chat", size="sm")
        # Asks first (a dialog, ui/page_script.py), then presses the hidden "start over now".
        start_btn = gr.Button(label("start_over"), variant="stop", elem_id="wh-start-over", size="sm")
    start_now_btn = gr.Button("Start over now", elem_id="wh-start-over-now", elem_classes=["wh-hidden"])
    gr.HTML('<div id="wh-read-status" role="status" aria-live="polite"></div>', js_on_load=None)
    hint = gr.Textbox(
        label=label("hint"),
        placeholder=label("hint_placeholder"),
        max_length=300,
        elem_id="wh-hint",
        info=label("hint_info"),
    )
    another_btn = gr.Button(label("another"), elem_id="wh-another", size="sm")
    _reading_aloud_settings()
    return _ReplyColumn(
        chat, status, options, choose_btn, undo_btn, hint, read_btn, stop_btn, download_btn, copy_btn,
        another_btn, start_btn, start_now_btn,
    )  # fmt: skip


def _reading_aloud_settings() -> None:
    """Reading aloud's own settings, read by the page's script only (no server event): interactive by hand."""
    with gr.Accordion(label("reading_aloud"), open=False, elem_id="wh-read-settings"):
        gr.Checkbox(
            False,
            label="Read each reply aloud when it arrives",
            elem_id="wh-read-auto",
            interactive=True,
        )
        gr.Slider(
            0.5,
            2.0,
            value=1.0,
            step=0.1,
            label="Reading speed",
            elem_id="wh-read-rate",
            interactive=True,
        )


def _saving() -> tuple[gr.Checkbox | None, gr.Checkbox | None]:
    """The opt-in to save a conversation, where the operator allows it (None, None otherwise)."""
    save = save_photo = None
    if save_folder() is not None:  # the operator allows it; each user still decides, unticked by default
        with gr.Row():
            save = gr.Checkbox(
                False,
                label="Save this conversation for error inspection",
                info="Keeps your questions, the replies and the candidates on this server so its developers "
                "can see what went wrong. Untick to delete the saved copy.",
                elem_id="wh-save",
            )
            save_photo = gr.Checkbox(
                False,
                label="Include the photo",
                info="Also keep the photo, as the assistant saw it (without its file name or metadata).",
                elem_id="wh-save-photo",
            )
    return save, save_photo


def _photos_to_try(photo: gr.Image, question: gr.Textbox) -> None:
    with gr.Accordion(label("photos_to_try"), open=True, elem_id="wh-examples"):
        photos = example_photos()
        gr.Examples(
            examples=[[str(p.path), p.question] for p in photos],
            inputs=[photo, question],
            example_labels=[p.label() for p in photos],
            label=label("examples_label"),
            elem_id="wh-example-list",
        )
        gr.Markdown(examples_markdown(), elem_id="wh-example-credits")


def _wire(
    handlers: AskHandlers,
    state: gr.State,
    gpu_limit: int,
    ask: _AskColumn,
    reply: _ReplyColumn,
    explain: gr.Markdown,
    save: gr.Checkbox | None,
    save_photo: gr.Checkbox | None,
) -> None:
    """The tab's events (in this order: it is the config's, and Gradio's event numbers)."""
    outputs = [reply.chat, ask.overlay, reply.options, explain, reply.status, reply.undo_btn, state]
    _wire_browser_buttons(reply)
    _wire_turns(handlers, state, gpu_limit, ask, reply, outputs)
    _wire_resets(handlers, state, ask, reply, outputs, save, save_photo)


def _wire_browser_buttons(reply: _ReplyColumn) -> None:
    """The browser-only controls (ui/page_script.py): no server event, nothing written on the server."""
    for button, call in (
        (reply.read_btn, "whichoneRead && window.whichoneRead.newest()"),
        (reply.stop_btn, "whichoneRead && window.whichoneRead.stop()"),
        (reply.download_btn, "whichoneDownload && window.whichoneDownload()"),
        (reply.copy_btn, "whichoneCopy && window.whichoneCopy()"),
        (reply.start_btn, "whichoneConfirmStartOver && window.whichoneConfirmStartOver()"),
    ):
        button.click(None, js=f"() => {{ window.{call}; }}")


def _wire_turns(
    handlers: AskHandlers,
    state: gr.State,
    gpu_limit: int,
    ask: _AskColumn,
    reply: _ReplyColumn,
    outputs: list[Any],
) -> None:
    """The photo, the question, and the three ways to choose (the list, a click, a hint).

    UI events are private (the public API is ui/api.py); explicit names keep the public names free.
    The events that take the photo skip Gradio's preprocessing (preprocess=False: the handler gets the
    upload's path): gr.Image opens the file with PIL first, so a text file named .jpg, an empty file or a
    decompression bomb failed inside Gradio as a bare "Error", never reaching the assistant's loader and
    its one-line reason. The file is still checked to be in Gradio's upload folder."""
    gpu: dict[str, Any] = {
        "concurrency_id": "gpu",
        "concurrency_limit": gpu_limit,
        "api_visibility": "private",
    }
    ask.photo.change(
        handlers.on_image,
        [ask.photo, state],
        outputs,
        api_name="ui_photo",
        api_visibility="private",
        # Decoding a photo holds up to ~1 GB for a moment (80 million pixels): a few at once, server-wide.
        concurrency_id="decode",
        concurrency_limit=decode_concurrency(),
        trigger_mode="always_last",
        preprocess=False,
    ).then(None, js=AFTER_PHOTO_JS)
    gr.on(
        [ask.question.submit, ask.ask_btn.click],
        handlers.ask,
        [ask.photo, ask.question, state],
        outputs,
        api_name="ui_ask",
        preprocess=False,
        js=BUSY_JS,
        **gpu,
    ).then(None, js=FOCUS_REPLY_JS)
    reply.choose_btn.click(
        handlers.choose, [reply.options, state], outputs, api_name="ui_choose", js=BUSY_JS, **gpu
    ).then(None, js=FOCUS_REPLY_JS)
    ask.overlay.select(handlers.click, [state], outputs, api_name="ui_click", js=BUSY_JS, **gpu).then(
        None, js=FOCUS_REPLY_JS
    )
    reply.hint.submit(
        handlers.hint, [reply.hint, state], outputs, api_name="ui_hint", js=BUSY_JS, **gpu
    ).then(lambda: "", None, reply.hint, api_visibility="private").then(None, js=FOCUS_REPLY_JS)


def _wire_resets(
    handlers: AskHandlers,
    state: gr.State,
    ask: _AskColumn,
    reply: _ReplyColumn,
    outputs: list[Any],
    save: gr.Checkbox | None,
    save_photo: gr.Checkbox | None,
) -> None:
    """Undo, another question, the opt-in to save, and start over."""
    reply.undo_btn.click(
        handlers.undo_choice, [state], outputs, api_name="ui_undo", api_visibility="private"
    ).then(None, js=FOCUS_OPTIONS_JS)
    reply.another_btn.click(
        handlers.another_question, [state], outputs, api_name="ui_another", api_visibility="private"
    ).then(lambda: "", None, ask.question, api_visibility="private").then(None, js=FOCUS_QUESTION_JS)
    cleared = [ask.photo, ask.question]
    if save is not None and save_photo is not None:
        for box in (save, save_photo):
            box.input(
                handlers.set_saving,
                [save, save_photo, state],
                [reply.status, state],
                api_name=f"ui_{(box.elem_id or 'box').replace('-', '_')}",
                api_visibility="private",
            )
        cleared += [save, save_photo]  # start over forgets the opt-in with the conversation
    reply.start_now_btn.click(
        handlers.start_over, [state], outputs, api_name="ui_start_over", api_visibility="private"
    ).then(lambda: (None, "", False, False)[: len(cleared)], None, cleared, api_visibility="private").then(
        None, js=FOCUS_PHOTO_JS
    )
