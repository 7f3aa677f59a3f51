"""Turn whatever a user sends into one upright RGB image of bounded size, or a clear InputError.

The working image is the upright (EXIF-applied), RGB, downscaled image; every coordinate in the
assistant refers to its pixels. Nothing here writes the image anywhere.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from pathlib import Path

import numpy as np
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from assistant.errors import InputError

MAX_INPUT_PIXELS = 80_000_000  # refuse to decode more than this (decompression bombs)
MAX_SIDE = 2048  # the working image's longer side after downscaling
MIN_SIDE = 8  # below this there is nothing to ask about
MAX_ASPECT = 150  # vision encoders refuse extreme strips (Qwen2.5-VL: 200)

ImageSource = str | Path | bytes | bytearray | Image.Image | np.ndarray


def load_image(source: ImageSource, *, max_side: int = MAX_SIDE) -> Image.Image:
    """Decode `source` into an upright RGB image whose longer side is at most `max_side`.

    Raises InputError with one plain sentence for anything that is not a usable photo.
    """
    image = _open(source)
    try:
        if getattr(image, "is_animated", False):
            image.seek(0)  # an animated GIF/WebP: the first frame is the photo
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


def image_digest(image: Image.Image) -> str:
    """A content hash of the decoded pixels (mode, size and bytes), stable across file formats."""
    h = hashlib.sha256()
    h.update(f"{image.mode}:{image.size[0]}x{image.size[1]}:".encode())
    h.update(image.tobytes())
    return h.hexdigest()


def _open(source: ImageSource) -> Image.Image:
    if isinstance(source, Image.Image):
        source.load()
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
    # Pillow's own bomb check only warns below 2x its limit; make every oversize image an error.
    previous_limit = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = MAX_INPUT_PIXELS
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(stream)
            image.load()
        return image
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
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:120]
