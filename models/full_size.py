"""Published architectures built in memory with random weights: the same compute as the real models, no
download. `whichone perf --stack` and scripts/vlm_cpu_cost.py time what a user waits for with them.

SmolVLM-256M-Instruct (its config.json and preprocessor_config.json): Idefics3 with a SigLIP-B/16 at 512 px
(12 layers), SmolLM2-135M (30 layers, hidden 576), pixel shuffle 4 -> 64 tokens per 512 px tile. The
tokenizer is trained here (models/tiny_smolvlm.py's, on whichone's prompts as well, 8,192 tokens), so a
prompt comes to about as many tokens as a real English BPE makes of it (the recognition prompt: 258 text
tokens) and prefill costs what it would; the vocabulary's size changes the compute of nothing but the
output layer, which keeps the real model's 49,280 rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import prompts
from models.smolvlm_architecture import (
    SMOLVLM_256M_TEXT,
    SMOLVLM_256M_VISION,
    SMOLVLM_IMAGE_SEQ_LEN,
    SMOLVLM_SCALE_FACTOR,
    SMOLVLM_TILE,
)
from models.tiny_smolvlm import smolvlm_processor, smolvlm_tokenizer


def random_smolvlm_256m(longest_edge: int = SMOLVLM_TILE, seed: int = 0) -> tuple[Any, Any]:
    """(Idefics3ForConditionalGeneration, Idefics3Processor) of SmolVLM-256M's architecture, random weights.

    `longest_edge`: the photo's longest edge before tiling (512: one tile, as the catalog reads a photo on a
    CPU). The model never stops early: its generation config has no end-of-sequence token, so a reply is
    exactly max_new_tokens long."""
    import torch
    from transformers import Idefics3Config, Idefics3ForConditionalGeneration

    raw, tokenizer = smolvlm_tokenizer(_prompt_lines(), vocab_size=8192)
    config = Idefics3Config(
        text_config=SMOLVLM_256M_TEXT,
        vision_config=SMOLVLM_256M_VISION,
        scale_factor=SMOLVLM_SCALE_FACTOR,
        image_token_id=raw.token_to_id("<image>"),
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Idefics3ForConditionalGeneration(config).eval()
    model.generation_config.eos_token_id = None
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    processor = smolvlm_processor(
        tokenizer, longest_edge=longest_edge, tile=SMOLVLM_TILE, image_seq_len=SMOLVLM_IMAGE_SEQ_LEN
    )
    return model, processor


def _prompt_lines() -> list[str]:
    """Every line of whichone's prompt files (prompts/*.txt)."""
    folder = Path(prompts.__file__).parent
    return [line for path in sorted(folder.glob("*.txt")) for line in path.read_text().splitlines() if line]
