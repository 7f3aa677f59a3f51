"""Public demo mode: what a visitor of a shared deployment (a Hugging Face Space) may not do.

On by default on a Space (Hugging Face sets SPACE_ID) and wherever WHICHONE_PUBLIC=1; WHICHONE_PUBLIC=0
turns it off. In public mode:
- Settings and the Benchmark tab may use only the allowed models: WHICHONE_ALLOWED_MODELS (registry names,
  comma separated), else the start-up choice's (WHICHONE_MODEL / WHICHONE_POINTER / WHICHONE_SEGMENTER).
  A visitor cannot make the server load model after model until it runs out of memory.
- Benchmarks run on the published datasets only: the Data field (a server path or a URL) is refused, so a
  visitor can neither read the server's files nor make it fetch addresses of their choosing.
- A benchmark run takes at most WHICHONE_PUBLIC_BENCH_LIMIT examples (default 20), and its answers at most
  WHICHONE_PUBLIC_MAX_NEW_TOKENS new tokens (default 256).
Run whichone on your own machine for all of it.
"""

from __future__ import annotations

import os

from assistant.errors import WhichoneError
from models.catalog import NO_SEGMENTER
from ui.engine import choice_from_env
from ui.serving_settings import serving_settings


def public_mode() -> bool:
    flag = serving_settings().public
    return flag if flag is not None else bool(os.environ.get("SPACE_ID"))  # Hugging Face sets SPACE_ID


def public_bench_limit() -> int:
    return serving_settings().public_bench_limit


def public_max_new_tokens() -> int:
    return serving_settings().public_max_new_tokens


def allowed_models() -> frozenset[str] | None:
    """Registry names a visitor may use; None: any (not public)."""
    if not public_mode():
        return None
    names = set(serving_settings().allowed_models)
    if not names:
        start = choice_from_env()
        names = {start.vlm, start.pointer, start.segmenter or NO_SEGMENTER}
    return frozenset(names | {NO_SEGMENTER})


def check_models_allowed(*names: str | None) -> None:
    """Raise WhichoneError naming what this demo serves when a name is not allowed here."""
    allowed = allowed_models()
    if allowed is None:
        return
    refused = [n for n in names if n and n not in allowed]
    if refused:
        served = ", ".join(sorted(allowed - {NO_SEGMENTER}))
        raise WhichoneError(
            f"this public demo serves only {served}; {', '.join(refused)} is not available here "
            "(run whichone on your own machine to use any model)"
        )


def check_bench_request(data: str | None, limit: int | None) -> int | None:
    """In public mode: no Data (published datasets only) and the limit capped; returns the limit to use."""
    if not public_mode():
        return limit
    if data and str(data).strip() and str(data).strip() != "sample":  # the bundled sample is no server file
        raise WhichoneError(
            "this public demo runs benchmarks on the published datasets only: leave Data empty or type "
            "sample (run whichone on your own machine to use your own files)"
        )
    cap = public_bench_limit()
    return min(limit, cap) if limit else cap


def check_new_tokens(max_new_tokens: int | None) -> int | None:
    """In public mode a chosen max new tokens is capped (None keeps the task's own, at most 256)."""
    if not public_mode() or max_new_tokens is None:
        return max_new_tokens
    return min(max_new_tokens, public_max_new_tokens())
