"""Where `whichone perf --stack` spends memory and CPU time, stage by stage.

A sampler thread reads the process's resident set (models/memory.py) every few milliseconds and keeps, for
every stage open at that moment, the highest figure: stages nest (a turn holds its model calls) and
overlap (the upload's encodings run in background threads while the user types). Each stage also records
its wall time, the process's CPU time (user + system, every thread: less sensitive than wall time to other
processes on a shared machine), the resident set after it and what the C allocator holds free then. The
weights of each model are counted from its tensors (int8 packed weights included).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from models.memory import resident

GIB = 2**30
SAMPLE_S = 0.005


@dataclass
class Stage:
    name: str
    calls: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    peak: int = 0  # highest resident set seen while the stage was open (bytes)
    after: int = 0  # resident set when it last ended
    allocator_free: int = 0  # what the C allocator held free when it last ended

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "wall_s": self.wall_s,
            "cpu_s": self.cpu_s,
            "peak_gib": self.peak / GIB,
            "after_gib": self.after / GIB,
            "allocator_free_gib": self.allocator_free / GIB,
        }


@dataclass
class StageMemory:
    """Stages in the order they first opened; see the module doc. Use as a context manager (the sampler)."""

    stages: dict[str, Stage] = field(default_factory=dict)
    peak: int = 0
    _open: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> StageMemory:
        self._thread = threading.Thread(target=self._sample, name="whichone-perf-memory", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _sample(self) -> None:
        while not self._stop.wait(SAMPLE_S):
            self._note(resident().rss)

    def _note(self, rss: int) -> None:
        with self._lock:
            self.peak = max(self.peak, rss)
            for name in self._open:
                self.stages[name].peak = max(self.stages[name].peak, rss)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        with self._lock:
            record = self.stages.setdefault(name, Stage(name))
            self._open[name] = self._open.get(name, 0) + 1
        self._note(resident().rss)
        wall, cpu = time.perf_counter(), _cpu_s()
        try:
            yield
        finally:
            now = resident()
            self._note(now.rss)
            with self._lock:
                record.calls += 1
                record.wall_s += time.perf_counter() - wall
                record.cpu_s += _cpu_s() - cpu
                record.after, record.allocator_free = now.rss, now.allocator_free
                self._open[name] -= 1
                if not self._open[name]:
                    del self._open[name]

    def watch(self, owner: object, method: str, name: str) -> None:
        """Record every call of `owner.method` (an instance attribute wraps the bound method) as `name`;
        a generator method's stage lasts until it is exhausted or closed."""
        original: Callable[..., Any] = getattr(owner, method)
        recorder = self

        if method == "generate_stream":

            @wraps(original)
            def streamed(*args: Any, **kwargs: Any) -> Iterator[Any]:
                with recorder.stage(name):
                    yield from original(*args, **kwargs)

            setattr(owner, method, streamed)
            return

        @wraps(original)
        def called(*args: Any, **kwargs: Any) -> Any:
            with recorder.stage(name):
                return original(*args, **kwargs)

        setattr(owner, method, called)

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {name: stage.as_dict() for name, stage in self.stages.items()}


def _cpu_s() -> float:
    times = os.times()
    return times.user + times.system


def weights_bytes(model: Any) -> int:
    """Bytes of a torch module's parameters and buffers, int8 dynamic-quantised Linear weights included
    (their packed parameters are in the state dict, not in parameters())."""
    import torch

    total = 0
    for value in model.state_dict().values():
        tensors = value if isinstance(value, tuple) else (value,)
        for tensor in tensors:
            if isinstance(tensor, torch.Tensor):
                total += tensor.numel() * tensor.element_size()
    return total


def format_stages(stages: dict[str, dict[str, Any]]) -> list[str]:
    """One line per stage: calls, wall and CPU seconds, peak and after-resident GiB, allocator free."""
    lines = [
        f"  {'stage':<30} {'calls':>5} {'wall s':>7} {'CPU s':>7} {'peak GiB':>9} {'after GiB':>9} "
        f"{'free in malloc':>14}"
    ]
    for name, s in stages.items():
        lines.append(
            f"  {name:<30} {s['calls']:>5} {s['wall_s']:>7.2f} {s['cpu_s']:>7.2f} {s['peak_gib']:>9.2f} "
            f"{s['after_gib']:>9.2f} {s['allocator_free_gib']:>14.2f}"
        )
    return lines
