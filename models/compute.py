"""One long-lived thread runs every model's CPU torch work (issue 37).

Why: PyTorch's CPU kernels run in GNU OpenMP, and libgomp gives each thread that runs a parallel region a
team of worker threads of its own. Once the process holds more team threads than CPUs, libgomp is
"throttled": it stops spinning between parallel regions, and each of the thousands of small regions of a
decoding step sleeps and wakes on a futex. A reply streamed from a thread of its own took 2x the time of
the same `generate` in the thread that built the model (1.4 s against 0.7 s for 24 tokens on 2 cores).

So the compute sections (a VLM's generate, stream, next-token probabilities and photo prefix; a detector's
photo part and detection; a segmenter's embedding and mask decoding) are decorated with
`@on_compute_thread`: whoever calls, they run one after another on one thread, whose team is the only
long-lived one. Models are built in a thread that ends with the build (`in_passing_thread`), so the
build's team ends with it.

Rules the decorated sections keep:
- a section never waits on work another thread has queued here (it would wait behind itself): what a cache
  may be computing in another thread (a photo's encoded parts) is fetched before the section starts;
- a decorated call made on the compute thread itself runs inline (no deadlock);
- the section's error is raised in the caller's thread;
- a model on a GPU (its `device` is not the CPU) runs in the caller's thread, as before: the GPU is not
  OpenMP's;
- a forked child (ZeroGPU's worker) makes its own compute thread on first use: a thread does not survive
  a fork;
- at exit the thread finishes the call it is running, drops the queued ones and ends before the
  interpreter is torn down: a daemon thread still in torch's C++ code then aborts the process ("terminate
  called without an active exception": `whichone bench` interrupted by SIGTERM exited -6, not 130). Builds
  run in a thread Python waits for at exit too.
"""

from __future__ import annotations

import functools
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
THREAD_NAME = "whichone-compute"


class ComputeThread:
    """A thread that runs submitted calls in order, one at a time, until `close()`."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = queue.SimpleQueue()
        self._closing = False
        self._closing_lock = threading.Lock()  # no call is queued after the end-of-queue mark
        # Not a daemon: Python waits for it at exit, after `close()` (registered below) told it to end.
        self.thread = threading.Thread(target=self._serve, name=THREAD_NAME, daemon=not _CLOSED_AT_EXIT)
        self.thread.start()

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            future, call = job
            if self._closing:
                future.cancel()  # the process is ending: its caller is gone or gets CancelledError
            if not future.set_running_or_notify_cancel():
                continue  # cancelled while queued
            try:
                result = call()
            except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
                future.set_exception(error)
            else:
                future.set_result(result)
            del job, future, call  # the result's tensors are the caller's, not this thread's

    def submit(self, call: Callable[[], R]) -> Future[R]:
        """Queue `call`; its Future (cancel() drops it while it is still queued; cancelled at once once the
        thread is closing)."""
        future: Future[R] = Future()
        with self._closing_lock:
            if self._closing:  # the process is ending: never run, never waited for
                future.cancel()
            else:
                self._jobs.put((future, call))
        return future

    def close(self) -> None:
        """End the thread after the call it is running; the queued calls are cancelled."""
        with self._closing_lock:
            self._closing = True
            self._jobs.put(None)

    def is_current(self) -> bool:
        return threading.current_thread() is self.thread

    def run(self, call: Callable[[], R]) -> R:
        """`call()` on this thread, waited for; inline when already on it."""
        if self.is_current():
            return call()
        return self.submit(call).result()


_lock = threading.Lock()
_current: ComputeThread | None = None
_pid = os.getpid()


def compute_thread() -> ComputeThread:
    """The process's compute thread, started on first use (a forked child starts its own)."""
    global _current, _pid
    with _lock:
        if _current is None or _pid != os.getpid():
            _current, _pid = ComputeThread(), os.getpid()
        return _current


def _forget_after_fork() -> None:
    global _current, _lock
    _current, _lock = None, threading.Lock()  # the parent's thread (and maybe its held lock) is not here


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


def _close_at_exit() -> None:
    if _current is not None and _pid == os.getpid():
        _current.close()


# Run at interpreter shutdown before Python joins the non-daemon threads (concurrent.futures' executors
# use the same hook); without it the thread is a daemon, as a last resort.
_register = getattr(threading, "_register_atexit", None)
_CLOSED_AT_EXIT = _register is not None
if _register is not None:
    _register(_close_at_exit)


def runs_on_cpu(model: object) -> bool:
    """Whether `model`'s torch work runs on the CPU: its `device` (a string or torch.device) is "cpu" or
    it has none."""
    device = getattr(model, "device", None)
    return device is None or str(device).split(":")[0] == "cpu"


def on_compute_thread(method: Callable[P, R]) -> Callable[P, R]:
    """A model method that runs on the compute thread when its model (the first argument) is on the CPU,
    else in the caller's thread. See the module doc for the rules its body must keep."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if not args or not runs_on_cpu(args[0]):
            return method(*args, **kwargs)
        return compute_thread().run(lambda: method(*args, **kwargs))

    return wrapper


def in_passing_thread(build: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`build(*args, **kwargs)` in a new thread that ends when it returns (its OpenMP team ends with it);
    its result, or its error raised here. The executor's shutdown joins its one thread; Python waits for
    it at exit too (see the module doc)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="whichone-build") as executor:
        return executor.submit(build, *args, **kwargs).result()
