"""What a registered model is: a name, a kind, a one-line description and a factory (no imports beyond the
standard library, so the catalog and the registry both build on it without importing each other)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

ModelKind = Literal["vlm", "pointer", "segmenter"]
KINDS: tuple[ModelKind, ...] = get_args(ModelKind)


@dataclass(frozen=True)
class ModelSpec:
    name: str
    kind: ModelKind
    description: str
    factory: Callable[..., object]  # keyword options (device, quantise, ...) -> the model
    hub_id: str | None = None  # where the weights come from, if anywhere
    needs_gpu: bool = False
    on_device: bool = True  # its factory takes `device` (False: a server, or plain Python on the CPU)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown model kind {self.kind!r}; expected one of {KINDS}")
