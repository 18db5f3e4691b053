"""Each cell's own ruled lines, found near where the table's straight lines put them.

Under a wide-angle lens, or with a page that is not flat, a printed line runs a few
pixels off the straight course the table's grid gives it.  A cell cut from the straight
grid then takes in a piece of the line (read as a dash: a blank read as a zero) or loses
the edge of a digit written close to the line (146 read as 46).  So each of a cell's four
lines is looked for near its place, in the cell's own stretch of it.
"""

from __future__ import annotations

import numpy as np

from .paper import paper_level

LINE_DARK = 0.08  # darkness (share below the paper) of a line's pixels
LINE_FILL = 0.8  # share of the cell's side a row (or column) of pixels must fill to be a line
# (a digit, or a dash written for a zero, fills less of it)
SEARCH = 0.35 # how far a line is looked for around its place, as a share of the row's height
THIN, THIN_SHARE = 5, 0.15  # a line is at most this many pixels, or this share of a row, thick
LINE_ALONE = 0.5  # the paper beside a line is at most this share as dark as the line
SIDE_GAP = 2  # pixels between a side line found and the cell's inside
INSET = 3  # pixels left out at both ends of the cell's side (where the lines cross)


def inside(card: np.ndarray, x0: int, y0: int, x1: int, y1: int, mx: int, my: int
           ) -> tuple[int, int, int, int]:
    """The inside of the cell between the grid's lines x0, x1 (vertical) and y0, y1
    (horizontal), each line taken where it is printed in this cell's stretch of it: ``my``
    inside the top and bottom lines; beside a side line found, ``SIDE_GAP`` pixels inside
    its edge (a digit is often written close to it), else ``mx`` inside the grid's line."""
    h, w = y1 - y0, x1 - x0
    plain = (x0 + mx, y0 + my, x1 - mx, y1 - my)
    if h < 8 or w < 8:
        return plain
    reach = max(2, round(SEARCH * h))
    top = _line_at(card, y0, reach, (x0 + INSET, x1 - INSET), h, rows=True)
    bottom = _line_at(card, y1, reach, (x0 + INSET, x1 - INSET), h, rows=True)
    ty = y0 if top is None else (top[0] + top[1]) // 2
    by = y1 if bottom is None else (bottom[0] + bottom[1]) // 2
    # the side lines between the lines just found: a printed line fills all of that height
    left = _line_at(card, x0, reach, (ty + INSET, by - INSET), h, rows=False)
    right = _line_at(card, x1, reach, (ty + INSET, by - INSET), h, rows=False)
    lx = x0 + mx if left is None else left[1] + 1 + SIDE_GAP
    rx = x1 - mx if right is None else right[0] - SIDE_GAP
    if by - ty < 0.6 * h or rx - lx < 0.6 * (w - 2 * mx):  # a line taken for another
        return plain
    return lx, ty + my, rx, by - my


def _line_at(card: np.ndarray, at: int, reach: int, span: tuple[int, int], row_h: int,
             rows: bool) -> tuple[int, int] | None:
    """The first and last row (rows: of a horizontal line, ``span`` the x range looked at;
    else columns of a vertical one, ``span`` the y range) of the line printed near ``at``."""
    size = card.shape[0] if rows else card.shape[1]
    lo, hi = max(at - reach, 0), min(at + reach + 1, size)
    a, b = span
    if hi - lo < 3 or b - a < 4:
        return None
    strip = card[lo:hi, a:b] if rows else card[a:b, lo:hi].T
    paper = paper_level(strip)
    strip = strip.astype(np.float32)
    if paper <= 0:
        return None
    darkness = (paper - strip) / paper
    fill = (darkness > LINE_DARK).mean(axis=1)
    dark = darkness.mean(axis=1)
    # runs of rows that fill the side: a line is a thin one (printed words, a band or a
    # shaded cell make thick ones); the fullest wins, the nearest of equals
    best: tuple[float, int, int, int] | None = None
    k = 0
    while k < len(fill):
        if fill[k] < LINE_FILL:
            k += 1
            continue
        end = k
        while end + 1 < len(fill) and fill[end + 1] >= LINE_FILL:
            end += 1
        if end - k + 1 <= max(THIN, THIN_SHARE * row_h) and _alone(dark, k, end):
            mid = lo + (k + end) // 2
            key = (round(float(fill[k: end + 1].max()), 1), -abs(mid - at), lo + k, lo + end)
            if best is None or key[:2] > best[:2]:
                best = key
        k = end + 1
    return None if best is None else (best[2], best[3])


def _alone(dark: np.ndarray, first: int, last: int) -> bool:
    """Paper on both sides of the rows first..last (a line, not a stretch of a printed band
    between its words), seen a blurred edge away."""
    before, after = dark[max(first - 4, 0): max(first - 1, 0)], dark[last + 2: last + 5]
    if len(before) == 0 or len(after) == 0:  # at the end of the stretch looked at
        return False
    return max(float(before.mean()), float(after.mean())) < LINE_ALONE * float(
        dark[first: last + 1].mean())
