"""Photo bytes -> an upright RGB image, with the size limits enforced before decoding."""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageOps, UnidentifiedImageError

from .result import ScanError

MAX_BYTES = 20_000_000
MAX_PIXELS = 40_000_000


def _register_heif() -> None:
    """Let Pillow open HEIC/HEIF photos (an iPhone's default) through pillow-heif."""
    try:
        from pillow_heif import register_heif_opener
    except ImportError:  # an install without it still reads JPEG, PNG, ...
        return
    register_heif_opener()


_register_heif()


def load_image(data: bytes, *, max_bytes: int = MAX_BYTES,
               max_pixels: int = MAX_PIXELS) -> Image.Image:
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
            im.load()
            upright: Image.Image = ImageOps.exif_transpose(im) or im
            return upright.convert("RGB")
    except ScanError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise ScanError("too_many_pixels", "the image has too many pixels") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        raise ScanError("not_an_image", "the file is not an image this reader understands") from None

