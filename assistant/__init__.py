"""whichone: an ambiguity-aware visual question answering assistant."""

__version__ = "0.1.0"
