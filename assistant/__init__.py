"""whichone: an ambiguity-aware visual question answering assistant.

Importing it changes nothing. Models take their configuration from the environment (WHICHONE_*) once
assistant.settings.install() has run: the command line, the server and app.py do that as they start.
"""

__version__ = "0.1.0"
