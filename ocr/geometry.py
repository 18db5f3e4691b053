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


def line_maps(gray: np.ndarray, k: int, darker: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """The horizontal and the vertical dark lines at least ``k`` pixels long (uint8 0/255),
    ``darker`` grey levels below the local mean or more."""
    binv = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                 31, darker)
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


def _small(lines: np.ndarray, blur: float = 1.5) -> np.ndarray:
    s = cv2.resize(lines, (CARD_W // SMALL, CARD_H // SMALL), interpolation=cv2.INTER_AREA)
    s = cv2.GaussianBlur(s, (0, 0), blur)
    s = s - s.mean()
    n = float(np.linalg.norm(s))
    out: np.ndarray = s / n if n > 0 else s
    return out


@lru_cache(maxsize=16)
def template(side: Side, blur: float = 1.5, div: int = 2) -> np.ndarray:
    """The blank card's ruled lines as ``best_match`` compares them (drawn at 1/``div``)."""
    from .printed import blank_card

    gray = np.asarray(blank_card(side).resize((CARD_W // div, CARD_H // div)))
    return _small(lines_map(gray, 1 / div), blur)


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


def _matches(gray: np.ndarray, quad: np.ndarray) -> list[Match]:
    """The quadrilateral (as seen: TL, TR, BR, BL) scored in its four quarter turns against
    the blank front and back."""
    out = []
    for r in range(4):
        q = rotate_quad(quad, r)
        small = warp(gray, q, (CARD_W // 2, CARD_H // 2))
        lm = _small(lines_map(small, 0.5))
        for side in Side:
            out.append(Match(q, side, r, float((lm * template(side)).sum())))
    return out


def best_match(gray: np.ndarray, quads: list[np.ndarray] | None = None) -> Match | None:
    """The best of ``quads`` (default: the ``candidates`` found), turn and side."""
    best: Match | None = None
    for quad in candidates(gray) if quads is None else quads:
        for m in _matches(gray, quad):
            if best is None or m.score > best.score:
                best = m
    return best


# ---------------------------------------------------------------- corners marked by hand

SOFT_BLUR = 4.0  # line pictures blurred so, a frame some pixels off still matches
SNAP_REACH = 0.08  # a marked edge may move onto a printed line this share of the card away
RECT_MARGIN = 0.1  # the marked quadrilateral is looked at with this margin around it


def _frame(quad: np.ndarray, margin: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The homography that makes ``quad`` (TL, TR, BR, BL) an upright rectangle of about its
    own size with ``margin`` of its size around it, and that picture's size."""
    w = int(round((np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2))
    h = int(round((np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2))
    w, h = max(w, 20), max(h, 20)
    mx, my = round(margin * w), round(margin * h)
    dst = np.array([[mx, my], [mx + w, my], [mx + w, my + h], [mx, my + h]], np.float32)
    return cv2.getPerspectiveTransform(quad.astype(np.float32), dst), (w + 2 * mx, h + 2 * my)


def rectify(gray: np.ndarray, quad: np.ndarray,
            margin: float = RECT_MARGIN) -> tuple[np.ndarray, np.ndarray]:
    """The quadrilateral (TL, TR, BR, BL) warped to an upright rectangle of about its own
    size, with ``margin`` of its size around it; and the homography gray -> that image."""
    m, size = _frame(quad, margin)
    out: np.ndarray = cv2.warpPerspective(gray, m, size, flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE)
    return out, m


def widened(quad: np.ndarray, margin: float = RECT_MARGIN) -> np.ndarray:
    """The quadrilateral with ``margin`` of its size added all round (what ``rectify`` shows)."""
    m, (w, h) = _frame(quad, margin)
    whole = np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float32)
    out: np.ndarray = cv2.perspectiveTransform(whole, np.linalg.inv(m)).reshape(4, 2)
    return out


def _edge_lines(gray: np.ndarray, quad: np.ndarray) -> list[list[np.ndarray]]:
    """For each edge of ``quad`` (top, right, bottom, left as seen), the long printed lines
    near it that run along it (a few degrees off where a corner was marked off), each as
    two points in ``gray`` on its outer border."""
    rect, m = rectify(gray, quad)
    rh, rw = rect.shape
    h, w = rh / (1 + 2 * RECT_MARGIN), rw / (1 + 2 * RECT_MARGIN)
    mx, my = (rw - w) / 2, (rh - h) / 2
    hm, vm = line_maps(rect, max(15, int(0.05 * min(w, h))))
    back = np.linalg.inv(m)
    out: list[list[np.ndarray]] = []
    # (line map, the edge is horizontal, where it was marked, outer side)
    for lmap, horizontal, at, outer in ((hm, True, my, -1), (vm, False, mx + w, 1),
                                         (hm, True, my + h, 1), (vm, False, mx, -1)):
        across, length, start = (h, w, mx) if horizontal else (w, h, my)
        lo = max(0, int(at - SNAP_REACH * across))
        hi = int(at + SNAP_REACH * across) + 1
        band = lmap[lo:hi, :] if horizontal else lmap[:, lo:hi].T  # rows: across the edge
        n, labels, stats, _ = cv2.connectedComponentsWithStats(band, connectivity=8)
        lines: list[np.ndarray] = []
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_WIDTH] < 0.25 * length:  # text, a digit: not a long line
                continue
            ys, xs = np.nonzero(labels == i)
            slope, mid = np.polyfit(xs.astype(np.float64), ys.astype(np.float64), 1)
            thick = stats[i, cv2.CC_STAT_AREA] / stats[i, cv2.CC_STAT_WIDTH]
            mid += lo + outer * thick / 2  # the line's outer border
            ends = [[x, slope * x + mid] for x in (start, start + length)]
            pts = np.array(ends if horizontal else [[y, x] for x, y in ends], np.float32)
            line = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), back).reshape(2, 2)
            if all(np.abs(line - o).max() > 2 for o in lines):
                lines.append(line)
        out.append(lines)
    return out


def _corners_of(edges: list[np.ndarray]) -> np.ndarray | None:
    """The convex quadrilateral (TL, TR, BR, BL) of four edge lines (top, right, bottom,
    left; each two points), or None."""
    hom = [np.cross([*e[0], 1.0], [*e[1], 1.0]) for e in edges]
    pts = []
    for a, b in ((3, 0), (0, 1), (1, 2), (2, 3)):
        p = np.cross(hom[a], hom[b])
        if abs(p[2]) < 1e-9:
            return None
        pts.append(p[:2] / p[2])
    quad = np.array(pts, np.float32)
    return quad if is_convex(quad) else None


def is_convex(quad: np.ndarray) -> bool:
    """True when the four points, in order, turn the same way at every corner."""
    q = np.asarray(quad, np.float64)
    a = q[[1, 2, 3, 0]] - q  # each side
    b = a[[1, 2, 3, 0]]  # ... and the next one
    turns = (a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).tolist()
    return all(t > 0 for t in turns) or all(t < 0 for t in turns)


def _score(gray: np.ndarray, quad: np.ndarray, side: Side, blur: float = 1.5) -> float:
    """``best_match``'s score of one quadrilateral (card TL first) and side; with a larger
    ``blur`` (at half the size) it forgives a frame some pixels off."""
    div = 2 if blur <= 1.5 else 4
    small = warp(gray, quad, (CARD_W // div, CARD_H // div))
    return float((_small(lines_map(small, 1 / div), blur) * template(side, blur, div)).sum())


def fit_marked(gray: np.ndarray, quad: np.ndarray) -> Match:
    """The card whose corners a person marked (``quad``: TL, TR, BR, BL as seen): its
    quarter turn and side by the template, as ``best_match`` scores a found quadrilateral.

    A finger is some pixels off, so each edge moves onto a printed line near it (the
    card's frame) when the template then matches better (one edge at a time, first with
    the line pictures blurred so that the other edges may still be off); an edge with no
    better line stays where it was marked.  The two likeliest turns and sides are tried."""
    # each edge: as marked, or one of the lines near it
    choices = [[quad[[e, (e + 1) % 4]], *lines] for e, lines in enumerate(_edge_lines(gray, quad))]
    seen: dict[tuple[int, ...], np.ndarray | None] = {}
    scores: dict[tuple[object, ...], float] = {}

    def corners(state: tuple[int, ...]) -> np.ndarray | None:
        if state not in seen:
            seen[state] = _corners_of([choices[e][k] for e, k in enumerate(state)])
        return seen[state]

    def score(state: tuple[int, ...], r: int, side: Side, blur: float) -> float:
        key = (state, r, side, blur)
        if key not in scores:
            q = corners(state)
            scores[key] = -2.0 if q is None else _score(gray, rotate_quad(q, r), side, blur)
        return scores[key]

    marked: tuple[int, ...] = (0, 0, 0, 0)
    rough = sorted(((score(marked, r, side, SOFT_BLUR), r, side) for r in range(4) for side in Side),
                   key=lambda t: -t[0])
    _, r, side = rough[0]
    best = Match(rotate_quad(quad, r), side, r, score(marked, r, side, 1.5))
    for _, r, side in rough[:2]:
        state = marked
        for blur in (SOFT_BLUR, 1.5):
            for _ in range(3):  # rounds: an edge's best line depends a little on the others
                moved = False
                for e in range(4):
                    for k in range(len(choices[e])):
                        trial = (*state[:e], k, *state[e + 1:])
                        if score(trial, r, side, blur) > score(state, r, side, blur) + 1e-4:
                            state, moved = trial, True
                if not moved:
                    break
        q = corners(state)
        if q is not None and score(state, r, side, 1.5) > best.score:
            best = Match(rotate_quad(q, r), side, r, score(state, r, side, 1.5))
    final = best_match(gray, [rotate_quad(best.quad, -best.rotation)])
    assert final is not None
    return final if final.score > best.score else best
