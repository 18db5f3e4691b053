"""The tesseract engine itself: batches split over processes, order kept, timeouts and
failures as stable codes (the real tesseract, and small stand-in binaries for failures)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from ocr.printed import print_font
from ocr.tesseract import (
    FakeEngine,
    OcrEngineError,
    OcrText,
    Remembering,
    TesseractEngine,
    default_processes,
    split_batch,
)

from .conftest import needs_tesseract

WORDS = ["Aces", "Twos", "Threes", "Fours", "Fives", "Sixes", "Chance", "YAHTZEE", "TOTAL",
         "BONUS", "GRAND", "SCORE"]


def word_image(text: str) -> np.ndarray:
    im = Image.new("L", (40 + 26 * len(text), 60), 255)
    ImageDraw.Draw(im).text((20, 10), text, fill=0, font=print_font(32))
    return np.asarray(im)


@pytest.mark.parametrize(("n", "processes", "want"), [
    (5, 2, [(0, 5)]),  # too few to be worth a second start-up
    (24, 2, [(0, 12), (12, 24)]),
    (46, 2, [(0, 23), (23, 46)]),
    (46, 1, [(0, 46)]),
    (30, 8, [(0, 15), (15, 30)]),  # no run shorter than MIN_CHUNK
])
def test_a_batch_is_split_into_runs_in_order(n: int, processes: int,
                                             want: list[tuple[int, int]]) -> None:
    assert split_batch(n, processes) == want


def test_a_scan_keeps_to_the_thread_cap_it_runs_under(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMP_THREAD_LIMIT", "1")  # as `scorepad worker --threads 1` sets it
    assert default_processes() == 1
    monkeypatch.delenv("OMP_THREAD_LIMIT")
    assert 1 <= default_processes() <= 2


@needs_tesseract
def test_reading_in_several_processes_gives_the_same_texts_in_the_same_order() -> None:
    images = [word_image(WORDS[i % len(WORDS)]) for i in range(36)]
    one = TesseractEngine(processes=1).read_batch(images)
    three = TesseractEngine(processes=3).read_batch(images)
    assert [t.text for t in three] == [t.text for t in one]
    assert [t.text for t in one][:len(WORDS)] == WORDS


def test_a_remembering_engine_reads_each_distinct_image_once_in_order() -> None:
    inner = FakeEngine(lambda i, im: OcrText(f"{int(im[0, 0])}x{im.shape[1]}", 0.9))
    engine = Remembering(inner)
    a, b, c = (np.full((4, w), v, np.uint8) for v, w in ((1, 5), (2, 5), (1, 6)))
    assert [t.text for t in engine.read_batch([a, b, a.copy(), c])] == ["1x5", "2x5", "1x5",
                                                                         "1x6"]
    assert inner.images == 3  # the copy of a was not read again
    assert [t.text for t in engine.read_batch([c, b])] == ["1x6", "2x5"]
    assert inner.calls == 1  # nothing new: the engine was not asked at all
    assert [t.text for t in engine.read_batch([np.full((4, 5), 3, np.uint8), a])] == ["3x5",
                                                                                      "1x5"]
    assert (inner.calls, inner.images) == (2, 4)
    assert engine.read_batch([]) == []


@needs_tesseract
def test_a_remembering_tesseract_reads_as_tesseract_does() -> None:
    images = [word_image(w) for w in WORDS[:6]]
    plain = TesseractEngine(processes=1).read_batch(images)
    engine = Remembering(TesseractEngine(processes=1))
    engine.read_batch(images[:3])
    assert engine.read_batch(images) == plain


def stand_in(tmp_path: Path, body: str) -> str:
    path = tmp_path / "tesseract"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def test_a_tesseract_that_hangs_is_a_timeout_and_is_stopped(tmp_path: Path) -> None:
    engine = TesseractEngine(stand_in(tmp_path, "exec sleep 30"), timeout=0.5, processes=2)
    t0 = time.monotonic()
    with pytest.raises(OcrEngineError) as exc:
        engine.read_batch([word_image("Aces")] * 30)
    assert exc.value.code == "ocr_timeout"
    assert time.monotonic() - t0 < 10  # both processes killed, not waited for


def test_a_tesseract_that_fails_says_why(tmp_path: Path) -> None:
    engine = TesseractEngine(stand_in(tmp_path, "echo 'Error opening data file' >&2; exit 1"))
    with pytest.raises(OcrEngineError) as exc:
        engine.read_batch([word_image("Aces")])
    assert exc.value.code == "ocr_failed" and "Error opening data file" in str(exc.value)
