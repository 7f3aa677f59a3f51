"""The OWL detectors (OWL-ViT, OWLv2) run in two parts: the photo's part ahead, the phrase's part on Enter.

In `OwlViTForObjectDetection.forward` (and OWLv2's) the image encoder and the box head read only the
photo; the phrase meets them in the class head alone. So the photo's part (nearly all of the compute: a
ViT over 576 patches at 768 px against one 16-token text) is computed when the photo is uploaded, in the
background as the segmenter's embedding is, and a question runs the text encoder and the class head. The
two parts are transformers' own methods (`image_embedder`, `box_predictor`, `get_text_features`,
`class_predictor`) called as `forward` calls them, so the logits and boxes are the same
(tests/test_detectors.py compares them with one forward call).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch


@dataclass(frozen=True)
class OwlImage:
    """The photo's part: the patch features (1 x patches x hidden) and every patch's box (1 x patches x 4,
    centre-size, 0-1)."""

    features: torch.Tensor
    boxes: torch.Tensor


def encode_image(model: Any, pixel_values: torch.Tensor) -> OwlImage:
    """The image encoder and the box head, as forward runs them (call under inference_mode)."""
    feature_map = model.image_embedder(pixel_values=pixel_values)[0]
    batch, height, width, hidden = feature_map.shape
    features = feature_map.reshape(batch, height * width, hidden)
    return OwlImage(features, model.box_predictor(features, feature_map))


def owl_detect(model: Any, image: OwlImage, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> Any:
    """The detector's output for one photo's part and its text queries (one row of `input_ids` per query):
    the output class of OWL-ViT's forward with `logits` and `pred_boxes`, all that either family's
    post-processing reads."""
    import torch
    from transformers.models.owlvit.modeling_owlvit import OwlViTObjectDetectionOutput

    base = model.owlvit if hasattr(model, "owlvit") else model.owlv2
    text = base.get_text_features(input_ids=input_ids, attention_mask=attention_mask).pooler_output
    # OwlViTModel.forward hands the class head the L2-normalised projection (its text_embeds).
    text = text / torch.linalg.norm(text, ord=2, dim=-1, keepdim=True)
    queries = text.reshape(1, input_ids.shape[0], text.shape[-1])
    query_mask = input_ids.reshape(1, input_ids.shape[0], -1)[..., 0] > 0
    logits, _ = model.class_predictor(image.features, queries, query_mask)
    return OwlViTObjectDetectionOutput(logits=logits, pred_boxes=image.boxes)
