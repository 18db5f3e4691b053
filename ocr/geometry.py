"""Finding the printed card in a photo: candidate frames, orientation, front or back.

Each candidate quadrilateral is warped onto the canonical card in its four
rotations, and its ruled lines are compared with the lines of the blank front
and back; the best match gives the frame, which way up it is, and the side.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .layout import CARD_H, CARD_W, Side

SMALL = 4  # template comparison at 1/SMALL of the card size


@dataclass(frozen=True)
class Match:
    quad: np.ndarray  # 4x2 float32 corners in the working image: card TL, TR, BR, BL
    side: Side
    rotation: int  # how many quarter turns the card was rotated in the photo
    score: float  # line-pattern correlation with the blank card, -1..1


def line_maps(gray: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The horizontal and the vertical dark lines at least ``k`` pixels long (uint8 0/255)."""
    binv = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                 31, 12)
    h = cv2.morphologyEx(binv, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1)))
    v = cv2.morphologyEx(binv, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, k)))
    return h, v


def lines_map(gray: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """Long horizontal and vertical dark lines of a card image (float32 0/1)."""
    h, v = line_maps(gray, max(8, int(40 * scale)))
    out: np.ndarray = (cv2.bitwise_or(h, v) > 0).astype(np.float32)
    return out


def flatten(card: np.ndarray) -> np.ndarray:
    """Even out light and shadow: divide by the paper's brightness around each pixel."""
    bg = cv2.morphologyEx(card, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (25, 25)))
    bg = cv2.GaussianBlur(bg, (0, 0), 8).astype(np.float32)
    out: np.ndarray = np.clip(card.astype(np.float32) / np.maximum(bg, 1.0) * 255.0, 0, 255)
    return out.astype(np.uint8)


def _small(lines: np.ndarray) -> np.ndarray:
    s = cv2.resize(lines, (CARD_W // SMALL, CARD_H // SMALL), interpolation=cv2.INTER_AREA)
    s = cv2.GaussianBlur(s, (0, 0), 1.5)
    s = s - s.mean()
    n = float(np.linalg.norm(s))
    out: np.ndarray = s / n if n > 0 else s
    return out


@lru_cache(maxsize=2)
def template(side: Side) -> np.ndarray:
    from .printed import blank_card

    gray = np.asarray(blank_card(side).resize((CARD_W // 2, CARD_H // 2)))
    return _small(lines_map(gray, 0.5))


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Four points -> TL, TR, BR, BL as seen in the image."""
    pts = pts.reshape(4, 2).astype(np.float32)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise from the left (image y points down)
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


MIN_AREA = 0.03  # share of the photo: a pad photographed from afar is still a candidate


def candidates(gray: np.ndarray, limit: int = 6) -> list[np.ndarray]:
    """Quadrilaterals that could be the card's frame, largest first."""
    area = gray.shape[0] * gray.shape[1]
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    found: list[tuple[float, np.ndarray]] = []
    for block, c in ((51, 10), (101, 15)):
        binv = cv2.adaptiveThreshold(blur, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                     cv2.THRESH_BINARY_INV, block, c)
        contours, _ = cv2.findContours(binv, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for cnt in contours:
            a = cv2.contourArea(cnt)
            if a < MIN_AREA * area:
                continue
            peri = cv2.arcLength(cnt, True)
            approx = cv2.approxPolyDP(cnt, 0.02 * peri, True)
            if len(approx) == 4 and cv2.isContourConvex(approx):
                quad = approx.reshape(4, 2).astype(np.float32)
            else:
                quad = cv2.boxPoints(cv2.minAreaRect(cnt)).astype(np.float32)
            found.append((a, order_corners(quad)))
        if len(found) >= limit:
            break
    found.sort(key=lambda t: -t[0])
    out: list[np.ndarray] = []
    for _, q in found:
        if all(np.abs(q - o).max() > 6 for o in out):
            out.append(q)
        if len(out) >= limit:
            break
    return out


def warp(gray: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (CARD_W, CARD_H)) -> np.ndarray:
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    out: np.ndarray = cv2.warpPerspective(gray, m, (w, h), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE)
    return out


def rotate_quad(quad: np.ndarray, quarter_turns: int) -> np.ndarray:
    """Relabel the corners so that the card's top-left is ``quarter_turns`` further on."""
    return np.roll(quad, -quarter_turns, axis=0)


def best_match(gray: np.ndarray) -> Match | None:
    best: Match | None = None
    temps = {s: template(s) for s in Side}
    for quad in candidates(gray):
        for r in range(4):
            q = rotate_quad(quad, r)
            small = warp(gray, q, (CARD_W // 2, CARD_H // 2))
            lm = _small(lines_map(small, 0.5))
            for side, t in temps.items():
                score = float((lm * t).sum())
                if best is None or score > best.score:
                    best = Match(q, side, r, score)
    return best
