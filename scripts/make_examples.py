"""Write the Ask tab's example photos (ui/examples/*.jpg) from openly licensed images that ship with
scikit-image and matplotlib, so their source is exact and no download is needed. Each image's origin,
licence and credit are recorded in ui/examples/examples.json (written by hand; this script only makes
the pictures). Run: .venv/bin/python scripts/make_examples.py"""

from __future__ import annotations

from pathlib import Path

import matplotlib.cbook
import numpy as np
from PIL import Image
from skimage import data

OUT = Path(__file__).resolve().parents[1] / "ui" / "examples"
MAX_BYTES = 300_000


def _save(image: Image.Image, name: str, longest: int = 640) -> None:
    image = image.convert("RGB")
    image.thumbnail((longest, longest), Image.Resampling.LANCZOS)
    path = OUT / name
    image.save(path, format="JPEG", quality=85, optimize=True)
    size = path.stat().st_size
    assert size < MAX_BYTES, (name, size)
    print(f"{path.name}: {image.width} x {image.height}, {size / 1000:.0f} kB")


def _portrait(array: np.ndarray, height: int = 360) -> Image.Image:
    image = Image.fromarray(array).convert("RGB")
    return image.resize((round(image.width * height / image.height), height), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    _save(Image.fromarray(data.chelsea()), "cat.jpg")
    _save(Image.fromarray(data.rocket()), "rocket.jpg")
    coins = Image.fromarray(data.coins())
    _save(coins, "coins.jpg")
    three = coins.crop((12, 158, 182, 224))  # the third row's first three coins
    _save(three.resize((three.width * 3, three.height * 3), Image.Resampling.LANCZOS), "three-coins.jpg")
    hopper = np.asarray(Image.open(matplotlib.cbook.get_sample_data("grace_hopper.jpg", asfileobj=False)))
    people = [_portrait(data.astronaut()), _portrait(hopper), _portrait(data.camera())]
    gap = 12
    row = Image.new("RGB", (sum(p.width for p in people) + gap * (len(people) - 1), 360), "white")
    x = 0
    for person in people:
        row.paste(person, (x, 0))
        x += person.width + gap
    _save(row, "three-people.jpg", longest=960)


if __name__ == "__main__":
    main()
