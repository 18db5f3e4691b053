"""The classifier's training-only data sources (scripts/): the pen-stroke digit generator."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import digit_strokes  # noqa: E402


@pytest.mark.parametrize("d", range(10))
def test_every_way_of_writing_a_digit_gives_a_cropped_ink_mask(d: int) -> None:
    assert len(digit_strokes.ALLOGRAPHS[d]) >= 3
    rng = np.random.default_rng(d)
    for name in digit_strokes.ALLOGRAPHS[d]:
        m = digit_strokes.synth_digit(d, rng, 48, allograph=name)
        assert m.dtype == np.uint8 and m.ndim == 2
        assert abs(m.shape[0] - 48) <= 2  # the height asked for
        # cropped to the ink: every edge row and column holds some ink
        assert m[0].any() and m[-1].any() and m[:, 0].any() and m[:, -1].any()


def test_the_generator_is_deterministic_and_varied() -> None:
    a = [digit_strokes.synth_digit(4, np.random.default_rng(7), 40) for _ in range(2)]
    assert np.array_equal(a[0], a[1])
    rng = np.random.default_rng(8)
    shapes = {digit_strokes.synth_digit(4, rng, 40).shape for _ in range(20)}
    assert len(shapes) > 5  # slant, width and pen vary


def test_touching_digits_are_one_wide_glyph_of_the_several_class() -> None:
    import train_digits

    from ocr import digits as dg

    rng = np.random.default_rng(3)
    masks = [digit_strokes.synth_digit(d, rng, 40) for d in range(10)] * 3
    labels = list(range(10)) * 3
    pairs, ys = train_digits.several(masks, labels, 30, rng)
    assert ys == [dg.SEVERAL] * 30
    for m in pairs:
        ink = m > 64
        cols = np.nonzero(ink.any(axis=0))[0]
        rows = np.nonzero(ink.any(axis=1))[0]
        # the digits meet or overlap (at most a sliver of paper between them), and the
        # glyph is about two digits wide
        assert np.diff(cols).max() <= 3
        assert cols[-1] - cols[0] >= 0.9 * (rows[-1] - rows[0])
