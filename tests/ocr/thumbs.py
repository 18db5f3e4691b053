"""A photo in which the reader cannot find the pad: the card held down by two thumbs on a
checked tablecloth, the thumbs over both left corners of its frame and of the paper (and
over the labels of the first and last rows), a finger along the label column.

Used by the tests of corners marked by hand (tests/ocr, tests/api, tests/web).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image

from ocr.layout import CARD_H, CARD_W, Side
from padsynth import handwriting as hw
from padsynth import render
from scorepad.card import Sheet


@dataclass
class HeldPad:
    jpeg: bytes
    sheet: Sheet  # what is written on the card
    corners: list[tuple[float, float]]  # the card's frame in the photo: its TL, TR, BR, BL
    size: tuple[int, int]  # the photo's width and height


THUMBS = ((0, 0), (0, CARD_H))  # where thumbs cover the card (card pixels): its left corners
THUMB = (140, 85)  # a thumb's half axes in the photo's pixels
FINGER = (122, 660)  # where a finger lies along the label column (card pixels)
FINGER_AXES = (70, 480)  # its half axes in the photo's pixels


@lru_cache(maxsize=4)
def held_pad(seed: int = 12, thumbs: bool = True) -> HeldPad:
    """Seed 12: one player's four games (77 written cells); the reader finds no pad in it.
    ``thumbs=False``: the same photo as it would be without the thumbs and the tablecloth."""
    sheet = render.random_front(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1000)
    style = render.make_style(rng, hw.available(hw.EVAL_FONTS), None, mnist_share=0.0)
    style.zero_style = "0"
    page = render.write(sheet, Side.FRONT, style, rng)
    where: list[np.ndarray] = []
    spec = render.PhotoSpec(angle=6.0, perspective=0.02, light=0.1, shadow=0.0, blur=0.5,
                            noise=2.0, jpeg=92)
    photo = render.photograph(page, spec, rng, transform=where)
    m = where[0]
    margin = render.PAGE_MARGIN

    def at(x: float, y: float) -> np.ndarray:
        """A point of the card (card pixels) in the photo."""
        p = np.array([[[margin + x, margin + y]]], np.float32)
        out: np.ndarray = cv2.perspectiveTransform(p, m)[0, 0]
        return out

    corners = [(float(p[0]), float(p[1])) for p in (at(0, 0), at(CARD_W, 0), at(CARD_W, CARD_H),
                                                    at(0, CARD_H))]
    img = np.asarray(Image.open(io.BytesIO(photo)).convert("RGB")).astype(np.float32)
    if not thumbs:
        return HeldPad(photo, sheet, corners, (img.shape[1], img.shape[0]))
    h, w = img.shape[:2]
    # a checked tablecloth around the paper
    yy, xx = np.mgrid[0:h, 0:w]
    check = (((xx // 40) + (yy // 40)) % 2).astype(np.float32)
    cloth = np.stack([200 - 60 * check, 205 - 60 * check, 210 - 50 * check], -1)
    paper = np.array([at(-margin, -margin), at(CARD_W + margin, -margin),
                      at(CARD_W + margin, CARD_H + margin), at(-margin, CARD_H + margin)])
    on_paper = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(on_paper, paper.astype(np.int32), 1)
    img = np.where(on_paper[..., None] > 0, img, cloth)
    # two thumbs hold the card down over its left corners (over the title and the row
    # labels, no value cell)
    for x, y in THUMBS:
        c = at(x, y)
        cv2.ellipse(img, (int(c[0]), int(c[1])), THUMB, 35, 0, 360, (190, 140, 120), -1)
        cv2.ellipse(img, (int(c[0]) + 12, int(c[1]) - 8), (THUMB[0] // 2, THUMB[1] // 2), 35, 0,
                    360, (205, 160, 140), -1)
    # and a finger of the other hand lies along the label column (over the printed labels,
    # no value cell): the table's rows cannot be told by their labels either
    c = at(FINGER[0], FINGER[1])
    cv2.ellipse(img, (int(c[0]), int(c[1])), FINGER_AXES, -4, 0, 360, (188, 138, 118), -1)
    cv2.ellipse(img, (int(c[0]) + 10, int(c[1]) - 20), (FINGER_AXES[0] // 2, FINGER_AXES[1] - 60),
                -4, 0, 360, (204, 158, 138), -1)
    img = cv2.GaussianBlur(img, (0, 0), 0.6)
    img += np.random.default_rng(seed).normal(0, 2.0, img.shape)
    buf = io.BytesIO()
    Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(buf, "JPEG", quality=92)
    return HeldPad(buf.getvalue(), sheet, corners, (w, h))
