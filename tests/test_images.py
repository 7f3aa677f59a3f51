"""Decoding whatever a user sends: each bad input gets a clear InputError; odd but valid ones load right."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from assistant.errors import InputError
from assistant.images import MAX_SIDE, image_digest, load_image
from assistant.validation import clean_question
from tests.corpus import BAD_QUESTIONS, corpus

CASES = corpus()


@pytest.mark.parametrize(("name", "data", "expect"), CASES, ids=[c[0] for c in CASES])
def test_corpus_from_bytes_and_path(tmp_path, name: str, data: bytes, expect: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    for source in (data, path):
        if expect == "error":
            with pytest.raises(InputError) as info:
                load_image(source)
            message = str(info.value)
            assert message and "\n" not in message and "Traceback" not in message
        else:
            image = load_image(source)
            assert image.mode == "RGB" and max(image.size) <= MAX_SIDE


def messages() -> dict[str, str]:
    out = {}
    for name, data, expect in CASES:
        if expect == "error":
            try:
                load_image(data)
            except InputError as exc:
                out[name] = str(exc)
    return out


def test_error_messages_say_what_is_wrong() -> None:
    m = messages()
    assert "empty" in m["zero.jpg"]
    assert "not an image" in m["text.jpg"]
    assert "too large" in m["bomb.png"]
    assert "too small" in m["one_pixel.png"]
    assert "truncated" in m["truncated.jpg"] or "damaged" in m["truncated.jpg"]


def test_exif_rotation_is_applied() -> None:
    data = dict((n, d) for n, d, _ in CASES)["exif_rotated.jpg"]
    image = load_image(data)
    assert image.size == (100, 200)  # upright portrait
    top, bottom = np.asarray(image)[10, 50], np.asarray(image)[190, 50]
    assert top[0] > 200 and top[2] < 60  # red at the top
    assert bottom[2] > 200 and bottom[0] < 60  # blue at the bottom


def test_transparent_becomes_white_and_16bit_keeps_contrast() -> None:
    data = dict((n, d) for n, d, _ in CASES)
    assert np.asarray(load_image(data["rgba.png"])).min() == 255
    grey = np.asarray(load_image(data["grey16.png"]))
    assert grey.min() == 0 and grey.max() == 255


def test_long_strip_is_downscaled_and_animated_gif_gives_first_frame() -> None:
    data = dict((n, d) for n, d, _ in CASES)
    strip = load_image(data["strip_10000x200.png"])
    assert strip.size == (MAX_SIDE, 41)
    gif = load_image(data["animated.gif"])
    assert gif.size == (64, 48)


def test_arrays_and_pil_inputs() -> None:
    arr = np.zeros((40, 50, 3), np.uint8)
    assert load_image(arr).size == (50, 40)
    assert load_image(np.ones((40, 50), np.float32)).getpixel((0, 0)) == (255, 255, 255)
    with pytest.raises(InputError, match="H x W"):
        load_image(np.zeros((4, 4, 7), np.uint8))
    pil = Image.new("LA", (30, 30))
    assert load_image(pil).mode == "RGB"


def test_missing_file(tmp_path) -> None:
    with pytest.raises(InputError, match="no image file"):
        load_image(tmp_path / "nope.jpg")


def test_digest_depends_on_pixels_only() -> None:
    from tests.corpus import photo

    a = photo()
    assert image_digest(a) == image_digest(load_image(np.asarray(a)))
    b = a.copy()
    b.putpixel((0, 0), (1, 2, 3))
    assert image_digest(a) != image_digest(b)


@pytest.mark.parametrize(("question", "error"), BAD_QUESTIONS)
def test_questions(question: str, error: str | None) -> None:
    if error:
        with pytest.raises(InputError, match=error):
            clean_question(question)
    else:
        cleaned = clean_question(question)
        assert cleaned and "\x00" not in cleaned and "\u202e" not in cleaned and "  " not in cleaned
