"""The two interfaces: the Gradio app (ui.app.build_app, started by ui.serve) and the command line (ui.cli).

Importing ui changes nothing: `whichone serve` and app.py make the private upload folder when the server
starts (ui/serve.py).
"""
