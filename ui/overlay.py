"""The candidates drawn on the photo: a translucent colour fill per region, a two-tone outline, and the
region's number in a white badge with a black border, so a region is told apart by its number and not by
colour alone. `alt_text` is the same picture in words, for screen readers.

Nothing here writes the image anywhere; the result lives in memory until Gradio shows it.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

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
    font = ImageFont.load_default(size=max(16, round(min(size) / 16)))
    for region in candidates.regions:
        _draw_badge(draw, region, scale, font, size)
    return out


def alt_text(candidates: Candidates | None) -> str:
    """The overlay in words: how many regions, and each region's number and description."""
    if candidates is None or not candidates.regions:
        return "Your photo. No candidate regions are marked."
    n = len(candidates.regions)
    items = "; ".join(f"{r.id}: {r.description or r.label or 'region'}" for r in candidates.regions)
    noun = "region" if n == 1 else "regions"
    return f"Your photo with {n} numbered {noun} marked: {items}."


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


def _draw_badge(
    draw: ImageDraw.ImageDraw,
    region: Region,
    scale: float,
    font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
    size: tuple[int, int],
) -> None:
    """A white badge with a black border and the number in black; a strip of the region colour below."""
    label = str(region.id)
    cx, cy = _badge_anchor(region, scale)
    left, top, right, bottom = draw.textbbox((0, 0), label, font=font, anchor="lt")
    tw, th = right - left, bottom - top
    pad = max(4, int(th) // 3)
    border = max(2, int(th) // 8)
    strip = max(3, th // 4)
    w, h = tw + 2 * pad + 2 * border, th + 2 * pad + strip + 2 * border
    # Centre the badge on the anchor, kept inside the picture.
    x0 = min(max(cx - w / 2, 1), size[0] - w - 2)
    y0 = min(max(cy - h / 2, 1), size[1] - h - 2)
    draw.rounded_rectangle(
        (x0, y0, x0 + w, y0 + h), radius=pad, fill=(255, 255, 255), outline=(0, 0, 0), width=border
    )
    draw.rectangle(
        (x0 + border, y0 + h - border - strip, x0 + w - border, y0 + h - border), fill=colour_for(region.id)
    )
    draw.text((x0 + w / 2, y0 + border + pad + th / 2), label, fill=(0, 0, 0), font=font, anchor="mm")
