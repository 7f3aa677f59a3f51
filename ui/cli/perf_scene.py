"""The synthetic photo every measurement uses: a plain background with coloured cups in a row, whose
centres are known (what the grounding stage is timed on, and what the SAM tests click).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

CUP_COLOURS = ((200, 30, 30), (30, 60, 200), (30, 150, 50), (220, 180, 20), (150, 50, 170))


def cup_centres(width: int, height: int, n: int) -> list[tuple[float, float]]:
    """Where cups_scene draws its n cups: evenly along a row a little below the middle."""
    step = width / (n + 1)
    return [(step * (i + 1), height * 0.55) for i in range(n)]


def cups_scene(
    width: int = 640,
    height: int = 480,
    n: int = 5,
    variant: int = 0,
    colours: tuple[tuple[int, int, int], ...] = CUP_COLOURS,
) -> Image.Image:
    """A plain background with n coloured cups (ellipses) in a row; `variant` changes one corner pixel, so
    the same scene gets a new content hash."""
    image = Image.new("RGB", (width, height), (235, 235, 228))
    draw = ImageDraw.Draw(image)
    rx, ry = width / (n + 1) * 0.35, height * 0.15
    for i, (cx, cy) in enumerate(cup_centres(width, height, n)):
        draw.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=colours[i % len(colours)])
    image.putpixel((0, 0), (variant % 256, (variant // 256) % 256, 7))
    return image
