"""The Gradio app: ask tab, settings, explain panel, overlays (see ui.app.build_app)."""

from ui.privacy import use_memory_temp_dir

# Before anything imports gradio: Gradio reads GRADIO_TEMP_DIR once, at import time.
use_memory_temp_dir()
