"""Errors a model adapter raises. Each carries a message fit to show a user as it is."""

from __future__ import annotations


class ModelError(RuntimeError):
    """A model call failed; the message says what happened in plain words."""


class ModelUnavailable(ModelError):
    """The model cannot be loaded here (not downloaded and offline, missing package, no such name)."""


class ModelTimeout(ModelError):
    """The model (or its server) did not answer in time."""


class ModelOutOfMemory(ModelError):
    """The device ran out of memory for this request."""
