"""Start the app: build the UI once (models load at start-up) and launch it.

Both `python app.py` (how a Hugging Face Space runs it) and `whichone serve` call `main`; it lives in the
package so the console script works from any folder.
"""

from __future__ import annotations


def main(host: str | None = None, port: int | None = None) -> None:
    # ui first: it points Gradio's upload folder at RAM before gradio is imported.
    from ui.app import build_app, launch_kwargs
    from ui.privacy import stop_on_sigterm, temp_root

    demo = build_app()
    stop_on_sigterm(demo.close)
    # Says where uploads live (no user data): operators and the privacy tests check that folder.
    print(f"whichone: uploads are kept in {temp_root()} until start over, session end or exit", flush=True)
    demo.launch(**launch_kwargs(host=host, port=port))
