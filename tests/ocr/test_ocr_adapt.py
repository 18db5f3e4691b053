"""Writer adaptation (ocr/writer.py): the hand's own sure digits help read its unsure ones."""

from __future__ import annotations

import numpy as np
import pytest

from ocr import cnn, digits, layout, writer
from ocr.cell import Cell
from ocr.cellread import anchors
from ocr.glyphs import Glyph
from ocr.result import NUMBER
from padsynth import handwriting as hw
from scorepad.boxes import Box
from scorepad.rules import get_rules

N = len(digits.CLASSES)


def _probs(*rows: dict[int, float]) -> np.ndarray:
    out = np.full((len(rows), N), 1e-4, np.float32)
    for i, row in enumerate(rows):
        for k, p in row.items():
            out[i, k] = p
        out[i] /= out[i].sum()
    return out


def _unit(*hot: int, dim: int = 8) -> np.ndarray:
    v = np.zeros(dim, np.float32)
    v[list(hot)] = 1.0
    return v / np.linalg.norm(v)


def _hand(*unsure: tuple[dict[int, float], np.ndarray]) -> tuple[np.ndarray, np.ndarray,
                                                                    dict[int, int]]:
    """A sheet of one consistent hand: three sure 4s and two sure 1s (rows 0-4, the
    anchors), then the unsure glyphs given as (probabilities, features)."""
    four, one = _unit(0, 1), _unit(5)
    probs = _probs(*[{4: 0.999}] * 3, *[{1: 0.999}] * 2, *[p for p, _ in unsure])
    feats = np.stack([four, four, four, one, one, *[f for _, f in unsure]])
    return probs, feats, {0: 4, 1: 4, 2: 4, 3: 1, 4: 1}


def test_an_unsure_glyph_like_the_hands_own_4s_reads_4() -> None:
    # an unsure glyph (1 at 0.6) shaped almost exactly like this hand's 4s
    like_4 = 0.97 * _unit(0, 1) + 0.243 * _unit(7)  # similarity 0.97 to the 4s
    probs, feats, anchors = _hand(({1: 0.6, 4: 0.35}, like_4))
    out = writer.adapt(probs, feats, anchors)
    assert int(np.argmax(out[5])) == 4
    assert out[5].sum() == pytest.approx(1.0, abs=1e-5)
    np.testing.assert_array_equal(out[:5], probs[:5])  # the anchors keep their readings


def test_a_sure_reading_like_the_4s_a_box_says_is_no_anchor_and_is_adapted() -> None:
    # rows 0-2: the 4s of this hand's 40s in Large Straight (the box says them); row 5: a
    # glyph of the same shape read surely as 1 (an unfamiliar hand's 4), and two true 1s
    four, one = _unit(0, 1), _unit(5)
    probs = _probs(*[{4: 0.999}] * 3, *[{1: 0.999}] * 2, {1: 0.995, 4: 0.004})
    feats = np.stack([four, four, four, one, one, 0.98 * four + 0.2 * _unit(7)])
    anchors = {0: 4, 1: 4, 2: 4, 3: 1, 4: 1, 5: 1}
    said = {0, 1, 2}
    assert writer.disown(feats / np.linalg.norm(feats, axis=1, keepdims=True), anchors,
                         said) == {0: 4, 1: 4, 2: 4, 3: 1, 4: 1}
    out = writer.adapt(probs, feats, anchors, said)
    assert int(np.argmax(out[5])) == 4  # no longer an anchor: it reads as the hand's 4s
    np.testing.assert_array_equal(out[3:5], probs[3:5])  # the true 1s stay anchors
    # without the box's word, the sure 1 stays an anchor and keeps its reading
    np.testing.assert_array_equal(writer.adapt(probs, feats, anchors)[5], probs[5])


def test_a_glyph_unlike_every_anchor_keeps_its_reading() -> None:
    probs, feats, anchors = _hand(({7: 0.6, 1: 0.35}, _unit(6)))  # similarity 0 to all
    np.testing.assert_allclose(writer.adapt(probs, feats, anchors), probs, rtol=1e-5)


def test_a_loose_likeness_is_no_evidence() -> None:
    # similarity 0.71 to the 4s: under NEUTRAL, nothing moves (a 4 and a 1 of one hand can
    # look that alike)
    probs, feats, anchors = _hand(({1: 0.55, 4: 0.4}, _unit(0, 1, 2, 3)))
    np.testing.assert_allclose(writer.adapt(probs, feats, anchors), probs, rtol=1e-5)


def test_without_anchors_nothing_changes() -> None:
    probs = _probs({1: 0.6, 4: 0.35}, {3: 0.5, 9: 0.5})
    feats = np.stack([_unit(0), _unit(0)])
    np.testing.assert_array_equal(writer.adapt(probs, feats, {}), probs)


def test_a_sheet_of_many_hands_is_not_adapted_to() -> None:
    # the sure 4s are not alike (each another writer's): the hand is not one hand
    probs, feats, anchors = _hand(({1: 0.6, 4: 0.35}, _unit(0, 1)))
    feats[1], feats[2] = _unit(0, 2), _unit(1, 3)
    assert writer.consistency(feats[:5], np.array([4, 4, 4, 1, 1])) < writer.CONSISTENT
    np.testing.assert_array_equal(writer.adapt(probs, feats, anchors), probs)


def _row(field: Box) -> layout.Row:
    return next(r for r in layout.FRONT.rows if r.field is field)


def _cell(field: Box, n: int, wide: bool = False) -> Cell:
    g = Glyph(np.full((20, 10), 255, np.uint8), 0, 10, 0, 20)
    return Cell(_row(field), 0, 0, (0, 0, 1, 1), np.zeros((1, 1), np.uint8),
                 np.zeros((1, 1), np.uint8), [g] * n, NUMBER, wide=wide)


def test_anchors_are_sure_legal_cells_and_boxes_with_one_value_of_that_length() -> None:
    rules = get_rules(None)
    probs = _probs(
        {1: 0.999}, {2: 0.999},  # Chance 12, read surely: anchors 1 and 2
        {1: 0.8, 7: 0.2},  # Chance 1, unsure: no anchor
        {8: 0.6}, {5: 0.5},  # Full House, two glyphs: only 25 is legal, so 2 and 5
        {9: 0.9999},  # Fours 9, sure but illegal: no anchor
        {3: 0.9999}, {3: 0.9999},  # Chance 33 in a wide glyph's cell: no anchor
        {2: 0.9999},  # an alternative segmentation (k=1) is never an anchor
    )
    spans = [
        (_cell(Box.CHANCE, 2), 0, [0, 1]),
        (_cell(Box.CHANCE, 1), 0, [2]),
        (_cell(Box.FULL_HOUSE, 2), 0, [3, 4]),
        (_cell(Box.FOURS, 1), 0, [5]),
        (_cell(Box.CHANCE, 2, wide=True), 0, [6, 7]),
        (_cell(Box.CHANCE, 1), 1, [8]),
    ]
    # ... the Full House's two said by the box, the Chance's read
    assert anchors(probs, spans, rules) == ({0: 1, 1: 2, 3: 2, 4: 5}, {3, 4})


def test_the_cnn_gives_the_same_probabilities_with_its_features() -> None:
    font = hw.available(hw.EVAL_FONTS)[0]
    masks = [hw.glyph(font, str(d), 60) for d in range(10)]
    model = cnn.load()
    probs, feats = model.classify_embed(masks)
    np.testing.assert_allclose(probs, model.classify(masks), atol=1e-5)
    hidden = model.nets[0].w_fc.shape[0]
    assert feats.shape == (10, hidden * len(model.nets))
    for i in range(len(model.nets)):  # each member's part has unit length
        part = feats[:, i * hidden: (i + 1) * hidden]
        np.testing.assert_allclose(np.linalg.norm(part, axis=1), 1.0, atol=1e-4)
