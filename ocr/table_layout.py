"""Layout-adaptive table finding: a pad of another design, found by its ruled lines and labels.

The template match (``geometry.best_match``) only knows our own pad.  This path
knows only that a pad is a ruled table whose first column holds printed labels
in the standard order (Aces ... GRAND TOTAL on the front; NAMES, GAME #1..#6,
TOTAL OF ALL GAMES on the back):

1. the table and its lines: ``ruling`` (the ruled grid, from the paper's outline or, where
   that misleads, from the photo's web of lines alone);
2. the lines read: a row twice the usual height inside the table is split (a missing or
   faint line), and so is a game column twice the usual width; an outer row whose rule is
   only a band's edge is put back (``_edge_rows``);
3. which way up: in each quarter turn whose first column is wider than the
   value columns, the first column's cells (and the HOW TO SCORE column's, where
   there is one) are read by tesseract (one batch for all turns); the turn whose
   labels match the known labels best wins (``labels``);
4. rows: a monotone alignment of the table's rows with ``layout.ANY_FRONT_ROWS``
   (ours, and the official pad's SCORE 100 PER ✓ line) / ``BACK_ROWS`` (fuzzy
   label matching, difflib); unread labels between two matched rows are filled
   in when the gap has as many rows on both sides (rows a design may leave out
   aside);
5. columns: front - the six rightmost columns (of roughly equal width) are the
   games, anything between the label column and them (HOW TO SCORE) is
   ignored; back - the columns after the label column are the players.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from scorepad.boxes import Box

from . import geometry
from .labels import PlacedReads, align, label_image
from .layout import ANY_FRONT_ROWS, BACK_ROWS, GAMES, Kind, Row, Side
from .ruling import Grid
from .tesseract import Engine, OcrText

MIN_ROWS = {Side.FRONT: 8, Side.BACK: 4}  # matched labels needed to accept a table
SEED_ROWS = 4  # ... a front's table of every pad row (``whole``), or a piece of one (rescue)
LABELS_SURE = 16  # labels matched by themselves above which HOW TO SCORE is not read too
FRONT_ROW_H = 50  # the card is scaled so that a front row is this high (as our pad)
BACK_COL_W = 120  # ... and a back value column this wide
NAME_BAND = round(3.5 * FRONT_ROW_H)  # the front's card keeps this much above the table

# ------------------------------------------------------------------ lines


def regularise(ys: list[int]) -> list[int]:
    """Most rows share one height: a row (not the first, often a taller header) two or
    three times that height lost a faint line, and is split evenly."""
    if len(ys) < 5:
        return ys
    hs = np.diff(ys)
    med = float(np.median(hs))
    out = [ys[0]]
    for k, h in enumerate(hs):
        n = _spans(float(h), med)
        if k > 0 and n > 1:
            out += [ys[k] + int(round(h * i / n)) for i in range(1, n)]
        out.append(ys[k + 1])
    return out


def _spans(size: float, usual: float) -> int:
    """How many rows (or columns) of the usual size a row of ``size`` is: 2 or 3 when it is
    that many within 12% (a line between them lost), else 1."""
    n = int(round(size / usual))
    return n if n in (2, 3) and abs(size - n * usual) <= 0.12 * n * usual else 1


def regularise_columns(xs: list[int]) -> list[int]:
    """The game columns share one width: counted from the right, a column two or three times
    that width lost a line (handwriting across a faint rule breaks it up) and is split
    evenly, until there are ``GAMES`` of them; the columns left of them (labels, HOW TO
    SCORE, often about two game columns wide) are never split."""
    widths = np.diff(xs)
    if len(widths) < 3:
        return xs
    med = float(np.median(widths[1:]))  # the label column is wider than all
    out = [xs[-1]]
    games = 0
    for k in range(len(widths) - 1, 0, -1):
        n = _spans(float(widths[k]), med)
        lost = n > 1 and games + n <= GAMES
        if lost:
            out += [xs[k + 1] - int(round(widths[k] * i / n)) for i in range(1, n)]
        games += n if lost else 1
        out.append(xs[k])
    out.append(xs[0])
    return sorted(out)


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


def _read_lines(g: Grid, k: int, edges: bool = False) -> tuple[list[int], list[int]]:
    """The grid's lines turned ``k`` quarter turns, as a pad's are read: a game column or a
    row that lost a line split again (``regularise_columns``, ``regularise``); with
    ``edges``, outer column rules lost at the warp's edge put back (``_edge_columns``)."""
    h, w = g.warp.shape
    xs, ys = turned(g.xs, g.ys, w, h, k)
    xs = regularise_columns(_without_margins(xs))
    if edges:
        xs = _edge_columns(xs, w if k % 2 == 0 else h)
    return xs, regularise(_edge_rows(ys, h if k % 2 == 0 else w))


def _without_margins(xs: list[int]) -> list[int]:
    """The columns without an outer sliver narrower than MARGIN of the usual inner column:
    the strip between the table's outer rule and the paper's edge (or the warp's) taken
    into the grid, which no pad has (read as the label column, it held no labels; as the
    last game column, the games' widths were unequal)."""
    widths = np.diff(xs)
    if len(widths) < 4:
        return xs
    usual = float(np.median(widths[1:-1]))
    out = list(xs)
    if widths[-1] < MARGIN * usual:
        out.pop()
    if widths[0] < MARGIN * usual:
        out.pop(0)
    return out


def _edge_columns(xs: list[int], w: int) -> list[int]:
    """The table's outer rules put back where the warp was cut along them (a rule at the
    warp's very edge is no line the grid finds): where a front lacks game columns, room of
    one usual game column (EDGE_ROW) right of the last rule found; and where it lacks a
    column before its games, room wider than a game column (a label column) left of the
    first. Where its six games were found, only room as wide as the column before them at
    least: HOW TO SCORE found, the wider label column's outer rule lost (a narrower margin
    is paper around a table of labels and games)."""
    widths = np.diff(xs)
    if len(widths) < 3:
        return xs
    med = float(np.median(widths[-min(GAMES, len(widths) - 1):]))
    out = list(xs)
    games = _value_cols(xs, Side.FRONT) is not None
    if not games and EDGE_ROW[0] * med <= w - 1 - xs[-1] <= EDGE_ROW[1] * med:
        out.append(min(w - 1, xs[-1] + int(round(med))))
    if (len(out) - 1 < GAMES + 2 and xs[0] >= LABEL_WIDER * med
            and (not games or xs[0] >= widths[0])):
        out.insert(0, 0)  # (a label column, or one beside HOW TO SCORE)
    return out


def _edge_rows(ys: list[int], h: int) -> list[int]:
    """The rule of a row at the table's edge put back where a band's edge was its only rule:
    the table's webs reach about a row beyond the first or last rule found (a dark band
    right above the first row is not in the table), so a rule one usual row out (at most at
    the warp's edge); or the first row found is a light header band and the row under it
    together, split one usual row above the second rule."""
    if len(ys) < 5:
        return ys
    med = float(np.median(np.diff(ys)))
    out = list(ys)
    if ys[1] - ys[0] >= MERGED_HEADER * med:  # a header band's edge is no line either
        out.insert(1, ys[1] - int(round(med)))
    elif EDGE_ROW[0] * med <= ys[0] <= EDGE_ROW[1] * med:
        out.insert(0, max(0, ys[0] - int(round(med))))
    if EDGE_ROW[0] * med <= h - 1 - ys[-1] <= EDGE_ROW[1] * med:
        out.append(min(h - 1, ys[-1] + int(round(med))))
    return out


# room beyond the outer rule found, in rows, that is one row lost (more: a part of the table
# the grid missed, which the web of lines may find whole)
EDGE_ROW = (0.75, 1.5)
MERGED_HEADER = 1.6  # a first row this many rows high is a header with the first row under it
MARGIN = 0.5  # an outer column narrower than this share of the usual one is no pad's column
LABEL_WIDER = 1.2  # a pad's label column is at least this many game columns wide


def plausible_turns(g: Grid) -> list[int]:
    """Quarter turns whose first column is wider than the value columns (the label column)."""
    h, w = g.warp.shape
    out = []
    for k in range(4):
        xs, ys = turned(g.xs, g.ys, w, h, k)
        widths = np.diff(_without_margins(xs))
        if len(widths) < 2 or len(ys) < 5:
            continue
        if widths[0] >= 1.2 * float(np.median(widths[-min(GAMES, len(widths) - 1):])):
            out.append(k)
    return out or [0, 1, 2, 3]


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
    matched: int = MIN_ROWS[Side.FRONT]  # labels matched to the pad's rows


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


def _has_hints(xs: Sequence[int]) -> bool:
    """A HOW TO SCORE column: a second column as wide as the label column's kind, before
    six game columns."""
    widths = np.diff(xs)
    if len(widths) < GAMES + 2:
        return False
    return bool(widths[1] >= 1.2 * float(np.median(widths[-GAMES:])))


def recognise(gray: np.ndarray, g: Grid, engine: Engine | PlacedReads, *, rescue: bool = False
              ) -> Table | None:
    """A ruled table -> a pad (which way up, front or back, rows, columns), or None when its
    first column's labels are not a pad's.  One ``engine.read_batch`` call (the HOW TO
    SCORE column's text read with the labels, used where they leave rows unmatched).  A front with
    SEED_ROWS labels matched, fewer than MIN_ROWS, is a pad where its rows are every row a
    pad prints (``whole``: a blurred photo's labels mostly unread).  ``rescue`` (the last
    search before a photo is refused): outer column rules lost at the warp's edge are put
    back (``_edge_columns``), and any such front is a table too, a seed not ``accepted``
    unless whole (a shadow cut the ruled web short: the rest of the table is sought,
    ``plan``)."""
    turns = plausible_turns(g)
    # (``PlacedReads``: labels read in ``gray`` before, by another grid, are not read again)
    reads = engine if isinstance(engine, PlacedReads) else PlacedReads(engine)
    best = _best_reading(g, turns, reads, rescue)
    if best is None and rescue:
        # the last search: a soft photo's labels, which tesseract read as noise, looked at
        # again enlarged and sharpened (fresh photo 410051; not before: it costs a
        # tesseract batch, and one photo the last search found as photographed was lost)
        best = _best_reading(g, turns, reads, rescue, sharpen=True)
    if best is None:
        return None
    total, k, side, mapping, labels, matched, xs, ys = best
    rows_t = ANY_FRONT_ROWS if side is Side.FRONT else BACK_ROWS
    cols = _value_cols(xs, side)
    assert cols is not None
    m, cw, ch, s = _card_placement(g, k, side, xs, ys, cols)
    card = cv2.warpPerspective(gray, m, (cw, ch), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    card = geometry.flatten(card)
    cxs = [int(round(x * s)) for x in xs]
    band = NAME_BAND if side is Side.FRONT else 0
    cys = [int(round(y * s)) + band for y in ys]
    value_rows = [(i, rows_t[j]) for i, j in sorted(mapping.items())
                  if rows_t[j].kind is not Kind.HEADER and i < len(cys) - 1]
    name_rect = _name_rect(card, cxs, cys) if side is Side.FRONT else None
    return Table(side, k, total / max(matched, 1), card, np.linalg.inv(m), cxs, cys, value_rows, cols,
                 labels, name_rect, matched)


def _cell_places(g: Grid, k: int, x0: int, x1: int, ys: Sequence[int]) -> list[np.ndarray]:
    """The corners (TL, TR, BR, BL as seen turned ``k``) in the working image of the cells
    between ``x0`` and ``x1`` and each two rules of ``ys``, lines of the grid turned ``k``."""
    h, w = g.warp.shape
    corners = np.array([[x, y] for a, b in itertools.pairwise(ys)
                        for x, y in ((x0, a), (x1, a), (x1, b), (x0, b))], np.float32)
    for done in range(k % 4 - 1, -1, -1):  # each quarter turn undone, the last first: a
        # point (x, y) after a turn was (width - y, x) before it, of the image as it was then
        width = h if done % 2 else w
        corners = np.stack([width - corners[:, 1], corners[:, 0]], axis=1)
    to_work = cv2.getPerspectiveTransform(
        np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32), g.quad.astype(np.float32))
    out = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_work).reshape(-1, 4, 2)
    return list(out)


# (alignment score, quarter turn, side, row -> pad row, labels read, labels matched, xs, ys)
Reading = tuple[float, int, Side, dict[int, int], list[str], int, list[int], list[int]]


def _best_reading(g: Grid, turns: list[int], reads: PlacedReads, rescue: bool,
                  sharpen: bool = False) -> Reading | None:
    """The grid's label column read each plausible way up (``sharpen``: ``labels.sharpened``
    first), as the pad's front or back rows, the best alignment where one is a pad's."""
    # the label column, and in the same batch the HOW TO SCORE column where there is one
    # (used only where the labels alone leave rows unmatched: one tesseract start-up, about
    # 0.1 s, instead of a second one after the first)
    crops: list[np.ndarray] = []
    places: list[np.ndarray] = []  # each crop's corners in the working image
    spans: dict[int, tuple[int, int, list[int], list[int]]] = {}
    hint_spans: dict[int, int] = {}  # turn -> its HOW TO SCORE crops' first index
    for k in turns:
        img = np.rot90(g.warp, k)
        xs, ys = _read_lines(g, k, edges=rescue)
        a = len(crops)
        crops += [label_image(img[ys[r]: ys[r + 1], xs[0]: xs[1]], sharpen)
                  for r in range(len(ys) - 1)]
        places += _cell_places(g, k, xs[0], xs[1], ys)
        spans[k] = (a, len(crops), xs, ys)
        if _has_hints(xs):
            hint_spans[k] = len(crops)
            crops += [label_image(img[ys[r]: ys[r + 1], xs[1]: xs[2]], sharpen)
                      for r in range(len(ys) - 1)]
            places += _cell_places(g, k, xs[1], xs[2], ys)
    texts: list[OcrText] = reads.read(crops, np.array(places), sharpen) if crops else []
    labels_of = {k: [t.text for t in texts[a:b]] for k, (a, b, _xs, _ys) in spans.items()}
    # each turn's labels against the front's rows by themselves (kept where no hints are read)
    heights = {k: [float(h) for h in np.diff(ys)] for k, (_a, _b, _xs, ys) in spans.items()}
    front = {k: align(labels, ANY_FRONT_ROWS, heights=heights[k])
             for k, labels in labels_of.items()}
    hints_of = {k: [t.text for t in texts[h: h + len(labels_of[k])]]
                for k, h in hint_spans.items() if front[k][2] < LABELS_SURE}
    best: Reading | None = None
    for k, (_a, _b, xs, _ys) in spans.items():
        labels = labels_of[k]
        hints = hints_of.get(k, [])
        for side, rows in ((Side.FRONT, ANY_FRONT_ROWS), (Side.BACK, BACK_ROWS)):
            if side is Side.FRONT:
                mapping, total, matched = (align(labels, rows, hints, heights[k]) if hints
                                           else front[k])
            else:
                mapping, total, matched = align(labels, rows, heights=heights[k])
            least = SEED_ROWS if side is Side.FRONT else MIN_ROWS[side]
            if (matched < least or _value_cols(xs, side) is None
                    or (matched < MIN_ROWS[side] and not rescue and not _every_row(mapping.values()))):
                continue
            if best is None or total > best[0]:
                best = (total, k, side, mapping, labels, matched, xs, spans[k][3])
    return best


def accepted(t: Table) -> bool:
    """Enough labels matched to take the table for a pad (not a seed only), or a front seed
    whose rows are the pad's own, every one (``whole``)."""
    return t.matched >= MIN_ROWS[t.side] or (t.matched >= SEED_ROWS and whole(t))


def whole(t: Table) -> bool:
    """A front whose rows, aligned with its labels matched, are every row a pad prints, in
    order: where a blurred photo's labels are mostly unread (four of them read), the table
    holding exactly the pad's rows around them says as much as more labels would."""
    return t.side is Side.FRONT and _every_row({ANY_FRONT_ROWS.index(row) for _r, row in t.rows})


def _every_row(rows: Collection[int]) -> bool:
    """Whether these front rows (indexes into ANY_FRONT_ROWS) are every row a pad prints."""
    return set(rows) >= PRINTED


PRINTED = frozenset(i for i, row in enumerate(ANY_FRONT_ROWS)
                    if row.kind is not Kind.HEADER and not row.optional)


def partial(t: Table) -> bool:
    """A front whose table lacks a whole section's boxes: a piece of the table was found
    (a dark band between the sections split its web, and the outline held one section)."""
    return t.side is Side.FRONT and not all(_sections(t))


def lacking(t: Table) -> tuple[int, int]:
    """The standard rows a front's table lacks above its first row and below its last (not
    headers, not the rows some designs leave out): the paper's outline cut the table
    short, and Aces, or the lower section's last rows, were never read."""
    if t.side is not Side.FRONT or not t.rows:
        return 0, 0
    at = [ANY_FRONT_ROWS.index(row) for _r, row in t.rows]

    def printed(rows: Sequence[Row]) -> int:
        return sum(1 for row in rows if row.kind is not Kind.HEADER and not row.optional)

    return printed(ANY_FRONT_ROWS[: min(at)]), printed(ANY_FRONT_ROWS[max(at) + 1:])


def _sections(t: Table) -> tuple[bool, bool]:
    """Whether the table holds any upper box, and any lower one."""
    boxes = [row.field for _r, row in t.rows if row.kind is Kind.BOX and isinstance(row.field, Box)]
    return any(b.is_upper for b in boxes), any(not b.is_upper for b in boxes)


SECTION_ROWS = {True: 12, False: 14}  # rows (and a margin) of the upper / lower section


def grown_quad(t: Table) -> np.ndarray:
    """The quadrilateral (working image) of a ``partial`` table grown by the section it
    lacks, above it or below, at its own row height: where the rest of the table lies; of
    a table ``lacking`` rows, by those rows (and one more)."""
    rh = float(np.median(np.diff(t.ys)))
    if partial(t):
        upper_lost = not _sections(t)[0]
        above, below = (SECTION_ROWS[True], 0) if upper_lost else (0, SECTION_ROWS[False])
    else:
        above, below = ((n + 1 if n else 0) for n in lacking(t))
    top, bottom = t.ys[0] - above * rh, t.ys[-1] + below * rh
    x0, x1 = t.xs[0], t.xs[-1]
    corners = np.array([[[x0, top]], [[x1, top]], [[x1, bottom]], [[x0, bottom]]], np.float32)
    quad: np.ndarray = cv2.perspectiveTransform(corners, t.to_work).reshape(4, 2)
    return quad


def _card_placement(g: Grid, k: int, side: Side, xs: list[int], ys: list[int],
                    cols: list[int]) -> tuple[np.ndarray, int, int, float]:
    """Where the card of this reading of the grid (turned ``k``, ``side``) lies: the
    homography from the working image to the card, the card's width and height, and the
    reading scale (a front row as high as ours, a back value column as wide as ours).
    The front's card has a band above the table for the player's name."""
    h, w = g.warp.shape
    if side is Side.FRONT:
        s = FRONT_ROW_H / float(np.median(np.diff(ys)))
    else:
        s = BACK_COL_W / float(np.median(np.diff(xs)[cols]))
    kw, kh = (w, h) if k % 2 == 0 else (h, w)
    band = NAME_BAND if side is Side.FRONT else 0
    cw, ch = int(round(kw * s)), int(round(kh * s)) + band
    # card pixel = s * (turned warp pixel) + (0, band); turned warp = warp of rotate_quad(quad, k)
    q = geometry.rotate_quad(g.quad, k)
    src = np.array([[0, 0], [kw, 0], [kw, kh], [0, kh]], np.float32)
    to_turned = cv2.getPerspectiveTransform(q.astype(np.float32), src)
    scale = np.array([[s, 0, 0], [0, s, band], [0, 0, 1]], np.float64)
    return scale @ to_turned, cw, ch, s


def card_placements(g: Grid) -> list[tuple[np.ndarray, int]]:
    """Every card the grid could be read as, before its labels are read: for each plausible
    turn and side, the card's corners in the working image and its longest side in card
    pixels (what ``recognise`` would warp, whichever reading the labels choose)."""
    out = []
    for k in plausible_turns(g):
        xs, ys = _read_lines(g, k)
        for side in (Side.FRONT, Side.BACK):
            cols = _value_cols(xs, side)
            if cols is None or len(ys) < 2:
                continue
            m, cw, ch, _s = _card_placement(g, k, side, xs, ys, cols)
            corners = np.array([[[0, 0]], [[cw, 0]], [[cw, ch]], [[0, ch]]], np.float32)
            quad = cv2.perspectiveTransform(corners, np.linalg.inv(m)).reshape(4, 2)
            out.append((quad, max(cw, ch)))
    return out


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
