"""One value cell cut from the card: its crop, its ink and the glyphs the reader classifies."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field

import numpy as np

from .cellgrid import goes_on, over_lines
from .glyphs import Glyph, faint_ink, glyphs, ink_mask, pale_marks
from .layout import Kind, Row, field_key, game_index
from .result import BLANK, MARKS, NUMBER, TEXT


@dataclass
class Cell:
    """One value cell cut from the card, with what the classifier made of its glyphs."""

    row: Row
    r: int
    c: int
    rect: tuple[int, int, int, int]  # in card coordinates
    crop: np.ndarray
    mask: np.ndarray
    glyphs: list[Glyph]
    kind: str
    tess_index: int | None = None
    probs: np.ndarray | None = None
    alts: list[np.ndarray] = dc_field(default_factory=list)  # other segmentations' probabilities
    priors: list[float] = dc_field(default_factory=list)  # ... and how likely each is a priori
    wide: bool = False  # a glyph much wider than this hand's digits: perhaps two touching
    unsure_ink: bool = False  # faint ink read, ink cut by the cell's edge, a line-like stroke
    on_print: int = 0  # marks: slivers along the printed boxes left out (print, or a stroke)

    @property
    def field(self) -> str:
        return field_key(self.row)

    @property
    def game(self) -> int | None:
        return game_index(self.row, self.c)


FAINT_DIGIT = 0.4  # share of a cell's height a digit written very lightly in it is at least


def make_cell(card: np.ndarray, row: Row, r: int, c: int,
              rect: tuple[int, int, int, int]) -> Cell:
    """A cell cut from the card, its ink found and its kind (blank, number, ...) decided."""
    crop = card[rect[1]: rect[3], rect[0]: rect[2]]
    mask = ink_mask(crop)
    if row.kind in (Kind.BOX, Kind.TOTAL, Kind.SCORE, Kind.GRAND):
        # a number written over the cell's top or bottom line is read whole (a neighbour's
        # digit written into this cell is not followed into its own row)
        grown = over_lines(card, rect, mask)
        if grown is not None:
            rect, mask = grown
            crop = card[rect[1]: rect[3], rect[0]: rect[2]]
    gs = glyphs(mask)
    # (in an empty cell, against a small digit's height: a digit written very lightly)
    digit_h = round(FAINT_DIGIT * crop.shape[0]) if row.kind is not Kind.NAME else 0
    faint = faint_ink(crop, mask, digit_h) if row.kind is not Kind.MARKS else None
    if faint is not None:  # a digit written much lighter than its neighbours: read it too
        mask = mask | faint
        gs = glyphs(mask)
    if not gs:
        kind = BLANK
    elif row.kind is Kind.MARKS:
        kind = MARKS
    elif row.kind is Kind.NAME:
        kind = TEXT
    else:
        kind = NUMBER
    cell = Cell(row, r, c, rect, crop, mask, gs, kind)
    # a glyph cut by the cell's edge may have lost a digit beyond it (where ink goes on
    # past the side line); a faint one may be read wrong; a lone stroke down a side may be
    # a ruled line: either way only the pad's sums can make the reading confident
    cell.unsure_ink = (faint is not None or goes_on(card, rect, mask)
                       or line_like(gs, mask.shape)
                       or (kind == NUMBER and pale_marks(crop, mask)))
    return cell


SIDE = 0.25  # share of the cut's width, each side, where a line taken in lies
THIN = 0.15  # ... and a line's width at most, of the cut's


def line_like(gs: list[Glyph], shape: tuple[int, ...]) -> bool:
    """One thin stroke from the cut's top to its bottom, by its left or right side: the
    table's edge the cut took in where a lens bent it (read a sure 1 in a blank cell) looks
    just like a 1 written tall."""
    if len(gs) != 1:
        return False
    g, (h, w) = gs[0], shape[:2]
    return (g.y0 == 0 and g.y1 >= h and g.x1 - g.x0 <= THIN * w
            and (g.x1 <= SIDE * w or g.x0 >= (1 - SIDE) * w))
