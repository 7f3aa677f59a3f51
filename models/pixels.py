"""A content key of an image's decoded pixels: what the segmenters' embedding cache
(models/segment_common.py), the session's photo and the benchmark's response cache are keyed by.
"""

from __future__ import annotations

import hashlib

from PIL import Image


def image_digest(image: Image.Image) -> str:
    """A content hash of the decoded pixels (mode, size and bytes), stable across file formats."""
    h = hashlib.sha256()
    h.update(f"{image.mode}:{image.size[0]}x{image.size[1]}:".encode())
    h.update(image.tobytes())
    return h.hexdigest()
