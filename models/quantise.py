"""int8 dynamic quantisation of a model's Linear layers for the CPU (the CPU's counterpart of 4-bit NF4).

It roughly halves SmolVLM's prefill and per-token time on a CPU (the README gives the measurements).
`torch.ao.quantization.quantize_dynamic` is deprecated in favour of torchao (pytorch/ao#2259) but still
ships with torch and needs no other package; its deprecation warning is silenced here, once, where it is
called.
"""

from __future__ import annotations

import gc
import warnings
from typing import Any, Literal

from models.memory import release_free_memory

CpuQuantisation = Literal["auto", "int8", "none"]
CPU_QUANTISATIONS: tuple[CpuQuantisation, ...] = ("auto", "int8", "none")


def int8_dynamic(model: Any) -> Any:
    """`model` (on the CPU, in eval mode) with every torch.nn.Linear replaced, in place, by a dynamically
    quantised int8 one; weights are converted once, activations per call. In place: a copy would hold the
    float32 weights and the int8 ones at once (1 GB more at the peak for SmolVLM-256M). The replaced
    float32 layers are in reference cycles, so they are collected here and their memory handed back at
    once (0.2 GiB of SmolVLM-256M's and 0.5 GiB of OWL-ViT's stayed resident until the next collection:
    `whichone perf --stack cpu`)."""
    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quantised = torch.ao.quantization.quantize_dynamic(
            model, {torch.nn.Linear}, dtype=torch.qint8, inplace=True
        )
    gc.collect()
    release_free_memory()
    return quantised
