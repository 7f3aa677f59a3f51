"""Turn whatever a user sends into one upright RGB image of bounded size, or a clear InputError.

The working image is the upright (EXIF-applied), RGB, downscaled image; every coordinate in the
assistant refers to its pixels. Nothing here writes the image anywhere.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import io
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from assistant.errors import InputError
from models.errors import first_line

MAX_INPUT_PIXELS = 80_000_000  # refuse to decode more than this (decompression bombs)
MAX_SIDE = 2048  # the working image's longer side after downscaling
MIN_SIDE = 8  # below this there is nothing to ask about
MAX_ASPECT = 150  # vision encoders refuse extreme strips (Qwen2.5-VL: 200)

ImageSource = str | Path | bytes | bytearray | Image.Image | np.ndarray


class DecodeBusy(InputError):
    """No room to decode now: the photo is fine and may be tried again (its upload is kept)."""


class DecodeBudget:
    """At most `pixels` bytes of decoded images at once in this process (the name is historical: it counted
    pixels, which a 16-bit or palette image defeated), over all threads (sessions, API, benchmark runs): a
    photo waits for room up to `wait_s`, then gets a plain "busy" error. One 80-million-pixel RGB photo
    holds 320 MB decoded until it is reduced, so without this a burst of big uploads could take the
    server's memory."""

    def __init__(self, pixels: int, wait_s: float) -> None:
        self.pixels = pixels
        self.wait_s = wait_s
        self.in_use = 0
        self.peak = 0
        self._room = threading.Condition()

    @contextmanager
    def hold(self, pixels: int) -> Iterator[None]:
        pixels = min(pixels, self.pixels)  # one photo never waits for more room than there is
        with self._room:
            if not self._room.wait_for(lambda: self.in_use + pixels <= self.pixels, timeout=self.wait_s):
                raise DecodeBusy("The server is busy reading other photos; please try again in a moment.")
            self.in_use += pixels
            self.peak = max(self.peak, self.in_use)
        try:
            yield
        finally:
            with self._room:
                self.in_use -= pixels
                self._room.notify_all()


DECODE_BUDGET = DecodeBudget(2 * MAX_INPUT_PIXELS * 4, wait_s=60.0)  # bytes: two of the largest photos
ORIENTATION_TAG = 0x0112
# EXIF orientation -> the transpose that makes the picture upright (as ImageOps.exif_transpose does).
EXIF_TRANSPOSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
# Modes Image.reduce box-averages; the others (1, P, I;16...) are subsampled (nearest) before conversion.
REDUCIBLE_MODES = frozenset(
    {"L", "LA", "La", "PA", "RGB", "RGBA", "RGBa", "RGBX", "CMYK", "YCbCr", "LAB", "HSV", "I", "F"}
)
# Bytes per pixel as Pillow stores a decoded image: 1 for 1, L and P; 2 for 16-bit grey; 4 for the rest
# (every mode of more than one band is stored as 4 bytes a pixel, and I and F are 32-bit).
STORED_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16B": 2, "I;16L": 2, "I;16N": 2}
BIG_DECODE_PIXELS = 16_000_000  # after decoding more than this, freed memory is handed back (release_memory)


def load_image(source: ImageSource, *, max_side: int = MAX_SIDE) -> Image.Image:
    """Decode `source` into an upright RGB image whose longer side is at most `max_side`.

    Raises InputError with one plain sentence for anything that is not a usable photo. Decoding waits for
    room in DECODE_BUDGET; a JPEG is decoded at a reduced scale when it is far larger than `max_side`, and
    any large image is box-reduced before its colour conversion, so the full-size pixels are held once.
    """
    image = _open_header(source)
    pixels = image.width * image.height
    try:
        with DECODE_BUDGET.hold(decoded_bytes(image)):
            return _working_image(_load(image, max_side), max_side)
    finally:
        if image is not source:
            image.close()  # a file we opened; a caller's Image stays theirs
        if pixels > BIG_DECODE_PIXELS:
            release_memory()


def decoded_bytes(image: Image.Image) -> int:
    """What `image` holds once decoded, in bytes (its mode's storage, not its pixel count)."""
    return image.width * image.height * STORED_BYTES.get(image.mode, 4)


def release_memory() -> None:
    """Ask glibc to hand freed memory back to the system (Pillow frees a big photo's blocks, but glibc keeps
    them in its heaps, so the process stayed at its peak after a burst of big photos). No-op elsewhere."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


def _working_image(image: Image.Image, max_side: int) -> Image.Image:
    try:
        if getattr(image, "is_animated", False):
            image.seek(0)  # an animated GIF/WebP: the first frame is the photo
        factor = max(image.size) // max_side
        orientation = image.getexif().get(ORIENTATION_TAG)
        if factor >= 2:
            # Far larger than needed: reduce first, so the conversions below (16-bit stretch, palette with
            # transparency to RGBA, CMYK) stay small. The reduced copy has no EXIF, so the orientation
            # read above is applied to it here.
            image = _reduced(image, factor)
            if orientation in EXIF_TRANSPOSE:
                image = image.transpose(EXIF_TRANSPOSE[orientation])
        else:
            image = ImageOps.exif_transpose(image) or image
        rgb = _to_rgb(image)
    except InputError:
        raise
    except (OSError, ValueError, SyntaxError) as exc:
        raise InputError(
            f"The image could not be read ({_reason(exc)}). Please send a JPEG or PNG photo."
        ) from exc
    width, height = rgb.size
    if min(width, height) < MIN_SIDE:
        raise InputError(
            f"The image is too small ({width} x {height} pixels); please send one at least "
            f"{MIN_SIDE} pixels on each side."
        )
    if max(width, height) / min(width, height) > MAX_ASPECT:
        raise InputError(
            f"The image is a very thin strip ({width} x {height} pixels); please send a photo whose sides "
            f"differ by less than {MAX_ASPECT} times."
        )
    if max(width, height) > max_side:
        scale = max_side / max(width, height)
        new_size = (max(1, round(width * scale)), max(1, round(height * scale)))
        rgb = rgb.resize(new_size, Image.Resampling.LANCZOS)
    return rgb


def _reduced(image: Image.Image, factor: int) -> Image.Image:
    """`image` `factor` times smaller: box-averaged where Pillow can, else every factor-th pixel (a palette
    keeps its colours and transparency, 16-bit grey its values)."""
    if image.mode in REDUCIBLE_MODES:
        return image.reduce(factor)
    size = (max(1, image.width // factor), max(1, image.height // factor))
    return image.resize(size, Image.Resampling.NEAREST)


def _open_header(source: ImageSource) -> Image.Image:
    """The image, its header read (size known) and its pixels not yet decoded where that can wait."""
    if isinstance(source, Image.Image):
        return source
    if isinstance(source, np.ndarray):
        return _from_array(source)
    if isinstance(source, (bytes, bytearray)):
        if len(source) == 0:
            raise InputError("The image file is empty (0 bytes).")
        stream: io.BytesIO | Path = io.BytesIO(bytes(source))
    else:
        path = Path(source)
        if not path.is_file():
            raise InputError(f"There is no image file at {path}.")
        if path.stat().st_size == 0:
            raise InputError(f"The image file {path.name} is empty (0 bytes).")
        stream = path
    with _pillow_errors():
        return Image.open(stream)  # reads the header; refuses a bomb before any pixel is decoded


def _load(image: Image.Image, max_side: int) -> Image.Image:
    """Decode the pixels (a big JPEG at the smallest DCT scale that keeps `max_side`)."""
    if image.format == "JPEG" and max(image.size) >= 2 * max_side:
        image.draft(None, (max_side, max_side))
    with _pillow_errors():
        image.load()
    return image


@contextmanager
def _pillow_errors() -> Iterator[None]:
    """Pillow's failures as one plain InputError each. Pillow's own bomb check only warns below 2x its
    limit: here every oversize image is an error, whether found in the header or while decoding."""
    previous_limit = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = MAX_INPUT_PIXELS
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            yield
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise InputError(
            f"The image is too large to open safely (more than {MAX_INPUT_PIXELS // 1_000_000} million "
            "pixels). Please send a smaller photo."
        ) from exc
    except UnidentifiedImageError as exc:
        raise InputError("This file is not an image I can read. Please send a JPEG or PNG photo.") from exc
    except (OSError, ValueError, SyntaxError) as exc:
        raise InputError(
            f"The image could not be read ({_reason(exc)}); it may be truncated or damaged."
        ) from exc
    finally:
        Image.MAX_IMAGE_PIXELS = previous_limit


def _from_array(array: np.ndarray) -> Image.Image:
    """H x W, H x W x 3 or H x W x 4 arrays (uint8, or floats in [0, 1])."""
    if array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in (1, 3, 4)):
        raise InputError(f"An image array must be H x W or H x W x 3/4; got shape {array.shape}.")
    if array.size == 0:
        raise InputError("The image is empty (zero pixels).")
    if array.size > MAX_INPUT_PIXELS * 4:
        raise InputError("The image is too large to open safely. Please send a smaller photo.")
    if array.dtype != np.uint8:
        data = array.astype(np.float64)
        if data.max(initial=0.0) <= 1.0:
            data = data * 255.0
        array = np.clip(data, 0, 255).astype(np.uint8)
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[:, :, 0]
    return Image.fromarray(array)


def _to_rgb(image: Image.Image) -> Image.Image:
    mode = image.mode
    if mode == "RGB":
        return image.copy()
    if mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        # 16-bit or float grey: stretch the used range to 8 bits instead of clipping to white.
        data = np.asarray(image, dtype=np.float64)
        lo, hi = float(data.min()), float(data.max())
        scaled = np.zeros_like(data) if hi <= lo else (data - lo) * (255.0 / (hi - lo))
        return Image.fromarray(scaled.astype(np.uint8)).convert("RGB")
    if mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
        mode = "RGBA"
    if mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        # Transparent parts become white, as most viewers show them.
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    return image.convert("RGB")  # CMYK, YCbCr, L, 1, P, LAB, HSV


def _reason(exc: BaseException) -> str:
    return first_line(exc, 120)
