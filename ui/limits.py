"""Server-wide limits on work that holds much memory for a moment (read once, from the environment)."""

from __future__ import annotations

from ui.serving_settings import serving_settings


def decode_concurrency() -> int:
    """How many photos the Ask tab decodes at once, over all sessions (default 2): one 80-million-pixel
    photo holds about 0.5 GB while it is decoded and scaled down."""
    return serving_settings().decode_concurrency
