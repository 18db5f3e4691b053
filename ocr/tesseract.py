"""Every tesseract call of the project goes through this module, always with a timeout.

The reader asks an ``Engine`` to read many small images (cells) at once; the
real engine writes them as one multi-page TIFF and runs ONE tesseract process
over it (process start-up dominates the cost of a single call), parsing the
TSV output page by page.  ``FakeEngine`` answers from a function, for fast tests.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from PIL import Image

DEFAULT_TIMEOUT = 20.0  # seconds for one batch (a whole sheet)


class OcrEngineError(RuntimeError):
    """The OCR engine is missing, failed or timed out (``code`` is stable)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


@dataclass(frozen=True)
class OcrWord:
    text: str
    confidence: float  # 0..1


@dataclass(frozen=True)
class OcrText:
    """What the engine read in one image: the words, joined, and their confidence."""

    text: str
    confidence: float  # 0..1; the lowest word confidence, 0 when nothing was read
    words: tuple[OcrWord, ...] = ()


class Engine(Protocol):
    name: str

    def read_batch(self, images: Sequence[np.ndarray]) -> list[OcrText]:
        """Read each image (grayscale uint8, dark ink on white) as one line of text."""
        ...


class TesseractEngine:
    """Debian's tesseract, one process per batch, page segmentation 'single line'."""

    name = "tesseract"

    def __init__(self, binary: str | None = None, *, timeout: float = DEFAULT_TIMEOUT,
                 lang: str = "eng", psm: int = 7) -> None:
        self.binary = binary or shutil.which("tesseract") or "tesseract"
        self.timeout = timeout
        self.lang = lang
        self.psm = psm

    def available(self) -> bool:
        return shutil.which(self.binary) is not None or Path(self.binary).is_file()

    def read_batch(self, images: Sequence[np.ndarray]) -> list[OcrText]:
        if not images:
            return []
        if not self.available():
            raise OcrEngineError("ocr_engine_missing", "tesseract is not installed")
        with tempfile.TemporaryDirectory(prefix="scorepad-ocr-") as tmp:
            tif = Path(tmp) / "cells.tif"
            pages = [Image.fromarray(im) for im in images]
            pages[0].save(tif, save_all=True, append_images=pages[1:], compression="tiff_lzw",
                          dpi=(300, 300))
            env = dict(os.environ, OMP_THREAD_LIMIT="1")
            cmd = [self.binary, str(tif), "stdout", "-l", self.lang, "--psm", str(self.psm),
                   "tsv"]
            try:
                proc = subprocess.run(cmd, capture_output=True, timeout=self.timeout, env=env,
                                      check=False)
            except subprocess.TimeoutExpired:
                raise OcrEngineError("ocr_timeout",
                                     f"tesseract took longer than {self.timeout:g}s") from None
            except OSError as exc:
                raise OcrEngineError("ocr_engine_missing", f"cannot run tesseract: {exc}") from None
        if proc.returncode != 0:
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise OcrEngineError("ocr_failed", f"tesseract failed: {err[-1] if err else proc.returncode}")
        return parse_tsv(proc.stdout.decode("utf-8", "replace"), len(images))


def parse_tsv(tsv: str, pages: int) -> list[OcrText]:
    """Tesseract TSV (all pages) -> one OcrText per page, in page order."""
    words: list[list[OcrWord]] = [[] for _ in range(pages)]
    reader = csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE)
    for row in reader:
        if row.get("level") != "5":
            continue
        try:
            page = int(row["page_num"]) - 1
            conf = float(row["conf"])
        except (KeyError, TypeError, ValueError):
            continue
        text = (row.get("text") or "").strip()
        if text and 0 <= page < pages:
            words[page].append(OcrWord(text, max(conf, 0.0) / 100.0))
    out = []
    for ws in words:
        if ws:
            out.append(OcrText(" ".join(w.text for w in ws), min(w.confidence for w in ws),
                               tuple(ws)))
        else:
            out.append(OcrText("", 0.0))
    return out


class FakeEngine:
    """An engine for tests: ``answer(index, image)`` gives each image's reading."""

    name = "fake"

    def __init__(self, answer: Callable[[int, np.ndarray], OcrText] | None = None) -> None:
        self.answer = answer or (lambda i, im: OcrText("", 0.0))
        self.calls = 0
        self.images = 0

    def read_batch(self, images: Sequence[np.ndarray]) -> list[OcrText]:
        self.calls += 1
        self.images += len(images)
        return [self.answer(i, im) for i, im in enumerate(images)]


class NullEngine:
    """No OCR engine: every image reads as nothing (the classifier alone decides)."""

    name = "none"

    def read_batch(self, images: Sequence[np.ndarray]) -> list[OcrText]:
        return [OcrText("", 0.0) for _ in images]
