"""Photo bytes -> an upright RGB image, with the size limits enforced before decoding."""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageOps, UnidentifiedImageError

from .result import ScanError

MAX_BYTES = 20_000_000
MAX_PIXELS = 40_000_000
# Memory a photo may take decoded, with its RGB copy: what a 40-megapixel 8-bit colour photo
# takes (Pillow keeps 4 bytes a pixel for RGB). A 16-bit, float or grey image costs more per
# pixel than its pixel count says (a blank 39 MP 16-bit PNG of 52 kB took 220 MB): counted here.
MAX_DECODED_BYTES = MAX_PIXELS * 4


def _pixel_bytes(mode: str) -> int:
    """Bytes a pixel takes in Pillow's memory in ``mode`` (1 and 8-bit single band: 1; 16-bit
    grey: 2; everything else, RGB included, 4)."""
    if mode in ("1", "L", "P"):
        return 1
    if mode.startswith("I;16"):
        return 2
    return 4


def decoded_bytes(mode: str, size: tuple[int, int]) -> int:
    """Memory an image of ``mode`` and ``size`` takes decoded, plus its RGB copy."""
    pixels = size[0] * size[1]
    return pixels * _pixel_bytes(mode) + (0 if mode == "RGB" else pixels * _pixel_bytes("RGB"))


def _register_heif() -> None:
    """Let Pillow open HEIC/HEIF photos (an iPhone's default) through pillow-heif."""
    try:
        from pillow_heif import register_heif_opener
    except ImportError:  # an install without it still reads JPEG, PNG, ...
        return
    register_heif_opener()


_register_heif()


def load_image(data: bytes, *, max_bytes: int = MAX_BYTES, max_pixels: int = MAX_PIXELS,
               max_decoded_bytes: int = MAX_DECODED_BYTES) -> Image.Image:
    """Bytes -> an upright RGB image (EXIF orientation applied), with the limits enforced."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ScanError("not_an_image", "expected the image file's bytes")
    if len(data) == 0:
        raise ScanError("not_an_image", "the upload is empty")
    if len(data) > max_bytes:
        raise ScanError("too_large", f"the image is larger than {max_bytes} bytes")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(bytes(data)))
            w, h = im.size
            if w * h > max_pixels:
                raise ScanError("too_many_pixels",
                                f"the image has {w}x{h} pixels; at most {max_pixels} are read")
            need = decoded_bytes(im.mode, (w, h))
            if need > max_decoded_bytes:  # checked from the header, before decoding
                raise ScanError("too_many_pixels",
                                f"the image ({w}x{h} pixels, mode {im.mode}) would take "
                                f"{need // 1_000_000} MB to read; at most "
                                f"{max_decoded_bytes // 1_000_000} MB")
            im.load()
            upright: Image.Image = ImageOps.exif_transpose(im) or im
            return upright.convert("RGB")
    except ScanError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise ScanError("too_many_pixels", "the image has too many pixels") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        raise ScanError("not_an_image", "the file is not an image this reader understands") from None

