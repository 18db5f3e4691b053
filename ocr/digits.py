"""What the reader needs of a handwritten-digit classifier: the classes, the glyph
normalisation and the interface of a classifier (the shipped one: ``ocr/cnn.py``).

Classes: the digits 0-9, three ways of scratching a box out (a dash, a slash,
an X), and "several": digits that touch or overlap, seen as one glyph (so a pair read
whole, or a pair cut in the wrong place, does not pass for one digit).  The weights are
trained by ``scripts/train_digits.py`` and shipped; nothing is downloaded or trained at run
time.
"""

from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

CLASSES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "dash", "slash", "x", "several")
N_DIGITS = 10
SCRATCH = slice(N_DIGITS, N_DIGITS + 3)  # the columns of the scratch-out classes
SEVERAL = N_DIGITS + 3
SIDE = 28
FIT = 20


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
    return normalize_many([mask])[0]


TILES = 32  # glyphs per row of the mosaic ``normalize_many`` thins at once


def normalize_many(masks: list[np.ndarray]) -> list[np.ndarray]:
    """``normalize`` of each mask, the thinning done once for all of them: each glyph at
    BIG, in its own tile of a mosaic (its ink two pixels or more from the tile's edge, and
    the thinning's steps look one pixel away, so no tile touches another's result)."""
    out: list[np.ndarray] = [np.zeros((SIDE, SIDE), np.float32) for _ in masks]
    fitted: list[tuple[int, np.ndarray, int, int]] = []  # (index, ink at BIG, h, w)
    for i, mask in enumerate(masks):
        m = (mask > 0).astype(np.uint8)
        ys, xs = np.nonzero(m)
        if len(xs) == 0:
            continue
        m = m[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
        h, w = m.shape
        s = BIG / max(h, w)
        nh, nw = max(1, round(h * s)), max(1, round(w * s))
        fitted.append((i, cv2.resize(m.astype(np.float32), (nw, nh),
                                     interpolation=cv2.INTER_LINEAR) > 0.5, h, w))
    if not fitted:
        return out
    tile = BIG + 4
    rows = -(-len(fitted) // TILES)
    mosaic = np.zeros((rows * tile, min(len(fitted), TILES) * tile), np.uint8)
    for k, (_i, big, _h, _w) in enumerate(fitted):
        y, x = (k // TILES) * tile + 2, (k % TILES) * tile + 2
        mosaic[y: y + big.shape[0], x: x + big.shape[1]] = big
    strokes = cv2.dilate(_skeleton(mosaic), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4, 4)))
    for k, (i, big, h, w) in enumerate(fitted):
        y, x = (k // TILES) * tile + 2, (k % TILES) * tile + 2
        stroke = strokes[y: y + big.shape[0], x: x + big.shape[1]].astype(np.float32)
        fh, fw = max(1, round(h * FIT / max(h, w))), max(1, round(w * FIT / max(h, w)))
        small = cv2.resize(stroke, (fw, fh), interpolation=cv2.INTER_AREA)
        y0, x0 = (SIDE - fh) // 2, (SIDE - fw) // 2
        out[i][y0: y0 + fh, x0: x0 + fw] = small
    return out


class Classifier(Protocol):
    """What the reader needs of a digit classifier (``ocr.cnn.CnnEnsemble``, or a test's fake)."""

    def classify(self, masks: list[np.ndarray]) -> np.ndarray: ...


def classify(masks: list[np.ndarray], model: Classifier) -> np.ndarray:
    """Ink masks -> (n, len(CLASSES)) probabilities."""
    if not masks:
        return np.zeros((0, len(CLASSES)), np.float32)
    return model.classify(masks)
