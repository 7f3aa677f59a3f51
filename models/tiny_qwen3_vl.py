"""A tiny local Qwen3-VL checkpoint of the real transformers classes (Qwen3VLForConditionalGeneration,
Qwen3VLProcessor), built here without any model hub, like models/tiny.py's Qwen2.5-VL: random weights, the
same locally trained byte-level BPE tokenizer and Qwen-style chat template. Tests run the qwen3-vl adapters'
real code path on it (generation, and its grounding read on 0-1000)."""

from __future__ import annotations

from pathlib import Path

from models.tiny import QWEN_STYLE_CHAT_TEMPLATE, default_cache_dir, qwen_tokenizer
from models.tiny_common import (
    build_atomically,
    chat_token_ids,
    eos_generation_config,
    save_checkpoint,
    seeded_model,
)

TINY_RECIPE_VERSION = 1
_SEED = 4321


def tiny_qwen3_vl_dir() -> Path:
    return default_cache_dir() / "tiny" / "qwen3_vl"


def _build_into(out: Path) -> dict:
    from transformers import (
        Qwen2VLImageProcessor,
        Qwen3VLConfig,
        Qwen3VLForConditionalGeneration,
        Qwen3VLProcessor,
    )
    from transformers.models.qwen3_vl.video_processing_qwen3_vl import Qwen3VLVideoProcessor

    tokenizer, ids = qwen_tokenizer()
    token_ids = chat_token_ids(ids)
    config = Qwen3VLConfig(
        text_config={
            "vocab_size": len(tokenizer),
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "max_position_embeddings": 2048,
            "rope_parameters": {
                "rope_type": "default",
                "rope_theta": 5_000_000.0,
                "mrope_section": [2, 3, 3],
                "mrope_interleaved": True,
            },
            **token_ids,
        },
        vision_config={
            "depth": 2,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_heads": 2,
            "out_hidden_size": 64,
            "patch_size": 16,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "num_position_embeddings": 64,
            "deepstack_visual_indexes": [0],
        },
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        **token_ids,
    )
    model = seeded_model(Qwen3VLForConditionalGeneration, config, _SEED)  # deterministic random weights
    model.generation_config = eos_generation_config(ids)
    # Qwen3-VL: patch 16 x merge 2 (a 32-pixel grid); a small max_pixels keeps the image at <= 16 tokens.
    image_processor = Qwen2VLImageProcessor(
        min_pixels=32 * 32 * 4, max_pixels=32 * 32 * 16, patch_size=16, merge_size=2, temporal_patch_size=2
    )
    processor = Qwen3VLProcessor(
        image_processor=image_processor,
        tokenizer=tokenizer,
        video_processor=Qwen3VLVideoProcessor(),
        chat_template=QWEN_STYLE_CHAT_TEMPLATE,
    )
    return save_checkpoint(out, model, processor, vocab_size=len(tokenizer))


def build_tiny_qwen3_vl(target_dir: Path | None = None, *, overwrite: bool = False) -> Path:
    """Build (or reuse) the tiny Qwen3-VL checkpoint and return its directory (see models.tiny)."""
    target = Path(target_dir) if target_dir is not None else tiny_qwen3_vl_dir()
    return build_atomically(
        target, _build_into, recipe_version=TINY_RECIPE_VERSION, seed=_SEED, overwrite=overwrite
    )
