"""The photo's glyphs in one classifier batch: each cell gets its own glyphs' probabilities,
and each other segmentation its own pieces' (fast: synthetic glyphs, a recording fake
classifier, no tesseract)."""

from __future__ import annotations

import cv2
import numpy as np

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
