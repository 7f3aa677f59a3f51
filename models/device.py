"""Which device a model runs on, and the quantisation and precision that suit it: one place for both.

`choose_device` is the rule (pure, tested branch by branch): the device asked for (an argument, or the
WHICHONE_DEVICE setting that the catalog passes down), else CUDA, else Apple's GPU (MPS), else the CPU.
A device asked for that is not here is a ModelUnavailable naming it. `pick_device` applies the rule to what
torch sees on this machine.

For each device (`DEVICE_DEFAULTS`): 4-bit NF4 only on CUDA (bitsandbytes), int8 dynamic quantisation only on
the CPU (torch.ao, models/quantise.py), half precision on MPS (float16: MPS has no bfloat16 on older macOS
and runs float16 kernels fastest), bfloat16 on CUDA, float32 on the CPU. MPS has not been run on real
hardware by this project (no Mac here); the rule and the loading code are tested with torch's own
availability flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from models.errors import ModelUnavailable

DeviceKind = Literal["cuda", "mps", "cpu"]
DEVICE_KINDS: tuple[DeviceKind, ...] = ("cuda", "mps", "cpu")


@dataclass(frozen=True)
class DeviceDefaults:
    """What a model on this kind of device is loaded with unless asked otherwise."""

    quantisation: Literal["4bit", "int8", "none"]  # "4bit": NF4 where bitsandbytes is installed
    dtype: Literal["bfloat16", "float16", "float32"]
    int8_allowed: bool  # torch's dynamic int8 kernels are CPU kernels
    nf4_allowed: bool  # bitsandbytes' 4-bit kernels are CUDA kernels


DEVICE_DEFAULTS: dict[DeviceKind, DeviceDefaults] = {
    "cuda": DeviceDefaults("4bit", "bfloat16", int8_allowed=False, nf4_allowed=True),
    "mps": DeviceDefaults("none", "float16", int8_allowed=False, nf4_allowed=False),
    "cpu": DeviceDefaults("int8", "float32", int8_allowed=True, nf4_allowed=False),
}


def device_kind(device: str) -> DeviceKind:
    """ "cuda:1" -> "cuda"; ModelUnavailable for a device whichone does not run on."""
    kind = device.split(":", 1)[0].strip().lower()
    if kind not in DEVICE_KINDS:
        raise ModelUnavailable(f"unknown device {device!r}; choose one of {', '.join(DEVICE_KINDS)}")
    return kind


def choose_device(requested: str | None, *, cuda: bool, mps: bool) -> str:
    """The device to load on: `requested` when it is here, else cuda > mps > cpu."""
    if requested:
        kind = device_kind(requested)
        if (kind == "cuda" and not cuda) or (kind == "mps" and not mps):
            name = "CUDA GPU" if kind == "cuda" else "Apple GPU (MPS)"
            raise ModelUnavailable(f"device {requested!r} was asked for but no {name} is available here")
        return requested
    if cuda:
        return "cuda"
    return "mps" if mps else "cpu"


def pick_device(requested: str | None = None) -> str:
    """choose_device with what torch sees on this machine (the CPU when torch is not installed)."""
    try:
        import torch
    except ImportError:
        return choose_device(requested, cuda=False, mps=False)
    mps_backend = getattr(torch.backends, "mps", None)
    mps = bool(mps_backend is not None and mps_backend.is_available())
    return choose_device(requested, cuda=bool(torch.cuda.is_available()), mps=mps)


def defaults_for(device: str) -> DeviceDefaults:
    return DEVICE_DEFAULTS[device_kind(device)]
