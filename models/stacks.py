"""Stacks: named presets of VLM + pointer + segmenter, so a user picks one word instead of three models.

`cpu` is the default without CUDA, `gpu` with it. `--model`, `--pointer` and `--segmenter` (and
WHICHONE_MODEL / WHICHONE_POINTER / WHICHONE_SEGMENTER) still override one part of a stack. This module is a
plain table (no torch import): listing stacks is instant.

`cpu` is SmolVLM-256M + OWL-ViT B/32 + SAM 2.1 Hiera-tiny because OWL-ViT B/32 is the one detector fast
enough for a first turn of a few seconds on a laptop CPU (the README's "Stacks" gives the measurements).
Grounding DINO and MM-Grounding-DINO are the more accurate detectors and are registered for machines with
time to spare.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.errors import ModelUnavailable

NO_SEGMENTER = "none"  # the name for "boxes only"


@dataclass(frozen=True)
class ModelChoice:
    """Which models by registry name (see `whichone models`)."""

    vlm: str
    pointer: str
    segmenter: str | None = None

    def label(self) -> str:
        seg = self.segmenter or "no segmenter"
        return f"{self.vlm} / {self.pointer} / {seg}"

    def as_dict(self) -> dict[str, str | None]:
        return {"vlm": self.vlm, "pointer": self.pointer, "segmenter": self.segmenter}

    def models(self) -> list[str]:
        """The registry names this choice loads (no segmenter: two)."""
        return [n for n in (self.vlm, self.pointer, self.segmenter) if n]


@dataclass(frozen=True)
class Download:
    """One set of weights a stack fetches: where from, and about how big (the published weight files)."""

    source: str
    gigabytes: float


@dataclass(frozen=True)
class Stack:
    name: str
    choice: ModelChoice
    description: str
    downloads: tuple[Download, ...] = ()

    @property
    def download_gigabytes(self) -> float:
        return round(sum(d.gigabytes for d in self.downloads), 2)


# Sizes of the published weight files (safetensors), rounded; bf16 checkpoints are 2 bytes a parameter.
_SMOLVLM = Download("HuggingFaceTB/SmolVLM-256M-Instruct", 0.51)
_OWLVIT = Download("google/owlvit-base-patch32", 0.61)
_SAM2_TINY = Download("facebook/sam2.1-hiera-tiny", 0.16)
_QWEN_3B = Download("Qwen/Qwen2.5-VL-3B-Instruct", 7.5)
_SAM3 = Download("facebook/sam3", 3.4)
_MOLMO2_4B = Download("allenai/Molmo2-4B", 9.7)

STACKS: dict[str, Stack] = {
    s.name: s
    for s in (
        Stack(
            "cpu",
            ModelChoice("smolvlm-256m", "owlvit-b32", "sam2-hiera-tiny"),
            "a laptop without a GPU: SmolVLM-256M (int8) answers, OWL-ViT B/32 finds the candidates, SAM 2.1 "
            "Hiera-tiny outlines them (the default without CUDA)",
            (_SMOLVLM, _OWLVIT, _SAM2_TINY),
        ),
        Stack(
            "gpu",
            ModelChoice("qwen2.5-vl-3b", "sam3", None),
            "a CUDA GPU: Qwen2.5-VL 3B (4-bit) answers, SAM 3 finds and outlines every instance in one call "
            "(gated: ask for access to facebook/sam3 first; the default with CUDA)",
            (_QWEN_3B, _SAM3),
        ),
        Stack(
            "gpu-molmo",
            ModelChoice("qwen2.5-vl-3b", "molmo2-4b", "sam2-hiera-tiny"),
            "a CUDA GPU without SAM 3 access: Qwen2.5-VL 3B answers, Molmo2-4B points, SAM 2.1 outlines",
            (_QWEN_3B, _MOLMO2_4B, _SAM2_TINY),
        ),
        Stack(
            "server",
            ModelChoice("openai", "vlm-boxes", "sam2-hiera-tiny"),
            "an OpenAI-compatible server (WHICHONE_OPENAI_BASE_URL) answers and grounds; SAM 2.1 outlines",
            (_SAM2_TINY,),
        ),
        Stack(
            "ollama",
            ModelChoice("ollama", "owlvit-b32", "sam2-hiera-tiny"),
            "a vision model you run with Ollama (default qwen2.5vl:3b, 4-bit) answers; OWL-ViT B/32 and SAM "
            "2.1 Hiera-tiny find and outline the candidates on this CPU. Start it with `ollama pull "
            "qwen2.5vl:3b` (about 3.2 GB), then the Ollama app or `ollama serve`",
            (_OWLVIT, _SAM2_TINY),
        ),
        Stack(
            "llamacpp",
            ModelChoice("llamacpp", "owlvit-b32", "sam2-hiera-tiny"),
            "a vision model you run with llama.cpp's llama-server answers; OWL-ViT B/32 and SAM 2.1 "
            "Hiera-tiny find and outline the candidates on this CPU. Start it with `llama-server -hf "
            "ggml-org/Qwen2.5-VL-3B-Instruct-GGUF` (Q4_K_M and its vision projector)",
            (_OWLVIT, _SAM2_TINY),
        ),
        Stack(
            "cpu-tiny",
            ModelChoice("smolvlm-tiny", "owlvit-random-tiny", "sam2-random-tiny"),
            "the cpu stack's classes built tiny and random here (tests, offline runs; answers are noise)",
        ),
        Stack(
            "demo",
            ModelChoice("tiny", "blobs", None),
            "offline demo: a tiny random VLM and a pointer that finds coloured regions (answers are noise)",
        ),
    )
}
DEFAULT_CPU_STACK, DEFAULT_GPU_STACK = "cpu", "gpu"


def stack_name_of(choice: ModelChoice) -> str | None:
    """The name of the stack that is exactly `choice`, or None (a custom mix)."""
    return next((st.name for st in STACKS.values() if st.choice == choice), None)


def get_stack(name: str) -> Stack:
    stack = STACKS.get(name.strip())
    if stack is None:
        raise ModelUnavailable(f"there is no stack named {name!r}; known: {', '.join(STACKS)}")
    return stack


def default_stack_name(cuda: bool | None = None) -> str:
    """ "gpu" with a CUDA GPU, else "cpu" (torch is imported only when `cuda` is not given)."""
    if cuda is None:
        try:
            import torch
        except ImportError:
            cuda = False
        else:
            cuda = bool(torch.cuda.is_available())
    return DEFAULT_GPU_STACK if cuda else DEFAULT_CPU_STACK


def resolve_choice(
    stack: str | None = None,
    *,
    vlm: str | None = None,
    pointer: str | None = None,
    segmenter: str | None = None,
) -> tuple[str, ModelChoice]:
    """(stack name, models): the stack (default: by CUDA) with any part given by name overriding it.
    `segmenter` "none" means boxes only."""
    name = (stack or "").strip() or default_stack_name()
    base = get_stack(name).choice
    seg = base.segmenter if segmenter is None or not segmenter.strip() else segmenter.strip()
    return name, ModelChoice(
        vlm=(vlm or "").strip() or base.vlm,
        pointer=(pointer or "").strip() or base.pointer,
        segmenter=None if seg == NO_SEGMENTER else seg,
    )
