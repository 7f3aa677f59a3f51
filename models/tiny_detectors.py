"""Tiny local open-vocabulary detectors of the real transformers classes, random weights, no model hub.

OWL-ViT (`OwlViTForObjectDetection`, CLIP tokenizer), OWLv2 (`Owlv2ForObjectDetection`) and Grounding DINO /
MM-Grounding-DINO (`GroundingDinoForObjectDetection`, `MMGroundingDinoForObjectDetection`, BERT tokenizer)
in miniature, each saved with its real processor so `AutoProcessor` / `AutoModelForZeroShotObjectDetection`
load them exactly as they load the published checkpoints. Tests and the `cpu-tiny` stack run the detector
pointer's whole code path (models/detectors.py) on them; their boxes are noise.

The tokenizers are built here too: a byte-level CLIP vocabulary without merges (every character a token;
enough for a tokenizer that must only run) and a BERT word-piece vocabulary of letters and a few words.
`clip_tokenizer()` and `bert_tokenizer()` are also what `whichone perf` feeds the full-size random
detectors, whose compute does not depend on the vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from models.tiny import TinyRecipe, save_checkpoint

TinyDetector = Literal["owlvit", "owlv2", "grounding-dino", "mm-grounding-dino"]
TINY_DETECTORS: tuple[TinyDetector, ...] = ("owlvit", "owlv2", "grounding-dino", "mm-grounding-dino")
_IMAGE = 64  # OWL: 4 x 4 patches of 16; Grounding DINO: its image processor's shortest edge is twice this
_WORDS = ("a", "photo", "of", "the", "red", "blue", "green", "cup", "mug", "dog", "person", "car", "left")


def clip_tokenizer() -> Any:
    """A CLIPTokenizer over the 256 byte characters (each also as a word end) and CLIP's two markers."""
    from transformers import CLIPTokenizer
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    chars = list(bytes_to_unicode().values())
    vocab = {token: i for i, token in enumerate([*chars, *(c + "</w>" for c in chars)])}
    vocab["<|startoftext|>"] = len(vocab)
    vocab["<|endoftext|>"] = len(vocab)
    return CLIPTokenizer(vocab=vocab, merges=[])


def bert_tokenizer() -> Any:
    """A lower-casing BertTokenizer: its five markers, ".", a few words, letters and their ## pieces."""
    from transformers import BertTokenizer

    letters = "abcdefghijklmnopqrstuvwxyz"
    tokens = [
        "[PAD]",
        "[UNK]",
        "[CLS]",
        "[SEP]",
        "[MASK]",
        ".",
        *_WORDS,
        *letters,
        *(f"##{c}" for c in letters),
    ]
    return BertTokenizer(vocab={t: i for i, t in enumerate(dict.fromkeys(tokens))})


def _owl(kind: TinyDetector) -> tuple[Any, Any]:
    import transformers as tf

    tokenizer = clip_tokenizer()
    vocab = tokenizer.get_vocab()
    # 16 text positions, as the published OWL models have.
    text = {
        "vocab_size": len(vocab), "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 2, "max_position_embeddings": 16, "bos_token_id": vocab["<|startoftext|>"],
        "eos_token_id": vocab["<|endoftext|>"], "pad_token_id": vocab["<|endoftext|>"],
    }  # fmt: skip
    vision = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2,
              "image_size": _IMAGE, "patch_size": 16}  # fmt: skip
    size = {"height": _IMAGE, "width": _IMAGE}
    config: Any
    model: Any
    processor: Any
    if kind == "owlvit":
        config = tf.OwlViTConfig(text_config=text, vision_config=vision, projection_dim=32)
        model = tf.OwlViTForObjectDetection(config)
        processor = tf.OwlViTProcessor(
            image_processor=tf.OwlViTImageProcessor(size=size, crop_size=size), tokenizer=tokenizer
        )
    else:
        config = tf.Owlv2Config(text_config=text, vision_config=vision, projection_dim=32)
        model = tf.Owlv2ForObjectDetection(config)
        processor = tf.Owlv2Processor(image_processor=tf.Owlv2ImageProcessor(size=size), tokenizer=tokenizer)
    return model, processor


def _grounding_dino(kind: TinyDetector) -> tuple[Any, Any]:
    import transformers as tf

    tokenizer = bert_tokenizer()
    config_class: Any
    model_class: Any
    config_class, model_class = (
        (tf.GroundingDinoConfig, tf.GroundingDinoForObjectDetection)
        if kind == "grounding-dino"
        else (tf.MMGroundingDinoConfig, tf.MMGroundingDinoForObjectDetection)
    )
    # Grounding DINO needs decoder_layers >= 2 and images of at least 128 px (../shared/NOTES.md).
    config = config_class(
        backbone_config={"model_type": "swin", "embed_dim": 16, "depths": [1, 1, 1, 1],
                         "num_heads": [1, 1, 1, 1], "out_indices": [2, 3, 4], "window_size": 4,
                         "image_size": 2 * _IMAGE},
        text_config={"model_type": "bert", "vocab_size": len(tokenizer.get_vocab()), "hidden_size": 32,
                     "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 64},
        d_model=32, encoder_layers=1, decoder_layers=2, encoder_ffn_dim=64, decoder_ffn_dim=64,
        encoder_attention_heads=2, decoder_attention_heads=2, num_queries=20, num_feature_levels=4,
        encoder_n_points=2, decoder_n_points=2, max_text_len=32,
    )  # fmt: skip
    model = model_class(config)
    image_processor = tf.GroundingDinoImageProcessor(size={"shortest_edge": 2 * _IMAGE, "longest_edge": 160})
    return model, tf.GroundingDinoProcessor(image_processor=image_processor, tokenizer=tokenizer)


def _builder(kind: TinyDetector) -> Callable[[Path, int], dict[str, Any]]:
    def build_into(out: Path, seed: int) -> dict[str, Any]:
        import torch

        torch.manual_seed(seed)  # the model is built inside _owl / _grounding_dino
        model, processor = _owl(kind) if kind.startswith("owl") else _grounding_dino(kind)
        return save_checkpoint(out, model.eval(), processor, kind=kind)

    return build_into


# Seed 4321, but 1 for OWLv2: 4321 puts every OWLv2 box past the photo's edge.
TINY_DETECTOR_RECIPES: dict[TinyDetector, TinyRecipe] = {
    kind: TinyRecipe(
        kind.replace("-", "_"), seed=1 if kind == "owlv2" else 4321, build_into=_builder(kind), version=2
    )
    for kind in TINY_DETECTORS
}
