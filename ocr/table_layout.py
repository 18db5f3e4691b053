"""Layout-adaptive table finding: a pad of another design, found by its ruled lines and labels.

The template match (``geometry.best_match``) only knows our own pad.  This path
knows only that a pad is a ruled table whose first column holds printed labels
in the standard order (Aces ... GRAND TOTAL on the front; NAMES, GAME #1..#6,
TOTAL OF ALL GAMES on the back):

1. the table: among ``geometry.candidates``, the first quadrilateral whose warp
   holds a ruled grid (the largest connected web of long lines) with enough
   rows and columns; the grid's bounding box, mapped back to the photo, is the
   table's quadrilateral;
2. its lines: horizontal and vertical line maps (morphological opening) ->
   projection profiles -> positions (near duplicates merged); a row twice the
   usual height inside the table is split (a missing or faint line);
3. which way up: in each quarter turn whose first column is wider than the
   value columns, the first column's cells are read by tesseract (one batch for
   all turns); the turn whose labels match the known labels best wins;
4. rows: a monotone alignment of the table's rows with ``layout.FRONT_ROWS`` /
   ``BACK_ROWS`` (fuzzy label matching, difflib); unread labels between two
   matched rows are filled in when the gap has as many rows on both sides;
5. columns: front - the six rightmost columns (of roughly equal width) are the
   games, anything between the label column and them (HOW TO SCORE) is
   ignored; back - the columns after the label column are the players.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry
from .layout import BACK_ROWS, FRONT_ROWS, GAMES, Kind, Row, Side
from .tesseract import Engine, OcrText

MATCH_AT = 0.62  # label similarity that counts as a match
MIN_ROWS = {Side.FRONT: 8, Side.BACK: 4}  # matched labels needed to accept a table
FRONT_ROW_H = 50  # the card is scaled so that a front row is this high (as our pad)
BACK_COL_W = 120  # ... and a back value column this wide

# Other ways pads word the labels (normalised: lower case, letters and digits).
_ALIASES: dict[str, tuple[str, ...]] = {
    "UPPER SECTION": ("upper section",),
    "Aces = 1": ("aces", "ones", "aces 1"),
    "Twos = 2": ("twos", "twos 2"),
    "Threes = 3": ("threes", "threes 3"),
    "Fours = 4": ("fours", "fours 4"),
    "Fives = 5": ("fives", "fives 5"),
    "Sixes = 6": ("sixes", "sixes 6"),
    "TOTAL SCORE": ("total score", "total score upper", "subtotal"),
    "BONUS": ("bonus", "bonus 35", "upper bonus"),
    "TOTAL Of Upper": ("total of upper section", "total of upper", "total upper", "total"),
    "LOWER SECTION": ("lower section",),
    "3 of a kind": ("3 of a kind", "three of a kind", "3 kind"),
    "4 of a kind": ("4 of a kind", "four of a kind", "4 kind"),
    "Full House": ("full house",),
    "Sm. Straight": ("sm straight", "small straight", "sm str"),
    "Lg. Straight": ("lg straight", "large straight", "lg str"),
    "YAHTZEE": ("yahtzee",),
    "Chance": ("chance",),
    "YAHTZEE BONUS": ("yahtzee bonus", "bonus yahtzee"),
    "TOTAL Of Lower": ("total of lower section", "total of lower", "total lower"),
    "GRAND TOTAL": ("grand total",),
    "NAMES OF PLAYERS": ("names of players", "players names", "player names", "names", "name",
                         "players"),
    "TOTAL OF ALL GAMES": ("total of all games", "total all games", "total"),
    **{f"GAME #{g + 1}": (f"game {g + 1}", f"game no {g + 1}", f"game {g + 1} score")
       for g in range(GAMES)},
}


def normalise(text: str) -> str:
    t = text.lower().replace("#", " ").replace("&", " ")
    t = re.sub(r"[^a-z0-9]+", " ", t)
    return re.sub(r"\s+", " ", t).strip()


def similarity(text: str, row: Row) -> float:
    """How well a read label matches a row of the standard pad, 0..1."""
    t = normalise(text)
    if len(t) < 3:
        return 0.0
    best = 0.0
    for alias in _ALIASES.get(row.label, (normalise(row.label),)):
        r = difflib.SequenceMatcher(None, t, alias).ratio()
        if len(t) > len(alias) + 2:  # extra printed words ("Aces = 1", "Count and add...")
            r = max(r, 0.95 * difflib.SequenceMatcher(None, t[: len(alias)], alias).ratio())
        best = max(best, r)
    return best


def align(texts: Sequence[str], rows: Sequence[Row]) -> tuple[dict[int, int], float, int]:
    """Table rows -> template rows, in order: (mapping, summed similarity, matched labels).

    A monotone alignment (dynamic programming) of the labels as read; rows whose
    label was not read are filled in between two matched rows when the gap holds
    as many rows in the table as in the template (or as many as the template's
    non-header rows), and outward from the first and last matched rows.
    """
    n, m = len(texts), len(rows)
    sim = np.array([[similarity(t, r) for r in rows] for t in texts]) if n else np.zeros((0, m))
    best = np.zeros((n + 1, m + 1))
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s = sim[i - 1, j - 1]
            diag = best[i - 1, j - 1] + s if s >= MATCH_AT else -1.0
            best[i, j] = max(best[i - 1, j], best[i, j - 1], diag)
    anchors: list[tuple[int, int]] = []
    i, j = n, m
    while i > 0 and j > 0:
        s = sim[i - 1, j - 1]
        if s >= MATCH_AT and best[i, j] == best[i - 1, j - 1] + s:
            anchors.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif best[i, j] == best[i - 1, j]:
            i -= 1
        else:
            j -= 1
    anchors.reverse()
    mapping = dict(anchors)
    total = float(sum(sim[a, b] for a, b in anchors))
    for (i0, j0), (i1, j1) in zip(anchors, anchors[1:], strict=False):
        gap_t = list(range(i0 + 1, i1))
        gap_m = list(range(j0 + 1, j1))
        if len(gap_t) == len(gap_m):
            mapping.update(zip(gap_t, gap_m, strict=True))
        else:
            fields = [k for k in gap_m if rows[k].kind is not Kind.HEADER]
            if len(gap_t) == len(fields):
                mapping.update(zip(gap_t, fields, strict=True))
    if anchors:
        (i0, j0), (i1, j1) = anchors[0], anchors[-1]
        for k in range(1, min(i0, j0) + 1):
            mapping[i0 - k] = j0 - k
        for k in range(1, min(n - 1 - i1, m - 1 - j1) + 1):
            mapping[i1 + k] = j1 + k
    return mapping, total, len(anchors)


# ------------------------------------------------------------------ lines


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


def regularise(ys: list[int]) -> list[int]:
    """Most rows share one height: a row (not the first, often a taller header) two or
    three times that height lost a faint line, and is split evenly."""
    if len(ys) < 5:
        return ys
    hs = np.diff(ys)
    med = float(np.median(hs))
    out = [ys[0]]
    for k, h in enumerate(hs):
        n = int(round(h / med))
        if k > 0 and n in (2, 3) and abs(h - n * med) <= 0.12 * n * med:
            out += [ys[k] + int(round(h * i / n)) for i in range(1, n)]
        out.append(ys[k + 1])
    return out


@dataclass
class Grid:
    """A ruled table in a warp of the photo: lines, and the warp's placement."""

    warp: np.ndarray  # the table, warped upright-ish (not yet turned), flattened
    xs: list[int]  # vertical lines in ``warp``
    ys: list[int]  # horizontal lines in ``warp``
    quad: np.ndarray  # the table's corners in the working image (TL, TR, BR, BL of ``warp``)


def _lines(warp: np.ndarray) -> tuple[list[int], list[int]]:
    h, w = warp.shape
    hm, vm = geometry.line_maps(warp, max(15, min(h, w) // 30))
    # a line a few pixels off level (a slightly curved page) still fills its band
    hm = cv2.dilate(hm, cv2.getStructuringElement(cv2.MORPH_RECT, (1, 5)))
    vm = cv2.dilate(vm, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 1)))
    ys = positions((hm > 0).sum(axis=1) / w, 0.5, 3)
    if len(ys) < 2:
        return [], ys
    span = ys[-1] - ys[0]
    xs = positions((vm[ys[0]: ys[-1] + 1] > 0).sum(axis=0) / max(span, 1), 0.6, 3)
    return xs, ys


def _side_lengths(q: np.ndarray) -> tuple[int, int]:
    w = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    h = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    return max(int(w), 50), max(int(h), 50)


def find_grid(gray: np.ndarray) -> Grid | None:
    """The ruled table: the first candidate quadrilateral that holds a grid of lines."""
    for quad in geometry.candidates(gray):
        w, h = _side_lengths(quad)
        warp = geometry.warp(gray, quad, (w, h))
        hm, vm = geometry.line_maps(warp, max(15, min(h, w) // 30))
        web = cv2.bitwise_or(hm, vm)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(web, connectivity=8)
        # the web with the most crossing lines (not the paper's edge, not the frame)
        best_web, most = 0, 0
        for i in sorted(range(1, n), key=lambda i: -int(stats[i, cv2.CC_STAT_AREA]))[:6]:
            x, y, bw, bh = (int(v) for v in stats[i, :4])
            if bw < 0.3 * w or bh < 0.3 * h:
                continue
            sub = labels[y: y + bh, x: x + bw] == i
            nh = len(positions((sub & (hm[y: y + bh, x: x + bw] > 0)).sum(axis=1) / bw, 0.5, 3))
            nv = len(positions((sub & (vm[y: y + bh, x: x + bw] > 0)).sum(axis=0) / bh, 0.5, 3))
            if nh * nv > most:
                best_web, most = i, nh * nv
        if most < 3 * 5:
            continue
        x, y, bw, bh = (int(v) for v in stats[best_web, :4])
        # the grid's box, back in the working image: the table's own quadrilateral
        m = cv2.getPerspectiveTransform(
            np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32), quad.astype(np.float32))
        box = np.array([[[x, y]], [[x + bw, y]], [[x + bw, y + bh]], [[x, y + bh]]], np.float32)
        tquad = cv2.perspectiveTransform(box, m).reshape(4, 2)
        tw, th = _side_lengths(tquad)
        # a little margin so the outer lines are inside the warp
        pad = 4
        dst = np.array([[pad, pad], [tw + pad, pad], [tw + pad, th + pad], [pad, th + pad]],
                       np.float32)
        mt = cv2.getPerspectiveTransform(tquad, dst)
        twarp = cv2.warpPerspective(gray, mt, (tw + 2 * pad, th + 2 * pad), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
        twarp = geometry.flatten(twarp)
        xs, ys = _lines(twarp)
        if len(xs) >= 3 and len(ys) >= 5:
            full = cv2.perspectiveTransform(
                np.array([[[0, 0]], [[tw + 2 * pad, 0]], [[tw + 2 * pad, th + 2 * pad]],
                          [[0, th + 2 * pad]]], np.float32), np.linalg.inv(mt)).reshape(4, 2)
            return Grid(twarp, xs, ys, full)
    return None


def turned(xs: Sequence[int], ys: Sequence[int], w: int, h: int, k: int
           ) -> tuple[list[int], list[int]]:
    """Line positions after ``np.rot90(image, k)`` of a w x h image."""
    k %= 4
    if k == 0:
        return list(xs), list(ys)
    if k == 1:
        return list(ys), sorted(w - x for x in xs)
    if k == 2:
        return sorted(w - x for x in xs), sorted(h - y for y in ys)
    return sorted(h - y for y in ys), list(xs)


def plausible_turns(g: Grid) -> list[int]:
    """Quarter turns whose first column is wider than the value columns (the label column)."""
    h, w = g.warp.shape
    out = []
    for k in range(4):
        xs, ys = turned(g.xs, g.ys, w, h, k)
        widths = np.diff(xs)
        if len(widths) < 2 or len(ys) < 5:
            continue
        if widths[0] >= 1.2 * float(np.median(widths[-min(GAMES, len(widths) - 1):])):
            out.append(k)
    return out or [0, 1, 2, 3]


def label_image(cell: np.ndarray) -> np.ndarray:
    """A printed label cell -> dark text on white, cropped to the text, about 40 px high."""
    h, w = cell.shape
    my, mx = max(2, h // 10), max(2, h // 10)
    cell = cell[my: h - my, mx: w - mx]
    if cell.size == 0:
        return np.full((40, 40), 255, np.uint8)
    bg = float(np.percentile(cell, 90)) or 255.0
    ink = (cell.astype(np.float32) < 0.75 * bg).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    ch, cw = ink.shape
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        touches = x == 0 or y == 0 or x + bw >= cw or y + bh >= ch
        if area >= 4 and not (touches and (bw > 0.5 * cw or bh > 0.8 * ch)):
            keep[i] = True
    mask = keep[labels]
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return np.full((40, 40), 255, np.uint8)
    y0, y1 = max(int(ys.min()) - 2, 0), min(int(ys.max()) + 3, ch)
    x0, x1 = max(int(xs.min()) - 2, 0), min(int(xs.max()) + 3, cw)
    # grey levels (tesseract binarises better than a fixed threshold), ruled lines whitened
    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    norm = np.clip(cell.astype(np.float32) / bg * 255.0, 0, 255)
    norm[~near] = 255
    out: np.ndarray = norm[y0:y1, x0:x1].astype(np.uint8)
    th = y1 - y0
    scale = 40.0 / max(th, 1) if th < 0.45 * ch else 64.0 / max(th, 1)
    out = cv2.resize(out, (max(1, int((x1 - x0) * scale)), max(1, int(th * scale))),
                     interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    return cv2.copyMakeBorder(out, 16, 16, 20, 20, cv2.BORDER_CONSTANT, value=255)


@dataclass
class Table:
    """A table recognised as a pad: the reader cuts its cells from ``card``."""

    side: Side
    rotation: int  # quarter turns (rotate_quad) that make the table upright
    score: float  # mean similarity of the matched labels
    card: np.ndarray  # the upright table (flattened) with a band above it, at reading scale
    to_work: np.ndarray  # 3x3 homography: card pixels -> working image pixels
    xs: list[int]  # vertical lines in ``card``
    ys: list[int]  # horizontal lines in ``card``
    rows: list[tuple[int, Row]]  # table row index -> the standard row (value rows only)
    value_cols: list[int]  # column indices (into xs) of GAME #1..#6 / the players
    labels: list[str]  # the labels as read, per table row
    name_rect: tuple[int, int, int, int] | None = None  # front: where the name is written


def _value_cols(xs: list[int], side: Side) -> list[int] | None:
    widths = np.diff(xs)
    if side is Side.BACK:
        cols = list(range(1, min(len(widths), 1 + GAMES)))
        return cols or None
    if len(widths) < GAMES + 1:
        return None
    last = widths[-GAMES:]
    med = float(np.median(last))
    if np.any(np.abs(last - med) > 0.3 * med):
        return None
    return list(range(len(widths) - GAMES, len(widths)))


def recognise(gray: np.ndarray, g: Grid, engine: Engine) -> Table | None:
    """A ruled table -> a pad (which way up, front or back, rows, columns), or None when its
    first column's labels are not a pad's.  ONE ``engine.read_batch`` call."""
    h, w = g.warp.shape
    turns = plausible_turns(g)
    crops: list[np.ndarray] = []
    spans: dict[int, tuple[int, int, list[int], list[int]]] = {}
    for k in turns:
        img = np.rot90(g.warp, k)
        xs, ys = turned(g.xs, g.ys, w, h, k)
        ys = regularise(ys)
        a = len(crops)
        for r in range(len(ys) - 1):
            crops.append(label_image(img[ys[r]: ys[r + 1], xs[0]: xs[1]]))
        spans[k] = (a, len(crops), xs, ys)
    texts: list[OcrText] = engine.read_batch(crops) if crops else []
    best: tuple[float, int, Side, dict[int, int], list[str], int] | None = None
    for k, (a, b, xs, _ys) in spans.items():
        labels = [t.text for t in texts[a:b]]
        for side, rows in ((Side.FRONT, FRONT_ROWS), (Side.BACK, BACK_ROWS)):
            mapping, total, matched = align(labels, rows)
            if matched < MIN_ROWS[side] or _value_cols(xs, side) is None:
                continue
            if best is None or total > best[0]:
                best = (total, k, side, mapping, labels, matched)
    if best is None:
        return None
    total, k, side, mapping, labels, matched = best
    rows_t = FRONT_ROWS if side is Side.FRONT else BACK_ROWS
    xs, ys = spans[k][2], spans[k][3]
    cols = _value_cols(xs, side)
    assert cols is not None
    # Reading scale: a front row as high as ours, a back column as wide as ours.
    if side is Side.FRONT:
        s = FRONT_ROW_H / float(np.median(np.diff(ys)))
    else:
        s = BACK_COL_W / float(np.median(np.diff(xs)[cols]))
    kw, kh = (w, h) if k % 2 == 0 else (h, w)
    band = int(round(3.5 * FRONT_ROW_H)) if side is Side.FRONT else 0
    cw, ch = int(round(kw * s)), int(round(kh * s)) + band
    # card pixel = s * (turned warp pixel) + (0, band); turned warp = warp of rotate_quad(quad, k)
    q = geometry.rotate_quad(g.quad, k)
    src = np.array([[0, 0], [kw, 0], [kw, kh], [0, kh]], np.float32)
    to_turned = cv2.getPerspectiveTransform(q.astype(np.float32), src)
    scale = np.array([[s, 0, 0], [0, s, band], [0, 0, 1]], np.float64)
    m = scale @ to_turned
    card = cv2.warpPerspective(gray, m, (cw, ch), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    card = geometry.flatten(card)
    cxs = [int(round(x * s)) for x in xs]
    cys = [int(round(y * s)) + band for y in ys]
    value_rows = [(i, rows_t[j]) for i, j in sorted(mapping.items())
                  if rows_t[j].kind is not Kind.HEADER and i < len(cys) - 1]
    name_rect = _name_rect(card, cxs, cys) if side is Side.FRONT else None
    return Table(side, k, total / max(matched, 1), card, np.linalg.inv(m), cxs, cys, value_rows, cols,
                 labels, name_rect)


def _name_rect(card: np.ndarray, xs: list[int], ys: list[int]) -> tuple[int, int, int, int] | None:
    """The NAME line above the table: the longest horizontal line in the band above it."""
    top = ys[0]
    row_h = int(np.median(np.diff(ys)))
    band = card[: max(top - 6, 1)]
    if band.shape[0] < row_h:
        return None
    hm, _ = geometry.line_maps(band, max(15, (xs[-1] - xs[0]) // 20))
    prof = (hm > 0).sum(axis=1)
    y = int(np.argmax(prof))
    if prof[y] < 0.25 * (xs[-1] - xs[0]) or y < row_h:
        return None
    cols = np.nonzero(hm[max(0, y - 2): y + 3].any(axis=0))[0]
    x0, x1 = int(cols.min()), int(cols.max())
    return x0 + 4, max(0, y - int(1.25 * row_h)), x1, y - 2
