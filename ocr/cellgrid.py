"""Each cell's own ruled lines, found near where the table's straight lines put them.

Under a wide-angle lens, or with a page that is not flat, a printed line runs a few
pixels off the straight course the table's grid gives it.  A cell cut from the straight
grid then takes in a piece of the line (read as a dash: a blank read as a zero) or loses
the edge of a digit written close to the line (146 read as 46).  So each of a cell's four
lines is looked for near its place, in the cell's own stretch of it.
"""

from __future__ import annotations

import cv2
import numpy as np

from .glyphs import ink_mask
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
    left = _line_at(card, x0, reach, (ty + INSET, by - INSET), h, rows=False, outside=-1)
    right = _line_at(card, x1, reach, (ty + INSET, by - INSET), h, rows=False, outside=1)
    lx = x0 + mx if left is None else left[1] + 1 + SIDE_GAP
    rx = x1 - mx if right is None else right[0] - SIDE_GAP
    if by - ty < 0.6 * h or rx - lx < 0.6 * (w - 2 * mx):  # a line taken for another
        return plain
    return lx, ty + my, rx, by - my


def _line_at(card: np.ndarray, at: int, reach: int, span: tuple[int, int], row_h: int,
             rows: bool, outside: int = 0) -> tuple[int, int] | None:
    """The first and last row (rows: of a horizontal line, ``span`` the x range looked at;
    else columns of a vertical one, ``span`` the y range) of the line printed near ``at``.
    ``outside``: -1 or 1, the cell's outside is before or after the line (a side line)."""
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
    # shaded cell make thick ones) with paper on both sides; the fullest wins, the nearest
    # of equals.  A side line with paper on its outside only is taken where no other is
    # found (the cell's digit written close beside it: 187 read 87, its 1 cut off with the
    # margin; not a neighbour's, whose strokes over the line are better left out by it).
    # A side line runs on past the cell's own lines, a digit's upright does not
    best: tuple[bool, float, int, int, int] | None = None
    k = 0
    while k < len(fill):
        if fill[k] < LINE_FILL:
            k += 1
            continue
        end = k
        while end + 1 < len(fill) and fill[end + 1] >= LINE_FILL:
            end += 1
        strict = _alone(dark, k, end)
        if end - k + 1 <= max(THIN, THIN_SHARE * row_h) and (
                strict or outside and _alone(dark, k, end, outside)) and (
                rows or _runs_on(card, (lo + k, lo + end + 1), span, row_h)):
            mid = lo + (k + end) // 2
            key = (strict, round(float(fill[k: end + 1].max()), 1), -abs(mid - at), lo + k,
                   lo + end)
            if best is None or key[:3] > best[:3]:
                best = key
        k = end + 1
    return None if best is None else (best[3], best[4])


def _runs_on(card: np.ndarray, cols: tuple[int, int], span: tuple[int, int], row_h: int) -> bool:
    """The columns ``cols`` dark beyond the rows ``span`` too, above or below (past the
    cell's own lines): a ruled line runs on into the next row, a digit's stroke beside it
    does not (a 4's upright in the next cell taken for the line)."""
    a, b = span
    reach = max(3, round(0.3 * row_h))
    for y0, y1 in ((a - 2 * INSET - reach, a - 2 * INSET), (b + 2 * INSET, b + 2 * INSET + reach)):
        y0, y1 = max(y0, 0), min(y1, card.shape[0])
        if y1 - y0 < 3:
            continue
        around = card[y0:y1, max(cols[0] - 4, 0): cols[1] + 4]
        paper = paper_level(around)
        if paper <= 0:
            continue
        strip = (paper - card[y0:y1, cols[0]: cols[1]].astype(np.float32)) / paper
        if float((strip > LINE_DARK).any(axis=1).mean()) >= LINE_FILL:
            return True
    return False


def _alone(dark: np.ndarray, first: int, last: int, side: int = 0) -> bool:
    """Paper on both sides of the rows first..last (a line, not a stretch of a printed band
    between its words), seen a blurred edge away; ``side`` -1 or 1: before or after them only."""
    before, after = dark[max(first - 4, 0): max(first - 1, 0)], dark[last + 2: last + 5]
    if len(before) == 0 or len(after) == 0:  # at the end of the stretch looked at
        return False
    sides = {-1: float(before.mean()), 1: float(after.mean())}
    seen = sides[side] if side else max(sides.values())
    return seen < LINE_ALONE * float(dark[first: last + 1].mean())


OVER_REACH = 0.6  # how far past a cell's inside a number's ink is followed, as a share of its height
LINE_RUN = 1 / 3  # a horizontal run of ink this share of the cell's width is a ruled line
OWN_SHARE = 0.5  # a stroke with this share of its ink between the cell's lines is the cell's


def over_lines(card: np.ndarray, rect: tuple[int, int, int, int], mask: np.ndarray
               ) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """Where ink reaches the top or bottom of the cell's inside (``rect``, its ink ``mask``):
    the cell's strokes followed across its lines (the top of a 3 written over the line read
    as a 5, a 2's base below it as a 7).  A stroke is followed where most of its ink lies
    between the cell's lines, so a neighbour's digit written into the cell is not taken in
    with it.  Inside ``rect`` the ink stays as cut.  Returns the rect grown to the cell's
    ink and that ink, or None (nothing reaches the top or bottom, or the ink is not found
    again around the cell)."""
    x0, y0, x1, y1 = rect
    if not mask.size or not (mask[0].any() or mask[-1].any()):
        return None
    h, w = y1 - y0, x1 - x0
    reach = max(4, round(OVER_REACH * h))
    ey0, ey1 = max(0, y0 - reach), min(card.shape[0], y1 + reach)
    big = ink_mask(card[ey0:ey1, x0:x1])
    top, bottom = y0 - ey0, y1 - ey0
    inner = big[top:bottom] > 0
    if np.count_nonzero(inner & (mask > 0)) < 0.8 * np.count_nonzero(mask):
        return None  # (the ink around the cell set the threshold otherwise: keep the cell's)
    run = cv2.getStructuringElement(cv2.MORPH_RECT, (max(9, round(LINE_RUN * w)), 1))
    lines = cv2.morphologyEx(big, cv2.MORPH_OPEN, run)
    # (a dash written for a zero is no line: a run wholly inside the cell's inside)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(lines, connectivity=8)
    inside_only = (stats[:, 1] >= top) & (stats[:, 1] + stats[:, 3] <= bottom)
    lines[inside_only[labels] & (labels > 0)] = 0
    lines = cv2.dilate(lines, np.ones((3, 1), np.uint8))
    strokes = cv2.bitwise_and(big, cv2.bitwise_not(lines))
    rows = np.nonzero(lines.any(axis=1))[0]
    bands = np.split(rows, np.nonzero(np.diff(rows) > 1)[0] + 1) if len(rows) else []
    thick = max((len(b) for b in bands), default=0)
    # a stroke crossing a line: the line's pixels between its two parts are the stroke's
    if thick:
        closed = cv2.morphologyEx(strokes, cv2.MORPH_CLOSE, np.ones((thick + 3, 1), np.uint8))
        strokes = cv2.bitwise_or(strokes, cv2.bitwise_and(closed, lines))
    # between the cell's lines: the bands nearest above and below its inside
    lo = max((int(b[-1]) + 1 for b in bands if b[-1] < top), default=top)
    hi = min((int(b[0]) for b in bands if b[0] >= bottom), default=bottom)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    keep = np.zeros(n, bool)
    within = np.zeros(n, np.int64)
    np.add.at(within, labels[lo:hi].ravel().astype(np.intp), 1)
    seen = np.unique(labels[top:bottom][mask > 0])  # (only strokes of the cell's own ink)
    for i in seen:
        if i and within[i] >= OWN_SHARE * stats[i][4]:
            keep[i] = True
    own = keep[labels]
    # (inside, the cell's ink as it was cut: a stroke joined to a band is not lost)
    own[top:bottom] = mask > 0
    ys = np.nonzero(own.any(axis=1))[0]  # (never empty: the cell's ink reaches its edge)
    gy0, gy1 = min(top, int(ys[0])), max(bottom, int(ys[-1]) + 1)
    out: np.ndarray = own[gy0:gy1].astype(np.uint8) * 255
    return (x0, ey0 + gy0, x1, ey0 + gy1), out


BEYOND = 0.6  # how far past a cell's side a number's ink is looked for, in the cell's heights
LINE_DOWN = 0.85  # a column of ink down this share of the cell's height is the side line (a
# digit is seldom as tall; a line the lens slants across columns is not left out: unsure)
ON_LINE = 2  # pixels either side of such a column that are the line's soft edge


def goes_on(card: np.ndarray, rect: tuple[int, int, int, int], mask: np.ndarray) -> bool:
    """Where the cell's ink (``mask``, inside ``rect``) reaches its left or right side: some
    ink within BEYOND cell heights past that side, its ruled line left out (a number written
    over the line, a digit beyond it, or a neighbour's digit close by: any may have cost this
    cell a digit).  Ink that only meets the line, with paper beyond, lost nothing; ink that
    reaches neither side, nothing either."""
    x0, y0, x1, y1 = rect
    reach = max(6, round(BEYOND * (y1 - y0)))
    for touches, lo, hi in ((bool(mask[:, 0].any()), x0 - reach, x0),
                            (bool(mask[:, -1].any()), x1, x1 + reach)):
        if not touches:
            continue
        lo, hi = max(lo, 0), min(hi, card.shape[1])
        if hi - lo < 3:
            return True  # (the card's edge: nothing beyond to look at)
        ink = ink_mask(card[y0:y1, lo:hi]) > 0
        for x in np.flatnonzero(ink.mean(axis=0) >= LINE_DOWN):
            ink[:, max(int(x) - ON_LINE, 0): int(x) + ON_LINE + 1] = False
        if ink.any():
            return True
    return False
