"""The process's memory: what glibc's heaps hold free handed back to the system, and what is resident now.

PyTorch on a CPU allocates every tensor with the C library's malloc and frees it at once (no caching
allocator). glibc keeps freed blocks in its heap arenas for reuse, so after a model call the
activations it freed stay resident (0.4-0.9 GiB over SmolVLM + OWL-ViT + SAM 2 at full size).
`release_free_memory` hands them back (malloc_trim) and is called at the points where a burst of
allocation has ended: after int8 quantisation, after the photo's encodings, at the end of each turn.

Tuning the allocator globally instead (a fixed 256 KiB mmap threshold, a 4 MiB trim threshold, two
arenas: freed tensors unmapped at once) gave a lower peak, 2.42 GiB against 2.71, but every large tensor
then costs fresh page faults: the first turn took 1.7x the time (9.8 s against 5.3-5.7 s; system CPU
time 38 s against 13 s for the whole scenario; `whichone perf --stack cpu`, Dec 2026, docs/perf.md).
A user waits on the time; so the heaps are trimmed once per burst, not per tensor. It is a no-op where
the C library is not glibc (macOS, Windows, musl).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
from dataclasses import dataclass


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


@functools.cache
def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.gnu_get_libc_version  # noqa: B018 - only glibc has it (musl does not)
    except (OSError, AttributeError):
        return None
    return libc


def release_free_memory() -> None:
    """Hand the free memory of glibc's heaps back to the system (malloc_trim); a no-op elsewhere."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


@dataclass(frozen=True)
class Resident:
    """The process's memory now, in bytes: resident (RSS), its peak since the last reset (Linux; else the
    peak since the start), and what glibc's heaps hold free (0 elsewhere)."""

    rss: int
    peak: int
    allocator_free: int


def resident() -> Resident:
    status = _proc_status()
    if status:
        rss, peak = status.get("VmRSS", 0), status.get("VmHWM", 0)
    else:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)
        rss = peak
    return Resident(rss, peak, _allocator_free())


def reset_peak() -> bool:
    """Start a new peak (Linux's VmHWM, by writing 5 to /proc/self/clear_refs); False where impossible."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        return False
    return True


def _proc_status() -> dict[str, int]:
    try:
        with open("/proc/self/status") as status:
            lines = status.read().splitlines()
    except OSError:
        return {}
    values = {}
    for line in lines:
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) * 1024
    return values


def _allocator_free() -> int:
    libc = _glibc()
    if libc is None or not hasattr(libc, "mallinfo2"):
        return 0
    libc.mallinfo2.restype = _MallInfo2
    info = libc.mallinfo2()
    return int(info.fordblks)
