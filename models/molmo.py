"""Molmo2 as a pointer, natively through transformers (Molmo2ForConditionalGeneration, no remote code).

Molmo2 answers "Point to every cup in the image." with `<points coords="1 1 461 527 2 481 521">cups</points>`
(image index, then point index, x, y on a 0-1000 scale of the original image; models/parsing.py reads it).
The model loads through models.hf_vlm.HFVisionLanguageModel (AutoProcessor + AutoModelForImageTextToText,
which maps "molmo2" to Molmo2ForConditionalGeneration; 4-bit NF4 on CUDA when bitsandbytes is there), so
device, dtype, offline and out-of-memory handling are the same as for the answering VLM.

Checkpoints (the ids transformers' own Molmo2 code names): allenai/Molmo2-4B, allenai/Molmo2-8B,
allenai/Molmo2-O-7B. Molmo v1 (allenai/Molmo-7B-D-0924) is not loadable here: transformers 5.x has no native
Molmo v1 class, and its hub remote code fails on transformers 5 (VLMEvalKit pins 4.46-4.53 for it). Its point
format is still parsed, for a Molmo v1 served elsewhere (vLLM) through models.vlm_pointer with output="molmo".
"""

from __future__ import annotations

from typing import Any

from models.base import GenerationSettings
from models.hf_vlm import HFVisionLanguageModel
from models.vlm_pointer import VLMPointer

MOLMO2_4B = "allenai/Molmo2-4B"
MOLMO2_8B = "allenai/Molmo2-8B"
MOLMO2_O_7B = "allenai/Molmo2-O-7B"


class Molmo2Pointer(VLMPointer):
    """Pointer protocol on a Molmo2 checkpoint (hub id or local directory)."""

    def __init__(
        self,
        model_id: str = MOLMO2_4B,
        *,
        device: str | None = None,
        quantise: str = "auto",
        dtype: Any = None,
        max_image_side: int = 1280,
        settings: GenerationSettings | None = None,
        name: str | None = None,
    ) -> None:

        vlm = HFVisionLanguageModel(
            model_id, device=device, quantise=quantise, dtype=dtype, max_image_side=max_image_side, name=name
        )
        super().__init__(vlm, output="molmo", settings=settings, name=name or f"molmo2:{vlm.name}")
