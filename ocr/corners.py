"""Corners a person marked on the photo (four x, y points) when the pad was not found, or
found wrong: read from text, checked against the photo, put in order."""

from __future__ import annotations

import re

import cv2
import numpy as np

from . import geometry
from .result import ScanError

CORNERS_OUTSIDE = 0.03  # marked corners may lie this share of the photo's size outside it
CORNERS_MIN_AREA = 0.01  # ... and must enclose at least this share of the photo

_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
# four x,y pairs: "x1,y1 x2,y2 x3,y3 x4,y4" or "x1,y1,x2,y2,..." (the API documents this pattern)
CORNERS_PATTERN = rf"^ *{_NUMBER}(?: *[, ] *{_NUMBER}){{7}} *$"
CORNERS_SYNTAX = '"x1,y1 x2,y2 x3,y3 x4,y4" (or x1,y1,x2,y2,x3,y3,x4,y4)'


def parse_corners(text: str) -> list[tuple[float, float]]:
    """Four corners written as text (pixels of the upright photo) -> four (x, y) points."""
    if not re.match(CORNERS_PATTERN, text):
        raise ScanError("bad_corners", f"corners must be four x,y pairs in pixels: {CORNERS_SYNTAX}")
    n = [float(v) for v in re.findall(_NUMBER, text)]
    return [(n[i], n[i + 1]) for i in range(0, 8, 2)]


def check_corners(corners: object, size: tuple[int, int]) -> np.ndarray:
    """Four marked corners, in any order, checked against a photo of ``size`` (w, h) ->
    the quadrilateral TL, TR, BR, BL as seen in the photo (float32 4x2)."""
    try:
        pts = np.asarray(corners, dtype=np.float64)
    except (TypeError, ValueError):
        pts = np.zeros(0)
    if pts.shape != (4, 2) or not np.isfinite(pts).all():
        raise ScanError("bad_corners", "give exactly four corners, each an (x, y) point in pixels")
    w, h = size
    m = CORNERS_OUTSIDE * max(w, h)
    if (pts[:, 0] < -m).any() or (pts[:, 0] > w + m).any() or (pts[:, 1] < -m).any() \
            or (pts[:, 1] > h + m).any():
        raise ScanError("bad_corners", f"a corner lies outside the photo ({w}x{h} pixels, "
                                       f"counted in the photo turned upright)")
    quad = geometry.order_corners(pts)
    if not geometry.is_convex(quad):
        raise ScanError("bad_corners", "the four corners do not make a convex quadrilateral "
                                       "(three of them on a line, or one inside the others)")
    if cv2.contourArea(quad) < CORNERS_MIN_AREA * w * h:
        raise ScanError("bad_corners", "the corners enclose too little of the photo "
                                       f"(at least {CORNERS_MIN_AREA:.0%} of it)")
    return quad
