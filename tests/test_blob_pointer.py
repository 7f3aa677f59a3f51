"""The classical blobs pointer on drawn scenes whose objects are known by construction."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from models.blob_pointer import BlobPointer, colour_name
from models.registry import create_pointer


def scene(size=(400, 300), background=(240, 240, 235)) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", size, background)
    return image, ImageDraw.Draw(image)


def test_points_inside_each_object_with_its_box_and_colour() -> None:
    image, draw = scene()
    draw.ellipse([40, 100, 120, 200], fill=(200, 30, 30))
    draw.rectangle([250, 60, 330, 140], fill=(30, 60, 200))
    hits = BlobPointer().point(image, "cup")
    assert sorted(h.label for h in hits) == ["blue cup", "red cup"]
    for hit in hits:
        x, y = hit.point
        assert hit.box.contains(x, y) and hit.source == "blobs"
        assert image.getpixel((int(x), int(y))) != (240, 240, 235)  # the point is on the object
    red = next(h for h in hits if h.label == "red cup")
    assert red.box.x0 == pytest.approx(40, abs=4) and red.box.x1 == pytest.approx(121, abs=4)


def test_a_colour_in_the_phrase_filters_and_an_absent_colour_finds_nothing() -> None:
    image, draw = scene()
    for i, colour in enumerate([(200, 30, 30), (30, 60, 200), (200, 30, 30)]):
        draw.rectangle([30 + i * 120, 100, 100 + i * 120, 180], fill=colour)
    assert [h.label for h in BlobPointer().point(image, "red cup")] == ["red cup", "red cup"]
    assert BlobPointer().point(image, "green cup") == []


def test_touching_objects_of_different_colours_are_two_regions() -> None:
    image, draw = scene()
    draw.rectangle([100, 100, 180, 180], fill=(200, 30, 30))
    draw.rectangle([181, 100, 260, 180], fill=(30, 150, 50))  # shares an edge with the red one
    assert sorted(h.label for h in BlobPointer().point(image, "box")) == ["green box", "red box"]


def test_surfaces_specks_and_noise_are_not_objects() -> None:
    image, draw = scene()
    draw.rectangle([0, 250, 399, 299], fill=(120, 80, 40))  # a table edge across the whole image
    draw.rectangle([10, 10, 11, 11], fill=(0, 0, 0))  # a speck
    assert BlobPointer().point(image, "cup") == []
    noise = Image.fromarray(np.random.default_rng(0).integers(0, 256, (240, 320, 3), dtype=np.uint8))
    assert BlobPointer().point(noise, "cup") == []
    assert BlobPointer().point(Image.new("RGB", (1, 1)), "cup") == []


def test_many_objects_are_capped_largest_first() -> None:
    image, draw = scene((600, 400))
    for i in range(30):
        x, y = 20 + (i % 10) * 58, 30 + (i // 10) * 120
        side = 20 + i  # growing sizes
        draw.rectangle([x, y, x + side * 0.8, y + side], fill=(200, 30, 30))
    hits = BlobPointer(max_blobs=5).point(image, "block")
    assert len(hits) == 5
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True) and hits[0].score == 1.0


@pytest.mark.parametrize(
    ("rgb", "name"),
    [((200, 30, 30), "red"), ((30, 60, 200), "blue"), ((30, 150, 50), "green"), ((220, 180, 20), "yellow"),
     ((250, 250, 250), "white"), ((10, 10, 10), "black"), ((128, 128, 128), "grey"),
     ((120, 70, 30), "brown")],
)  # fmt: skip
def test_colour_names(rgb, name) -> None:
    assert colour_name(rgb) == name


def test_registered_as_blobs_and_ignores_the_vlm() -> None:
    pointer = create_pointer("blobs", vlm=object())
    assert pointer.name == "blobs"
