"""supervision, imported once and quietly.

supervision 0.31 warns at import when OpenCV is missing ("using its pure NumPy fallback backend"); whichone
uses only its NumPy parts (Detections, NMS, box clipping, the VLM parsers), so the warning would only be
noise on every CLI user's terminal.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any


@functools.cache
def supervision() -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*OpenCV.*")
        import supervision as sv
    return sv
