"""Where the cells are: the card found in the photo (our pad by its template, another
design by its ruled table and printed labels), warped upright, and cut into cells.

A pad photographed from afar is planned again from the photo's full resolution.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from PIL import Image

from . import geometry, ruling, table_layout
from .cell import Cell, make_cell
from .cellgrid import inside
from .corners import check_corners
from .geometry import flatten
from .labels import PlacedReads
from .layout import BACK, CARD_H, CARD_W, FRONT, NAME_BOX, Grid, Kind, Side
from .result import ScanError
from .rowprint import without_print
from .tesseract import Engine, OcrEngineError

WORK_SIDE = 1600  # the photo is processed at most this large
ENLARGE_BELOW = 1200  # a photo refused that is shorter than this is searched again enlarged
MIN_MATCH = 0.55  # line-pattern correlation below this: not a pad
STRONG_MATCH = 0.67  # ... at or above this: our own pad, the adaptive path is not tried
MIN_SHARPNESS = 0.22  # ruled-line edge steepness below this: too blurred (see _sharpness)
MIN_CELL = 10  # a value cell's inner size (card pixels) below this is not a real cell
ZOOM_BELOW = 0.6  # a card warped up from less than this share of its size is re-planned
GROWS = 4  # searches at most for the rest of a table found in part (each must find more rows)


class SmallPad(Exception):
    """The ruled grid found makes the pad small in the working image whichever way its labels
    read (``table_layout.card_placements``): the photo's full-resolution part around
    ``quad`` (working-image pixels) is planned instead, before the labels are read."""

    def __init__(self, quad: np.ndarray, side: float, target: int) -> None:
        super().__init__("the pad is small in the photo")
        self.quad = quad
        self.side = side  # the card's longest side in the working image ...
        self.target = target  # ... and in card pixels


@dataclass
class Plan:
    """Where the cells are: from the template (our pad) or found by ``adaptive``."""

    card: np.ndarray  # the flattened, upright card the cells are cut from
    side: Side
    rotation: int  # quarter turns
    score: float  # template correlation, or the adaptive path's mean label similarity
    layout: str  # "template" or "adaptive"
    cells: list[Cell]
    to_work: np.ndarray  # 3x3 homography: card pixels -> working image pixels
    name_crop: np.ndarray | None  # front: where the player's name is written
    name_rect: tuple[int, int, int, int] | None  # ... in card pixels (front)
    marked: bool = False  # planned from corners a person marked, not from a search




def work_gray(rgb: Image.Image) -> tuple[np.ndarray, float]:
    """The photo in grayscale at most WORK_SIDE pixels long, and the scale applied."""
    gray_full = np.asarray(rgb.convert("L"))
    h, w = gray_full.shape
    scale = min(1.0, WORK_SIDE / max(h, w))
    gray = gray_full if scale == 1.0 else cv2.resize(
        gray_full, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    if min(gray.shape) < 200:
        raise ScanError("not_a_pad", "the image is too small to hold a readable pad")
    return gray, scale


def template_cells(rgb: Image.Image) -> tuple[Side, list[Cell]]:
    """Our own pad's cells in a photo, cut at the template's layout (no other design, no OCR):
    where the classifier's training takes the glyphs the reader itself sees."""
    gray, _ = work_gray(rgb)
    match = geometry.best_match(gray)
    if match is None or match.score < MIN_MATCH:
        raise ScanError("not_a_pad", "no Yahtzee score pad was found in the photo")
    card = flatten(geometry.warp(gray, match.quad))
    return match.side, cut(card, FRONT if match.side is Side.FRONT else BACK)


class Planner:
    """Finds the pad in a photo; ``engine`` reads the printed labels of other designs."""

    def __init__(self, engine: Engine, *, read_labels: bool = True, rescue: bool = False,
                 faint_rows: bool = False) -> None:
        self.engine = engine
        self.read_labels = read_labels
        # the last search before a photo is refused (see table_layout.recognise): a table of
        # too few labels is a seed, and the outer column rules of a warped table are put back
        self.rescue = rescue
        self.faint_rows = faint_rows  # ... and then once more with pale row rules sought

    # -- geometry
    def plan_photo(self, rgb: Image.Image, corners: object = None) -> tuple[Plan, np.ndarray]:
        """The plan, and the homography from its card to the photo's own pixels.

        A big photo is searched at WORK_SIDE; when the pad is small in it (photographed
        from afar), its cells would be cut from too few pixels, so the pad's part of the
        full-resolution photo is planned again (``ZOOM_BELOW``).  With ``corners`` (four
        points marked by a person, ``check_corners``) there is no search: see ``_marked``."""
        if corners is not None:
            quad = check_corners(corners, rgb.size)
            try:
                return self._marked(rgb, quad)
            except NotAPadTable as refusal:
                try:  # (the rows' rules too pale for the line map: ``ruling._lines``)
                    return Planner(self.engine, read_labels=self.read_labels,
                                   faint_rows=True)._marked(rgb, quad)
                except ScanError:
                    raise refusal from None
        try:
            return self._searches(rgb)
        except ScanError as refusal:
            if refusal.code != "not_a_pad" or max(rgb.size) >= ENLARGE_BELOW or self.rescue:
                raise
            # a small photo (a messenger's 800 px): its rules and labels may be too thin to
            # be found; the same searches on the photo enlarged, only once it is refused
            f = WORK_SIDE / max(rgb.size)
            big = rgb.resize((round(rgb.width * f), round(rgb.height * f)),
                             Image.Resampling.BICUBIC)
            try:
                plan, to_big = self._searches(big)
            except ScanError:
                raise refusal from None
            return plan, np.diag([1 / f, 1 / f, 1.0]) @ to_big

    def _searches(self, rgb: Image.Image) -> tuple[Plan, np.ndarray]:
        """The search, then the last searches before the photo is refused."""
        try:
            return self._search(rgb)
        except NotAPadTable as refusal:
            if self.rescue:
                raise
            # a ruled table, not a pad's: the last searches before the photo is refused (a
            # photo of no ruled table is refused at once), then with pale row rules sought
            # (``ruling._lines``; in the first, a shadow's few rows grown went too_blurred)
            for faint in (False, True):
                with contextlib.suppress(ScanError):
                    return Planner(self.engine, read_labels=self.read_labels, rescue=True,
                                   faint_rows=faint)._search(rgb)
            raise refusal from None

    def _search(self, rgb: Image.Image) -> tuple[Plan, np.ndarray]:
        """The search ``plan_photo`` describes."""
        gray, scale = work_gray(rgb)
        try:
            plan, error = self._plan_or_error(gray, ZOOM_BELOW if scale < 1.0 else None)
        except SmallPad as pad:  # told by the ruled grid, before its labels are read
            zoomed = self._zoomed(rgb, pad.quad / scale, pad.target, pad.side / scale)
            if zoomed is not None:
                return zoomed
            plan, error = self._plan_or_error(gray)
        if scale < 1.0:
            if plan is not None:
                quads = [_card_quad(plan)]
                small = _quad_side(quads[0]) < ZOOM_BELOW * max(plan.card.shape[:2])
            else:  # perhaps too small to be matched at all: where could it be?
                quads, small = geometry.candidates(gray, limit=2), True
            target = max(plan.card.shape[:2]) if plan is not None else CARD_H
            for quad in quads if small else []:
                zoomed = self._zoomed(rgb, quad / scale, target)
                if zoomed is not None:
                    return zoomed
        if plan is None:
            assert error is not None
            raise error
        return plan, np.diag([1 / scale, 1 / scale, 1.0]) @ plan.to_work

    def _plan_or_error(self, gray: np.ndarray, zoom_below: float | None = None
                       ) -> tuple[Plan | None, ScanError | None]:
        try:
            return self.plan_gray(gray, zoom_below=zoom_below), None
        except ScanError as exc:
            return None, exc

    def _zoomed(self, rgb: Image.Image, quad: np.ndarray, target: int,
                side: float | None = None) -> tuple[Plan, np.ndarray] | None:
        """The plan of the photo's full-resolution part around ``quad`` (photo pixels),
        scaled so that the card, ``side`` long in the photo (else the quadrilateral's
        longest side), is about ``target`` pixels long, as a close photo gives it (warping
        down from many more pixels would alias thin strokes)."""
        w, h = rgb.size
        x0, y0 = quad.min(axis=0)
        x1, y1 = quad.max(axis=0)
        m = 0.08 * max(x1 - x0, y1 - y0)
        box = (max(0, int(x0 - m)), max(0, int(y0 - m)), min(w, int(x1 + m)), min(h, int(y1 + m)))
        if box[2] - box[0] < 200 or box[3] - box[1] < 200:
            return None
        full = np.asarray(rgb.crop(box).convert("L"))
        scale = min(1.0, 1.1 * target / (side if side is not None else _quad_side(quad)))
        gray = full if scale == 1.0 else cv2.resize(
            full, (round(full.shape[1] * scale), round(full.shape[0] * scale)),
            interpolation=cv2.INTER_AREA)
        try:
            plan = self.plan_gray(gray)
        except ScanError:
            return None
        to_photo = np.array([[1 / scale, 0, box[0]], [0, 1 / scale, box[1]], [0, 0, 1]]) @ plan.to_work
        return plan, to_photo

    def _marked(self, rgb: Image.Image, quad: np.ndarray) -> tuple[Plan, np.ndarray]:
        """The plan of the pad whose corners were marked (``quad``, photo pixels).

        The photo is taken at the scale the search would read it at (WORK_SIDE, or about
        the card's size for a pad small in a big photo), around the quadrilateral.  Our
        own pad: the quadrilateral's quarter turn and side by the template, its edges moved
        onto the printed frame nearby (``geometry.fit_marked``); another design: the ruled
        table inside the quadrilateral (with a margin), as ``table_layout`` finds it."""
        w, h = rgb.size
        side = _quad_side(quad)
        scale = min(1.0, WORK_SIDE / max(w, h))
        if side * scale < ZOOM_BELOW * CARD_H:  # small in a big photo: as the zoom reads it
            scale = min(1.0, 1.1 * CARD_H / side)
        m = (geometry.RECT_MARGIN + 0.02) * side
        x0, y0 = np.floor(quad.min(axis=0) - m).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0) + m).astype(int)
        box = (max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1)))
        full = np.asarray(rgb.crop(box).convert("L"))
        gray = full if scale == 1.0 else cv2.resize(
            full, (max(1, round(full.shape[1] * scale)), max(1, round(full.shape[0] * scale))),
            interpolation=cv2.INTER_AREA)
        marked = ((quad - np.array(box[:2], np.float32)) * scale).astype(np.float32)
        plan = self.plan_gray(gray, marked)
        to_photo = np.array([[1 / scale, 0, box[0]], [0, 1 / scale, box[1]], [0, 0, 1]]) @ plan.to_work
        return plan, to_photo

    def _template_plan(self, gray: np.ndarray, match: geometry.Match) -> Plan:
        card = flatten(geometry.warp(gray, match.quad))
        g = FRONT if match.side is Side.FRONT else BACK
        if _sharpness(card, g) < MIN_SHARPNESS:
            raise ScanError("too_blurred", "the photo is too blurred to read the numbers")
        dst = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], dtype=np.float32)
        to_work = cv2.getPerspectiveTransform(dst, match.quad.astype(np.float32))
        name_crop = name_rect = None
        if match.side is Side.FRONT:
            x0, y0, x1, y1 = NAME_BOX
            name_crop = card[y0 - 42: y1 - 2, x0 + 4: x1]
            name_rect = (x0, y0 - 40, x1, y1)
        return Plan(card, match.side, match.rotation, match.score, "template", cut(card, g),
                     to_work, name_crop, name_rect)

    def _adaptive_plan(self, t: table_layout.Table) -> Plan:
        card = t.card
        if _line_sharpness(card, t.ys[1:-1:2], t.xs) < MIN_SHARPNESS:
            raise ScanError("too_blurred", "the photo is too blurred to read the numbers")
        cells = []
        for r, row in t.rows:
            y0, y1 = t.ys[r], t.ys[r + 1]
            for c, col in enumerate(t.value_cols):
                x0, x1 = t.xs[col], t.xs[col + 1]
                mx, my = max(6, round(0.07 * (x1 - x0))), max(5, round(0.13 * (y1 - y0)))
                if x1 - x0 - 2 * mx < MIN_CELL or y1 - y0 - 2 * my < MIN_CELL:
                    # a line found where there is none: the rows are not the pad's
                    raise ScanError("not_a_pad", "the pad's rows and columns could not be made "
                                                 "out (a cell of the table is too small)")
                # the cell between its own lines, where they run off the grid's straight ones
                cells.append(make_cell(card, row, r, c, inside(card, x0, y0, x1, y1, mx, my)))
        for r, row in t.rows:
            if row.kind is Kind.MARKS:
                without_print([c for c in cells if c.r == r], MIN_CELL)
        name_crop = None
        if t.side is Side.FRONT and t.name_rect is not None:
            x0, y0, x1, y1 = t.name_rect
            name_crop = card[y0:y1, x0:x1]
        name_rect = t.name_rect if t.name_rect is not None else (t.xs[0], max(t.ys[0] - 50, 0),
                                                                 t.xs[-1], t.ys[0])
        return Plan(card, t.side, t.rotation, t.score, "adaptive", cells, t.to_work, name_crop,
                     name_rect)

    def plan_gray(self, gray: np.ndarray, marked: np.ndarray | None = None,
                  zoom_below: float | None = None) -> Plan:
        """Our own pad by the template when it matches well; else any pad by its lines and labels.

        ``marked``: the pad's corners as a person marked them (TL, TR, BR, BL as seen, in
        ``gray``): that quadrilateral instead of the ones found, and the ruled table is
        looked for inside it (with a margin).  ``zoom_below``: raise ``SmallPad`` when
        every card the ruled table could be is warped up from less than this share of its
        size (``ZOOM_BELOW``), rather than read its labels at this size."""
        if marked is None:
            match, where = geometry.best_match(gray), None
        else:
            match, where = geometry.fit_marked(gray, marked), [geometry.widened(marked)]
        plan = self._decide(gray, match, where, zoom_below)
        return plan if marked is None else replace(plan, marked=True)

    def _decide(self, gray: np.ndarray, match: geometry.Match | None,
                where: list[np.ndarray] | None, zoom_below: float | None = None) -> Plan:
        if match is not None and match.score >= STRONG_MATCH:
            return self._template_plan(gray, match)
        weak = match if match is not None and match.score >= MIN_MATCH else None
        # the adaptive path reads the printed labels; without it, or without a ruled
        # table, a weak template match is all there is
        # (with ``faint_rows``, pale row rules sought too: ``ruling._lines``)
        grid = ruling.find_grid(gray, where, self.faint_rows) if self.read_labels else None
        by_web = self.read_labels and where is None  # the web of lines is yet to be tried
        if grid is None and by_web:
            grid, by_web = ruling.web_grid(gray, self.faint_rows), False
        if grid is None:
            if weak is not None:
                return self._template_plan(gray, weak)
            raise _not_a_pad(where)
        if zoom_below is not None:
            _zoom_if_small(grid, zoom_below)
        try:
            table = self._table(gray, grid, by_web)
        except OcrEngineError:
            if weak is None:
                raise
            return self._template_plan(gray, weak)
        if table is not None:
            return self._adaptive_plan(table)
        if weak is not None:
            # labels unread (small, blurred), but ruled exactly like our pad: the template
            g = FRONT if weak.side is Side.FRONT else BACK
            lines = sorted((len(grid.xs), len(grid.ys)))
            if lines == sorted((len(g.col_x), len(g.rows) + 1)):
                return self._template_plan(gray, weak)
        # a ruled table whose labels are not a pad's (or cannot be read)
        if _line_sharpness(grid.warp, grid.ys[1:-1:2], grid.xs) < MIN_SHARPNESS:
            raise ScanError("too_blurred", "the photo is too blurred to read the numbers")
        raise _not_a_pad(where, ruled=True)

    def _table(self, gray: np.ndarray, grid: ruling.Grid, by_web: bool
               ) -> table_layout.Table | None:
        """The pad's table from the ruled ``grid``, sought again where it was found in part;
        None when no table found is a pad's (in the rescue search, a table of too few
        labels is a seed, taken only once it has grown)."""
        reads = PlacedReads(self.engine)  # each label in ``gray`` read once, whichever grid
        table = self._recognise(gray, grid, reads)
        # the outline may have misled the search: no pad, or one section of it
        if by_web and (table is None or table_layout.partial(table)
                       or not table_layout.accepted(table)):
            table = self._fuller(gray, table, ruling.web_grid(gray, self.faint_rows), reads)
        # the web of lines is split too, or the outline cut the table short: the rest
        # of the table lies above or below (again while it grows: the section found,
        # grown by the other, may still lack the other's far rows)
        for _ in range(GROWS):
            if table is None or not (table_layout.partial(table)
                                     or any(table_layout.lacking(table))):
                break
            grown = self._fuller(gray, table, ruling.find_grid(
                gray, [table_layout.grown_quad(table)]), reads)
            if grown is table:
                break
            table = grown
        return table if table is not None and table_layout.accepted(table) else None

    def _fuller(self, gray: np.ndarray, table: table_layout.Table | None,
                grid: ruling.Grid | None, reads: PlacedReads) -> table_layout.Table | None:
        """The table ``grid`` reads as where it has more rows than ``table`` (or there is
        none), else ``table``."""
        other = None if grid is None else self._recognise(gray, grid, reads)
        if other is not None and (table is None or len(other.rows) > len(table.rows)):
            return other
        return table

    def _recognise(self, gray: np.ndarray, grid: ruling.Grid, reads: PlacedReads
                   ) -> table_layout.Table | None:
        return table_layout.recognise(gray, grid, reads, rescue=self.rescue)


def _zoom_if_small(grid: ruling.Grid, below: float) -> None:
    """``SmallPad`` when each card the grid could be read as is smaller in the working image
    than ``below`` of its own size (the test ``Planner.plan_photo`` puts to the plan), around
    all of them, for the largest of them: the zoom is decided as the plan would decide it,
    without reading the labels at a size that is then thrown away."""
    cards = table_layout.card_placements(grid)
    if cards and all(_quad_side(quad) < below * target for quad, target in cards):
        quads = np.concatenate([quad for quad, _t in cards])
        x0, y0 = quads.min(axis=0)
        x1, y1 = quads.max(axis=0)
        around = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
        quad, target = max(cards, key=lambda card: card[1])
        raise SmallPad(around, _quad_side(quad), target)


class NotAPadTable(ScanError):
    """``not_a_pad``: a ruled table was found, but its labels are not a pad's."""


def _not_a_pad(where: list[np.ndarray] | None, ruled: bool = False) -> ScanError:
    kind = NotAPadTable if ruled else ScanError
    if where is None:
        return kind("not_a_pad", "no Yahtzee score pad was found in the photo")
    return kind("not_a_pad", "no Yahtzee score pad could be made out inside the marked corners")


def cut(card: np.ndarray, g: Grid) -> list[Cell]:
    """The value cells of our own pad at the template's layout."""
    out = []
    for r, row in enumerate(g.rows):
        if row.kind is Kind.HEADER:
            continue
        for c in range(g.value_cols):
            x0, y0, x1, y1 = g.cell(r, c)
            mx, my = 6, 5
            out.append(make_cell(card, row, r, c, (x0 + mx, y0 + my, x1 - mx, y1 - my)))
    return out


def _card_quad(plan: Plan) -> np.ndarray:
    """The plan's card in the working image."""
    h, w = plan.card.shape[:2]
    corners = np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float32)
    quad: np.ndarray = cv2.perspectiveTransform(corners, plan.to_work).reshape(4, 2)
    return quad


def _quad_side(quad: np.ndarray) -> float:
    """The quadrilateral's longest side."""
    return float(max(np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)))



def _sharpness(card: np.ndarray, g: Grid) -> float:
    """How sharp the printed ruled lines are: the steepest step across a line, relative to
    its contrast, on profiles averaged along short pieces of line (noise averages out)."""
    return _line_sharpness(card, [g.top + r * g.row_h for r in range(1, len(g.rows), 2)], g.col_x)


def _line_sharpness(card: np.ndarray, ys: Sequence[int], col_x: Sequence[int]) -> float:
    """``_sharpness`` at the horizontal lines ``ys``, between the vertical lines ``col_x``."""
    ratios = []
    f = card.astype(np.float32)
    for y in ys:
        if y - 10 < 0 or y + 10 >= f.shape[0]:
            continue
        for c in range(len(col_x) - 1):
            x0, x1 = col_x[c] + 8, col_x[c + 1] - 8
            if x1 - x0 < 4:  # a column too narrow to hold a piece of line
                continue
            # search the line a few pixels around where it should be
            prof = f[y - 10: y + 11, x0:x1].mean(axis=1)
            span = float(prof.max() - prof.min())
            if span < 25:
                continue
            ratios.append(float(np.abs(np.diff(prof)).max()) / span)
    return float(np.median(ratios)) if ratios else 0.0

