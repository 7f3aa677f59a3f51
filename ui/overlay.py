"""The candidates drawn on the photo: a translucent colour fill per region, a two-tone outline, and the
region's number in a white badge with a black border, so a region is told apart by its number and not by
colour alone. `alt_text` is the same picture in words, for screen readers.

Nothing here writes the image anywhere; the result lives in memory until Gradio shows it.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from assistant.languages.catalog import ENGLISH, Say
from assistant.types import Candidates, Region

# High-contrast colours, distinct for the common colour-vision deficiencies (Okabe & Ito, 2008), with
# blue, vermillion and bluish green first; the numbers carry the identity, the colour only helps.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermillion
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (240, 228, 66),  # yellow
    (0, 0, 0),  # black
)
FILL_ALPHA = 0.35  # how much of the region colour covers the photo inside a mask
MAX_OVERLAY_SIDE = 1280  # the overlay is sent to the browser: keep it light, clicks are mapped back


def colour_for(region_id: int) -> tuple[int, int, int]:
    return PALETTE[(region_id - 1) % len(PALETTE)]


def overlay_scale(image_size: tuple[int, int], max_side: int = MAX_OVERLAY_SIDE) -> float:
    """Overlay pixels per working-image pixel (<= 1)."""
    return min(1.0, max_side / max(image_size))


def draw_overlay(
    image: Image.Image, candidates: Candidates | None, max_side: int = MAX_OVERLAY_SIDE
) -> Image.Image:
    """A copy of `image` (W x H RGB) scaled by `overlay_scale`, with every candidate numbered on it."""
    scale = overlay_scale(image.size, max_side)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    base = image.convert("RGB")
    if size != image.size:
        base = base.resize(size, Image.Resampling.LANCZOS)
    if candidates is None or not candidates.regions:
        return base
    pixels = np.asarray(base, dtype=np.float32).copy()  # h x w x 3
    outlines: list[tuple[Region, np.ndarray | None]] = []
    for region in candidates.regions:
        mask = _scaled_mask(region, size)
        if mask is not None:
            colour = np.array(colour_for(region.id), dtype=np.float32)
            pixels[mask] = pixels[mask] * (1.0 - FILL_ALPHA) + colour * FILL_ALPHA
        outlines.append((region, mask))
    out = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    width = max(2, round(min(size) / 150))
    for region, mask in outlines:
        _draw_outline(out, region, mask, scale, width)
    draw = ImageDraw.Draw(out)
    font = ImageFont.load_default(size=badge_font_px(size))
    boxes = {r.id: _scaled_box(r, scale) for r in candidates.regions}
    for region, rect in zip(candidates.regions, badge_layout(candidates, size, scale), strict=True):
        _draw_badge(draw, region, rect, font, boxes[region.id])
    return out


Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in overlay pixels


def badge_layout(candidates: Candidates, size: tuple[int, int], scale: float) -> list[Rect]:
    """Each region's badge rectangle on an overlay of `size` (w, h) drawn at `scale` overlay pixels per
    working-image pixel, in the order of candidates.regions."""
    font = ImageFont.load_default(size=badge_font_px(size))
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    boxes = {r.id: _scaled_box(r, scale) for r in candidates.regions}
    placed: list[Rect] = []
    for region in candidates.regions:
        w, h = _badge_size(measure, str(region.id), font)[:2]
        placed.append(_badge_place(region, scale, w, h, size, boxes, placed))
    return placed


def _badge_size(
    draw: ImageDraw.ImageDraw, label: str, font: ImageFont.ImageFont | ImageFont.FreeTypeFont
) -> tuple[float, float, float, int, int, float]:
    """(width, height, text height, padding, border, colour strip) of a badge showing `label`."""
    left, top, right, bottom = draw.textbbox((0, 0), label, font=font, anchor="lt")
    tw, th = right - left, bottom - top
    pad = max(4, int(th) // 3)
    border = max(2, int(th) // 8)
    strip = max(3, th // 4)
    return tw + 2 * pad + 2 * border, th + 2 * pad + strip + 2 * border, th, pad, border, strip


# The page shows the overlay about 360 CSS px wide on a phone and at most 420 px high: a number this many CSS
# px tall there is legible (WCAG's large text is 18 pt); a bigger screen shows it bigger.
BADGE_TEXT_CSS_PX = 18
PHONE_WIDTH_CSS_PX, OVERLAY_HEIGHT_CSS_PX = 360, 420


def badge_font_px(size: tuple[int, int]) -> int:
    """The badge font size in overlay pixels for an overlay of `size` (w, h): BADGE_TEXT_CSS_PX tall where
    the page shows the overlay smallest (a phone's width, or the overlay's fixed height)."""
    shown = min(PHONE_WIDTH_CSS_PX / size[0], OVERLAY_HEIGHT_CSS_PX / size[1])  # CSS px per overlay px
    return max(12, round(BADGE_TEXT_CSS_PX / shown))


def alt_text(candidates: Candidates | None, say: Say = ENGLISH) -> str:
    """The overlay in words: how many regions, and each region's number and description (in `say`'s
    language: the reply's)."""
    if candidates is None or not candidates.regions:
        return say("Your photo. No candidate regions are marked.")
    n = len(candidates.regions)
    items = "; ".join(f"{r.id}: {r.description or r.label or 'region'}" for r in candidates.regions)
    return say.n(
        "Your photo with {count} numbered region marked: {items}.",
        "Your photo with {count} numbered regions marked: {items}.",
        n,
        items=items,
    )


def _scaled_mask(region: Region, size: tuple[int, int]) -> np.ndarray | None:
    """The region's H x W mask resized to `size` (w, h) as an h x w bool array, or None."""
    if region.mask is None:
        return None
    mask = np.asarray(region.mask, dtype=bool)
    if mask.shape[::-1] == size:
        return mask
    # Nearest-neighbour keeps the mask binary.
    img = Image.fromarray(mask.astype(np.uint8) * 255).resize(size, Image.Resampling.NEAREST)
    return np.asarray(img) > 127


def _boundary(mask: np.ndarray, width: int) -> np.ndarray:
    """Pixels of `mask` (h x w bool) within `width` pixels of its edge."""
    inner = mask.copy()
    for _ in range(width):
        shrunk = inner.copy()
        shrunk[1:, :] &= inner[:-1, :]
        shrunk[:-1, :] &= inner[1:, :]
        shrunk[:, 1:] &= inner[:, :-1]
        shrunk[:, :-1] &= inner[:, 1:]
        inner = shrunk
    return mask & ~inner


def _draw_outline(
    out: Image.Image, region: Region, mask: np.ndarray | None, scale: float, width: int
) -> None:
    """A black edge with the region colour inside it: visible on light and dark photos alike."""
    colour = colour_for(region.id)
    if mask is not None and mask.any():
        pixels = np.asarray(out).copy()
        edge = _boundary(mask, width)  # the outermost band: black
        band = _boundary(mask, width * 2) & ~edge  # just inside it: the region colour
        pixels[edge] = (0, 0, 0)
        pixels[band] = colour
        out.paste(Image.fromarray(pixels))
        return
    b = region.box
    x0, y0 = b.x0 * scale, b.y0 * scale
    x1, y1 = max(x0, b.x1 * scale - 1), max(y0, b.y1 * scale - 1)
    draw = ImageDraw.Draw(out)
    draw.rectangle((x0, y0, x1, y1), outline=(0, 0, 0), width=width)
    if x1 - x0 > 2 * width and y1 - y0 > 2 * width:
        draw.rectangle((x0 + width, y0 + width, x1 - width, y1 - width), outline=colour, width=width)


def _badge_anchor(region: Region, scale: float) -> tuple[float, float]:
    """Where the number goes: the region's point if it has one, else its box centre (overlay pixels)."""
    x, y = region.point if region.point is not None else region.box.centre
    return x * scale, y * scale


def _scaled_box(region: Region, scale: float) -> Rect:
    b = region.box
    return b.x0 * scale, b.y0 * scale, b.x1 * scale, b.y1 * scale


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def _badge_place(
    region: Region,
    scale: float,
    w: float,
    h: float,
    size: tuple[int, int],
    boxes: dict[int, Rect],
    placed: list[Rect],
) -> Rect:
    """Where a w x h badge goes: on the region's anchor when the region is big enough to show around it,
    else beside the region (above, below, right, left), so a small object is never covered whole; among
    the places inside the picture, the one that covers the fewest other badges and regions."""
    cx, cy = _badge_anchor(region, scale)
    x0, y0, x1, y1 = boxes[region.id]
    gap = 3.0
    spots = []
    on_anchor = w <= 0.6 * (x1 - x0) and h <= 0.6 * (y1 - y0)  # the region still shows round it
    if on_anchor:
        spots.append((cx - w / 2, cy - h / 2))
    mid_x, mid_y = (x0 + x1) / 2 - w / 2, (y0 + y1) / 2 - h / 2
    spots += [(mid_x, y0 - h - gap), (mid_x, y1 + gap), (x1 + gap, mid_y), (x0 - w - gap, mid_y)]

    def inside(x: float, y: float) -> tuple[float, float]:
        return min(max(x, 1), size[0] - w - 2), min(max(y, 1), size[1] - h - 2)

    def cost(spot: tuple[float, float]) -> float:
        x, y = inside(*spot)
        rect = (x, y, x + w, y + h)
        moved = abs(x - spot[0]) + abs(y - spot[1])  # pushed back into the picture: over its region
        return (
            10 * sum(_overlap(rect, other) for other in placed)
            + sum(_overlap(rect, box) for rid, box in boxes.items() if rid != region.id)
            + (0 if on_anchor and spot == spots[0] else 3 * _overlap(rect, boxes[region.id]))
            + moved
        )

    best = min(spots, key=cost)  # ties keep the first: on the anchor, then above
    x, y = inside(*best)
    return x, y, x + w, y + h


def _draw_badge(
    draw: ImageDraw.ImageDraw,
    region: Region,
    rect: Rect,
    font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
    box: Rect,
) -> None:
    """A white badge with a black border and the number in black; a strip of the region colour below.
    A badge beside its region (`box`) has a line to it."""
    label = str(region.id)
    _, _, th, pad, border, strip = _badge_size(draw, label, font)
    x0, y0, x1, y1 = rect
    bx0, by0, bx1, by1 = box
    if x1 < bx0 or x0 > bx1 or y1 < by0 or y0 > by1:  # beside the region: a leader line to its edge
        ax, ay = min(max((x0 + x1) / 2, bx0), bx1), min(max((y0 + y1) / 2, by0), by1)
        start = (min(max(ax, x0), x1), min(max(ay, y0), y1))
        draw.line((start, (ax, ay)), fill=(0, 0, 0), width=border + 2)
        draw.line((start, (ax, ay)), fill=(255, 255, 255), width=max(1, border - 1))
    white, black = (255, 255, 255), (0, 0, 0)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=pad, fill=white, outline=black, width=border)
    draw.rectangle((x0 + border, y1 - border - strip, x1 - border, y1 - border), fill=colour_for(region.id))
    draw.text(((x0 + x1) / 2, y0 + border + pad + th / 2), label, fill=(0, 0, 0), font=font, anchor="mm")
