"""The one adapter between the pad reader (``ocr``) and the service's two faces.

The JSON API (``POST /api/v1/scan``) and the web pages both read photos through
``scan``; a reader failure becomes ``ScanFailed`` with the reader's code (``not_a_pad``,
``too_blurred``, ...). The API answers with ``api_code`` (the same code upper-cased, a
problem code) and the reader's message; the web pages with ``advice`` (what to do next,
in plain words).
"""

from __future__ import annotations

import importlib
from typing import Any

from flask import current_app


def ocr_module() -> Any:
    """The pad reader (a required dependency; imported on first use: numpy, OpenCV...)."""
    return importlib.import_module("ocr")


def scan_max_bytes() -> int:
    """The largest photo accepted (config ``SCAN_MAX_BYTES``, default ``limits.SCAN_MAX_BYTES``)."""
    return int(current_app.config["SCAN_MAX_BYTES"])


class ScanFailed(Exception):
    """The reader refused the photo: ``code`` is the reader's (lower case)."""

    def __init__(self, code: str, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status  # 422: the photo; 503: the OCR engine failed or timed out

    @property
    def api_code(self) -> str:
        """The problem code of the JSON API."""
        return self.code.upper()

    def advice(self, corners_marked: bool = False) -> str:
        """What the web page tells the person (the corners page has its own for two codes)."""
        if corners_marked and self.code in CORNER_ADVICE:
            return CORNER_ADVICE[self.code]
        return ADVICE.get(self.code, self.message)


def scan(data: bytes, rules: Any, corners: list[tuple[float, float]] | None = None
         ) -> dict[str, Any]:
    """Read a photo: the reader's result as JSON (``ScanResult.to_dict()``); ScanFailed."""
    ocr = ocr_module()
    extra = {} if corners is None else {"corners": corners}
    try:
        out: dict[str, Any] = ocr.scan_image(data, rules=rules, **extra).to_dict()
    except ocr.ScanError as exc:
        raise ScanFailed(str(getattr(exc, "code", None) or "scan_failed"),
                         str(getattr(exc, "message", "") or exc)) from None
    except ocr.OcrEngineError as exc:  # tesseract missing, failed or timed out: not the photo's
        raise ScanFailed(str(getattr(exc, "code", None) or "ocr_failed"),
                         f"the text reader failed: {exc}", status=503) from None
    return out


ADVICE = {
    "not_an_image": "That file is not a photo the reader understands. Try a JPEG or PNG.",
    "too_large": "That photo is too large. Try a smaller one.",
    "too_many_pixels": "That photo has too many pixels. Try a smaller one.",
    "not_a_pad": "No score pad was found in the photo. Hold the phone over the whole card, "
                 "with all four corners in the picture, or mark its four corners on the photo.",
    "too_blurred": "The photo is too blurred to read. Hold still, with good light.",
    "empty_pad": "The pad in the photo looks empty.",
    "ocr_timeout": "Reading the photo took too long. Try again in a moment.",
    "ocr_failed": "The reader could not finish this photo. Try again in a moment.",
    "ocr_engine_missing": "The reader is not available right now. Try again later.",
}
CORNER_ADVICE = {
    "not_a_pad": "No pad could be made out inside those corners. Put each handle on a corner "
                 "of the pad's printed frame.",
    "bad_corners": "Those corners do not go round the pad: put the four handles on its four "
                   "corners, one on each.",
}
