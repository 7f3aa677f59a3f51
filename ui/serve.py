"""Start the app: `python app.py` (how a Hugging Face Space runs it) and `whichone serve` call `main`.

Importing this (or any module of whichone) changes nothing: the private RAM folder for uploads is made
here, when the server starts, before gradio is imported (Gradio reads GRADIO_TEMP_DIR when imported, for
its recording routes, and at each upload; ui/privacy.py); then ui.launch builds and serves the app.
"""

from __future__ import annotations

from assistant.settings import install as install_settings
from ui.privacy import use_memory_temp_dir


def main(host: str | None = None, port: int | None = None) -> None:
    install_settings()
    use_memory_temp_dir()
    from ui.launch import run  # imports gradio: after the folder is set

    run(host, port)
