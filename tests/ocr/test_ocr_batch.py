"""The photo's glyphs in one classifier batch: each cell gets its own glyphs' probabilities,
and each other segmentation its own pieces' (fast: synthetic glyphs, a recording fake
classifier, no tesseract)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from ocr import digits as dg
from ocr import layout
from ocr.glyphs import glyphs
from ocr.plan import Cell
from ocr.reader import Reader
from ocr.result import NUMBER
from scorepad.rules import get_rules


class Recording:
    """Remembers every mask it is given; row i of its answer says i (in the 0 column)."""

    def __init__(self) -> None:
        self.masks: list[np.ndarray] = []

    def classify(self, masks: list[np.ndarray]) -> np.ndarray:
        start = len(self.masks)
        self.masks += masks
        out = np.full((len(masks), len(dg.CLASSES)), 1e-3, np.float32)
        out[:, 0] = np.arange(start, start + len(masks))
        return out


def _cell(row: layout.Row, k: int, rng: np.random.Generator) -> Cell:
    """A cell holding a 0 and, in most cells, a wide glyph of two touching 0s."""
    mask = np.zeros((44, 120), np.uint8)
    w = int(rng.integers(6, 10))
    cv2.ellipse(mask, (14, 22), (w, 15), 0, 0, 360, 255, 2)
    if k % 4:
        cv2.ellipse(mask, (50, 22), (w + 2, 15), 10, 0, 360, 255, 2)
        cv2.ellipse(mask, (50 + 2 * w + 3, 22), (w + 1, 15), 10, 0, 360, 255, 2)
    return Cell(row, 0, k, (0, 0, 120, 44), mask, mask, glyphs(mask), NUMBER)


def test_each_segmentation_is_read_from_its_own_cells_glyphs() -> None:
    rng = np.random.default_rng(3)
    rows = [r for r in layout.FRONT.rows if r.kind is layout.Kind.BOX]
    cells = [_cell(rows[k % len(rows)], k, rng) for k in range(40)]
    model = Recording()
    Reader(model=model)._classify(cells, model, get_rules(None))

    def batch_rows(probs: np.ndarray) -> list[int]:
        return [int(v) for v in probs[:, 0]]

    split = 0
    for cell in cells:
        assert cell.probs is not None
        own = [model.masks[i] for i in batch_rows(cell.probs)]
        assert len(own) == len(cell.glyphs)
        assert all(np.array_equal(m, g.mask) for m, g in zip(own, cell.glyphs, strict=True))
        # every other segmentation parts the same ink: its pieces' ink adds up to the cell's
        ink = sum(int((g.mask > 0).sum()) for g in cell.glyphs)
        for alt in cell.alts:
            assert sum(int((model.masks[i] > 0).sum()) for i in batch_rows(alt)) == ink
        split += cell.wide
    assert split >= 20  # the wide glyphs were cut, several ways each
    # a glyph that several segmentations keep whole is read once
    assert len(model.masks) < sum(len(a) for c in cells for a in [c.probs, *c.alts])


class SeesSeveral(Recording):
    """Says 'several digits' for a glyph wider than a digit, a digit otherwise."""

    def classify(self, masks: list[np.ndarray]) -> np.ndarray:
        out = super().classify(masks)
        for row, m in zip(out, masks, strict=True):
            several = m.shape[1] > 0.75 * m.shape[0]
            row[dg.SEVERAL] = 0.95 if several else 1e-3
        return out


BACK_TOTAL = next(r for r in layout.BACK.rows if r.kind is layout.Kind.GRAND)  # four digits
FRONT_TOTAL = next(r for r in layout.FRONT.rows if r.kind is layout.Kind.TOTAL)


def _zeros_cell(row: layout.Row, xs: tuple[int, ...]) -> Cell:
    """0s drawn at ``xs``: 18 pixels apart they touch (one glyph), farther they do not."""
    mask = np.zeros((44, 150), np.uint8)
    for x in xs:
        cv2.ellipse(mask, (x, 22), (9, 15), 0, 0, 360, 255, 2)
    return Cell(row, 0, 0, (0, 0, 150, 44), mask, mask, glyphs(mask), NUMBER)


def _classified(cells: list[Cell], model: Recording) -> None:
    """The cells classified with a dozen single 0s beside them (the hand's digit width)."""
    box = next(r for r in layout.FRONT.rows if r.kind is layout.Kind.BOX)
    rng = np.random.default_rng(5)
    singles = [_cell(box, k * 4, rng) for k in range(12)]
    Reader(model=model)._classify([*cells, *singles], model, get_rules(None))


def test_two_touching_pairs_are_cut_at_once_only_in_a_cell_of_four_digits() -> None:
    pairs, pair_and_one = (12, 30, 78, 96), (12, 30, 84)  # 1294 written 12 94; 12 4
    cells = [_zeros_cell(BACK_TOTAL, pairs), _zeros_cell(FRONT_TOTAL, pairs),
             _zeros_cell(BACK_TOTAL, pair_and_one)]
    model = SeesSeveral()
    _classified(cells, model)
    four_back, four_front, three_back = cells
    assert len(four_back.glyphs) == len(four_front.glyphs) == len(three_back.glyphs) == 2

    def both_cut(cell: Cell) -> int:
        """Segmentations of the cell in which neither of its glyphs is read whole."""
        def whole(alt: np.ndarray) -> bool:
            masks = [model.masks[int(v)] for v in alt[:, 0]]
            return any(np.array_equal(m, g.mask) for m in masks for g in cell.glyphs)
        return sum(len(alt) == 4 and not whole(alt) for alt in cell.alts)

    # the back's TOTAL OF ALL GAMES: the two pairs cut at once is among the segmentations
    assert both_cut(four_back) > 0
    # elsewhere a fourth digit is a misread; and a glyph the classifier sees as one digit
    # is not cut as a pair together with another
    assert both_cut(four_front) == 0
    assert both_cut(three_back) == 0


def test_one_glyph_of_four_touching_digits_is_cut_in_four_only_in_a_cell_of_four() -> None:
    back, front = (_zeros_cell(row, (20, 38, 56, 74)) for row in (BACK_TOTAL, FRONT_TOTAL))
    _classified([back, front], Recording())
    assert len(back.glyphs) == len(front.glyphs) == 1
    assert max(len(a) for a in back.alts) == 4
    assert max(len(a) for a in front.alts) == 3


def test_a_glyph_the_classifier_sees_as_several_is_as_likely_cut_in_two() -> None:
    """Two 0s written close (15 as narrow as one wide digit): the width alone makes a cut
    unlikely, the classifier's 'several' makes a cut in two as likely as it says."""
    def narrow_pair(model: Recording) -> Cell:
        cell = _zeros_cell(FRONT_TOTAL, (20, 26))
        _classified([cell], model)
        assert len(cell.glyphs) == 1 and cell.alts
        return cell

    by_width = narrow_pair(Recording())
    seen = narrow_pair(SeesSeveral())
    in_two = [p for p, alt in zip(by_width.priors, by_width.alts, strict=True) if len(alt) == 2]
    assert in_two and max(in_two) < 0.95
    for width_prior, prior, alt in zip(by_width.priors, seen.priors, seen.alts, strict=True):
        assert prior == pytest.approx(max(width_prior, 0.95) if len(alt) == 2 else width_prior)
