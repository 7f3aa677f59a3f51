"""Loading a transformers image-text-to-text checkpoint for models.hf_vlm: which quantisation, dtype and
device; the local Hugging Face cache first, then the Hub; every failure as one ModelError a user can act on.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from models.device import defaults_for, pick_device
from models.errors import ModelError, ModelOutOfMemory, ModelUnavailable, first_line, is_out_of_memory
from models.hub import hub_endpoint, hub_offline, hub_reachable

if TYPE_CHECKING:
    import torch

QUANTISE_CHOICES = ("auto", "4bit", "int8", "none")
DTYPES = ("float32", "bfloat16", "float16")
Quantisation = Literal["nf4", "int8", "none"]  # what was applied: 4-bit NF4 (CUDA), int8 dynamic (CPU), none


@dataclass
class Checkpoint:
    """A loaded model and its processor, and how they were loaded."""

    # transformers' Auto classes pick the model and processor classes at run time from the checkpoint's
    # config, so their static type is only known to be "some transformers model / processor"
    model: Any
    processor: Any
    device: str
    quantisation: Quantisation
    dtype: torch.dtype


def looks_like_path(model_id: str) -> bool:
    """Whether `model_id` is meant as a directory: Hub ids are "name" or "owner/name"."""
    return model_id.startswith(("/", ".", "~")) or "\\" in model_id or model_id.count("/") > 1


def load_checkpoint(
    model_id: str,
    name: str,
    *,
    device: str | None,
    quantise: str,
    dtype: str | torch.dtype | None,
    processor_options: dict[str, Any],
) -> Checkpoint:
    """AutoProcessor + AutoModelForImageTextToText from a local directory or a Hub id (the local cache
    first; downloaded only when that misses and the Hub is reachable), moved to `device`."""
    try:
        import torch
        from transformers import AutoModelForImageTextToText, AutoProcessor
    except ImportError as error:
        raise ModelUnavailable(
            f"{name} needs torch and transformers: {first_line(error)} (pip install whichone)"
        ) from error
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # a CLI's stderr is for errors, not weight-loading bars

    device = pick_device(device)  # the one rule: asked for, else cuda > mps > cpu (models/device.py)
    quantisation = pick_quantisation(quantise, device, name)
    torch_dtype = pick_dtype(dtype, device)
    if quantisation == "int8" and torch_dtype != torch.float32:
        raise ModelUnavailable("int8 dynamic quantisation needs float32 weights; use dtype='float32'")

    is_dir = Path(model_id).expanduser().is_dir()
    if not is_dir and looks_like_path(model_id):
        raise ModelUnavailable(f"there is no model directory at {model_id}")
    source = str(Path(model_id).expanduser()) if is_dir else model_id
    load_kwargs = _load_kwargs(quantisation, torch_dtype, device)

    def load(local_only: bool) -> Checkpoint:
        processor = AutoProcessor.from_pretrained(source, local_files_only=local_only, **processor_options)
        model: Any = AutoModelForImageTextToText.from_pretrained(
            source, local_files_only=local_only, **load_kwargs
        )
        if quantisation != "nf4":  # bitsandbytes placed it already (device_map)
            model = model.to(device)
        return Checkpoint(model, processor, device, quantisation, torch_dtype)

    return _load_cache_first(load, model_id, name, is_dir)


def _load_kwargs(quantisation: str, torch_dtype: Any, device: str) -> dict[str, Any]:
    """from_pretrained's options: the dtype, and for NF4 the bitsandbytes configuration and placement."""
    load_kwargs: dict[str, Any] = {"dtype": torch_dtype}
    if quantisation == "nf4":
        import torch
        from transformers import BitsAndBytesConfig

        load_kwargs["quantization_config"] = BitsAndBytesConfig(
            load_in_4bit=True,
            bnb_4bit_quant_type="nf4",
            bnb_4bit_compute_dtype=torch.bfloat16,
            bnb_4bit_use_double_quant=True,
        )
        load_kwargs["device_map"] = {"": device}
    return load_kwargs


def _load_cache_first(
    load: Callable[[bool], Checkpoint], model_id: str, name: str, is_dir: bool
) -> Checkpoint:
    """`load(local_only)` from the local cache first, then from the Hub where it is reachable; each failure
    as a ModelError kind with a plain message."""
    import torch

    try:
        try:
            # The local cache first: fast, reproducible, and no network wait when it is complete.
            return load(True)
        except OSError as error:
            if is_dir or hub_offline():
                raise
            if not hub_reachable():
                # Without this check huggingface_hub retries for minutes on a machine without network.
                raise not_loadable(model_id, error, is_dir, unreachable=True) from error
            return load(False)  # downloads into the Hugging Face cache
    except ModelError:  # already phrased for a user (ModelError is a RuntimeError: keep it first)
        raise
    except torch.cuda.OutOfMemoryError as error:
        raise ModelOutOfMemory(f"{name} does not fit in the GPU's memory; try quantise='4bit'") from error
    except ImportError as error:
        raise ModelUnavailable(f"{name} needs a package that is missing: {first_line(error)}") from error
    except OSError as error:  # not in the cache / not on the hub / a directory without the files
        raise not_loadable(model_id, error, is_dir) from error
    except (RuntimeError, ValueError, KeyError) as error:
        if is_out_of_memory(error):
            raise ModelOutOfMemory(f"{name} does not fit in memory here") from error
        if is_dir:
            raise not_loadable(model_id, error, is_dir) from error
        raise ModelUnavailable(f"{name} could not be loaded by transformers: {first_line(error)}") from error


def not_loadable(
    model_id: str, error: BaseException, is_dir: bool, unreachable: bool = False
) -> ModelUnavailable:
    """What to tell a user when a checkpoint is not there: a directory without a loadable checkpoint, or a
    Hub model that is not downloaded (and why it could not be fetched)."""
    if is_dir:
        return ModelUnavailable(
            f"the directory {model_id} does not hold a loadable checkpoint: {first_line(error)}"
        )
    if hub_offline():
        why = " (HF_HUB_OFFLINE is set)"
    elif unreachable:
        why = f" and {hub_endpoint()} is not reachable"
    else:
        why = " and could not be fetched"
    return ModelUnavailable(
        f"the model {model_id} is not downloaded here{why}: "
        f"run `hf download {model_id}` on a machine with internet (then copy its Hugging Face cache here), "
        "or use the cpu-tiny stack to try the app offline (built here, nothing to download; its answers "
        "are noise)"
    )


def pick_quantisation(quantise: str, device: str, name: str) -> Quantisation:
    """ "auto": the device's own (models/device.py: NF4 on CUDA when bitsandbytes and accelerate are there,
    none elsewhere; the CPU's int8 is asked for by the catalog); "4bit" and "int8" are required
    (ModelUnavailable where the device has no such kernels); "none"."""
    if quantise not in QUANTISE_CHOICES:
        raise ModelUnavailable(
            f"unknown quantisation {quantise!r}; choose one of {', '.join(QUANTISE_CHOICES)}"
        )
    defaults = defaults_for(device)
    if quantise == "none":
        return "none"
    if quantise == "int8":
        if not defaults.int8_allowed:
            raise ModelUnavailable(
                f"int8 dynamic quantisation runs on the CPU, not {device}; on CUDA use quantise='4bit'"
            )
        return "int8"
    missing = [pkg for pkg in ("bitsandbytes", "accelerate") if importlib.util.find_spec(pkg) is None]
    if quantise == "4bit":
        if not defaults.nf4_allowed:
            raise ModelUnavailable(f"4-bit quantisation of {name} needs a CUDA GPU; use quantise='none'")
        if missing:
            raise ModelUnavailable(
                f"4-bit quantisation needs {' and '.join(missing)}: pip install 'whichone[gpu]'"
            )
    return "nf4" if defaults.nf4_allowed and not missing else "none"


def pick_dtype(dtype: str | torch.dtype | None, device: str) -> torch.dtype:
    """None: the device's own (bfloat16 on CUDA, float16 on MPS, float32 on a CPU); or one of DTYPES by
    name, or a torch dtype."""
    import torch

    if dtype is None:
        chosen_default: torch.dtype = getattr(torch, defaults_for(device).dtype)
        return chosen_default
    if isinstance(dtype, str):
        if dtype not in DTYPES:
            raise ModelUnavailable(f"unknown dtype {dtype!r}; choose one of {', '.join(DTYPES)}")
        chosen: torch.dtype = getattr(torch, dtype)
        return chosen
    return dtype
