"""A turn on the device: what the Ask tab and the API call to run the assistant's models.

Each function is wrapped by `on_gpu` (ZeroGPU's spaces.GPU on a Space; on a GPU worker the events are
pickled back as they come). The streaming forms hand on the assistant's own event stream
(assistant.pipeline: UserTurn, ReplyText, TurnDone), throttled: no worker thread, no queue; closing the
stream (the user left) closes the assistant's, which stops the model's stream at its next piece. On ZeroGPU,
spaces itself waits for the worker to finish. Either way GAUGE counts the call until the model is done.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from contextlib import closing

from assistant.pipeline import Assistant, Choice, ReplyText, TurnEvent
from assistant.session import Session
from assistant.types import Reply
from ui.gpu import on_gpu

STREAM_INTERVAL_S = 0.1  # a growing reply goes to the browser at most this often


def throttled(
    events: Generator[TurnEvent, None, None], interval: float | None = None
) -> Generator[TurnEvent, None, None]:
    """`events` with at most one ReplyText every `interval` s (default STREAM_INTERVAL_S): a text that comes
    sooner is held, replaced by a newer one, and given out with the next event after the interval, or before
    any other event (so the last text always comes out before TurnDone). Other events pass at once. Closing
    this closes `events`."""
    interval = STREAM_INTERVAL_S if interval is None else interval
    held: ReplyText | None = None
    sent_at = float("-inf")
    with closing(events):
        for event in events:
            if isinstance(event, ReplyText):
                if time.monotonic() - sent_at >= interval:
                    held, sent_at = None, time.monotonic()
                    yield event
                else:
                    held = event
                continue
            if held is not None:
                yield held
                held = None
            yield event
    if held is not None:
        yield held


@on_gpu
def ask_stream(assistant: Assistant, question: str, session: Session) -> Generator[TurnEvent, None, None]:
    """A first turn about the session's photo, as throttled events."""
    yield from throttled(assistant.ask_events(None, question, session))


@on_gpu
def resolve_stream(
    assistant: Assistant, session: Session, choice: Choice
) -> Generator[TurnEvent, None, None]:
    """A second turn (the user's choice), as throttled events."""
    yield from throttled(assistant.resolve_events(session, choice))


@on_gpu
def ask_once(assistant: Assistant, question: str, session: Session) -> tuple[Reply, Session]:
    """A first turn about the session's photo, all at once (the API)."""
    return assistant.ask(None, question, session)


@on_gpu
def resolve_once(assistant: Assistant, session: Session, choice: Choice) -> tuple[Reply, Session]:
    """A second turn, all at once (the API)."""
    return assistant.resolve(session, choice)


def choice_json(choice: Choice) -> int | str | list[float]:
    """A choice as JSON: region number, [x, y] or the hint's text."""
    return list(choice) if isinstance(choice, tuple) else choice
