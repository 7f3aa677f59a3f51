"""The Molmo family, two generations of point tags:

- molmo (v1, e.g. allenai/Molmo-7B-D-0924): `<point x="61.5" y="40.6" alt="cup">cup</point>` and
  `<points x1="26.0" y1="67.5" x2="44.2" y2="40.5" alt="people">people</points>`; percent of width / height.
- molmo2 (allenai/Molmo2-4B / -8B / -O-7B): `<points coords="1 1 461 527 2 481 521">cups</points>`; 0-1000,
  the image index first. transformers' Molmo2Processor has no post-processing of its own for points.

models/parsing.py reads both tag shapes. Molmo2 runs natively in transformers (Molmo2ForConditionalGeneration
through models.hf_vlm, no remote code), and the VLM pointer asks it for points (prompts/point_molmo.txt).
Molmo v1 is not loadable here: transformers 5.x has no native Molmo v1 class, and its hub remote code fails
on transformers 5 (VLMEvalKit pins 4.46-4.53 for it); its point format is still read, for a Molmo v1 served
elsewhere (vLLM) through the openai adapter. A tiny Molmo2 of the real transformers classes lets tests run
the Molmo2 pointer's code path (its points are noise: tests feed the reader real-format strings separately).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from models.families.spec import GroundingFamilySpec, PointerFormat, Size
from models.parsing import parse_point_tags
from models.tiny import (
    TinyRecipe,
    chat_token_ids,
    eos_generation_config,
    save_checkpoint,
    seeded_model,
    train_byte_level_bpe,
    word_walk,
)
from models.types import Grounding


def parse_molmo(text: str, image_size: Size, default_label: str = "") -> list[Grounding]:
    """Molmo v1 (percent) and Molmo2 (coords, 0-1000) point tags -> point Groundings in image pixels, each
    with its generation as its source ("molmo", "molmo2")."""
    return parse_point_tags(text, image_size, default_label, sources=("molmo", "molmo2"))


def _reader(source: str, scale: str, other: str):
    """A reader of one Molmo generation's point tags (`source` "molmo": percent, "molmo2": 0-1000); points
    in the other generation's shape are skipped with a note."""

    def read(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
        hits = parse_molmo(text, size)
        skipped = sum(h.source != source for h in hits)
        if skipped:
            notes.append(f"{skipped} {other}-style point(s) skipped: this reply was read as {scale}")
        return [h for h in hits if h.source == source]

    return read


# ------------------------------------------------------------------------------------ the tiny Molmo2
# A Molmo2ForConditionalGeneration with random weights: 2 text layers of width 64, a 2-layer ViT of width 32
# on 14-pixel patches, the real pooling adapter; a byte-level BPE tokenizer trained here with Molmo2's image
# tokens; the real Molmo2ImageProcessor / Molmo2VideoProcessor / Molmo2Processor; a chat template of our own.

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


def _corpus() -> list[str]:
    lines = word_walk(_CORPUS_WORDS, 300, line_step=5, word_step=11, width=7)
    lines.append('<points coords="1 1 461 527 2 481 521">cups</points> 0 1 2 3 4 5 6 7 8 9 = " ; : ,')
    return lines


def _tokenizer() -> tuple[Any, Any]:
    """(the `tokenizers` object, a PreTrainedTokenizerFast) trained here with Molmo2's special tokens."""
    from transformers import PreTrainedTokenizerFast

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
    return raw, tokenizer


def _config(vocab_size: int, ids: dict[str, int]) -> Any:
    from transformers import Molmo2Config

    token_ids = chat_token_ids(ids)
    text = {
        "vocab_size": vocab_size,
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
    }
    small = {"num_attention_heads": 2, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 64}
    # 56-pixel crops of 14-pixel patches: 4 x 4 patches per crop, pooled 2 x 2 into 4 tokens.
    vision = {"hidden_size": 32, "num_hidden_layers": 2, **small, "image_size": [56, 56], "patch_size": 14}
    adapter = {"vision_feature_layer": [-1, -2], "hidden_size": 32, **small, "text_hidden_size": 64}
    return Molmo2Config(
        text_config=text,
        vision_config=vision,
        adapter_config=adapter,
        image_start_token_id=ids["<im_start>"],
        low_res_image_start_token_id=ids["<low_res_im_start>"],
        image_end_token_id=ids["<im_end>"],
        image_patch_id=ids["<im_patch>"],
        frame_start_token_id=ids["<frame_start>"],
        frame_end_token_id=ids["<frame_end>"],
        **token_ids,
    )


def _processor(tokenizer: Any) -> Any:
    from transformers import Molmo2ImageProcessor, Molmo2Processor, Molmo2VideoProcessor

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
    return Molmo2Processor(
        image_processor=image_processor,
        video_processor=video_processor,
        tokenizer=tokenizer,
        chat_template=MOLMO_STYLE_CHAT_TEMPLATE,
    )


def _build_molmo2(out: Path, seed: int) -> dict[str, Any]:
    from transformers import Molmo2ForConditionalGeneration

    raw, tokenizer = _tokenizer()
    ids = {tok: raw.token_to_id(tok) for tok in TEXT_SPECIAL_TOKENS + IMAGE_TOKENS}
    model = seeded_model(Molmo2ForConditionalGeneration, _config(raw.get_vocab_size(), ids), seed)
    model.generation_config = eos_generation_config(ids)
    return save_checkpoint(out, model, _processor(tokenizer), vocab_size=raw.get_vocab_size())


TINY_MOLMO2 = TinyRecipe("molmo2", seed=4321, build_into=_build_molmo2)

# ------------------------------------------------------------------------------------------ the records

POINT_TAGS = PointerFormat("molmo", prompt="point_molmo", shape="points")

# Molmo2's checkpoints (model_type "molmo2") name no family to the pointer, which then reads a reply both
# ways and keeps the reading that finds more (Molmo2 first when both find as many).
FAMILIES = (
    GroundingFamilySpec(
        "molmo2",
        read=_reader("molmo2", "Molmo2 (0-1000)", "Molmo v1"),
        id_pattern=r"molmo2",
        pointer=POINT_TAGS,
        tiny=(TINY_MOLMO2,),
    ),
    GroundingFamilySpec(
        "molmo",
        read=_reader("molmo", "Molmo v1 (percent)", "Molmo2"),
        id_pattern=r"molmo",
        pointer=POINT_TAGS,
    ),
)
