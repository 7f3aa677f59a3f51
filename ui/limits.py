"""Server-wide limits on work that holds much memory for a moment (read once, from the environment)."""

from __future__ import annotations

import os

DECODE_CONCURRENCY_ENV = "WHICHONE_DECODE_CONCURRENCY"


def decode_concurrency() -> int:
    """How many photos the Ask tab decodes at once, over all sessions (default 2): one 80-million-pixel
    photo holds about 0.5 GB while it is decoded and scaled down."""
    try:
        return max(1, int(os.environ.get(DECODE_CONCURRENCY_ENV, "") or 2))
    except ValueError:
        return 2
