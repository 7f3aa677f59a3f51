"""The built-in adapters as a plain table, `SPECS`, which models.registry indexes by (kind, name); the local
model servers (`SERVERS`); and the stacks (`STACKS`), named presets of a VLM, a pointer and a segmenter.

Importing this must stay cheap: no torch, transformers or openai import here. Each factory imports its
adapter when it is called, and passes its keyword arguments on (device, quantise, timeout, ...). This module
imports nothing from models.registry (the registry reads this table; the table does not register itself).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from models.blob_pointer import BlobPointer
from models.config import model_config
from models.detectors import (
    DetectorFamily,  # data only at import (no torch)
    DetectorPointer,
)
from models.device import choose_device, device_kind
from models.errors import ModelUnavailable
from models.families import molmo, qwen
from models.hf_vlm import HFVisionLanguageModel
from models.openai_vlm import LocalServer, OpenAICompatibleVLM
from models.sam import SamSegmenter
from models.sam2 import SAM2_HIERA_TINY, Sam2Segmenter
from models.sam3 import SAM3_ID, Sam3Pointer
from models.spec import ModelSpec
from models.tiny import TinyRecipe, build_tiny
from models.tiny_detectors import TINY_DETECTOR_RECIPES, TINY_DETECTORS, TinyDetector
from models.tiny_sam2 import TINY_SAM2
from models.tiny_sam3 import TINY_SAM3
from models.tiny_smolvlm import TINY_SMOLVLM
from models.vlm_pointer import VLMPointer

if TYPE_CHECKING:
    from models.base import Pointer, Segmenter, VisionLanguageModel

SPECS: list[ModelSpec] = []
register = SPECS.append  # each entry below adds one spec to the table, in order

# ---------------------------------------------------------------- vision-language models (kind "vlm")

QWEN2_5_VL_3B = "Qwen/Qwen2.5-VL-3B-Instruct"
QWEN2_5_VL_7B = "Qwen/Qwen2.5-VL-7B-Instruct"
QWEN3_VL_2B = "Qwen/Qwen3-VL-2B-Instruct"
QWEN3_VL_4B = "Qwen/Qwen3-VL-4B-Instruct"
SMOLVLM_256M = "HuggingFaceTB/SmolVLM-256M-Instruct"


def _hf_factory(hub_id: str, name: str):
    def factory(**kwargs: Any) -> VisionLanguageModel:

        kwargs.setdefault("name", name)
        return HFVisionLanguageModel(hub_id, **kwargs)

    return factory


def _smolvlm_factory(**kwargs: Any) -> VisionLanguageModel:
    """SmolVLM-256M. On a CPU its processor reads a photo as one 512 px tile plus nothing else (by default
    up to 4 x 4 tiles and a global view): measured here (scripts/vlm_cpu_cost.py, 2 cores) a 640 x 480
    photo then takes 2 s to read instead of 27 s. WHICHONE_SMOLVLM_LONGEST_EDGE sets the edge (a multiple
    of 512; 0 keeps the model's own)."""
    if _runs_on_cpu(kwargs):
        kwargs.setdefault("quantise", "int8")  # the CPU's quantisation: ~2x faster (models/quantise.py)
    if "processor_options" not in kwargs:
        edge = model_config().smolvlm_longest_edge
        if not edge and not _cuda_available():
            edge = 512
        if edge:
            kwargs["processor_options"] = {"size": {"longest_edge": edge}}
    return _hf_factory(SMOLVLM_256M, "smolvlm-256m")(**kwargs)


def _cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def _runs_on_cpu(kwargs: dict[str, Any]) -> bool:
    """Whether a factory's model will run on the CPU: its `device`, else
    cuda > mps > cpu as models/device.py chooses (the registry passes WHICHONE_DEVICE's as `device`)."""

    requested = kwargs.get("device")
    if requested:
        return device_kind(str(requested)) == "cpu"
    return choose_device(None, cuda=_cuda_available(), mps=_mps_available()) == "cpu"


def _mps_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


def _local_tiny_factory(recipe: TinyRecipe, name: str, int8_on_cpu: bool = False):
    """A factory that builds (once, cached) a tiny local checkpoint of `recipe` (models/tiny.py) and loads
    it like real weights. A tiny model is for CPUs and tests: not quantised unless asked, or unless
    `int8_on_cpu` (smolvlm-tiny: int8 on a CPU, as the cpu stack's smolvlm-256m)."""

    def factory(*, target_dir: Path | None = None, **kwargs: Any) -> VisionLanguageModel:
        kwargs.setdefault("name", name)
        kwargs.setdefault("quantise", "int8" if int8_on_cpu and _runs_on_cpu(kwargs) else "none")
        return HFVisionLanguageModel(str(build_tiny(recipe, target_dir)), **kwargs)

    return factory


def openai_options() -> dict[str, Any]:
    """The openai backend's configured options (WHICHONE_OPENAI_*), as its keyword arguments; a bad number
    is ModelUnavailable naming the variable (the configuration's source says so)."""
    return model_config().openai.as_kwargs()


# The local model servers people already run on a laptop, Ollama and llama.cpp's `llama-server`: both speak
# the OpenAI-compatible chat-completions API, so whichone reaches them through the `openai` adapter with their
# own default address, the model to ask for, and what to tell a user when something is missing. A suitable
# model is a small vision model in 4 bits: Qwen2.5-VL 3B (`qwen2.5vl:3b` in Ollama's library;
# `ggml-org/Qwen2.5-VL-3B-Instruct-GGUF`, Q4_K_M with its vision projector, for llama-server's `-hf`).
LocalServerName = Literal["ollama", "llamacpp"]

SERVERS: dict[LocalServerName, LocalServer] = {
    "ollama": LocalServer(
        name="ollama",
        label="Ollama",
        base_url="http://localhost:11434/v1",
        model="qwen2.5vl:3b",
        setup="`ollama pull qwen2.5vl:3b`, then the Ollama app or `ollama serve`",
        vision_help="pull a vision model (`ollama pull qwen2.5vl:3b`) and set WHICHONE_OLLAMA_MODEL to it",
    ),
    "llamacpp": LocalServer(
        name="llamacpp",
        label="llama.cpp's llama-server",
        base_url="http://localhost:8080/v1",
        model=None,
        setup="`llama-server -hf ggml-org/Qwen2.5-VL-3B-Instruct-GGUF`, which fetches the model and its "
        "vision projector",
        vision_help="start llama-server with a vision model and its projector: `llama-server -hf "
        "ggml-org/Qwen2.5-VL-3B-Instruct-GGUF`, or `-m MODEL.gguf --mmproj MMPROJ.gguf`",
    ),
}


def _local_server_factory(server: LocalServerName) -> Callable[..., VisionLanguageModel]:
    """Ollama's or llama-server's VLM: their address and model (WHICHONE_OLLAMA_* / WHICHONE_LLAMACPP_*),
    the openai backend's timeout and retries."""

    def factory(**kwargs: Any) -> VisionLanguageModel:
        config = model_config()
        chosen = config.ollama if server == "ollama" else config.llamacpp
        known = SERVERS[server]
        options = {k: v for k, v in openai_options().items() if k in ("timeout", "max_retries", "grounding")}
        model = chosen.model or known.model
        return OpenAICompatibleVLM(
            **{
                **options,
                "base_url": chosen.base_url or known.base_url,
                "model": model,
                "api_key": server,  # required by the client, ignored by both servers
                "name": f"{server}:{model}" if model else server,
                "server": known,
                **kwargs,
            }
        )

    return factory


def _openai_factory(**kwargs: Any) -> VisionLanguageModel:

    return OpenAICompatibleVLM(**{**openai_options(), **kwargs})


register(
    ModelSpec(
        name="tiny",
        kind="vlm",
        description="tiny random Qwen2.5-VL built locally (tests and offline demos; its answers are noise)",
        factory=_local_tiny_factory(qwen.TINY_QWEN2_5_VL, "tiny"),
    )
)
register(
    ModelSpec(
        name="qwen2.5-vl-3b",
        kind="vlm",
        description="Qwen2.5-VL 3B Instruct, 4-bit on a CUDA GPU (the default with a GPU)",
        factory=_hf_factory(QWEN2_5_VL_3B, "qwen2.5-vl-3b"),
        hub_id=QWEN2_5_VL_3B,
        needs_gpu=True,
    )
)
register(
    ModelSpec(
        name="qwen2.5-vl-7b",
        kind="vlm",
        description="Qwen2.5-VL 7B Instruct, 4-bit on a CUDA GPU",
        factory=_hf_factory(QWEN2_5_VL_7B, "qwen2.5-vl-7b"),
        hub_id=QWEN2_5_VL_7B,
        needs_gpu=True,
    )
)
register(
    ModelSpec(
        name="qwen3-vl-2b",
        kind="vlm",
        description="Qwen3-VL 2B Instruct (grounding on 0-1000), 4-bit on a CUDA GPU",
        factory=_hf_factory(QWEN3_VL_2B, "qwen3-vl-2b"),
        hub_id=QWEN3_VL_2B,
        needs_gpu=True,
    )
)
register(
    ModelSpec(
        name="qwen3-vl-4b",
        kind="vlm",
        description="Qwen3-VL 4B Instruct (grounding on 0-1000), 4-bit on a CUDA GPU",
        factory=_hf_factory(QWEN3_VL_4B, "qwen3-vl-4b"),
        hub_id=QWEN3_VL_4B,
        needs_gpu=True,
    )
)
register(
    ModelSpec(
        name="qwen3-vl-tiny",
        kind="vlm",
        description="tiny random Qwen3-VL built locally (tests of the qwen3-vl code path; answers are noise)",
        factory=_local_tiny_factory(qwen.TINY_QWEN3_VL, "qwen3-vl-tiny"),
    )
)
register(
    ModelSpec(
        name="smolvlm-256m",
        kind="vlm",
        description="SmolVLM 256M Instruct, small enough for a CPU (the default without a GPU)",
        factory=_smolvlm_factory,
        hub_id=SMOLVLM_256M,
    )
)
register(
    ModelSpec(
        name="smolvlm-tiny",
        kind="vlm",
        description="tiny random SmolVLM (Idefics3) built locally (tests of smolvlm-256m's code path; noise)",
        factory=_local_tiny_factory(TINY_SMOLVLM, "smolvlm-tiny", int8_on_cpu=True),
    )
)
register(
    ModelSpec(
        name="openai",
        kind="vlm",
        description="any OpenAI-compatible server (vLLM, SGLang, OpenAI); see WHICHONE_OPENAI_BASE_URL",
        factory=_openai_factory,
        on_device=False,
    )
)
register(
    ModelSpec(
        name="ollama",
        kind="vlm",
        description="a vision model served by Ollama (default qwen2.5vl:3b at http://localhost:11434/v1; "
        "WHICHONE_OLLAMA_MODEL, WHICHONE_OLLAMA_BASE_URL)",
        factory=_local_server_factory("ollama"),
        on_device=False,
    )
)
register(
    ModelSpec(
        name="llamacpp",
        kind="vlm",
        description="a vision model served by llama.cpp's llama-server (http://localhost:8080/v1, the model "
        "it serves; WHICHONE_LLAMACPP_BASE_URL)",
        factory=_local_server_factory("llamacpp"),
        on_device=False,
    )
)

# ---------------------------------------------------------------- pointers (kind "pointer")
# Every pointer factory takes `vlm=` (the answering VLM, which the pipeline always passes) and ignores it
# when it does not use it.

MOLMO2_IDS = {
    "molmo2-4b": "allenai/Molmo2-4B",
    "molmo2-8b": "allenai/Molmo2-8B",
    "molmo2-o-7b": "allenai/Molmo2-O-7B",
}


def _checkpoint_pointer(model_id: str, output: str, *, settings: Any = None, **options: Any) -> Pointer:
    """The VLM pointer (models/vlm_pointer.py) on a checkpoint loaded here (models/hf_vlm.py; 4-bit NF4 on
    CUDA when bitsandbytes is there), asking for the pointer format `output`."""
    vlm = HFVisionLanguageModel(model_id, **options)
    return VLMPointer(vlm, output=output, settings=settings, name=vlm.name)


def _molmo2_factory(hub_id: str, name: str):
    def factory(*, vlm: VisionLanguageModel | None = None, **kwargs: Any) -> Pointer:
        kwargs.setdefault("name", name)
        return _checkpoint_pointer(hub_id, "molmo", **kwargs)

    return factory


def _tiny_molmo2_factory(
    *, vlm: VisionLanguageModel | None = None, target_dir: Path | None = None, **kwargs: Any
) -> Pointer:
    kwargs.setdefault("name", "molmo2-tiny")
    kwargs.setdefault("quantise", "none")
    return _checkpoint_pointer(str(build_tiny(molmo.TINY_MOLMO2, target_dir)), "molmo", **kwargs)


def _vlm_pointer_factory(output: Literal["qwen", "molmo"]):
    def factory(*, vlm: VisionLanguageModel | None = None, **kwargs: Any) -> Pointer:

        if vlm is None:
            raise ModelUnavailable("this pointer asks the answering vision-language model: pass vlm=")
        return VLMPointer(vlm, output=output, **kwargs)

    return factory


def _sam3_factory(*, vlm: VisionLanguageModel | None = None, **kwargs: Any) -> Pointer:

    return Sam3Pointer(kwargs.pop("checkpoint", None) or SAM3_ID, **kwargs)


def _tiny_sam3_factory(
    *, vlm: VisionLanguageModel | None = None, target_dir: Path | None = None, **kwargs: Any
) -> Pointer:

    kwargs.setdefault("name", "sam3-tiny")
    return Sam3Pointer(str(build_tiny(TINY_SAM3, target_dir)), **kwargs)


def _detector_factory(checkpoint: str, name: str, family: DetectorFamily | None = None):
    def factory(*, vlm: VisionLanguageModel | None = None, **kwargs: Any) -> Pointer:

        kwargs.setdefault("name", name)
        return DetectorPointer(kwargs.pop("checkpoint", None) or checkpoint, family=family, **kwargs)

    return factory


def _tiny_detector_factory(kind: TinyDetector, name: str):
    def factory(
        *, vlm: VisionLanguageModel | None = None, target_dir: Path | None = None, **kwargs: Any
    ) -> Pointer:

        kwargs.setdefault("name", name)
        # Random tiny weights score every box alike and low: keep them all, so tests see the whole path.
        kwargs.setdefault("threshold", 0.0)
        return DetectorPointer(str(build_tiny(TINY_DETECTOR_RECIPES[kind], target_dir)), **kwargs)

    return factory


def _blob_factory(*, vlm: VisionLanguageModel | None = None, **kwargs: Any) -> Pointer:

    return BlobPointer(**kwargs)


for _name, _hub in MOLMO2_IDS.items():
    register(
        ModelSpec(
            name=_name,
            kind="pointer",
            description=f"{_hub.split('/')[1]} points (native transformers Molmo2), 4-bit on a CUDA GPU",
            factory=_molmo2_factory(_hub, _name),
            hub_id=_hub,
            needs_gpu=True,
        )
    )
register(
    ModelSpec(
        name="molmo2-tiny",
        kind="pointer",
        description="tiny random Molmo2 built locally (tests of the Molmo2 code path; its points are noise)",
        factory=_tiny_molmo2_factory,
    )
)
register(
    ModelSpec(
        name="vlm-boxes",
        kind="pointer",
        description="the answering VLM's own grounding: Qwen bbox_2d JSON, read in the VLM family's scale "
        "(Qwen2.5-VL pixels, Qwen3-VL 0-1000; one model for everything)",
        factory=_vlm_pointer_factory("qwen"),
        on_device=False,
    )
)
register(
    ModelSpec(
        name="vlm-points",
        kind="pointer",
        description="the VLM's Molmo-style point tags (a Molmo v1/v2 served by vLLM through the openai VLM)",
        factory=_vlm_pointer_factory("molmo"),
        on_device=False,
    )
)
register(
    ModelSpec(
        name="sam3",
        kind="pointer",
        description="SAM 3 (transformers Sam3Model): the phrase in, every instance's mask, box and score out "
        "in one call (a one-model grounder; gated on the Hub: ask for access first)",
        factory=_sam3_factory,
        hub_id="facebook/sam3",
        needs_gpu=True,
    )
)
register(
    ModelSpec(
        name="sam3-tiny",
        kind="pointer",
        description="tiny random SAM 3 built locally (tests of the SAM 3 code path; its instances are noise)",
        factory=_tiny_sam3_factory,
    )
)
# Open-vocabulary detectors (models/detectors.py): a box per instance, boxes prompt the segmenter.
for _name, _hub, _what in (
    ("owlvit-b32", "google/owlvit-base-patch32", "OWL-ViT B/32 (153M; ~1 s a photo on 2 CPU cores)"),
    ("owlv2-b16", "google/owlv2-base-patch16-ensemble", "OWLv2 B/16 (155M; 960 px, ~8 s on 2 CPU cores)"),
    (
        "grounding-dino-tiny",
        "IDEA-Research/grounding-dino-tiny",
        "Grounding DINO tiny (172M; ~11 s on 2 cores)",
    ),
    (
        "mm-grounding-dino-tiny",
        "openmmlab-community/mm_grounding_dino_tiny_o365v1_goldg_v3det",
        "MM-Grounding-DINO tiny (173M; as Grounding DINO's cost, better LVIS accuracy)",
    ),
):
    register(
        ModelSpec(
            name=_name,
            kind="pointer",
            description=f"{_what}: open-vocabulary detector, one box per instance",
            factory=_detector_factory(_hub, _name),
            hub_id=_hub,
        )
    )
for _kind in TINY_DETECTORS:
    register(
        ModelSpec(
            name=f"{_kind}-random-tiny",
            kind="pointer",
            description=f"tiny random {_kind} built locally (tests of the detector code path; noise)",
            factory=_tiny_detector_factory(_kind, f"{_kind}-random-tiny"),
        )
    )
register(
    ModelSpec(
        name="blobs",
        kind="pointer",
        description="offline demo pointer, no learning: regions that differ from the background colour",
        factory=_blob_factory,
        on_device=False,
    )
)

# ---------------------------------------------------------------- segmenters (kind "segmenter")
# SAM weights: checkpoint= (a path, or "random" for tests and perf), else $WHICHONE_SAM_CHECKPOINT, else
# <cache>/sam/<official file name>.


def _sam_factory(variant: str):
    def factory(**kwargs: Any) -> Segmenter:
        kwargs.setdefault("checkpoint", model_config().sam_checkpoint)  # None: <cache>/sam/<official file>
        return SamSegmenter(variant, **kwargs)

    return factory


def _sam2_factory(**kwargs: Any) -> Segmenter:

    return Sam2Segmenter(kwargs.pop("checkpoint", None) or SAM2_HIERA_TINY, **kwargs)


def _tiny_sam2_factory(*, target_dir: Path | None = None, **kwargs: Any) -> Segmenter:

    kwargs.setdefault("name", "sam2-random-tiny")
    return Sam2Segmenter(str(build_tiny(TINY_SAM2, target_dir)), **kwargs)


_SAM_FILES = {
    "vit_b": "sam_vit_b_01ec64.pth",
    "vit_l": "sam_vit_l_0b3195.pth",
    "vit_h": "sam_vit_h_4b8939.pth",
}
for _variant, _size in (("vit_b", "91M"), ("vit_l", "308M"), ("vit_h", "636M")):
    register(
        ModelSpec(
            name=f"sam-{_variant.replace('_', '-')}",
            kind="segmenter",
            description=f"Segment Anything {_variant.upper().replace('_', '-')} ({_size}, segment-anything)",
            factory=_sam_factory(_variant),
            hub_id=f"https://dl.fbaipublicfiles.com/segment_anything/{_SAM_FILES[_variant]}",
            needs_gpu=_variant != "vit_b",
        )
    )
register(
    ModelSpec(
        name="sam2-hiera-tiny",
        kind="segmenter",
        description="SAM 2.1 Hiera-tiny (31M, transformers): the light choice for CPUs (see `whichone perf`)",
        factory=_sam2_factory,
        hub_id="facebook/sam2.1-hiera-tiny",
    )
)
register(
    ModelSpec(
        name="sam2-random-tiny",
        kind="segmenter",
        description="tiny random SAM 2.1 built locally (tests of the SAM 2.1 code path; its masks are noise)",
        factory=_tiny_sam2_factory,
    )
)


# ---------------------------------------------------------------- stacks
# Stacks: named presets of VLM + pointer + segmenter, so a user picks one word instead of three models.
#
# `cpu` is the default without CUDA, `gpu` with it. `--model`, `--pointer` and `--segmenter` (and
# WHICHONE_MODEL / WHICHONE_POINTER / WHICHONE_SEGMENTER) still override one part of a stack.
#
# `cpu` is SmolVLM-256M + OWL-ViT B/32 + SAM 2.1 Hiera-tiny because OWL-ViT B/32 is the one detector fast
# enough for a first turn of a few seconds on a laptop CPU (the README's "Stacks" gives the measurements).
# Grounding DINO and MM-Grounding-DINO are the more accurate detectors and are registered for machines with
# time to spare.

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
