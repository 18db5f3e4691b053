"""Shared helpers for the OCR tests: rendered pads and photos."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from ocr.layout import Side
from padsynth import handwriting as hw
from padsynth import render
from scorepad.card import Sheet

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None,
                                     reason="tesseract-ocr is not installed (scripts/setup.sh)")


def photo_of(sheet: Sheet, side: Side = Side.FRONT, *, seed: int = 1,
             spec: render.PhotoSpec | None = None) -> bytes:
    """A photo of ``sheet`` written with a held-out font (no MNIST: deterministic look)."""
    rng = np.random.default_rng(seed)
    style = render.make_style(rng, hw.available(hw.EVAL_FONTS), None, mnist_share=0.0)
    style.zero_style = "0"
    page = render.write(sheet, side, style, rng)
    return render.photograph(page, spec or render.PhotoSpec(angle=2.0, perspective=0.01,
                                                            light=0.1, shadow=0.0, blur=0.4,
                                                            noise=2.0, jpeg=90), rng)


@pytest.fixture
def front_sheet() -> Sheet:
    return render.random_front(np.random.default_rng(11))
