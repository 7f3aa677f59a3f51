"""A tiny Molmo2 of the real transformers classes, built here without any model hub.

`build_tiny_molmo2()` writes a Molmo2ForConditionalGeneration (random weights: 2 text layers of width 64,
a 2-layer ViT of width 32 on 14-pixel patches, the real pooling adapter), a byte-level BPE tokenizer trained
locally with Molmo2's image tokens (<im_patch>, <im_col>, <im_start>, <low_res_im_start>, <im_end>, ...),
the real Molmo2ImageProcessor / Molmo2VideoProcessor / Molmo2Processor, and a Qwen-style chat template of our
own, with `save_pretrained`. `AutoProcessor` / `AutoModelForImageTextToText.from_pretrained(dir)` then load
it exactly as they load allenai/Molmo2-4B, so tests run the Molmo2 pointer's real code path. Its output is
noise: tests feed the pointer's parser real-format strings separately.
"""

from __future__ import annotations

from pathlib import Path

from models.tiny import default_cache_dir
from models.tiny_common import (
    build_atomically,
    chat_token_ids,
    eos_generation_config,
    save_checkpoint,
    seeded_model,
    train_byte_level_bpe,
    word_walk,
)

TINY_MOLMO2_RECIPE_VERSION = 1
_SEED = 4321

# Text special tokens (Qwen3's, which Molmo2's tokenizer keeps) and the image tokens Molmo2Processor looks up.
TEXT_SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
IMAGE_TOKENS = (
    "<|image|>",
    "<|video|>",
    "<im_patch>",
    "<im_col>",
    "<im_start>",
    "<low_res_im_start>",
    "<frame_start>",
    "<im_end>",
    "<frame_end>",
    "<im_low>",
)

# Every image first (as Molmo does), then the text; "<|image|>" is what Molmo2Processor expands into the
# low-res and high-res patch tokens. Written here: no hub file is needed.
MOLMO_STYLE_CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}"
    "{{ message['content'] }}"
    "{% else %}"
    "{% for part in message['content'] %}{% if part['type'] == 'image' %}<|image|>{% endif %}{% endfor %}"
    "{% for part in message['content'] %}"
    "{% if part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}"
    "{% endif %}"
    "<|im_end|>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

_CORPUS = (
    "point to every the a cup mug bottle person dog cat chair car left right top bottom red blue green "
    "points coords alt label image what which is are of in on"
)
_CORPUS_WORDS = _CORPUS.split()


def tiny_molmo2_dir() -> Path:
    return default_cache_dir() / "tiny" / "molmo2"


def _corpus() -> list[str]:
    lines = word_walk(_CORPUS_WORDS, 300, line_step=5, word_step=11, width=7)
    lines.append('<points coords="1 1 461 527 2 481 521">cups</points> 0 1 2 3 4 5 6 7 8 9 = " ; : ,')
    return lines


def _build_into(out: Path) -> dict:
    from transformers import (
        Molmo2Config,
        Molmo2ForConditionalGeneration,
        Molmo2ImageProcessor,
        Molmo2Processor,
        Molmo2VideoProcessor,
        PreTrainedTokenizerFast,
    )

    raw = train_byte_level_bpe(_corpus(), TEXT_SPECIAL_TOKENS + IMAGE_TOKENS, vocab_size=512)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        bos_token="<|endoftext|>",
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        unk_token=None,
        extra_special_tokens={"image_token": "<|image|>", "video_token": "<|video|>"},
    )
    tokenizer.padding_side = "left"
    ids = {tok: raw.token_to_id(tok) for tok in TEXT_SPECIAL_TOKENS + IMAGE_TOKENS}
    token_ids = chat_token_ids(ids)
    config = Molmo2Config(
        text_config={
            "vocab_size": raw.get_vocab_size(),
            "additional_vocab_size": 0,  # the image tokens are inside our small vocabulary
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "max_position_embeddings": 4096,
            "rope_parameters": {"rope_type": "default", "rope_theta": 1_000_000.0},
            **token_ids,
        },
        # 56-pixel crops of 14-pixel patches: 4 x 4 patches per crop, pooled 2 x 2 into 4 tokens.
        vision_config={
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "image_size": [56, 56],
            "patch_size": 14,
        },
        adapter_config={
            "vision_feature_layer": [-1, -2],
            "hidden_size": 32,
            "num_attention_heads": 2,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "intermediate_size": 64,
            "text_hidden_size": 64,
        },
        image_start_token_id=ids["<im_start>"],
        low_res_image_start_token_id=ids["<low_res_im_start>"],
        image_end_token_id=ids["<im_end>"],
        image_patch_id=ids["<im_patch>"],
        frame_start_token_id=ids["<frame_start>"],
        frame_end_token_id=ids["<frame_end>"],
        **token_ids,
    )
    model = seeded_model(Molmo2ForConditionalGeneration, config, _SEED)  # deterministic random weights
    model.generation_config = eos_generation_config(ids)
    # At most 2 overlapping crops (margins of 1 patch) plus the low-res view keep the prompt short.
    image_processor = Molmo2ImageProcessor(
        size={"height": 56, "width": 56},
        max_crops=2,
        overlap_margins=[1, 1],
        patch_size=14,
        pooling_size=[2, 2],
    )
    video_processor = Molmo2VideoProcessor(
        size={"height": 56, "width": 56}, patch_size=14, pooling_size=[2, 2]
    )
    processor = Molmo2Processor(
        image_processor=image_processor,
        video_processor=video_processor,
        tokenizer=tokenizer,
        chat_template=MOLMO_STYLE_CHAT_TEMPLATE,
    )
    return save_checkpoint(out, model, processor, vocab_size=raw.get_vocab_size())


def build_tiny_molmo2(target_dir: Path | None = None, *, overwrite: bool = False) -> Path:
    """Build (or reuse) the tiny Molmo2 checkpoint and return its directory.

    Builds into a temporary sibling and renames it into place, so concurrent builders never see half a one.
    """
    target = Path(target_dir) if target_dir is not None else tiny_molmo2_dir()
    return build_atomically(
        target, _build_into, recipe_version=TINY_MOLMO2_RECIPE_VERSION, seed=_SEED, overwrite=overwrite
    )
