"""One rule for the device (cuda > mps > cpu, or the one asked for) and what each device loads with."""

from __future__ import annotations

import importlib.util

import pytest
import torch

from models import catalog
from models.device import DEVICE_DEFAULTS, choose_device, defaults_for, device_kind, pick_device
from models.errors import ModelUnavailable
from models.hf_loading import pick_dtype, pick_quantisation


@pytest.mark.parametrize(
    ("cuda", "mps", "expected"),
    [(True, True, "cuda"), (True, False, "cuda"), (False, True, "mps"), (False, False, "cpu")],
)
def test_without_a_request_cuda_then_mps_then_cpu(cuda: bool, mps: bool, expected: str) -> None:
    assert choose_device(None, cuda=cuda, mps=mps) == expected


def test_a_requested_device_wins_when_it_is_here_and_is_refused_when_not() -> None:
    assert choose_device("cpu", cuda=True, mps=True) == "cpu"
    assert choose_device("mps", cuda=True, mps=True) == "mps"
    assert choose_device("cuda:1", cuda=True, mps=False) == "cuda:1"
    with pytest.raises(ModelUnavailable, match="no CUDA GPU is available"):
        choose_device("cuda", cuda=False, mps=True)
    with pytest.raises(ModelUnavailable, match=r"no Apple GPU \(MPS\) is available"):
        choose_device("mps", cuda=True, mps=False)
    with pytest.raises(ModelUnavailable, match="unknown device 'tpu'"):
        choose_device("tpu", cuda=True, mps=True)
    assert device_kind("CUDA:0") == "cuda"


def test_pick_device_reads_torchs_own_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    assert pick_device() == "mps"
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    assert pick_device() == "cpu"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert pick_device() == "cuda" and pick_device("cpu") == "cpu"


def test_quantisation_and_precision_follow_the_device() -> None:
    nf4_here = all(importlib.util.find_spec(p) is not None for p in ("bitsandbytes", "accelerate"))
    assert pick_quantisation("auto", "cuda", "m") == ("nf4" if nf4_here else "none")
    assert pick_quantisation("auto", "mps", "m") == "none"
    assert pick_quantisation("auto", "cpu", "m") == "none"  # int8 on a CPU is the catalog's choice
    assert pick_quantisation("int8", "cpu", "m") == "int8"
    for device in ("cuda", "mps"):
        with pytest.raises(ModelUnavailable, match="int8 dynamic quantisation runs on the CPU"):
            pick_quantisation("int8", device, "m")
    for device in ("mps", "cpu"):
        with pytest.raises(ModelUnavailable, match="4-bit quantisation of m needs a CUDA GPU"):
            pick_quantisation("4bit", device, "m")
    assert pick_dtype(None, "cuda") == torch.bfloat16
    assert pick_dtype(None, "mps") == torch.float16
    assert pick_dtype(None, "cpu") == torch.float32
    assert pick_dtype("float32", "mps") == torch.float32
    assert {k: (d.quantisation, d.dtype) for k, d in DEVICE_DEFAULTS.items()} == {
        "cuda": ("4bit", "bfloat16"),
        "mps": ("none", "float16"),
        "cpu": ("int8", "float32"),
    }
    assert defaults_for("cuda:1").nf4_allowed and not defaults_for("mps").int8_allowed


def test_the_cpu_stacks_vlm_is_int8_on_a_cpu_only(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[dict] = []
    monkeypatch.setattr(catalog, "_hf_factory", lambda hub_id, name: lambda **kw: given.append(kw))
    monkeypatch.setenv("WHICHONE_SMOLVLM_LONGEST_EDGE", "512")
    monkeypatch.setattr(catalog, "_cuda_available", lambda: False)
    monkeypatch.setattr(catalog, "_mps_available", lambda: True)
    catalog._smolvlm_factory()  # a Mac: MPS, half precision, no int8
    monkeypatch.setattr(catalog, "_mps_available", lambda: False)
    catalog._smolvlm_factory()  # a CPU
    catalog._smolvlm_factory(device="mps")
    assert [kw.get("quantise") for kw in given] == [None, "int8", None]


def test_the_setting_chooses_the_device_of_every_model_that_has_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from models.registry import create_pointer, create_vlm

    monkeypatch.setenv("WHICHONE_DEVICE", "cpu")
    vlm = create_vlm("tiny")
    assert vlm.describe()["device"] == "cpu"
    create_pointer("blobs", vlm=vlm)  # no device: the setting is not passed to it
    monkeypatch.setenv("WHICHONE_DEVICE", "mps")
    with pytest.raises(ModelUnavailable, match=r"'mps' was asked for but no Apple GPU \(MPS\)"):
        create_vlm("tiny")
