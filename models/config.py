"""What the model factories take from whichone's configuration, as one value (`ModelConfig`).

models/ reads no environment and imports nothing above it. The configuration is read by the domain,
assistant.settings (its WHICHONE_* variables), and handed down: the edge installs where it comes from
with `use_configuration` (assistant.settings.install, which the command line, the server, app.py and
build_app call as they start: never on import; the values are read again at each model creation), and
the registry, the catalog's factories and the tiny builders read `model_config()`.
Installed by nobody (models used on their own): the defaults below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_CACHE_DIR = Path.home() / ".cache" / "whichone"


@dataclass(frozen=True)
class OpenAIOptions:
    """The OpenAI-compatible backend's options (models/openai_vlm.py); None: the adapter's default."""

    base_url: str | None = None
    api_key: str | None = None
    model: str | None = None
    timeout: float | None = None
    max_retries: int | None = None
    grounding: str | None = None
    min_pixels: int | None = None
    max_pixels: int | None = None

    def as_kwargs(self) -> dict[str, Any]:
        """The options that are set, as the adapter's keyword arguments."""
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class ModelConfig:
    stack: str | None = None  # a stack's name (models/catalog.py); None: by the machine
    model: str | None = None  # the VLM, overriding the stack's
    device: str | None = None  # where models that run on a device run; None: cuda > mps > cpu
    cache_dir: Path = DEFAULT_CACHE_DIR  # tiny checkpoints, SAM weights, benchmark data
    sam_checkpoint: str | None = None  # a segment-anything checkpoint file; None: <cache>/sam/<official>
    smolvlm_longest_edge: int = 0  # 0: the catalog's choice (512 on a CPU, the model's own on a GPU)
    openai: OpenAIOptions = field(default_factory=OpenAIOptions)
    ollama: OpenAIOptions = field(default_factory=OpenAIOptions)  # base_url and model; None: its defaults
    llamacpp: OpenAIOptions = field(default_factory=OpenAIOptions)


_source: Callable[[], ModelConfig] = ModelConfig


def use_configuration(source: Callable[[], ModelConfig]) -> None:
    """Where model_config() comes from from now on (the edge calls this; it may raise ModelUnavailable
    with one line when the configuration is bad)."""
    global _source
    _source = source


def model_config() -> ModelConfig:
    """The configuration models are created with now."""
    return _source()
