"""Print that every cell of a row shows (the official pad's check boxes in YAHTZEE BONUS)
taken out of the cells' ink, so that only what a player wrote is read."""

from __future__ import annotations

import cv2
import numpy as np

from .cell import Cell
from .glyphs import Glyph, glyphs, ink_mask
from .paper import paper_level
from .result import BLANK

PRINT_COLUMNS = 4  # a row needs this many cells before what they all show is print
PRINT_SHIFT = (4, 10)  # how far (y, x pixels) a printed mark may sit off from cell to cell
PRINT_SPREAD = np.ones((5, 5), np.uint8)  # ... and still, once laid on each other
PRINT_DARK = 0.85  # the row's print: darker than this share of the paper
ALONG_PRINT = 0.8  # a sliver with this share of its ink on the print (widened) is print
SLIVER = 3  # ... a glyph at most this many pixels across (a tick is a stroke's length wide)


def without_print(row: list[Cell], min_cell: int) -> None:
    """What every cell of a row shows is printed (the official pad's check boxes in
    YAHTZEE BONUS), not written.  The row's print is, pixel by pixel, the lightest of its
    cells but one once they are laid on each other (a mark a player wrote is missing from
    at least two cells); each cell's ink is then what is darker than that print."""
    if len(row) < PRINT_COLUMNS or min(c.crop.shape[0] for c in row) < min_cell:
        return
    h = max(c.crop.shape[0] for c in row)
    w = max(c.crop.shape[1] for c in row)
    paper = [paper_level(c.crop) for c in row]
    crops = [np.pad(c.crop.astype(np.float32) / max(bg, 1.0),
                    ((0, h - c.crop.shape[0]), (0, w - c.crop.shape[1])), constant_values=1.0)
             for c, bg in zip(row, paper, strict=True)]
    sy, sx = PRINT_SHIFT
    ref = np.pad(1.0 - crops[0], ((sy, sy), (sx, sx)))
    shifts = []
    for crop in crops:
        score = cv2.matchTemplate(ref, 1.0 - crop, cv2.TM_CCOEFF_NORMED)
        _, _, _, (dx, dy) = cv2.minMaxLoc(score)
        shifts.append((dy - sy, dx - sx))
    laid = []
    for crop, (dy, dx) in zip(crops, shifts, strict=True):
        canvas = np.full((h + 2 * sy, w + 2 * sx), np.nan, np.float32)
        canvas[sy + dy: sy + dy + h, sx + dx: sx + dx + w] = cv2.erode(crop, PRINT_SPREAD)
        laid.append(canvas)
    stack = np.stack(laid)
    cover = np.sum(~np.isnan(stack), axis=0)
    # the second lightest: one cell laid a pixel off does not take the print away
    lightest = np.sort(np.where(np.isnan(stack), -1.0, stack), axis=0)[-2]
    printed = np.where(cover >= PRINT_COLUMNS - 1, lightest, 1.0)
    for c, crop, (dy, dx) in zip(row, crops, shifts, strict=True):
        ch, cw = c.crop.shape
        own = printed[sy + dy: sy + dy + h, sx + dx: sx + dx + w][:ch, :cw]
        rest = np.clip(crop[:ch, :cw] / np.maximum(own, 0.05), 0.0, 1.0)
        c.mask = ink_mask((rest * 255).astype(np.uint8))
        # a sliver along the print is the print's own edge, laid a pixel or three off (a lens
        # bends the row's boxes a little differently from cell to cell), not a mark
        on_print = cv2.dilate((own < PRINT_DARK).astype(np.uint8), PRINT_SPREAD) > 0
        found = glyphs(c.mask)
        c.glyphs = [g for g in found if not _along(g, on_print)]
        c.on_print = len(found) - len(c.glyphs)
        if c.on_print:
            keep = np.zeros_like(c.mask)
            for g in c.glyphs:
                keep[g.y0: g.y1, g.x0: g.x1] |= g.mask
            c.mask = keep
        if not c.glyphs:
            c.kind = BLANK
        # what is left may be a piece of the print (a box's edge under a strong lens):
        # marks counted there are for a person to confirm
        c.unsure_ink = True


def _along(g: Glyph, on_print: np.ndarray) -> bool:
    """The glyph is a sliver (a line a few pixels thick) lying on the (widened) print."""
    if min(g.x1 - g.x0, g.y1 - g.y0) > SLIVER:
        return False
    ink = g.mask > 0
    return bool((ink & on_print[g.y0: g.y1, g.x0: g.x1]).sum() >= ALONG_PRINT * max(ink.sum(), 1))
