"""The project's own handwritten-digit classifiers: the shared glyph normalisation,
the classes, and the earlier MLP ensemble (``ocr/digits.npz``).

Classes: the digits 0-9 and three ways of scratching a box out (a dash, a slash,
an X).  The MLP weights are trained by ``scripts/train_digits.py``; the reader's
default is the CNN of ``ocr/cnn.py`` (``DEFAULT``).  Nothing is downloaded or
trained at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

CLASSES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "dash", "slash", "x")
N_DIGITS = 10
SIDE = 28
FIT = 20
WEIGHTS = Path(__file__).with_name("digits.npz")


class ModelMissing(RuntimeError):
    """The weights file is missing: run scripts/train_digits.py."""


BIG = 36  # glyphs are thinned and re-stroked at this size before shrinking to 20x20


def _skeleton(binary: np.ndarray) -> np.ndarray:
    """Morphological skeleton (Lantuejoul) of a 0/1 uint8 image."""
    kernel = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    skel = np.zeros_like(binary)
    img = binary.copy()
    for _ in range(BIG):
        opened = cv2.morphologyEx(img, cv2.MORPH_OPEN, kernel)
        skel |= img & (1 - opened)
        img = cv2.erode(img, kernel)
        if not img.any():
            break
    return skel


def normalize(mask: np.ndarray) -> np.ndarray:
    """An ink mask (any size, >0 = ink) -> 28x28 float32 in [0, 1], MNIST-style.

    The stroke is thinned to its skeleton and drawn again at one width, so bold
    and light pens, fonts and MNIST look alike to the classifier.
    """
    m = (mask > 0).astype(np.uint8)
    ys, xs = np.nonzero(m)
    if len(xs) == 0:
        return np.zeros((SIDE, SIDE), np.float32)
    m = m[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    h, w = m.shape
    s = BIG / max(h, w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    fitted = cv2.resize(m.astype(np.float32), (nw, nh), interpolation=cv2.INTER_LINEAR) > 0.5
    big = cv2.copyMakeBorder(fitted.astype(np.uint8), 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0)
    stroke = cv2.dilate(_skeleton(big), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4, 4)))
    stroke = stroke[2:-2, 2:-2].astype(np.float32)
    fh, fw = max(1, round(h * FIT / max(h, w))), max(1, round(w * FIT / max(h, w)))
    small = cv2.resize(stroke, (fw, fh), interpolation=cv2.INTER_AREA)
    out = np.zeros((SIDE, SIDE), np.float32)
    y0, x0 = (SIDE - fh) // 2, (SIDE - fw) // 2
    out[y0: y0 + fh, x0: x0 + fw] = small
    return out


HOG_CELL, HOG_BINS = 7, 9
N_FEATURES = SIDE * SIDE + (SIDE // HOG_CELL) ** 2 * HOG_BINS + 2


def hog(px: np.ndarray) -> np.ndarray:
    """Histograms of gradient orientation over 7x7 cells of a 28x28 image (L2-normalised)."""
    gy, gx = np.gradient(px)
    mag = np.hypot(gx, gy)
    ang = np.mod(np.arctan2(gy, gx), np.pi)
    b = np.minimum((ang / np.pi * HOG_BINS).astype(np.int64), HOG_BINS - 1)
    n = SIDE // HOG_CELL
    cell = (np.arange(SIDE) // HOG_CELL)
    idx = (cell[:, None] * n + cell[None, :]) * HOG_BINS + b
    h = np.bincount(idx.ravel(), weights=mag.ravel(), minlength=n * n * HOG_BINS)
    norm = float(np.linalg.norm(h))
    out: np.ndarray = (h / norm if norm > 0 else h).astype(np.float32)
    return out


def features(mask: np.ndarray) -> np.ndarray:
    """28x28 pixels, their HOG (gradient orientations), and the crop's shape."""
    m = mask > 0
    ys, xs = np.nonzero(m)
    if len(xs) == 0:
        return np.zeros(N_FEATURES, np.float32)
    h, w = ys.max() - ys.min() + 1, xs.max() - xs.min() + 1
    extra = np.array([np.log(w / h), m.sum() / (h * w)], np.float32)
    px = normalize(mask)
    return np.concatenate([px.ravel(), hog(px), extra]).astype(np.float32)


@dataclass(frozen=True)
class Model:
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    mean: np.ndarray
    std: np.ndarray

    def hidden(self, x: np.ndarray) -> np.ndarray:
        """Rows of features -> the hidden layer (the classifier's own picture of a glyph)."""
        z = (x - self.mean) / self.std
        out: np.ndarray = np.maximum(z @ self.w1 + self.b1, 0)
        return out

    def proba(self, x: np.ndarray, h: np.ndarray | None = None) -> np.ndarray:
        """Rows of features -> class probabilities (rows sum to 1)."""
        if h is None:
            h = self.hidden(x)
        logits = h @ self.w2 + self.b2
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        p: np.ndarray = e / e.sum(axis=1, keepdims=True)
        return p



_KEYS = ("w1", "b1", "w2", "b2", "mean", "std")


@dataclass(frozen=True)
class Ensemble:
    """A few MLPs trained from different starts; their probabilities are averaged
    (more accurate, and less sure of itself where the members disagree)."""

    models: tuple[Model, ...]

    def proba(self, x: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.mean([m.proba(x) for m in self.models], axis=0)
        return out

    def classify(self, masks: list[np.ndarray]) -> np.ndarray:
        """Ink masks -> (n, len(CLASSES)) probabilities."""
        if not masks:
            return np.zeros((0, len(CLASSES)), np.float32)
        return self.proba(np.stack([features(k) for k in masks]))

    def save(self, path: Path) -> None:
        arrays = {f"{k}_{i}": getattr(m, k).astype(np.float16)
                  for i, m in enumerate(self.models) for k in _KEYS}
        np.savez_compressed(path, n_models=np.array(len(self.models)), **arrays)


@lru_cache(maxsize=2)
def load(path: Path = WEIGHTS) -> Ensemble:
    if not path.is_file():
        raise ModelMissing(f"digit classifier weights not found at {path}")
    with np.load(path) as z:
        if "n_models" in z.files:
            n = int(z["n_models"])
            return Ensemble(tuple(
                Model(**{k: z[f"{k}_{i}"].astype(np.float32) for k in _KEYS}) for i in range(n)))
        return Ensemble((Model(**{k: z[k].astype(np.float32) for k in _KEYS}),))


class Classifier(Protocol):
    """What the reader needs of a digit classifier (the MLPs here, or ``ocr.cnn``)."""

    def classify(self, masks: list[np.ndarray]) -> np.ndarray: ...


# The classifier the reader uses: "cnn" (ocr/digits_cnn.npz, ocr/cnn.py) or "mlp" (digits.npz).
DEFAULT = "cnn"


def default_model() -> Classifier:
    if DEFAULT == "cnn":
        from . import cnn

        return cnn.load()
    return load()


def classify(masks: list[np.ndarray], model: Classifier | None = None) -> np.ndarray:
    """Ink masks -> (n, len(CLASSES)) probabilities."""
    if not masks:
        return np.zeros((0, len(CLASSES)), np.float32)
    return (model or default_model()).classify(masks)
