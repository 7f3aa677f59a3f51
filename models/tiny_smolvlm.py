"""A tiny SmolVLM (Idefics3) of the real transformers classes, built here without any model hub.

HuggingFaceTB/SmolVLM-256M-Instruct, the default model on machines without a GPU, is an Idefics3: a SigLIP
vision encoder, a pixel-shuffle connector and a Llama decoder, with Idefics3Processor splitting each image
into tiles (`<fake_token_around_image><row_i_col_j><image>...`) plus a global view (`<global-img>`).
Its recipe `TINY_SMOLVLM` writes an Idefics3ForConditionalGeneration of the same shape in miniature (random
weights: 2 Llama layers of width 64, a 2-layer SigLIP of width 32 on 8-pixel patches of 64-pixel tiles,
scale factor 4 as SmolVLM-256M has, so 4 image tokens per tile), a byte-level BPE tokenizer trained locally
with the special tokens the processor looks up, the real Idefics3ImageProcessor / Idefics3Processor, and
SmolVLM's chat format ("<|im_start|>User:<image>...<end_of_utterance>\\nAssistant:"), with
`save_pretrained`. `AutoProcessor` / `AutoModelForImageTextToText.from_pretrained(dir)` then load it exactly
as they load the real weights, so tests run the `smolvlm-256m` code path through models/hf_vlm.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from models.smolvlm_architecture import SMOLVLM_256M_TEXT
from models.tiny import (
    TinyRecipe,
    chat_token_ids,
    eos_generation_config,
    save_checkpoint,
    seeded_model,
    train_byte_level_bpe,
    word_walk,
)

# SmolVLM's text special tokens: bos <|im_start|>, eos <end_of_utterance>, pad <|im_end|>, unk <|endoftext|>.
TEXT_SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<end_of_utterance>")
# What Idefics3Processor looks up: the image slot, the tile separator, the global view, the 6 x 6 grid tags.
IMAGE_TOKENS = (
    "<fake_token_around_image>",
    "<image>",
    "<global-img>",
    *(f"<row_{i}_col_{j}>" for i in range(1, 7) for j in range(1, 7)),
)
SMOLVLM_SPECIAL_TOKENS = TEXT_SPECIAL_TOKENS + IMAGE_TOKENS

# SmolVLM-Instruct's own template: one <|im_start|>, then "Role:" (no space before an image, one before
# text), images as <image> (the processor expands each into its tiles), <end_of_utterance> closing each
# turn, and "Assistant:" as the generation prompt. Written here: no hub file is needed.
SMOLVLM_CHAT_TEMPLATE = (
    "<|im_start|>{% for message in messages %}"
    "{{ message['role'] | capitalize }}"
    "{% if message['content'][0]['type'] == 'image' %}{{ ':' }}{% else %}{{ ': ' }}{% endif %}"
    "{% for line in message['content'] %}"
    "{% if line['type'] == 'text' %}{{ line['text'] }}"
    "{% elif line['type'] == 'image' %}{{ '<image>' }}"
    "{% endif %}"
    "{% endfor %}"
    "<end_of_utterance>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}"
)

# The miniature's geometry. Tiles of 64 px on 8-px patches: 8 x 8 patches, pixel-shuffled by 4 into 2 x 2 =
# 4 image tokens per tile (SmolVLM-256M: 512-px tiles, 16-px patches, scale 4 -> 64 tokens). The processor
# first scales an image's longer side to 2 tiles (SmolVLM-256M: 2048 = 4 tiles), so an image is at most
# 2 x 2 tiles plus the global view: <= 20 image tokens, which keeps generation on a CPU fast.
TILE = 64
PATCH = 8
SCALE_FACTOR = 4
IMAGE_SEQ_LEN = (TILE // PATCH) ** 2 // SCALE_FACTOR**2

_CORPUS = (
    "user assistant system what which where is are the a this that it of on in to and or cup mug bottle "
    "person dog cat chair car table left right top bottom middle red blue green white black colour color "
    "one two three image picture answer question please tell me which one do you mean"
)
_CORPUS_WORDS = _CORPUS.split()


def _corpus() -> list[str]:
    lines = word_walk(_CORPUS_WORDS, 300, line_step=5, word_step=7, width=8)
    lines += ["User: What is it?\nAssistant: A cup.", "0 1 2 3 4 5 6 7 8 9 , . ? : ; ' \" - ( )"]
    return lines


def smolvlm_tokenizer(extra_corpus: Sequence[str] = (), vocab_size: int = 512) -> tuple[Any, Any]:
    """(the `tokenizers` object, a PreTrainedTokenizerFast) trained locally, with SmolVLM's special tokens.

    Every token of SMOLVLM_SPECIAL_TOKENS is special: skipped in replies, plain text in a user's input.
    `extra_corpus` and a larger `vocab_size` train it on more text (models/full_size.py: whichone's prompts,
    so a prompt is about as many tokens as a real tokenizer makes of it)."""
    from transformers import PreTrainedTokenizerFast

    raw = train_byte_level_bpe([*_corpus(), *extra_corpus], SMOLVLM_SPECIAL_TOKENS, vocab_size=vocab_size)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        bos_token="<|im_start|>",
        eos_token="<end_of_utterance>",
        pad_token="<|im_end|>",
        unk_token="<|endoftext|>",
    )
    tokenizer.padding_side = "left"  # generation pads on the left
    return raw, tokenizer


def smolvlm_processor(tokenizer: Any, *, longest_edge: int, tile: int, image_seq_len: int) -> Any:
    """SmolVLM's preprocessing: 0.5 mean / std, the photo resized to `longest_edge` and cut into `tile`
    px tiles plus a global view, `image_seq_len` tokens a tile; SmolVLM's chat template."""
    from transformers import Idefics3ImageProcessor, Idefics3Processor

    image_processor = Idefics3ImageProcessor(
        size={"longest_edge": longest_edge},
        max_image_size={"longest_edge": tile},
        image_mean=[0.5, 0.5, 0.5],
        image_std=[0.5, 0.5, 0.5],
    )
    return Idefics3Processor(
        image_processor=image_processor,
        tokenizer=tokenizer,
        image_seq_len=image_seq_len,
        chat_template=SMOLVLM_CHAT_TEMPLATE,
    )


def _build_into(out: Path, seed: int) -> dict[str, Any]:
    from transformers import (
        Idefics3Config,
        Idefics3ForConditionalGeneration,
    )

    raw, tokenizer = smolvlm_tokenizer()
    ids = {tok: raw.token_to_id(tok) for tok in SMOLVLM_SPECIAL_TOKENS}
    token_ids = chat_token_ids(ids, bos="<|im_start|>", eos="<end_of_utterance>", pad="<|im_end|>")
    config = Idefics3Config(
        text_config={
            "model_type": "llama",
            "vocab_size": raw.get_vocab_size(),
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "max_position_embeddings": SMOLVLM_256M_TEXT["max_position_embeddings"],
            "rms_norm_eps": 1e-5,
            "rope_parameters": {"rope_type": "default", "rope_theta": 100_000.0},
            **token_ids,
        },
        vision_config={
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "image_size": TILE,
            "patch_size": PATCH,
        },
        scale_factor=SCALE_FACTOR,
        image_token_id=ids["<image>"],
        **token_ids,
    )
    model = seeded_model(Idefics3ForConditionalGeneration, config, seed)  # deterministic random weights
    model.generation_config = eos_generation_config(
        ids, eos=("<end_of_utterance>", "<|im_end|>"), pad="<|im_end|>", bos="<|im_start|>"
    )
    processor = smolvlm_processor(tokenizer, longest_edge=2 * TILE, tile=TILE, image_seq_len=IMAGE_SEQ_LEN)
    return save_checkpoint(out, model, processor, vocab_size=raw.get_vocab_size())


# Version 2: the real SmolVLM-256M's context (8192 tokens); servers that check a prompt's length read it.
TINY_SMOLVLM = TinyRecipe("smolvlm", seed=2468, build_into=_build_into, version=2)
