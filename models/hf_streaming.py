"""Streaming a transformers generation: the reply's text as it is decoded, and a stop the consumer sets.

Defined on first use, so transformers is imported only when a model streams.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from models.compute import compute_thread, runs_on_cpu

if TYPE_CHECKING:
    import torch


@functools.cache
def streaming_classes() -> tuple[type, type]:
    """(ReplyStreamer, StopWhenSet) for `generate(streamer=..., stopping_criteria=...)`."""
    import torch
    from transformers import StoppingCriteria, TextIteratorStreamer

    class ReplyStreamer(TextIteratorStreamer):
        """Skips the prompt and decodes as generate() decodes, never showing a stop token."""

        def __init__(self, processor: Any, stop_ids: set[int]) -> None:  # Any: an AutoProcessor's class
            super().__init__(processor, skip_prompt=True, skip_special_tokens=True)
            self.stop_ids = stop_ids

        def put(self, value: torch.Tensor) -> None:
            if self.next_tokens_are_prompt:  # the prompt, which the streamer skips itself
                super().put(value)
                return
            kept = [t for t in value.reshape(-1).tolist() if t not in self.stop_ids]
            if kept:
                super().put(value.new_tensor(kept))

    class StopWhenSet(StoppingCriteria):
        """Ends every row once `event` is set (the consumer closed the stream)."""

        def __init__(self, event: threading.Event) -> None:
            self.event = event

        def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor, **kwargs: object) -> torch.Tensor:
            done = self.event.is_set()
            return torch.full((input_ids.shape[0],), done, dtype=torch.bool, device=input_ids.device)

    return ReplyStreamer, StopWhenSet


def start_generation(model: object, generate: Callable[[], None], name: str) -> Callable[[], None]:
    """Start `generate` (which raises nothing: it hands its errors to the reader) where `model`'s work runs:
    on the compute thread for a CPU model (models/compute.py), else (a GPU, or a stream asked for on the
    compute thread itself) in a thread of its own. Returns `finish`: it drops the generation if it has not
    started yet, else waits for it to end."""
    if runs_on_cpu(model) and not compute_thread().is_current():
        future = compute_thread().submit(generate)

        def finish_queued() -> None:
            if not future.cancel():
                future.result()

        return finish_queued
    thread = threading.Thread(target=generate, name=name, daemon=True)
    thread.start()
    return thread.join
