"""Model names -> factories, so configuration picks a model by name.

Three kinds share one registry: "vlm" (VisionLanguageModel), "pointer" (Pointer), "segmenter" (Segmenter).
Adapters register themselves in models/catalog.py, which this module imports lazily so that listing the
registry never imports torch or transformers.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from models.errors import ModelUnavailable

KINDS = ("vlm", "pointer", "segmenter")


@dataclass(frozen=True)
class ModelSpec:
    name: str
    kind: str  # one of KINDS
    description: str
    factory: Callable[..., Any]
    hub_id: str | None = None  # where the weights come from, if anywhere
    needs_gpu: bool = False


_REGISTRY: dict[tuple[str, str], ModelSpec] = {}
_catalog_loaded = False


def register(spec: ModelSpec) -> ModelSpec:
    if spec.kind not in KINDS:
        raise ValueError(f"unknown model kind {spec.kind!r}; expected one of {KINDS}")
    _REGISTRY[(spec.kind, spec.name)] = spec
    return spec


def _ensure_catalog() -> None:
    global _catalog_loaded
    if not _catalog_loaded:
        _catalog_loaded = True
        import models.catalog  # noqa: F401  (registers the built-in adapters)


def list_models(kind: str | None = None) -> list[ModelSpec]:
    _ensure_catalog()
    specs = [s for (k, _), s in _REGISTRY.items() if kind is None or k == kind]
    return sorted(specs, key=lambda s: (KINDS.index(s.kind), s.name))


def get_spec(kind: str, name: str) -> ModelSpec:
    _ensure_catalog()
    spec = _REGISTRY.get((kind, name))
    if spec is None:
        known = ", ".join(s.name for s in list_models(kind)) or "none"
        raise ModelUnavailable(f"there is no {kind} named {name!r}; known: {known}")
    return spec


def create(kind: str, name: str, **kwargs: Any) -> Any:
    """Build the model `name` of `kind`; raises ModelUnavailable with a plain message when it cannot."""
    return get_spec(kind, name).factory(**kwargs)


def create_vlm(name: str, **kwargs: Any) -> Any:
    return create("vlm", name, **kwargs)


def create_pointer(name: str, **kwargs: Any) -> Any:
    return create("pointer", name, **kwargs)


def create_segmenter(name: str, **kwargs: Any) -> Any:
    return create("segmenter", name, **kwargs)


def default_vlm_name() -> str:
    """$WHICHONE_MODEL if set, else the VLM of $WHICHONE_STACK, else of the default stack ("gpu" with a
    CUDA GPU: qwen2.5-vl-3b; "cpu" without: smolvlm-256m)."""
    from models.stacks import resolve_choice

    return resolve_choice(os.environ.get("WHICHONE_STACK"), vlm=os.environ.get("WHICHONE_MODEL"))[1].vlm
