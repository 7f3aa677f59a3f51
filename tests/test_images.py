"""Decoding whatever a user sends: each bad input gets a clear InputError; odd but valid ones load right."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from assistant.errors import InputError
from assistant.images import MAX_SIDE, load_image
from assistant.validation import clean_question
from models.pixels import image_digest
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


# ---------------------------------------------------------------- big photos: reduced early, budgeted


@pytest.mark.parametrize("size", [(600, 400), (6000, 4000)])
@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_exif_rotation_is_the_same_for_big_photos_decoded_reduced(tmp_path, size, fmt) -> None:
    """Big photos are decoded at a DCT scale (JPEG) and box-reduced before conversion: the EXIF rotation
    must still apply. The stored picture has red in its top-left corner; orientation 6 shows that corner
    at the top right."""
    w, h = size
    picture = Image.new("RGB", size, "white")
    ImageDraw.Draw(picture).rectangle((0, 0, w // 4, h // 4), fill=(220, 0, 0))
    exif = Image.Exif()
    exif[0x0112] = 6
    path = tmp_path / f"rotated.{fmt.lower()}"
    picture.save(path, format=fmt, exif=exif.tobytes())
    out = load_image(path)
    assert out.size[0] < out.size[1]  # upright: portrait
    assert max(out.size) == min(MAX_SIDE, max(size))
    pixels = np.asarray(out).astype(int)
    red = (pixels[:, :, 0] > 180) & (pixels[:, :, 1] < 80)
    top_right = red[: out.size[1] // 8, -out.size[0] // 8 :]
    top_left = red[: out.size[1] // 8, : out.size[0] // 8]
    assert top_right.mean() > 0.9 and top_left.mean() < 0.1


def test_decode_budget_makes_photos_wait_for_room_and_then_says_busy() -> None:
    import threading
    import time

    from assistant.errors import InputError
    from assistant.images import DecodeBudget

    budget = DecodeBudget(100, wait_s=0.3)
    with budget.hold(60):
        waited = []

        def second() -> None:
            start = time.monotonic()
            with budget.hold(60):
                waited.append(time.monotonic() - start)

        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.1)
        assert budget.in_use == 60 and not waited  # no room for a second 60 while the first holds
    thread.join()
    assert waited and waited[0] >= 0.08 and budget.peak == 60
    with budget.hold(100), pytest.raises(InputError, match="busy reading other photos"), budget.hold(1):
        pass
    with budget.hold(1000):  # one photo larger than the budget is let through alone
        assert budget.in_use == 100
    assert budget.in_use == 0
