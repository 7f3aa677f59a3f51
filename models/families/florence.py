"""The Florence-2 family: a label then `<loc_N>` x4 groups (x1 y1 x2 y2); bins of 1000, the bin's centre.
transformers' own Florence2PostProcessor reads it right on the corpus, so it does the reading."""

from __future__ import annotations

from models.families.spec import GroundingFamilySpec, Size
from models.parsing import clipped_grounding
from models.types import Grounding


def _read(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
    from transformers.models.florence2.processing_florence2 import Florence2PostProcessor

    # The text-to-boxes step of transformers' own post-processor (<OD>, phrase grounding): it reads text
    # only, so it needs none of the tokenizer the class is built with for decoding token ids.
    reader = Florence2PostProcessor.__new__(Florence2PostProcessor)
    reader.quantize_bins = (1000, 1000)
    instances = reader.parse_description_with_bboxes_from_text_and_spans(
        text, image_size=(int(size[0]), int(size[1]))
    )
    return [clipped_grounding(i["bbox"], str(i.get("cat_name", "")), size, "florence-2") for i in instances]


FAMILIES = (GroundingFamilySpec("florence-2", read=_read, id_pattern=r"florence-2|florence2"),)
