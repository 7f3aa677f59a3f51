"""Entry point, as a Hugging Face Space runs it: builds the UI and launches it.

WHICHONE_MODEL picks the VLM by registry name (e.g. WHICHONE_MODEL=tiny python app.py), WHICHONE_POINTER
and WHICHONE_SEGMENTER the grounding models; GRADIO_SERVER_NAME / GRADIO_SERVER_PORT are honoured as Gradio
does (127.0.0.1:7860 by default). The models load once, at start-up.
"""

from __future__ import annotations

import os


def main(host: str | None = None, port: int | None = None) -> None:
    # ui first: it points Gradio's upload folder at RAM before gradio is imported.
    from ui.app import build_app, launch_kwargs
    from ui.privacy import stop_on_sigterm, temp_root

    demo = build_app()
    stop_on_sigterm(demo.close)
    # Says where uploads live (no user data): operators and the privacy tests check that folder.
    print(f"whichone: uploads are kept in {temp_root()} until start over, session end or exit", flush=True)
    demo.launch(**launch_kwargs(host=host, port=port))


if __name__ == "__main__":
    port_text = os.environ.get("GRADIO_SERVER_PORT")
    main(os.environ.get("GRADIO_SERVER_NAME"), int(port_text) if port_text else None)
