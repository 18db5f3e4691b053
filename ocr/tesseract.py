"""Every tesseract call of the project goes through this module, always with a timeout.

The reader asks an ``Engine`` to read many small images (cells) at once; the
real engine writes them as a multi-page TIFF and runs one tesseract process
over it (process start-up dominates the cost of a single call), or over each
part of it at once where a scan may use more than one core (``default_processes``),
parsing the TSV output page by page.  ``FakeEngine`` answers from a function, for fast tests.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import os
import shutil
import subprocess
import tempfile
import time
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
                 lang: str = "eng", psm: int = 7, processes: int | None = None) -> None:
        self.binary = binary or shutil.which("tesseract") or "tesseract"
        self.timeout = timeout
        self.lang = lang
        self.psm = psm
        self.processes = processes

    def available(self) -> bool:
        return shutil.which(self.binary) is not None or Path(self.binary).is_file()

    def read_batch(self, images: Sequence[np.ndarray]) -> list[OcrText]:
        if not images:
            return []
        if not self.available():
            raise OcrEngineError("ocr_engine_missing", "tesseract is not installed")
        chunks = split_batch(len(images), self.processes or default_processes())
        env = dict(os.environ, OMP_THREAD_LIMIT="1")
        procs: list[subprocess.Popen[bytes]] = []
        outs: list[tuple[int, bytes, bytes]] = []
        with tempfile.TemporaryDirectory(prefix="scorepad-ocr-") as tmp:
            try:
                for i, (a, b) in enumerate(chunks):
                    tif = Path(tmp) / f"cells{i}.tif"
                    pages = [Image.fromarray(im) for im in images[a:b]]
                    pages[0].save(tif, save_all=True, append_images=pages[1:],
                                  compression="tiff_lzw", dpi=(300, 300))
                    cmd = [self.binary, str(tif), "stdout", "-l", self.lang, "--psm",
                           str(self.psm), "tsv"]
                    procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                                  stderr=subprocess.PIPE, env=env))
                deadline = time.monotonic() + self.timeout
                for proc in procs:
                    out, err = proc.communicate(timeout=max(deadline - time.monotonic(), 0.01))
                    outs.append((proc.returncode, out, err))
            except subprocess.TimeoutExpired:
                raise OcrEngineError("ocr_timeout",
                                     f"tesseract took longer than {self.timeout:g}s") from None
            except OSError as exc:
                raise OcrEngineError("ocr_engine_missing", f"cannot run tesseract: {exc}") from None
            finally:  # none left running, every pipe closed, whatever happened
                for proc in procs:
                    if proc.poll() is None:
                        proc.kill()
                    proc.wait()
                    for pipe in (proc.stdout, proc.stderr):
                        if pipe is not None:
                            pipe.close()
        texts: list[OcrText] = []
        for (returncode, out, err), (a, b) in zip(outs, chunks, strict=True):
            if returncode != 0:
                lines = err.decode("utf-8", "replace").strip().splitlines()
                raise OcrEngineError("ocr_failed",
                                     f"tesseract failed: {lines[-1] if lines else returncode}")
            texts += parse_tsv(out.decode("utf-8", "replace"), b - a)
        return texts


MIN_CHUNK = 12  # images: fewer are not worth another tesseract start-up (about 0.1 s)


def default_processes() -> int:
    """Tesseract processes for one batch: the thread cap a scan runs under (``scorepad
    worker --threads`` sets OMP_THREAD_LIMIT), else up to two of the machine's cores."""
    try:
        cap = int(os.environ.get("OMP_THREAD_LIMIT", "0"))
    except ValueError:
        cap = 0
    return cap if cap > 0 else min(2, os.cpu_count() or 1)


def split_batch(n: int, processes: int) -> list[tuple[int, int]]:
    """``n`` images -> (start, end) runs, one per process, none shorter than MIN_CHUNK."""
    k = max(1, min(processes, n // MIN_CHUNK))
    edges = [round(i * n / k) for i in range(k + 1)]
    return list(itertools.pairwise(edges))


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


class Remembering:
    """An engine that reads each distinct image once: one scan's searches read the same
    printed labels again (the last search before a photo is refused repeats the first one's
    grids; a table sought again, warped afresh, is ``labels.PlacedReads``' part).  Made for
    one scan: what it remembers is that photo's."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.name = engine.name
        self._read: dict[tuple[tuple[int, ...], bytes], OcrText] = {}

    def read_batch(self, images: Sequence[np.ndarray]) -> list[OcrText]:
        keys = [(im.shape, hashlib.blake2b(np.ascontiguousarray(im).tobytes(),
                                           digest_size=16).digest()) for im in images]
        new: dict[tuple[tuple[int, ...], bytes], np.ndarray] = {}
        for key, im in zip(keys, images, strict=True):
            if key not in self._read:
                new.setdefault(key, im)
        if new:
            self._read.update(zip(new, self.engine.read_batch(list(new.values())), strict=True))
        return [self._read[key] for key in keys]


class NullEngine:
    """No OCR engine: every image reads as nothing (the classifier alone decides)."""

    name = "none"

    def read_batch(self, images: Sequence[np.ndarray]) -> list[OcrText]:
        return [OcrText("", 0.0) for _ in images]
