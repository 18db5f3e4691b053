"""Reading photographed Yahtzee pads: photo -> sheet, honest about every unsure cell.

``scan_image(data, rules=None)`` returns a ``ScanResult`` (the sheet in the core's
format plus every cell's value, confidence, candidates, crop box and status) or
raises ``ScanError`` with a stable ``code``: not_an_image, too_large,
too_many_pixels, not_a_pad, too_blurred, empty_pad, bad_corners (``merge``: two_backs).
``scan_image(data, corners=[(x, y), ...])`` reads the pad whose four corners a person
marked (``parse_corners`` reads them from text).
"""

from __future__ import annotations

from .corners import CORNERS_PATTERN, CORNERS_SYNTAX, parse_corners
from .loading import MAX_BYTES, MAX_PIXELS
from .reader import Reader, scan_image
from .result import CONFIDENT, NEEDS_REVIEW, UNREADABLE, CellRead, ScanError, ScanResult
from .tesseract import Engine, FakeEngine, OcrEngineError, OcrText, TesseractEngine

__all__ = [
    "CONFIDENT", "CORNERS_PATTERN", "CORNERS_SYNTAX", "MAX_BYTES", "MAX_PIXELS", "NEEDS_REVIEW",
    "UNREADABLE", "CellRead", "Engine",
    "FakeEngine", "OcrEngineError", "OcrText", "Reader", "ScanError", "ScanResult",
    "TesseractEngine", "parse_corners", "scan_image",
]
