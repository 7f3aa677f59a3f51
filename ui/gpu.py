"""`on_gpu`: Hugging Face ZeroGPU's `spaces.GPU` when the `spaces` package is installed, else nothing;
and `GAUGE`, which counts the model calls running at once.

On a ZeroGPU Space the GPU is attached only while a function wrapped by `spaces.GPU` runs, so every
function that calls a model goes through `on_gpu`. Elsewhere it returns the function unchanged. A generator
function stays one (spaces.GPU runs it on the GPU worker and passes each value it yields back as it comes),
so a reply can stream out of it; it counts as one call from its first value until it ends or is closed.

The gauge wraps the outside of `spaces.GPU` (ZeroGPU may run the inner function in another process), so
it counts in the app's own process what Gradio's "gpu" concurrency group lets through: `max_in_flight`
must never exceed WHICHONE_GPU_CONCURRENCY. It holds counts only, nothing about a request.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from ui.serving_settings import serving_settings

F = TypeVar("F", bound=Callable[..., Any])


class Gauge:
    """Thread-safe counts of calls in flight: now, the most at once so far, and finished."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        self.calls = 0

    def enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def leave(self) -> None:
        with self._lock:
            self.in_flight -= 1
            self.calls += 1

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return {"in_flight": self.in_flight, "max_in_flight": self.max_in_flight, "calls": self.calls}


GAUGE = Gauge()


def spaces_available() -> bool:
    try:
        import spaces  # noqa: F401
    except ImportError:
        return False
    return True


def on_gpu(fn: F) -> F:
    """Wrap `fn` with `spaces.GPU(duration=WHICHONE_GPU_SECONDS)` (ZeroGPU's per-call time budget) when
    running where `spaces` is installed, and
    count its calls in GAUGE."""
    try:
        import spaces
    except ImportError:
        inner = fn
    else:
        inner = spaces.GPU(duration=serving_settings().gpu_seconds)(fn)

    if inspect.isgeneratorfunction(fn):

        @functools.wraps(fn)
        def counted_stream(*args: Any, **kwargs: Any) -> Any:
            GAUGE.enter()
            try:
                yield from inner(*args, **kwargs)
            finally:  # exhausted, failed, or closed by its consumer
                GAUGE.leave()

        return counted_stream  # type: ignore[return-value]

    @functools.wraps(fn)
    def counted(*args: Any, **kwargs: Any) -> Any:
        GAUGE.enter()
        try:
            return inner(*args, **kwargs)
        finally:
            GAUGE.leave()

    return counted  # type: ignore[return-value]
