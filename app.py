"""Entry point, as a Hugging Face Space runs it: builds the UI and launches it.

WHICHONE_MODEL picks the VLM by registry name (e.g. WHICHONE_MODEL=tiny python app.py);
GRADIO_SERVER_NAME / GRADIO_SERVER_PORT are honoured as Gradio does.
"""

from __future__ import annotations

import os


def main(host: str | None = None, port: int | None = None) -> None:
    from ui.app import build_app, launch_kwargs

    demo = build_app()
    demo.launch(**launch_kwargs(host=host, port=port))


if __name__ == "__main__":
    main(os.environ.get("GRADIO_SERVER_NAME"), int(os.environ["GRADIO_SERVER_PORT"]) if os.environ.get("GRADIO_SERVER_PORT") else None)
