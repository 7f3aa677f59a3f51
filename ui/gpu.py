"""`on_gpu`: Hugging Face ZeroGPU's `spaces.GPU` when the `spaces` package is installed, else nothing.

On a ZeroGPU Space the GPU is attached only while a function wrapped by `spaces.GPU` runs, so every
function that calls a model goes through `on_gpu`. Elsewhere it returns the function unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

GPU_SECONDS = int(os.environ.get("WHICHONE_GPU_SECONDS", "60"))  # ZeroGPU's per-call time budget


def spaces_available() -> bool:
    try:
        import spaces  # noqa: F401
    except ImportError:
        return False
    return True


def on_gpu(fn: F) -> F:
    """Wrap `fn` with `spaces.GPU(duration=GPU_SECONDS)` when running where `spaces` is installed."""
    try:
        import spaces
    except ImportError:
        return fn
    return spaces.GPU(duration=GPU_SECONDS)(fn)  # type: ignore[no-any-return]
