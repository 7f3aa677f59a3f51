"""User-facing errors of the domain. The message is shown as it is: one plain line."""

from __future__ import annotations


class WhichoneError(Exception):
    """Base of every error whose message is fit for a user."""


class InputError(WhichoneError):
    """The image or the question cannot be used (unreadable, too large, empty, ...)."""


class SessionError(WhichoneError):
    """The conversation state does not allow this step (no question yet, unknown region, ...)."""


class ConfigError(WhichoneError, ValueError):
    """A setting has a value the assistant does not know (an unknown prompt name, marking mode, ...)."""
