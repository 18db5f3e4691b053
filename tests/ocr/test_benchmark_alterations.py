"""The benchmark's altered photos (``benchmarks/ocr.py --altered``): each alteration gives a
photo that opens, the size, light or turn it names, and the same bytes every time."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from PIL import Image

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "ocr.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchmark_ocr", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmark_ocr"] = module
    spec.loader.exec_module(module)
    return module


def _photo(w: int = 1200, h: int = 1600) -> bytes:
    rng = np.random.default_rng(3)
    a = np.clip(rng.normal(180, 30, (h, w, 3)), 0, 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(a).save(out, "JPEG", quality=90)
    return out.getvalue()


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_every_alteration_gives_a_photo_deterministically(bench: ModuleType) -> None:
    data = _photo()
    for name, alter in bench.ALTERATIONS.items():
        out = alter(data)
        assert _open(out).format == "JPEG", name
        assert alter(data) == out, name  # the same photo every run


def test_the_alterations_do_what_they_say(bench: ModuleType) -> None:
    data = _photo()
    alt = bench.ALTERATIONS
    assert max(_open(alt["1000px"](data)).size) == 1000
    assert max(_open(alt["800px"](data)).size) == 800
    assert max(_open(alt["4000px"](data)).size) == 4000
    assert _open(alt["sideways"](data)).size == (1600, 1200)
    before = np.asarray(_open(data).convert("L"), np.float32).mean()
    assert np.asarray(_open(alt["dim"](data)).convert("L"), np.float32).mean() < 0.6 * before
    warm = np.asarray(_open(alt["tungsten"](data)), np.float32)
    assert warm[..., 2].mean() < 0.7 * warm[..., 0].mean()
    assert _open(alt["grey"](data)).mode == "L"
