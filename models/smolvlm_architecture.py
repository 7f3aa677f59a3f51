"""SmolVLM-256M-Instruct's published architecture (its config.json and preprocessor_config.json): Idefics3
with a SigLIP-B/16 at 512 px (12 layers) and SmolLM2-135M (30 layers, hidden 576); pixel shuffle 4 gives
64 tokens per 512 px tile. The full-size random model (models/full_size.py) and the tiny one
(models/tiny_smolvlm.py) both read it from here.
"""

from __future__ import annotations

SMOLVLM_256M_TEXT = dict(
    model_type="llama", vocab_size=49280, hidden_size=576, intermediate_size=1536, num_hidden_layers=30,
    num_attention_heads=9, num_key_value_heads=3, max_position_embeddings=8192, rms_norm_eps=1e-5,
    tie_word_embeddings=True,
)  # fmt: skip
SMOLVLM_256M_VISION = dict(
    hidden_size=768, intermediate_size=3072, num_hidden_layers=12, num_attention_heads=12, image_size=512,
    patch_size=16,
)  # fmt: skip
SMOLVLM_SCALE_FACTOR, SMOLVLM_TILE, SMOLVLM_IMAGE_SEQ_LEN = 4, 512, 64
