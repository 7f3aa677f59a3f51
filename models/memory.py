"""The process's memory: the C allocator told to hand freed memory back, and what is resident now.

PyTorch on a CPU allocates every tensor with the C library's malloc and frees it at once (no caching
allocator). glibc raises its mmap threshold each time a large block is freed (up to 32 MiB), after which
blocks of that size come from the heap arenas instead, and a freed block in an arena goes back to the
system only when the top of the heap is free: the float32 weights dropped by int8 quantisation and the
activations of each call stay resident as free heap. Each thread gets an arena of its own (up to 8 per
core), and whichone runs its models in several threads (the upload's encodings, the streamed reply).
`configure_allocator` fixes the threshold (large tensors are mapped and unmapped, so a freed one is
returned at once) and caps the arenas; `release_free_memory` returns what the heaps hold free
(malloc_trim). Both are no-ops where the C library is not glibc (macOS, Windows, musl).

They are called by the app at start (`whichone serve`, `whichone perf`), not on import: a library
importing whichone keeps its process's settings.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import sys
from dataclasses import dataclass

# mallopt parameters (glibc's malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8
MMAP_THRESHOLD = 256 * 1024  # tensors of 256 KiB and more: mapped, returned to the system when freed
TRIM_THRESHOLD = 4 * 2**20  # free heap above this at the top of an arena is returned
ARENA_MAX = 2  # one per core on the 2-core laptops this is for; threads share them beyond that


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


@functools.cache
def configure_allocator() -> bool:
    """Fix glibc's mmap threshold, its trim threshold and the number of arenas (see the module doc), once
    per process; False where the C library is not glibc. A MALLOC_*_ variable the user set wins."""
    libc = _glibc()
    if libc is None:
        return False
    settings = (
        ("MALLOC_MMAP_THRESHOLD_", _M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        ("MALLOC_TRIM_THRESHOLD_", _M_TRIM_THRESHOLD, TRIM_THRESHOLD),
        ("MALLOC_ARENA_MAX", _M_ARENA_MAX, ARENA_MAX),
    )
    for variable, parameter, value in settings:
        if variable not in os.environ:
            libc.mallopt(parameter, value)
    return True


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
