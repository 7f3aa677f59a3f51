"""A tiny local SAM 2.1 of the real transformers classes (Sam2Model, Sam2Processor), random weights, built
without any model hub: a 4-stage Hiera of widths 16-128 on 256 px inputs (feature maps 64², 32², 16²), a
32-wide prompt encoder and mask decoder. Tests and the `cpu-tiny` stack run models/sam2.py's code path on it
(embedding, point and box prompts, transformers' mask post-processing); its masks are noise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from models.tiny import TinyRecipe, save_checkpoint, seeded_model

_SIDE = 256


def _build_into(out: Path, seed: int) -> dict[str, Any]:
    from transformers import Sam2Config, Sam2ImageProcessor, Sam2Model, Sam2Processor

    side = _SIDE
    config = Sam2Config(
        vision_config={
            "backbone_config": {
                "model_type": "sam2_hiera_det_model", "hidden_size": 16, "num_attention_heads": 1,
                "image_size": [side, side], "blocks_per_stage": [1, 2, 1, 1],
                "embed_dim_per_stage": [16, 32, 64, 128], "num_attention_heads_per_stage": [1, 1, 1, 1],
                "window_size_per_stage": [8, 4, 4, 4],
                # A global block must not be a stage's first (pooling) block: Hiera divides its window.
                "global_attention_blocks": [2], "window_positional_embedding_background_size": [4, 4],
            },
            "backbone_channel_list": [128, 64, 32, 16],
            "backbone_feature_sizes": [[side // 4] * 2, [side // 8] * 2, [side // 16] * 2],
            "fpn_hidden_size": 32,
        },
        prompt_encoder_config={"hidden_size": 32, "image_size": side, "patch_size": 16},
        mask_decoder_config={"hidden_size": 32, "mlp_dim": 64, "num_attention_heads": 2,
                             "iou_head_hidden_dim": 32},
    )  # fmt: skip
    model = seeded_model(Sam2Model, config, seed)  # deterministic random weights
    processor = Sam2Processor(
        image_processor=Sam2ImageProcessor(
            size={"height": side, "width": side}, mask_size={"height": side // 4, "width": side // 4}
        )
    )
    return save_checkpoint(out, model, processor)


TINY_SAM2 = TinyRecipe("sam2", seed=1357, build_into=_build_into)
