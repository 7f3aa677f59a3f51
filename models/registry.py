"""Model names -> factories, so configuration picks a model by name.

Three kinds share one registry: "vlm" (VisionLanguageModel), "pointer" (Pointer), "segmenter" (Segmenter).
The built-in adapters are the plain table models.catalog.SPECS, indexed here once at import: listing the
registry never imports torch or transformers, and there is no half-filled state for a failed import to leave.
"""

from __future__ import annotations

from typing import Any, cast

from models.base import Pointer, Segmenter, VisionLanguageModel
from models.catalog import SPECS, resolve_choice
from models.compute import in_passing_thread
from models.config import model_config
from models.errors import ModelUnavailable
from models.spec import KINDS, ModelKind, ModelSpec

__all__ = ["KINDS", "ModelSpec", "create", "create_pointer", "create_segmenter", "create_vlm", "get_spec"]

_REGISTRY: dict[tuple[str, str], ModelSpec] = {(spec.kind, spec.name): spec for spec in SPECS}


def list_models(kind: ModelKind | None = None) -> list[ModelSpec]:
    specs = [s for (k, _), s in _REGISTRY.items() if kind is None or k == kind]
    return sorted(specs, key=lambda s: (KINDS.index(s.kind), s.name))


def get_spec(kind: ModelKind, name: str) -> ModelSpec:
    spec = _REGISTRY.get((kind, name))
    if spec is None:
        known = ", ".join(s.name for s in list_models(kind)) or "none"
        raise ModelUnavailable(f"there is no {kind} named {name!r}; known: {known}")
    return spec


def create(kind: ModelKind, name: str, **kwargs: Any) -> object:
    """Build the model `name` of `kind`; raises ModelUnavailable with a plain message when it cannot.
    A model that runs on a device gets the configured device (WHICHONE_DEVICE), unless `device` is given
    (models/device.py picks cuda > mps > cpu when neither is). Built in a thread that ends with the build,
    so the OpenMP team of the build's torch work ends too (models/compute.py)."""
    spec = get_spec(kind, name)
    if spec.on_device and "device" not in kwargs and (device := model_config().device):
        kwargs["device"] = device
    return in_passing_thread(spec.factory, **kwargs)


def create_vlm(name: str, **kwargs: Any) -> VisionLanguageModel:
    return cast(VisionLanguageModel, create("vlm", name, **kwargs))


def create_pointer(name: str, **kwargs: Any) -> Pointer:
    return cast(Pointer, create("pointer", name, **kwargs))


def create_segmenter(name: str, **kwargs: Any) -> Segmenter:
    return cast(Segmenter, create("segmenter", name, **kwargs))


def default_vlm_name() -> str:
    """The configured model (WHICHONE_MODEL) if set, else the VLM of the configured stack (WHICHONE_STACK),
    else of the default stack ("gpu" with a CUDA GPU: qwen2.5-vl-3b; "cpu" without: smolvlm-256m)."""
    current = model_config()
    return resolve_choice(current.stack, vlm=current.model)[1].vlm
