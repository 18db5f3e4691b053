"""The ruled grid of a pad's table in a photo: where the table is, and its lines.

1. the table: among ``geometry.candidates``, the first quadrilateral whose warp holds a ruled
   grid (the connected web of long lines with the most crossings, together with the webs
   ruled in line with it just above and below: a dark section band interrupts the vertical
   lines) with enough rows and columns; its outermost points (or, where that finds fewer
   lines, its bounding box), mapped back to the photo, are the table's quadrilateral;
2. its lines: horizontal and vertical line maps (morphological opening) -> projection
   profiles -> positions (near duplicates merged).

Where the paper's outline misleads (speckled stone round the pad, a stack of sheets under it),
``web_grid`` finds the table from the photo's web of ruled lines alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry
from .layout import GAMES


def positions(profile: np.ndarray, at: float, merge: int) -> list[int]:
    """Line positions: runs of the profile at or above ``at``, near duplicates merged."""
    idx = np.nonzero(profile >= at)[0]
    if len(idx) == 0:
        return []
    groups: list[list[int]] = [[int(idx[0])]]
    for x in idx[1:]:
        if x - groups[-1][-1] <= merge:
            groups[-1].append(int(x))
        else:
            groups.append([int(x)])
    out = []
    for g in groups:
        w = profile[g[0]: g[-1] + 1]
        out.append(int(round(float((np.arange(g[0], g[-1] + 1) * w).sum() / max(w.sum(), 1e-9)))))
    return out


@dataclass
class Grid:
    """A ruled table in a warp of the photo: lines, and the warp's placement."""

    warp: np.ndarray  # the table, warped upright-ish (not yet turned), flattened
    xs: list[int]  # vertical lines in ``warp``
    ys: list[int]  # horizontal lines in ``warp``
    quad: np.ndarray  # the table's corners in the working image (TL, TR, BR, BL of ``warp``)


def _lines(warp: np.ndarray, faint_rows: bool = False) -> tuple[list[int], list[int]]:
    """The table's column and row rules in its warp; ``faint_rows``: where the columns are
    ruled and the rows barely, the rows' rules sought a third as dark too (the last search
    and a pad's marked corners only: a piece of a table in the first search must stay a
    piece, which the web of lines then finds whole)."""
    h, w = warp.shape
    k = max(15, min(h, w) // 30)
    hm, vm = geometry.line_maps(warp, k)
    ys = _row_rules(hm)
    if len(ys) < 2:
        return [], ys
    xs = _column_rules(vm, ys)
    if faint_rows and len(ys) < FAINT_ROWS and len(xs) >= GAMES + 2:
        # the other way round: the columns ruled darker than the rows, whose pale rules
        # (blurred in a pad photographed small) the line map misses
        fys = _row_rules(geometry.line_maps(warp, k, FAINT_C)[0])
        if len(fys) >= FAINT_ROWS:
            ys, xs = fys, max(xs, _column_rules(vm, fys), key=len)
    if len(xs) < GAMES + 2 and len(ys) >= FAINT_ROWS:
        # a table whose rows are ruled darker than its columns: the official pad's game
        # columns parted by rules so pale that the line map misses them (a table of many
        # rows and a column or two), sought a third as dark
        xs = max(xs, _column_rules(geometry.line_maps(warp, k, FAINT_C)[1], ys), key=len)
    return xs, ys


FAINT_C = 4  # grey levels below the local mean a faint rule is darker by (ink: 12)
FAINT_ROWS = 10  # rows a table needs before its columns' rules are sought faint as well


def _row_rules(hm: np.ndarray) -> list[int]:
    """The horizontal lines of ``hm`` that span half its width, and fainter ones inside rows
    several rows high (``_with_faint``)."""
    # (a line a few pixels off level, a slightly curved page, still fills its band)
    hm = cv2.dilate(hm, cv2.getStructuringElement(cv2.MORPH_RECT, (1, 5)))
    profile = (hm > 0).sum(axis=1) / hm.shape[1]
    return _with_faint(positions(profile, 0.5, 3), profile)


def _column_rules(vm: np.ndarray, ys: list[int]) -> list[int]:
    """The vertical lines of ``vm`` that span 60% of the rows from ``ys[0]`` to ``ys[-1]``."""
    # (a line a few pixels off upright still fills its band)
    vm = cv2.dilate(vm, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 1)))
    return positions((vm[ys[0]: ys[-1] + 1] > 0).sum(axis=0) / max(ys[-1] - ys[0], 1), 0.6, 3)


FAINT_AT = 0.25  # a rule this much of the table wide, inside a row several rows high, is one
TALL_ROW = 1.6  # a row this many usual rows high may hold rules too faint for the first pass


def _with_faint(ys: list[int], profile: np.ndarray) -> list[int]:
    """The rules found, and fainter ones inside rows several usual rows high: under a steep
    view the far end's rules are thin and pale, broken up by the threshold, and fill half
    a row of the line map or less (a pad's upper section as one row seven rows high)."""
    if len(ys) < 5:
        return ys
    usual = float(np.median(np.diff(ys)))
    out = list(ys)
    for a, b in itertools.pairwise(ys):
        if b - a < TALL_ROW * usual:
            continue
        inner: list[int] = []
        for y in positions(profile[a: b], FAINT_AT, 3):
            if min(y, b - a - y, *(abs(a + y - o) for o in inner)) >= 0.5 * usual:
                inner.append(a + y)
        # only rules that part the row into whole rows of the usual height (a section band's
        # edge or a line of print between them would leave a row of no such height)
        if all(_whole_rows(h, usual) for h in np.diff([a, *inner, b])):
            out += inner
    return sorted(out)


def _whole_rows(size: float, usual: float) -> bool:
    """``size`` is a whole number of rows of the ``usual`` height, within 12% (``regularise``
    splits a row of two or three)."""
    n = round(size / usual)
    return n >= 1 and abs(size - n * usual) <= 0.12 * n * usual


def _side_lengths(q: np.ndarray) -> tuple[int, int]:
    w = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    h = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    return max(int(w), 50), max(int(h), 50)


OUTLINE_MARGIN = 0.03  # share of the outline's size added all round before the grid is sought


SECTION_GAP = 0.2  # webs this close above or below (share of the table's height) are one table


# ... overlapping it by at most this much (a frame around it is not; a section askew in the
# warp of the paper's outline, its lines slanted, reaches a tenth into the next one's box)
SECTION_OVERLAP = 0.1


def _whole_table(stats: np.ndarray, best: int, n: int, ruled: Callable[[int], bool]
                 ) -> list[int]:
    """The web ``best`` together with the webs ruled in line with it above and below: a
    dark section band (LOWER SECTION printed white on black) or a printed header interrupts
    the vertical lines, so one table shows as several webs.  Only webs with ruled rows of
    their own (``ruled``) count: the grain of a wooden table beside the pad is a web of
    upright lines in line with it too."""
    x, y, bw, bh = (int(v) for v in stats[best, :4])
    parts = [best]
    others = [i for i in sorted(range(1, n), key=lambda i: -int(stats[i, cv2.CC_STAT_AREA]))[:8]
              if i != best and ruled(i)]
    grown = True
    while grown:
        grown = False
        for i in others:
            ox, oy, ow, oh = (int(v) for v in stats[i, :4])
            if i in parts or (ox >= x and oy >= y and ox + ow <= x + bw and oy + oh <= y + bh):
                continue
            overlap = min(x + bw, ox + ow) - max(x, ox)
            gap = max(oy - (y + bh), y - (oy + oh))  # above or below, not around (a frame)
            if (overlap >= 0.85 * max(bw, ow) and oh >= 0.1 * bh
                    and -SECTION_OVERLAP * bh <= gap <= SECTION_GAP * max(bh, oh)):
                x0, y0 = min(x, ox), min(y, oy)
                x, y, bw, bh = x0, y0, max(x + bw, ox + ow) - x0, max(y + bh, oy + oh) - y0
                parts.append(i)
                grown = True
    return parts


def _ruled(labels: np.ndarray, i: int, hm: np.ndarray, stat: np.ndarray) -> bool:
    """Web ``i`` has ruled rows: two lines, at least, across a quarter of it or more
    (counted as lines, not as rows of pixels: in the warp of an outline fitted askew the
    rules run slanted; and shaded total cells break a rule)."""
    x, y, bw, bh = (int(v) for v in stat[:4])
    rules = (labels[y: y + bh, x: x + bw] == i) & (hm[y: y + bh, x: x + bw] > 0)
    k, _, spans, _ = cv2.connectedComponentsWithStats(rules.astype(np.uint8), connectivity=8)
    return sum(int(spans[j, cv2.CC_STAT_WIDTH]) >= 0.25 * bw for j in range(1, k)) >= 2


def _table_warp(gray: np.ndarray, tquad: np.ndarray, pad: int = 4, faint_rows: bool = False
                ) -> tuple[np.ndarray, list[int], list[int], np.ndarray]:
    """The table warped upright from its quadrilateral (with a margin of ``pad`` pixels, so
    the outer lines are inside), its lines, and the warp's own corners in ``gray``."""
    tw, th = _side_lengths(tquad)
    dst = np.array([[pad, pad], [tw + pad, pad], [tw + pad, th + pad], [pad, th + pad]],
                   np.float32)
    mt = cv2.getPerspectiveTransform(tquad.astype(np.float32), dst)
    twarp = cv2.warpPerspective(gray, mt, (tw + 2 * pad, th + 2 * pad), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    twarp = geometry.flatten(twarp)
    xs, ys = _lines(twarp, faint_rows)
    full = cv2.perspectiveTransform(
        np.array([[[0, 0]], [[tw + 2 * pad, 0]], [[tw + 2 * pad, th + 2 * pad]],
                  [[0, th + 2 * pad]]], np.float32), np.linalg.inv(mt)).reshape(4, 2)
    return twarp, xs, ys, full


def _box(stats: np.ndarray, parts: list[int]) -> np.ndarray:
    """The webs' bounding box (warp pixels), as four corners."""
    x0 = min(int(stats[i, 0]) for i in parts)
    y0 = min(int(stats[i, 1]) for i in parts)
    x1 = max(int(stats[i, 0] + stats[i, 2]) for i in parts)
    y1 = max(int(stats[i, 1] + stats[i, 3]) for i in parts)
    return np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.float32)


def _corners(labels: np.ndarray, parts: list[int]) -> np.ndarray:
    """The table's four corners in its warp: the outermost points of its webs (the warp is
    near upright, so each corner is the extreme of x + y or x - y), which follows the table
    under a perspective the paper's outline did not quite give."""
    ys, xs = np.nonzero(np.isin(labels, parts))
    s, d = xs + ys, xs - ys
    pick = [int(np.argmin(s)), int(np.argmax(d)), int(np.argmax(s)), int(np.argmin(d))]
    return np.array([[[xs[i], ys[i]]] for i in pick], np.float32)


def find_grid(gray: np.ndarray, quads: list[np.ndarray] | None = None,
              faint_rows: bool = False) -> Grid | None:
    """The ruled table: the first candidate quadrilateral (or of ``quads``, e.g. where a
    person marked the pad) that holds a grid of lines.  When none does, the candidates'
    webs are looked at again, each warped upright by its own corners: an outline fitted
    badly (a stack of sheets under the pad, a torn edge) leaves the lines askew in its
    warp, and askew lines fill no row of the projection."""
    found = geometry.candidates(gray) if quads is None else quads
    for deskew in (False, True):
        for quad in found:
            # a little more than the outline found: under a wide-angle lens a table's edges
            # bow out past the straight quadrilateral fitted to them
            grid = _grid_in(gray, geometry.widened(quad, OUTLINE_MARGIN) if quads is None
                            else quad, deskew, faint_rows=faint_rows)
            if grid is not None:
                return grid
    return None


WEB_MARGIN = 0.2  # share of the web's size added all round before its grid is sought again


WEB_PAD = 12  # pixels round the table in its warp: an outer rule must not touch the border


def web_grid(gray: np.ndarray, faint_rows: bool = False) -> Grid | None:
    """The ruled table found from the photo's lines alone, where the paper's outline misled
    the search: on speckled stone or among a stack of sheets the outline found is a piece
    of the table, whose grid holds half its rows.  The photo's largest web of ruled lines
    gives the table's rough corners; around them (with a margin: one section of the table
    may be a web of its own) the grid is sought in the table's own upright warp, where
    the sections line up.  The wider margin round the warp keeps the outer rules off its
    border (there, replicated, a rule darkens its own surroundings and goes unseen)."""
    h, w = gray.shape
    whole = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    rough = _grid_in(gray, whole, True, faint_rows=faint_rows)
    if rough is None:
        return None
    around = geometry.widened(rough.quad, WEB_MARGIN)
    for deskew in (False, True):
        grid = _grid_in(gray, around, deskew, WEB_PAD, faint_rows)
        if grid is not None:
            return grid
    return None


def _grid_in(gray: np.ndarray, quad: np.ndarray, deskew: bool, pad: int = 4,
             faint_rows: bool = False) -> Grid | None:
    w, h = _side_lengths(quad)
    warp = geometry.warp(gray, quad, (w, h))
    hm, vm = geometry.line_maps(warp, max(15, min(h, w) // 30))
    web = cv2.bitwise_or(hm, vm)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(web, connectivity=8)
    m = cv2.getPerspectiveTransform(
        np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32), quad.astype(np.float32))
    # the web with the most crossing lines (not the paper's edge, not the frame)
    best_web, most = 0, 0
    for i in sorted(range(1, n), key=lambda i: -int(stats[i, cv2.CC_STAT_AREA]))[:6]:
        x, y, bw, bh = (int(v) for v in stats[i, :4])
        if bw < 0.3 * w or bh < 0.3 * h:
            continue
        if deskew:
            _, xs, ys, _ = _table_warp(gray, cv2.perspectiveTransform(
                _corners(labels, [i]), m).reshape(4, 2), faint_rows=faint_rows)
            lines = len(xs) * len(ys)
        else:
            sub = labels[y: y + bh, x: x + bw] == i
            lines = (len(positions((sub & (hm[y: y + bh, x: x + bw] > 0)).sum(axis=1) / bw,
                                   0.5, 3))
                     * len(positions((sub & (vm[y: y + bh, x: x + bw] > 0)).sum(axis=0) / bh,
                                     0.5, 3)))
        if lines > most:
            best_web, most = i, lines
    if most < 3 * 5:
        return None
    parts = _whole_table(stats, best_web, n, lambda i: _ruled(labels, i, hm, stats[i]))
    # the grid's corners, back in the working image: the table's own quadrilateral; its
    # outermost points follow a perspective the paper's outline did not quite give, its
    # box is the fallback where a stray mark made an outermost point (the most lines wins)
    warps = [_table_warp(gray, cv2.perspectiveTransform(box, m).reshape(4, 2), pad, faint_rows)
             for box in (_corners(labels, parts), _box(stats, parts))]
    twarp, xs, ys, full = max(warps, key=lambda f: len(f[1]) * len(f[2]))
    if len(xs) >= 3 and len(ys) >= 5:
        return Grid(twarp, xs, ys, full)
    return None

