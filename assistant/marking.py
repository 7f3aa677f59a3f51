"""How the second turn tells the VLM which region is meant: a numbered outline drawn on a copy of the
image (default), a crop around the region, or nothing drawn (box coordinates in the prompt only).

The prompt always names the region and gives its box too, so every mode carries the same information.
"""

from __future__ import annotations

from typing import Literal, get_args

from PIL import Image, ImageDraw, ImageFont

from assistant.types import Region

MarkMode = Literal["marker", "crop", "box"]
MARK_MODES: tuple[MarkMode, ...] = get_args(MarkMode)
MARK_COLOUR = (255, 0, 255)  # magenta: rare in photos, so the outline stands out
CROP_MARGIN = 0.15


def image_for_region(image: Image.Image, region: Region, mode: str = "marker") -> Image.Image:
    """The image to send with a question about `region` (never modifies `image`)."""
    if mode not in MARK_MODES:
        raise ValueError(f"unknown region marking {mode!r}; expected one of {MARK_MODES}")
    if mode == "box":
        return image
    if mode == "crop":
        return crop_region(image, region)
    return draw_marker(image, region)


def draw_marker(image: Image.Image, region: Region) -> Image.Image:
    marked = image.copy()
    draw = ImageDraw.Draw(marked)
    width = max(2, round(min(image.size) / 150))
    b = region.box
    draw.rectangle((b.x0, b.y0, max(b.x0, b.x1 - 1), max(b.y0, b.y1 - 1)), outline=MARK_COLOUR, width=width)
    size = max(12, round(min(image.size) / 20))
    font = ImageFont.load_default(size=size)
    label = str(region.id)
    tx, ty = b.x0 + width, max(0.0, b.y0 - size - 2 * width) if b.y0 > size + 2 * width else b.y0 + width
    box = draw.textbbox((tx, ty), label, font=font)
    draw.rectangle((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), fill=MARK_COLOUR)
    draw.text((tx, ty), label, fill=(255, 255, 255), font=font)
    return marked


def crop_region(image: Image.Image, region: Region, margin: float = CROP_MARGIN) -> Image.Image:
    b = region.box
    dx, dy = b.width * margin, b.height * margin
    x0, y0 = max(0, int(b.x0 - dx)), max(0, int(b.y0 - dy))
    x1, y1 = min(image.width, int(b.x1 + dx) + 1), min(image.height, int(b.y1 + dy) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:  # too small for a vision encoder: grow to a 32 px window
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        x0, y0 = max(0, cx - 16), max(0, cy - 16)
        x1, y1 = min(image.width, x0 + 32), min(image.height, y0 + 32)
    return image.crop((x0, y0, x1, y1))


def box_text(region: Region, image_size: tuple[int, int]) -> str:
    """The region's box in words a model can use: pixels and fractions of the image."""
    w, h = image_size
    b = region.box
    return (
        f"box x {b.x0:.0f}-{b.x1:.0f}, y {b.y0:.0f}-{b.y1:.0f} of a {w} x {h} image, "
        f"{region.position or 'in the image'}"
    )
