"""A tiny local SAM 3 of the real transformers classes (Sam3Model, Sam3Processor with a CLIP-style BPE
tokenizer trained here), random weights, built without any model hub. Tests run the SAM 3 grounder's real
code path on it: processor, forward, transformers' instance post-processing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from models.tiny import (
    TinyRecipe,
    save_checkpoint,
    seeded_model,
    train_byte_level_bpe,
    word_walk,
)

_SPECIAL = ("<|startoftext|>", "<|endoftext|>")
_HIDDEN = 32
_IMAGE = 112  # 8 x 8 patches of 14


def _build_into(out: Path, seed: int) -> dict[str, Any]:
    from transformers import PreTrainedTokenizerFast, Sam3Config, Sam3Model, Sam3Processor
    from transformers.models.sam3.image_processing_sam3 import Sam3ImageProcessor

    words = ["a", "the", "red", "blue", "green", "cup", "mug", "person", "man", "woman", "dog", "cat"]
    words += ["car", "square", "circle", "on", "left", "right", "of"]
    raw = train_byte_level_bpe(
        word_walk(words, 200, line_step=3, word_step=5, width=4), _SPECIAL, vocab_size=300
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw, bos_token=_SPECIAL[0], eos_token=_SPECIAL[1], pad_token=_SPECIAL[1]
    )
    ids = {"bos_token_id": raw.token_to_id(_SPECIAL[0]), "eos_token_id": raw.token_to_id(_SPECIAL[1])}
    small = {"hidden_size": _HIDDEN, "num_attention_heads": 2, "intermediate_size": 64}
    config = Sam3Config(
        vision_config={
            "backbone_config": {
                "model_type": "sam3_vit_model", **small, "num_hidden_layers": 2, "image_size": _IMAGE,
                "patch_size": 14, "window_size": 4, "global_attn_indexes": [1], "pretrain_image_size": 56,
            },
            "fpn_hidden_size": _HIDDEN,
            "backbone_feature_sizes": [[32, 32], [16, 16], [8, 8]],
        },
        text_config={
            "model_type": "clip_text_model", **small, "vocab_size": raw.get_vocab_size(),
            "projection_dim": _HIDDEN, "num_hidden_layers": 2, "max_position_embeddings": 32,
            "pad_token_id": ids["eos_token_id"], **ids,
        },
        geometry_encoder_config={**small, "num_layers": 1},
        detr_encoder_config={**small, "num_layers": 1},
        detr_decoder_config={**small, "num_layers": 2, "num_queries": 20},
        mask_decoder_config={"hidden_size": _HIDDEN, "num_attention_heads": 2},
    )  # fmt: skip
    model = seeded_model(Sam3Model, config, seed)  # deterministic random weights
    processor = Sam3Processor(
        image_processor=Sam3ImageProcessor(
            size={"height": _IMAGE, "width": _IMAGE}, mask_size={"height": 32, "width": 32}
        ),
        tokenizer=tokenizer,
        target_size=_IMAGE,
    )
    return save_checkpoint(out, model, processor)


TINY_SAM3 = TinyRecipe("sam3", seed=77, build_into=_build_into)
