"""The Qwen family, three generations that write grounding alike but on different scales:

- qwen2.5-vl: JSON `bbox_2d` / `point_2d` (often in a ```json fence), plain text `x1,y1,x2,y2 label`, XML
  `<points x1= y1=>`; pixels of the processor-resized input (`smart_resize`: sides multiples of 28 within
  min/max pixels).
- qwen2-vl: JSON (`bbox_2d`, or `bboxes` lists under `object`), box tokens
  `<|object_ref_start|>cup<|object_ref_end|><|box_start|>(10,20),(30,40)<|box_end|>`; 0-1000.
- qwen3-vl: JSON `bbox_2d` / `point_2d` with extra keys (`name_en`, `img_idx`); 0-1000.

supervision's Qwen readers are not used: they keep only objects with a "label" key (Qwen3-VL's `name_en`
objects are dropped), do not clip, and lose every object after a broken one in the real Qwen3-VL reply. The
VLM pointer asks these models for JSON boxes (prompts/grounding_boxes.txt). Tiny checkpoints of Qwen2.5-VL
and Qwen3-VL (the real transformers classes, random weights, a byte-level BPE trained here and a Qwen-style
chat template) let tests run their code path.
"""

from __future__ import annotations

import ast
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from models.families.spec import Coords, GroundingFamilySpec, PointerFormat, Size
from models.parsing import (
    checked_size,
    clip_text,
    flat_values,
    limit_hits,
    number,
    parse_point_tags,
    valid_size,
)
from models.tiny import (
    TinyRecipe,
    chat_token_ids,
    eos_generation_config,
    save_checkpoint,
    seeded_model,
    train_byte_level_bpe,
    word_walk,
)
from models.types import Box, Grounding

log = logging.getLogger(__name__)

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"

# ------------------------------------------------------------------------------------------- JSON replies

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)(?:```|$)", re.DOTALL)
_BOX_KEYS = ("bbox_2d", "bbox", "box_2d", "box", "bboxes")
_POINT_KEYS = ("point_2d", "point", "points_2d")
_QWEN2_BOX = re.compile(
    r"(?:<\|object_ref_start\|>(.*?)<\|object_ref_end\|>)?\s*<\|box_start\|>\s*\(\s*("
    + _NUMBER
    + r")\s*,\s*("
    + _NUMBER
    + r")\s*\)\s*,\s*\(\s*("
    + _NUMBER
    + r")\s*,\s*("
    + _NUMBER
    + r")\s*\)\s*<\|box_end\|>",
    re.DOTALL,
)


def parse_qwen(
    text: str,
    image_size: Size,
    input_size: Size | None = None,
    *,
    coords: Coords = "pixels",
    default_label: str = "",
) -> list[Grounding]:
    """Qwen's JSON boxes / points (or Qwen2-VL box tokens) -> Groundings in original-image pixels.

    image_size: (width, height) of the original image. input_size: (width, height) of the frame the model's
    coordinates refer to with coords="pixels" (Qwen2.5-VL: the processor's resized input; None means the
    original image). coords="norm1000": 0-1000 of each side (Qwen2-VL, Qwen3-VL); input_size is then unused.
    """
    try:
        return list(limit_hits(_qwen_hits(clip_text(text), image_size, input_size, coords, default_label)))
    except Exception:  # noqa: BLE001
        log.exception("unexpected failure parsing Qwen grounding output; returning no boxes")
        return []


def _qwen_hits(
    text: str, image_size: Size, input_size: Size | None, coords: Coords, default_label: str
) -> Iterator[Grounding]:
    width, height = valid_size(image_size)
    if width <= 0:
        return
    if coords == "norm1000":
        frame = (1000.0, 1000.0)
    else:
        frame = valid_size(input_size) if input_size is not None else (width, height)
        if frame[0] <= 0:
            return
    sx, sy = width / frame[0], height / frame[1]

    token_boxes = list(_QWEN2_BOX.finditer(text))
    if token_boxes:  # Qwen2-VL's token form is always 0-1000
        for m in token_boxes:
            box = _frame_box([m.group(i) for i in range(2, 6)], (1000.0, 1000.0))
            if box is not None:
                label = " ".join((m.group(1) or "").split()) or default_label
                yield _scaled_box(box, width / 1000.0, height / 1000.0, label, "qwen2-tokens")
        return

    for item in _json_objects(text):
        label = _label(item) or default_label
        several = item.get("bboxes")
        if isinstance(several, list) and several and all(isinstance(b, (list, tuple)) for b in several):
            for raw in several:  # Qwen2-VL following a {"object", "bboxes": [[...], ...]} schema
                box = _frame_box(flat_values(raw), frame)
                if box is not None:
                    yield _scaled_box(box, sx, sy, label, "qwen-json")
            continue
        raw_box = next((item[k] for k in _BOX_KEYS if k in item), None)
        if raw_box is not None:
            box = _frame_box(flat_values(raw_box), frame)
            if box is not None:
                yield _scaled_box(box, sx, sy, label, "qwen-json")
            continue
        raw_point = next((item[k] for k in _POINT_KEYS if k in item), None)
        if raw_point is not None:
            values = [v for v in (number(v) for v in flat_values(raw_point)) if v is not None]
            if len(values) == 2 and len(flat_values(raw_point)) == 2:
                x, y = values
                if 0.0 <= x <= frame[0] and 0.0 <= y <= frame[1]:
                    yield Grounding(label=label, point=(x * sx, y * sy), source="qwen-json")


_LABEL_KEYS = ("label", "name", "name_en", "object", "names", "category")


def _label(item: dict[str, Any]) -> str:
    """The object's name: "label", "name", Qwen3-VL's "name_en" or {"names": {"en": ...}}, Qwen2-VL's
    "object" ("" when none)."""
    for key in _LABEL_KEYS:
        value = item.get(key)
        if isinstance(value, dict):
            value = value.get("en") or next((v for v in value.values() if isinstance(v, str)), "")
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())[:100]
    return ""


def _scaled_box(
    box: tuple[float, float, float, float], sx: float, sy: float, label: str, source: str
) -> Grounding:
    x0, y0, x1, y1 = box
    scaled = Box(x0 * sx, y0 * sy, x1 * sx, y1 * sy)
    return Grounding(label=label, box=scaled, point=scaled.centre, source=source)


def _frame_box(values: list[object], frame: Size) -> tuple[float, float, float, float] | None:
    """Four numbers -> an ordered box clipped to the frame (the Qwen maintainers' advice: a box that
    overshoots the frame is clipped, not dropped); None when nothing of it is inside."""
    numbers = [n for n in (number(v) for v in values) if n is not None]
    if len(values) != 4 or len(numbers) != 4:
        return None
    x0, y0, x1, y1 = numbers
    x0, x1 = min(x0, x1), max(x0, x1)
    y0, y1 = min(y0, y1), max(y0, y1)
    fw, fh = frame
    x0, x1 = max(0.0, x0), min(fw, x1)
    y0, y1 = max(0.0, y0), min(fh, y1)
    if x1 - x0 <= 0 or y1 - y0 <= 0:
        return None
    return x0, y0, x1, y1


def _json_objects(text: str) -> Iterator[dict[str, Any]]:
    """Every dict the text holds: a whole JSON document if it parses, else each complete {...} found."""
    bodies = [m.group(1) for m in _FENCE.finditer(text)] if "```" in text else []
    for body in bodies or [text]:
        whole = _loads(body.strip())
        if whole is not None:
            yield from _dicts(whole)
            continue
        yield from _recovered_objects(body)


def _dicts(value: object, depth: int = 0) -> Iterator[dict[str, Any]]:
    if depth > 8:  # grounding JSON is two levels deep; deeper nesting is not an answer
        return
    if isinstance(value, dict):
        nested = [v for v in value.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
        if nested and not any(k in value for k in _BOX_KEYS + _POINT_KEYS):
            for items in nested:  # {"objects": [{...}, ...]}
                yield from _dicts(items, depth + 1)
        else:
            yield value
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)):
                yield from _dicts(item, depth + 1)


MAX_RECOVERY_STARTS = 2_000  # "{" positions tried when the JSON is broken
MAX_OBJECT_CHARS = 20_000  # one grounding object is far shorter


def _recovered_objects(text: str) -> Iterator[dict[str, Any]]:
    """Every well-formed object with a box or point in broken JSON (truncated, an object opened twice):
    from each "{" the balanced span that parses, skipping past each one found, so an unclosed outer brace
    cannot hide the objects after it."""
    position, tries = 0, 0
    while tries < MAX_RECOVERY_STARTS:
        start = text.find("{", position)
        if start < 0:
            return
        tries += 1
        end = _balanced_end(text, start)
        value = _loads(text[start:end]) if end > 0 else None
        found = [d for d in _dicts(value)] if value is not None else []
        if any(k in d for d in found for k in _BOX_KEYS + _POINT_KEYS):
            yield from found
            position = end
        else:
            position = start + 1


def _balanced_end(text: str, start: int) -> int:
    """The index after the "}" that closes the "{" at `start` (honouring quoted strings); -1 if none
    within MAX_OBJECT_CHARS."""
    depth, quote, escaped = 0, "", False
    for i in range(start, min(len(text), start + MAX_OBJECT_CHARS)):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch == '"':
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _loads(fragment: str) -> object:
    """The JSON (or Python-literal) value of `fragment`, None when it is neither."""
    if not fragment or fragment[0] not in "[{":
        return None
    try:
        return json.loads(fragment)
    except (ValueError, RecursionError):
        pass
    try:  # Python-style dicts with single quotes, as small models sometimes write
        return ast.literal_eval(fragment)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None


# ------------------------------------------------------------------------------------------------ readers

# Qwen2.5-VL's image processor: 28-pixel patches-of-patches, and its default pixel bounds
# (preprocessor_config.json of Qwen/Qwen2.5-VL-*-Instruct: min_pixels 3136, max_pixels 12845056).
QWEN2_5_VL_FACTOR = 28
QWEN2_5_VL_MIN_PIXELS = 56 * 56
QWEN2_5_VL_MAX_PIXELS = 28 * 28 * 16384


def qwen2_5_vl_frame(
    image_size: Size, min_pixels: int | None = None, max_pixels: int | None = None
) -> tuple[int, int]:
    """(width, height) of the frame Qwen2.5-VL's processor resizes an image of `image_size` to: transformers'
    own smart_resize (the rule a vLLM or SGLang server runs too; give its min/max pixels if they differ)."""
    from transformers.models.qwen2_vl.image_processing_qwen2_vl import smart_resize

    width, height = int(image_size[0]), int(image_size[1])
    new_height, new_width = smart_resize(
        height,
        width,
        factor=QWEN2_5_VL_FACTOR,
        min_pixels=min_pixels or QWEN2_5_VL_MIN_PIXELS,
        max_pixels=max_pixels or QWEN2_5_VL_MAX_PIXELS,
    )
    return int(new_width), int(new_height)


def _qwen2_5_vl(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
    frame = checked_size(input_size) if input_size is not None else qwen2_5_vl_frame(size)
    hits = parse_qwen(text, size, frame, coords="pixels")
    if hits:
        return hits
    sx, sy = size[0] / frame[0], size[1] / frame[1]
    plain = [_clipped_box(m, frame, sx, sy, m.group(5), "qwen-text") for m in _PLAIN_BOX.finditer(text)]
    if any(plain):
        return [h for h in plain if h is not None]
    # Qwen's XML points, in the resized frame's pixels (point tags, whose numbers are otherwise percent).
    as_percent = parse_point_tags(text, (100.0, 100.0))
    return [
        Grounding(label=h.label, point=(h.point[0] * sx, h.point[1] * sy), source="qwen-xml")
        for h in as_percent
        if h.point is not None and 0 <= h.point[0] <= frame[0] and 0 <= h.point[1] <= frame[1]
    ]


def _norm1000(text: str, size: Size, input_size: Size | None, notes: list[str]) -> list[Grounding]:
    return parse_qwen(text, size, coords="norm1000")


_NUM = r"(-?\d+(?:\.\d+)?)"
# Qwen2.5-VL's plain-text box: "x1,y1,x2,y2 label" (one per line).
_PLAIN_BOX = re.compile(rf"(?m)^\s*{_NUM}\s*,\s*{_NUM}\s*,\s*{_NUM}\s*,\s*{_NUM}\s+([^\n]*?)\s*$")


def _clipped_box(
    match: re.Match[str], frame: Size, sx: float, sy: float, label: str, source: str
) -> Grounding | None:
    x0, y0, x1, y1 = (float(match.group(i)) for i in range(1, 5))
    x0, x1 = sorted((max(0.0, min(frame[0], x0)), max(0.0, min(frame[0], x1))))
    y0, y1 = sorted((max(0.0, min(frame[1], y0)), max(0.0, min(frame[1], y1))))
    if x1 <= x0 or y1 <= y0:
        return None
    box = Box(x0 * sx, y0 * sy, x1 * sx, y1 * sy)
    return Grounding(label=" ".join(label.split())[:100], box=box, point=box.centre, source=source)


# --------------------------------------------------------------------------------------- tiny checkpoints

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


def _text_config(vocab_size: int, token_ids: dict[str, Any], **shape: Any) -> dict[str, Any]:
    """The tiny decoder both generations share: 2 layers of width 64, 4 heads over 2 key-value heads."""
    return {
        "vocab_size": vocab_size,
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        **shape,
        "max_position_embeddings": 2048,
        **token_ids,
    }


def _vision_token_ids(ids: dict[str, int]) -> dict[str, Any]:
    return {
        "image_token_id": ids["<|image_pad|>"],
        "video_token_id": ids["<|video_pad|>"],
        "vision_start_token_id": ids["<|vision_start|>"],
        "vision_end_token_id": ids["<|vision_end|>"],
    }


def _qwen2_5_vl_config(vocab_size: int, ids: dict[str, int]) -> Any:
    from transformers import Qwen2_5_VLConfig

    token_ids = chat_token_ids(ids)
    # head_dim 16 -> 8 rotary frequencies split over (time, height, width) like Qwen's [16, 24, 24].
    rope = {"rope_type": "default", "rope_theta": 1_000_000.0, "mrope_section": [2, 3, 3]}
    vision = {
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
    }
    return Qwen2_5_VLConfig(
        text_config=_text_config(vocab_size, token_ids, rope_parameters=rope),
        vision_config=vision,
        **_vision_token_ids(ids),
        **token_ids,
    )


def _build_qwen2_5_vl(out: Path, seed: int) -> dict[str, Any]:
    from transformers import (
        Qwen2_5_VLForConditionalGeneration,
        Qwen2_5_VLProcessor,
        Qwen2VLImageProcessor,
        Qwen2VLVideoProcessor,
    )

    tokenizer, ids = qwen_tokenizer()
    config = _qwen2_5_vl_config(len(tokenizer), ids)
    model = seeded_model(Qwen2_5_VLForConditionalGeneration, config, seed)  # deterministic random weights
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
    return save_checkpoint(out, model, processor, vocab_size=len(tokenizer))


def _qwen3_vl_config(vocab_size: int, ids: dict[str, int]) -> Any:
    from transformers import Qwen3VLConfig

    token_ids = chat_token_ids(ids)
    rope = {
        "rope_type": "default",
        "rope_theta": 5_000_000.0,
        "mrope_section": [2, 3, 3],
        "mrope_interleaved": True,
    }
    vision = {
        "depth": 2,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "out_hidden_size": 64,
        "patch_size": 16,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "num_position_embeddings": 64,
        "deepstack_visual_indexes": [0],
    }
    return Qwen3VLConfig(
        text_config=_text_config(vocab_size, token_ids, head_dim=16, rope_parameters=rope),
        vision_config=vision,
        **_vision_token_ids(ids),
        **token_ids,
    )


def _build_qwen3_vl(out: Path, seed: int) -> dict[str, Any]:
    from transformers import Qwen2VLImageProcessor, Qwen3VLForConditionalGeneration, Qwen3VLProcessor
    from transformers.models.qwen3_vl.video_processing_qwen3_vl import Qwen3VLVideoProcessor

    tokenizer, ids = qwen_tokenizer()
    config = _qwen3_vl_config(len(tokenizer), ids)
    model = seeded_model(Qwen3VLForConditionalGeneration, config, seed)  # deterministic random weights
    model.generation_config = eos_generation_config(ids)
    # Qwen3-VL: patch 16 x merge 2 (a 32-pixel grid); a small max_pixels keeps the image at <= 16 tokens.
    image_processor = Qwen2VLImageProcessor(
        min_pixels=32 * 32 * 4, max_pixels=32 * 32 * 16, patch_size=16, merge_size=2, temporal_patch_size=2
    )
    processor = Qwen3VLProcessor(
        image_processor=image_processor,
        tokenizer=tokenizer,
        video_processor=Qwen3VLVideoProcessor(),
        chat_template=QWEN_STYLE_CHAT_TEMPLATE,
    )
    return save_checkpoint(out, model, processor, vocab_size=len(tokenizer))


TINY_QWEN2_5_VL = TinyRecipe("qwen2_5_vl", seed=1234, build_into=_build_qwen2_5_vl)
TINY_QWEN3_VL = TinyRecipe("qwen3_vl", seed=4321, build_into=_build_qwen3_vl)

# -------------------------------------------------------------------------------------------- the records

JSON_BOXES = PointerFormat("qwen", prompt="grounding_boxes", shape="boxes")


def _frame_rule(size: Size, min_pixels: int | None, max_pixels: int | None) -> tuple[int, int]:
    return qwen2_5_vl_frame(size, min_pixels, max_pixels)


FAMILIES = (
    GroundingFamilySpec(
        "qwen2.5-vl",
        read=_qwen2_5_vl,
        model_types=("qwen2_5_vl",),
        id_pattern=r"qwen2\.5-vl|qwen2\.5vl",
        pointer=JSON_BOXES,
        frame=_frame_rule,
        fallback_for=("pixels",),
        tiny=(TINY_QWEN2_5_VL,),
    ),
    GroundingFamilySpec(
        "qwen2-vl",
        read=_norm1000,
        model_types=("qwen2_vl",),
        id_pattern=r"qwen2-vl|qwen2vl",
        pointer=JSON_BOXES,
    ),
    GroundingFamilySpec(
        "qwen3-vl",
        read=_norm1000,
        model_types=("qwen3_vl",),
        id_pattern=r"qwen3-vl|qwen3vl",
        pointer=JSON_BOXES,
        fallback_for=("norm1000",),
        tiny=(TINY_QWEN3_VL,),
    ),
)
