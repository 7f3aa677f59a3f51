"""Tiny local checkpoints of real architectures, built here without any model hub.

`build_tiny_qwen2_5_vl()` writes a Qwen2.5-VL of the real transformers classes (random weights, a byte-level
BPE tokenizer trained locally, a Qwen-style chat template) with `save_pretrained`, so that
`AutoProcessor` / `AutoModelForImageTextToText.from_pretrained(dir)` load it exactly as they load real
weights. Tests and offline demos run the adapters' real code path on it in a fraction of a second.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from models.config import model_config
from models.tiny_common import (
    build_atomically,
    chat_token_ids,
    eos_generation_config,
    save_checkpoint,
    seeded_model,
    train_byte_level_bpe,
    word_walk,
)

# Bump when the recipe changes, so a cached checkpoint from an older recipe is rebuilt.
TINY_RECIPE_VERSION = 1
_SEED = 1234

# Qwen's special tokens, in the order Qwen2.5 gives them ids (after the ordinary vocabulary).
QWEN_SPECIAL_TOKENS = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
)

# Renders like Qwen2.5-VL's own template: a default system turn, each image as
# <|vision_start|><|image_pad|><|vision_end|> (the processor expands <|image_pad|> to one token per merged
# patch), then the text. Written here rather than copied so no hub file is needed.
QWEN_STYLE_CHAT_TEMPLATE = (
    "{% if messages[0]['role'] != 'system' %}"
    "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
    "{% endif %}"
    "{% for message in messages %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}"
    "{{ message['content'] }}"
    "{% else %}"
    "{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif part['type'] == 'video' %}<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}"
    "{% endif %}"
    "{% endfor %}"
    "{% endif %}"
    "<|im_end|>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

# Words of the domain (objects, colours, places) so the trained merges look like real English sub-words.
_WORD_TEXT = (
    "the a an this that it is are what which where who how many colour color of on in at to and or "
    "left right top bottom middle centre center front back behind next near far side corner "
    "cup mug bottle glass plate bowl chair table sofa bed lamp door window car bus bike dog cat bird "
    "person man woman child shirt hat bag phone book laptop screen sign tree flower ball box "
    "red blue green yellow white black brown grey gray orange pink purple "
    "small large big little tall short two three four one first second last other "
    "answer question image photo picture region show see look please tell me you can I do not know "
    "ambiguous clear unclear referent object objects point points box mask"
)


def default_cache_dir() -> Path:
    """Root of whichone's local caches: the configured one (WHICHONE_CACHE_DIR), else ~/.cache/whichone."""
    return model_config().cache_dir


def tiny_qwen2_5_vl_dir() -> Path:
    return default_cache_dir() / "tiny" / "qwen2_5_vl"


def _training_corpus() -> list[str]:
    """Deterministic English-like lines for BPE training (no files, no downloads)."""
    walk = word_walk(_WORD_TEXT.split(), 600, line_step=7, word_step=13, width=8)
    lines = [line.capitalize() + ("?" if i % 3 == 0 else ".") for i, line in enumerate(walk)]
    lines.append("0 1 2 3 4 5 6 7 8 9 10 100 [ ] { } ( ) , : ; \" ' - _ / bbox_2d point_2d label")
    return lines


def qwen_tokenizer() -> tuple[Any, dict[str, int]]:
    """A Qwen-style tokenizer trained here (byte-level BPE, Qwen's special tokens; generation pads on the
    left) and the special tokens' ids: shared by the tiny Qwen2.5-VL and Qwen3-VL checkpoints."""
    from transformers import PreTrainedTokenizerFast

    raw = train_byte_level_bpe(_training_corpus(), QWEN_SPECIAL_TOKENS, vocab_size=600)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        unk_token=None,
        extra_special_tokens={"image_token": "<|image_pad|>", "video_token": "<|video_pad|>"},
    )
    tokenizer.padding_side = "left"
    return tokenizer, {tok: raw.token_to_id(tok) for tok in QWEN_SPECIAL_TOKENS}


def _build_into(out: Path) -> dict:
    from transformers import (
        Qwen2_5_VLConfig,
        Qwen2_5_VLForConditionalGeneration,
        Qwen2_5_VLProcessor,
        Qwen2VLImageProcessor,
        Qwen2VLVideoProcessor,
    )

    tokenizer, ids = qwen_tokenizer()
    vocab_size = len(tokenizer)

    token_ids = chat_token_ids(ids)
    config = Qwen2_5_VLConfig(
        text_config={
            "vocab_size": vocab_size,
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "max_position_embeddings": 2048,
            # head_dim 16 -> 8 rotary frequencies split over (time, height, width) like Qwen's [16, 24, 24].
            "rope_parameters": {
                "rope_type": "default",
                "rope_theta": 1_000_000.0,
                "mrope_section": [2, 3, 3],
            },
            **token_ids,
        },
        vision_config={
            "depth": 2,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_heads": 2,
            "out_hidden_size": 64,
            "patch_size": 14,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "window_size": 112,
            "fullatt_block_indexes": [1],
        },
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        **token_ids,
    )

    model = seeded_model(Qwen2_5_VLForConditionalGeneration, config, _SEED)  # deterministic random weights
    model.generation_config = eos_generation_config(ids)
    # Real Qwen2.5-VL uses the same patch 14 x merge 2 grid; a small max_pixels keeps the image at <= 64
    # patches (<= 16 merged tokens) so generation on a CPU stays around a tenth of a second.
    image_processor = Qwen2VLImageProcessor(
        min_pixels=28 * 28 * 4, max_pixels=28 * 28 * 16, patch_size=14, merge_size=2, temporal_patch_size=2
    )
    processor = Qwen2_5_VLProcessor(
        image_processor=image_processor,
        tokenizer=tokenizer,
        video_processor=Qwen2VLVideoProcessor(),
        chat_template=QWEN_STYLE_CHAT_TEMPLATE,
    )
    return save_checkpoint(out, model, processor, vocab_size=vocab_size)


def build_tiny_qwen2_5_vl(target_dir: Path | None = None, *, overwrite: bool = False) -> Path:
    """Build (or reuse) the tiny Qwen2.5-VL checkpoint and return its directory.

    Reuses `target_dir` when it holds a complete checkpoint of the current recipe. Builds into a temporary
    sibling directory and renames it into place, so concurrent builders never see a half-written one.
    """
    target = Path(target_dir) if target_dir is not None else tiny_qwen2_5_vl_dir()
    return build_atomically(
        target, _build_into, recipe_version=TINY_RECIPE_VERSION, seed=_SEED, overwrite=overwrite
    )
