"""A cell's ink: separated from paper and ruled-line remnants, then cut into glyphs."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from .paper import grain, paper_level

INK_STRONG = 0.3  # darkness (share below the paper) that is surely ink
INK_MIN = 0.2  # ... and the least darkness that can start a stroke (pale pencil)
INK_GROW = 0.5  # strokes grow from ink into pixels this share as dark (a digit written lighter)
BAND_EDGE = 0.3  # the thickest remnant of a band's edge, as a share of the cell's height


@dataclass
class Glyph:
    mask: np.ndarray  # uint8 0/255
    x0: int
    x1: int
    y0: int
    y1: int


def ink_mask(cell: np.ndarray) -> np.ndarray:
    """A flattened cell crop -> ink mask (uint8 0/255), grid-line remnants and specks removed."""
    if cell.size == 0:
        return np.zeros_like(cell)
    bg = paper_level(cell)
    if bg <= 0:
        return np.zeros_like(cell)
    darkness = (bg - cell.astype(np.float32)) / max(bg, 1.0)
    # Hysteresis: strokes are grown from clearly dark pixels into fainter ones, so a
    # light pencil or a blurred photo still gives whole strokes.
    dmax = float(darkness.max())
    strong_at = INK_STRONG if dmax >= 2 * INK_STRONG else max(INK_MIN, 0.5 * dmax)
    weak_at = INK_GROW * strong_at if dmax >= 2 * INK_STRONG else 0.7 * strong_at
    weak = (darkness > weak_at).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(weak, connectivity=8)
    has_strong = np.zeros(n, bool)
    has_strong[np.unique(labels[darkness > strong_at])] = True
    mask = (has_strong[labels] & (labels > 0)).astype(np.uint8) * 255
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, cw, ch, area = stats[i]
        if area < 14:
            continue
        at_top_bottom, at_sides = y == 0 or y + ch >= h, x == 0 or x + cw >= w
        touches = at_top_bottom or at_sides
        # a sliver of a ruled line lies along the edge it touches (a tall tally stroke
        # that reaches the top of the cell is not one)
        if (at_top_bottom and ch <= 4) or (at_sides and cw <= 4):
            continue
        # ... and a thicker one (a blurred or bold rule cut a little inside the cell) runs
        # the cell's whole length along its edge, which no digit or scratch does
        thin = max(4.0, 0.2 * min(h, w))
        if at_top_bottom and x == 0 and x + cw >= w:
            if ch <= thin:
                continue
            # ... or the edge of a dark band above or below the row (GAME #n, LOWER
            # SECTION), thicker still but flush with the edge the whole way: a dash is
            # drawn clear of it
            edge = labels[0] if y == 0 else labels[h - 1]
            if ch <= BAND_EDGE * h and np.count_nonzero(edge == i) >= 0.9 * w:
                continue
        if at_sides and y == 0 and y + ch >= h and cw <= thin:
            continue
        if touches and area < 40:
            continue
        keep[i] = True
    out: np.ndarray = (keep[labels]).astype(np.uint8) * 255
    return out


FAINT = 0.09  # darkness (share below the paper) of the faintest stroke looked for beside ink
# (0.12 until 2026-11-28: a pale leading 1 at 0.10, beside a dark 0 or 8, was lost: 10 read a
# sure 0, 18 a sure 8)
GRAIN_FAINT = 4.0  # ... or this many times the paper's grain (standard deviations), if more
NEAR = 5  # pixels round the ink (a square) that are its soft edge, not a pale stroke
BRIDGE = 5  # a pale stroke's pieces this far apart, one above the other, are one stroke
FAINT_WIDE = 1.2  # ... a stroke's area at least this many times its height (no hairline)
FAINT_HIGH = 0.6  # ... which must be this high for the cell's own ink to count as a digit
FAINT_NARROW = 0.5  # ... and thin for its size, or this narrow for its height (a 1)


def faint_ink(cell: np.ndarray, mask: np.ndarray, digit_h: int = 0) -> np.ndarray | None:
    """Digit-sized strokes much paler than the cell's ink (a digit written lightly beside dark
    ones), which ``ink_mask`` leaves out: None when there are none.  A cell without ink of
    its own measures them against ``digit_h`` (none looked for when it is 0)."""
    ys = np.nonzero(mask.any(axis=1))[0]
    if len(ys) == 0 and digit_h <= 0:
        return None
    ink_h = int(ys[-1] - ys[0] + 1) if len(ys) else digit_h
    found = _pale(cell, mask)
    if found is None:
        return None
    darkness, near, pale = found
    # (a pale stroke broken up by the threshold, as a thin 1 is, is one stroke)
    pale = cv2.morphologyEx(pale, cv2.MORPH_CLOSE, np.ones((BRIDGE, 3), np.uint8)) & (near == 0)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(pale, connectivity=8)
    h, w = mask.shape
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, cw, ch, area = (int(v) for v in stats[i])
        at_sides, at_ends = x == 0 or x + cw >= w, y == 0 or y + ch >= h
        # a stroke: tall as a digit, and thin for its size away from its ends (not shading)
        # or narrow for its height (a 1, perhaps cut by the margin); off the cell's sides,
        # unless pale, clear of its top and bottom and no sliver (a pale 1 the cut went
        # through: a ruled line's remnant runs the cut's whole height or along its side,
        # a neighbour's digit is dark)
        # (the darkest pixel looked up only for such a stroke: a cell has many specks)
        side_ok = (at_sides and not at_ends and cw > 4
                   and float(darkness[labels == i].max()) < INK_STRONG)
        if ((not at_sides or side_ok) and ch >= FAINT_HIGH * ink_h and area >= FAINT_WIDE * ch
                and ((area <= 0.6 * cw * ch and not at_ends) or cw <= FAINT_NARROW * ch)):
            keep[i] = True
    if not keep.any():
        return None
    out: np.ndarray = keep[labels].astype(np.uint8) * 255
    return out


def _pale(cell: np.ndarray, mask: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Each pixel's darkness (share below the paper), the ink's soft edge round ``mask``, and
    the pixels darker than FAINT off that edge (uint8 0/1); None on a black crop."""
    bg = paper_level(cell)
    if bg <= 0:
        return None
    darkness = (bg - cell.astype(np.float32)) / bg
    near = cv2.dilate(mask, np.ones((NEAR, NEAR), np.uint8))  # the ink's own soft edge is no digit
    # a grainy photo's specks (a small sensor in poor light, the paper flattened from a
    # shaded cell) are as dark as a clean photo's pale pencil: a stroke stands out of the grain
    faint = max(FAINT, GRAIN_FAINT * grain(cell) / bg)
    return darkness, near, ((darkness > faint) & (near == 0)).astype(np.uint8)


MARK_HIGH = 0.3  # a pale mark beside the ink at least this share of its height ...
MARK_AREA = 8  # ... and this many pixels: a digit too faint to be read whole, perhaps


def pale_marks(cell: np.ndarray, mask: np.ndarray) -> bool:
    """Pale ink beside the cell's own, on its line, too small or broken up for ``faint_ink``
    to read as a digit: the pieces of a leading 1 written lightly (117 read a sure 7 beside
    two faint strokes, and the column was accused).  The reading is then not sure."""
    ys = np.nonzero(mask.any(axis=1))[0]
    found = _pale(cell, mask)
    if len(ys) == 0 or found is None:
        return False
    y0, y1 = int(ys[0]), int(ys[-1]) + 1
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(found[2], connectivity=8)
    h, w = mask.shape
    for i in range(1, n):
        x, y, cw, ch, area = (int(v) for v in stats[i])
        if (area >= MARK_AREA and ch >= MARK_HIGH * (y1 - y0) and y < y1 and y + ch > y0
                and x > 0 and x + cw < w and y > 0 and y + ch < h):
            return True
    return False


def glyphs(mask: np.ndarray) -> list[Glyph]:
    """Ink -> glyphs left to right; parts that overlap in x are one glyph (a 5's flag)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    parts: list[list[Any]] = sorted(
        ([int(stats[i][0]), int(stats[i][0] + stats[i][2]), int(stats[i][1]),
          int(stats[i][1] + stats[i][3]), [i]] for i in range(1, n)),
        key=lambda p: int(p[0]),
    )
    merged: list[list[Any]] = []
    for p in parts:
        if merged:
            q = merged[-1]
            overlap = min(q[1], p[1]) - max(q[0], p[0])
            narrow = min(q[1] - q[0], p[1] - p[0])
            if overlap > 0.5 * narrow:
                q[0], q[1] = min(q[0], p[0]), max(q[1], p[1])
                q[2], q[3] = min(q[2], p[2]), max(q[3], p[3])
                q[4] += p[4]
                continue
        merged.append(p)
    # Fragments (a broken stroke) join their nearest neighbour.
    if len(merged) > 1:
        tallest = max(q[3] - q[2] for q in merged)
        changed = True
        while changed and len(merged) > 1:
            changed = False
            for i, q in enumerate(merged):
                if q[3] - q[2] >= 0.45 * tallest:
                    continue
                gaps = []
                for j in (i - 1, i + 1):
                    if 0 <= j < len(merged):
                        o = merged[j]
                        gaps.append((max(o[0] - q[1], q[0] - o[1], 0), j))
                gap, j = min(gaps)
                if gap > 0.3 * tallest:
                    continue
                o = merged[j]
                o[0], o[1] = min(o[0], q[0]), max(o[1], q[1])
                o[2], o[3] = min(o[2], q[2]), max(o[3], q[3])
                o[4] += q[4]
                del merged[i]
                changed = True
                break
    out = []
    for x0, x1, y0, y1, ids in merged:
        sub = np.isin(labels[y0:y1, x0:x1], ids).astype(np.uint8) * 255
        out.append(Glyph(sub, x0, x1, y0, y1))
    return out


def join(a: Glyph, b: Glyph) -> Glyph:
    """Two neighbouring glyphs as one (an alternative segmentation)."""
    x0, x1, y0, y1 = min(a.x0, b.x0), max(a.x1, b.x1), min(a.y0, b.y0), max(a.y1, b.y1)
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for g in (a, b):
        region = m[g.y0 - y0: g.y1 - y0, g.x0 - x0: g.x1 - x0]
        np.maximum(region, g.mask, out=region)
    return Glyph(m, x0, x1, y0, y1)


DIGIT_ASPECT = 0.75  # a digit is at most about this wide for its height
MAYBE_TWO = 1.35  # glyph widths, in the hand's digit widths: perhaps two digits that touch
TWO = 1.35  # ... as likely two as one
THREE = 2.6  # ... three
FOUR = 3.4  # ... four (a four-digit total of the six games, written in one stroke)
DIGIT_HIGH = 0.6  # share of the hand's usual digit height a glyph needs to be split (not a dash)
WIDER_THAN_HIGH = 1.1  # ... and how much wider than high it must be to be surely several


MAX_CUTS = 3  # places where touching digits may be cut apart, tried in every combination


def cut_points(g: Glyph) -> list[int]:
    """Where a glyph of touching digits may be cut (x within the glyph): the columns of least
    ink, each the thinnest in its neighbourhood, none near the glyph's ends."""
    w, h = g.x1 - g.x0, g.y1 - g.y0
    if w < 8:
        return []
    ink = np.convolve((g.mask > 0).sum(axis=0).astype(np.float32), np.ones(3) / 3, "same")
    edge = max(2, int(0.18 * min(w, h)))
    order = np.argsort(ink[edge: w - edge], kind="stable") + edge
    near = max(2, int(0.2 * h))  # two cuts closer than this would cut a sliver
    out: list[int] = []
    for x in order:
        if all(abs(int(x) - c) >= near for c in out):
            out.append(int(x))
        if len(out) == MAX_CUTS:
            break
    return sorted(out)


def split(g: Glyph, cuts: Sequence[int]) -> list[Glyph] | None:
    """A glyph cut into pieces at ``cuts`` (x within the glyph): the segmentation of digits
    that touch or overlap; None when a piece holds no ink."""
    edges = [0, *cuts, g.x1 - g.x0]
    pieces = []
    for a, b in zip(edges, edges[1:], strict=False):
        sub = g.mask[:, a:b]
        rows = np.nonzero(sub.any(axis=1))[0]
        if len(rows) == 0 or b - a < 2:
            return None
        y0, y1 = int(rows[0]), int(rows[-1]) + 1
        pieces.append(Glyph(sub[y0:y1].copy(), g.x0 + a, g.x0 + b, g.y0 + y0, g.y0 + y1))
    return pieces


def halves(g: Glyph) -> list[Glyph] | None:
    """A glyph cut in two at its thinnest column in its middle 30-70% (perhaps two digits)."""
    w = g.x1 - g.x0
    if w < 8:
        return None
    ink = (g.mask > 0).sum(axis=0)
    lo, hi = int(w * 0.3), int(w * 0.7) + 1
    return split(g, [lo + int(np.argmin(ink[lo:hi]))])


def splits(g: Glyph, n: int) -> list[list[Glyph]]:
    """Every way of cutting a glyph into ``n`` pieces at its ``cut_points``."""
    out = []
    for cuts in itertools.combinations(cut_points(g), n - 1):
        pieces = split(g, cuts)
        if pieces is not None:
            out.append(pieces)
    return out


SEAM_STEP = 0.2  # what a seam pays for a step sideways, in pixels of ink crossed
SEAM_HOLE = 2.0  # ... for a pixel inside a closed loop
SEAM_SHIFTS = (-0.15, 0.0, 0.15)  # where seams are sought: the even border, a little left, right
SEAM_BAND = 0.1  # ... give or take this much (both in digit widths: the glyph's width / n)


def _holes(mask: np.ndarray) -> np.ndarray:
    """The paper inside the glyph's closed loops (not reached from its edge)."""
    paper = (mask == 0).astype(np.uint8)
    _n, labels = cv2.connectedComponents(np.pad(paper, 1, constant_values=1), connectivity=4)
    inner: np.ndarray = labels[1:-1, 1:-1]
    holes: np.ndarray = (inner != labels[0, 0]) & (paper > 0)
    return holes


def seam_splits(g: Glyph, n: int) -> list[list[Glyph]]:
    """A glyph of ``n`` touching digits parted along seams: top-to-bottom paths crossing
    the least ink, near where its width puts the digits' borders (each seam a little left
    or right of there: one way each, for the classifier to judge).  Digits written close
    in a slanted hand overlap in x (the 3 of a 30 reaching under the 0): every vertical
    cut goes through one of them, a seam goes round them and crosses where they touch."""
    ink = (g.mask > 0).astype(np.float64)
    h, w = ink.shape
    if n < 2 or w < 4 * n or h < 4:
        return []
    # a seam down a 0's (a 6's, an 8's) hole would cross only its two thin strokes: the
    # cheapest way of all, and the 0 cut in two; inside a closed loop costs more than ink
    ink[_holes(g.mask)] = SEAM_HOLE
    share = w / n
    bands: list[tuple[int, int]] = []  # (lo, hi) columns of each seam: shift by shift, k by k
    for shift in SEAM_SHIFTS:
        for k in range(1, n):
            at = share * (k + shift)
            lo = max(int(at - SEAM_BAND * share), 1)
            hi = min(int(math.ceil(at + SEAM_BAND * share)), w - 1)
            if hi - lo < 2:
                return []
            bands.append((lo, hi))
    cuts = _seams(ink, bands)  # (seams, h): the first column right of each seam, row by row
    cols = np.arange(w)
    out = []
    for i in range(len(SEAM_SHIFTS)):
        owner = np.zeros((h, w), np.int32)  # which piece each pixel falls in
        for k in range(n - 1):
            owner += cols[None, :] >= cuts[i * (n - 1) + k][:, None]
        pieces = []
        for k in range(n):
            sub = np.where(owner == k, g.mask, 0).astype(np.uint8)
            ys, xs = np.nonzero(sub)
            if len(xs) == 0:
                break
            x0, x1, y0, y1 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
            pieces.append(Glyph(sub[y0:y1, x0:x1].copy(), g.x0 + x0, g.x0 + x1,
                                g.y0 + y0, g.y0 + y1))
        if len(pieces) == n:
            out.append(pieces)
    return out


def _seams(cost_map: np.ndarray, bands: list[tuple[int, int]]) -> np.ndarray:
    """The cheapest top-to-bottom 8-connected path within each band of columns (lo, hi):
    per band and row, the first column right of it.  All bands in one pass (side by side,
    walled off from each other)."""
    h = cost_map.shape[0]
    parts, starts = [], []
    wall = np.full((h, 1), np.inf)
    at = 0
    for lo, hi in bands:
        starts.append(at)
        parts += [cost_map[:, lo:hi], wall]
        at += hi - lo + 1
    grid = np.hstack(parts)
    width = grid.shape[1]
    span = np.arange(width)
    moves = np.zeros((h, width), np.int8)
    cost = grid[0].copy()
    step = np.full((3, width), np.inf)
    for y in range(1, h):
        step[0, 1:] = cost[:-1] + SEAM_STEP
        step[1] = cost
        step[2, :-1] = cost[1:] + SEAM_STEP
        choice = step.argmin(axis=0)
        moves[y] = choice - 1
        cost = step[choice, span] + grid[y]
    xs = np.array([s + int(np.argmin(cost[s: s + hi - lo])) for s, (lo, hi) in zip(
        starts, bands, strict=True)])
    cuts = np.zeros((len(bands), h), np.int64)
    offsets = np.array([lo - s for s, (lo, _hi) in zip(starts, bands, strict=True)])
    for y in range(h - 1, -1, -1):
        cuts[:, y] = xs + offsets
        if y:
            xs = xs + moves[y, xs]
    return cuts


def digits_in(g: Glyph, median_w: float, median_h: float) -> tuple[int, bool]:
    """How many digits a glyph's width says it holds, in the hand's digit widths (the
    median glyph's, or a digit's for the median height where most glyphs are digits that
    touch), and whether it may be more than one."""
    w, h = g.x1 - g.x0, g.y1 - g.y0
    if median_h and h < DIGIT_HIGH * median_h:
        return 1, False  # a dash, a stroke
    unit = min(median_w or w, DIGIT_ASPECT * median_h) if median_h else median_w
    if unit <= 0:
        return 1, False
    r = w / unit
    if w < WIDER_THAN_HIGH * h:  # a wide single digit (a 0, a 4) is seldom wider than high
        return 1, r >= MAYBE_TWO
    n = 4 if r >= FOUR else 3 if r >= THREE else 2 if r >= TWO else 1
    return n, r >= MAYBE_TWO


# How wide a glyph of one, two or three digits is, in the hand's digit widths (the unit of
# ``digits_in``): the median and the spread of its logarithm, and how common each is (pairs
# and triples written touching are common; a single digit is commonest). Measured on
# development photos of the official pad (htmlpads seeds 300000-300089); four (only the
# back's TOTAL OF ALL GAMES, too few to measure) carried on from three.
WIDTHS = {1: (1.1, 0.3, 0.7), 2: (1.95, 0.2, 0.25), 3: (2.75, 0.18, 0.05), 4: (3.6, 0.16, 0.01)}
MAX_ODDS = 20.0  # the width alone never makes a cut more than this much likelier than none


def width_odds(g: Glyph, pieces: int, median_w: float, median_h: float) -> float:
    """The odds, from its width alone, that a glyph holds ``pieces`` digits rather than one."""
    unit = min(median_w or (g.x1 - g.x0), DIGIT_ASPECT * median_h) if median_h else median_w
    if unit <= 0 or pieces not in WIDTHS:
        return 0.0
    r = max(g.x1 - g.x0, 1) / unit

    def density(k: int) -> float:
        mid, spread, share = WIDTHS[k]
        return share * math.exp(-(math.log(r / mid)) ** 2 / (2 * spread ** 2)) / spread

    return min(density(pieces) / max(density(1), 1e-12), MAX_ODDS)


def count_marks(gs: list[Glyph]) -> int:
    """Check marks / tally strokes: one per glyph (a very wide glyph is joined strokes)."""
    if not gs:
        return 0
    heights = [g.y1 - g.y0 for g in gs]
    h = float(np.median(heights))
    n = 0
    for g in gs:
        if g.y1 - g.y0 < 0.35 * h:
            continue
        w = g.x1 - g.x0
        n += max(1, round(w / max(h * 0.9, 1))) if w > 1.6 * h else 1
    return n

