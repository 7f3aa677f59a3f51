"""whichone: an ambiguity-aware visual question answering assistant.

Importing it configures the models from the environment: assistant.settings installs itself as where
models/ takes its configuration from (models/config.py), so models/ reads no environment of its own.
"""

import assistant.settings  # noqa: F401  (installs the models' configuration source)

__version__ = "0.1.0"
