"""Entry point, as a Hugging Face Space runs it: builds the UI and launches it.

WHICHONE_MODEL picks the VLM by registry name (e.g. WHICHONE_MODEL=tiny python app.py), WHICHONE_POINTER
and WHICHONE_SEGMENTER the grounding models; GRADIO_SERVER_NAME / GRADIO_SERVER_PORT are honoured as Gradio
does (127.0.0.1:7860 by default). The models load once, at start-up.
"""

from __future__ import annotations

import os

from ui.serve import main

if __name__ == "__main__":
    port_text = os.environ.get("GRADIO_SERVER_PORT")
    main(os.environ.get("GRADIO_SERVER_NAME"), int(port_text) if port_text else None)
