"""Photo -> sheet: the reader, honest about every cell it is unsure of.

Steps: limits and decoding (EXIF orientation applied), the card's frame found
and warped (``geometry``; a pad of another design: ``adaptive``), cells cut
and cleaned, each cell classified (blank, scratch, number, marks), numbers
read by two readers (the digit classifier per glyph and ONE tesseract run over
all cells), candidates decoded against what the box can legally hold, YAHTZEE
BONUS marks counted.  The reader never changes a written value to make totals
agree; a value chosen because it is
legal rather than because it read best is marked ``inferred``.
"""

from __future__ import annotations

import io
import itertools
import math
import re
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from scorepad.boxes import Box, TotalField
from scorepad.card import Game, Player, PlayersScores, Sheet
from scorepad.rules import REGISTRY, RuleSet, get_rules
from scorepad.schemas import dump_sheet
from scorepad.values import possible_values

from . import adapt, adaptive, geometry
from . import digits as dg
from .geometry import flatten
from .layout import BACK, CARD_H, CARD_W, FRONT, NAME_BOX, Grid, Kind, Row, Side
from .tesseract import Engine, OcrEngineError, OcrText, TesseractEngine

MAX_BYTES = 20_000_000
MAX_PIXELS = 40_000_000
WORK_SIDE = 1600  # the photo is processed at most this large
MIN_MATCH = 0.55  # line-pattern correlation below this: not a pad
STRONG_MATCH = 0.67  # ... at or above this: our own pad, the adaptive path is not tried
MIN_SHARPNESS = 0.22  # ruled-line edge steepness below this: too blurred (see _sharpness)
MAX_DIGITS = 4
MIN_CELL = 10  # a value cell's inner size (card pixels) below this is not a real cell
INK_STRONG = 0.3  # darkness (share below the paper) that is surely ink
INK_MIN = 0.2  # ... and the least darkness that can start a stroke (pale pencil)

CONFIDENT, NEEDS_REVIEW, UNREADABLE = "confident", "needs_review", "unreadable"
BLANK, SCRATCH, NUMBER, MARKS, TEXT = "blank", "scratch", "number", "marks", "text"


class ScanError(ValueError):
    """The photo cannot be read as a pad; ``code`` is stable, the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass
class Candidate:
    value: int | str
    p: float


@dataclass
class CellRead:
    """One cell of the pad as read from the photo."""

    row: str  # the printed row label
    field: str  # sheet key: a box, a total, "yahtzee_bonus_checks", "name", "score", "total"
    column: int  # the GAME #n column (front) or the player column (back), 0-based
    game: int | None  # 0-based game index (front: the column; back: the row)
    kind: str  # blank, scratch, number, marks, text
    value: int | str | None
    confidence: float
    status: str  # confident, needs_review, unreadable
    inferred: bool = False
    candidates: list[Candidate] = dc_field(default_factory=list)
    box: tuple[int, int, int, int] = (0, 0, 0, 0)  # x0, y0, x1, y1 in the (upright) photo
    readers: dict[str, str | None] = dc_field(default_factory=dict)
    checks: list[str] = dc_field(default_factory=list)  # cross-checks this reading passed

    def to_dict(self) -> dict[str, Any]:
        return {
            "row": self.row, "field": self.field, "column": self.column, "game": self.game,
            "kind": self.kind, "value": self.value, "confidence": round(self.confidence, 4),
            "status": self.status, "inferred": self.inferred,
            "candidates": [{"value": c.value, "p": round(c.p, 4)} for c in self.candidates[:5]],
            "box": list(self.box), "readers": dict(self.readers), "checks": list(self.checks),
        }


@dataclass
class ScanResult:
    sheet: Sheet
    side: Side
    cells: list[CellRead]
    rotation: int  # degrees clockwise the card is turned in the photo (0, 90, 180, 270)
    match_score: float
    seconds: float
    engine: str
    layout: str = "template"  # how the cells were found: "template" (our pad) or "adaptive"

    def counts(self) -> dict[str, int]:
        out = {CONFIDENT: 0, NEEDS_REVIEW: 0, UNREADABLE: 0}
        for c in self.cells:
            if c.kind != BLANK or c.status != CONFIDENT:
                out[c.status] += 1
        return out

    @property
    def needs_review(self) -> list[CellRead]:
        return [c for c in self.cells if c.status != CONFIDENT]

    def to_dict(self) -> dict[str, Any]:
        return {
            "sheet": dump_sheet(self.sheet),
            "side": self.side.value,
            "rotation": self.rotation,
            "match_score": round(self.match_score, 4),
            "engine": self.engine,
            "layout": self.layout,
            "seconds": round(self.seconds, 3),
            "counts": self.counts(),
            "cells": [c.to_dict() for c in self.cells],
        }


# ------------------------------------------------------------------ loading


def _register_heif() -> None:
    """Let Pillow open HEIC/HEIF photos (an iPhone's default) through pillow-heif."""
    try:
        from pillow_heif import register_heif_opener
    except ImportError:  # an install without it still reads JPEG, PNG, ...
        return
    register_heif_opener()


_register_heif()


def load_image(data: bytes, *, max_bytes: int = MAX_BYTES,
               max_pixels: int = MAX_PIXELS) -> Image.Image:
    """Bytes -> an upright RGB image (EXIF orientation applied), with the limits enforced."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ScanError("not_an_image", "expected the image file's bytes")
    if len(data) == 0:
        raise ScanError("not_an_image", "the upload is empty")
    if len(data) > max_bytes:
        raise ScanError("too_large", f"the image is larger than {max_bytes} bytes")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(bytes(data)))
            w, h = im.size
            if w * h > max_pixels:
                raise ScanError("too_many_pixels",
                                f"the image has {w}x{h} pixels; at most {max_pixels} are read")
            im.load()
            upright: Image.Image = ImageOps.exif_transpose(im) or im
            return upright.convert("RGB")
    except ScanError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise ScanError("too_many_pixels", "the image has too many pixels") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        raise ScanError("not_an_image", "the file is not an image this reader understands") from None


# ------------------------------------------------------------------ cells


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
    bg = float(np.percentile(cell, 90))
    if bg <= 0:
        return np.zeros_like(cell)
    darkness = (bg - cell.astype(np.float32)) / max(bg, 1.0)
    # Hysteresis: strokes are grown from clearly dark pixels into fainter ones, so a
    # light pencil or a blurred photo still gives whole strokes.
    dmax = float(darkness.max())
    strong_at = INK_STRONG if dmax >= 2 * INK_STRONG else max(INK_MIN, 0.5 * dmax)
    weak_at = INK_STRONG if dmax >= 2 * INK_STRONG else 0.7 * strong_at
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
        if at_top_bottom and x == 0 and x + cw >= w and ch <= thin:
            continue
        if at_sides and y == 0 and y + ch >= h and cw <= thin:
            continue
        if touches and area < 40:
            continue
        keep[i] = True
    out: np.ndarray = (keep[labels]).astype(np.uint8) * 255
    return out


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


WIDE = 1.7  # a glyph this many times the photo's median digit width may be two digits


def split(g: Glyph) -> tuple[Glyph, Glyph] | None:
    """A wide glyph cut in two at its thinnest column (in its middle 30-70%): the
    alternative segmentation for two digits that touch."""
    w = g.x1 - g.x0
    if w < 8:
        return None
    ink = (g.mask > 0).sum(axis=0)
    lo, hi = int(w * 0.3), int(w * 0.7) + 1
    at = lo + int(np.argmin(ink[lo:hi]))
    left, right = g.mask[:, :at], g.mask[:, at:]
    if not left.any() or not right.any():
        return None
    return Glyph(left.copy(), g.x0, g.x0 + at, g.y0, g.y1), Glyph(right.copy(), g.x0 + at, g.x1,
                                                                  g.y0, g.y1)


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


# ------------------------------------------------------------------ decoding


_TESS_MAP = str.maketrans({"O": "0", "o": "0", "D": "0", "Q": "0", "l": "1", "I": "1", "|": "1",
                           "i": "1", "!": "1", "]": "1", "[": "1", "Z": "2", "z": "2", "S": "5",
                           "s": "5", "B": "8", "G": "6", "b": "6", "g": "9", "q": "9", "T": "7",
                           "A": "4", "?": "7"})


def tesseract_number(text: str) -> int | None:
    t = text.strip().translate(_TESS_MAP)
    t = re.sub(r"[\s.,'`\"’‘-]", "", t)
    if t in ("", "-", "—"):
        return None
    if not t.isdigit() or len(t) > MAX_DIGITS:
        return None
    return int(t)


def classifier_candidates(probs: np.ndarray, top: int = 3) -> list[Candidate]:
    """Per-glyph digit probabilities -> whole-number candidates with probabilities."""
    if len(probs) == 0 or len(probs) > MAX_DIGITS:
        return []
    digit_p = _digit_probs(probs)
    choices = [np.argsort(-row)[:top] for row in digit_p]
    out: dict[int, float] = {}
    for combo in itertools.product(*choices):
        p = float(np.prod([digit_p[i, d] for i, d in enumerate(combo)]))
        if len(combo) > 1 and combo[0] == 0:
            continue  # nobody writes a leading zero
        v = int("".join(str(d) for d in combo))
        out[v] = max(out.get(v, 0.0), p)
    return [Candidate(v, p) for v, p in sorted(out.items(), key=lambda t: -t[1])]


def _digit_probs(probs: np.ndarray) -> np.ndarray:
    digit_p: np.ndarray = probs[:, : dg.N_DIGITS]
    if len(probs) > 1:  # a scratch mark is never one digit of a number
        digit_p = digit_p / np.maximum(digit_p.sum(axis=1, keepdims=True), 1e-9)
    return digit_p


def legal_candidates(probs: np.ndarray, legal: frozenset[int]) -> list[Candidate]:
    """Every legal value written with one digit per glyph, with the classifier's probability
    for it: the decoder can then find a legal reading outside the per-glyph top choices
    (marked ``inferred`` when it is chosen over a better, illegal reading)."""
    if len(probs) == 0 or len(probs) > MAX_DIGITS:
        return []
    digit_p = _digit_probs(probs)
    out = []
    for v in legal:
        text = str(v)
        if len(text) == len(probs):
            out.append(Candidate(v, float(np.prod([digit_p[i, int(ch)]
                                                    for i, ch in enumerate(text)]))))
    return out


def legal_values(row: Row, rules: RuleSet) -> frozenset[int] | None:
    """What a cell can hold (None: any number of up to four digits)."""
    if row.kind is Kind.BOX and isinstance(row.field, Box):
        return possible_values(rules, row.field)
    if row.field is TotalField.UPPER_BONUS:
        return frozenset({0, rules.upper_bonus})
    return None


@dataclass
class Decision:
    value: int | None
    confidence: float
    inferred: bool
    candidates: list[Candidate]


TESS_AGREE = 10.0  # how much a tesseract reading multiplies a candidate's odds
TESS_FLOOR = 0.01  # the classifier's probability for a tesseract reading it did not propose


def decide(cls: list[Candidate], tess: int | None, tess_conf: float,
           legal: frozenset[int] | None, use_cls: bool = True, use_tess: bool = True) -> Decision:
    """Combine the two readers, then restrict to the legal values."""
    # Classifier probabilities are absolute (the numbers not listed, and scratch marks, hold
    # the rest of the mass); a tesseract reading multiplies its number's odds.
    scores: dict[int, float] = {}
    rest = 0.0
    if use_cls:
        for c in cls:
            assert isinstance(c.value, int)
            scores[c.value] = max(scores.get(c.value, 0.0), c.p)
        rest = max(0.0, 1.0 - sum(scores.values()))
        if use_tess and tess is not None:
            boost = 1.0 + (TESS_AGREE - 1.0) * max(tess_conf, 0.2)
            scores[tess] = max(scores.get(tess, 0.0), TESS_FLOOR) * boost
    elif use_tess and tess is not None:
        scores[tess] = max(tess_conf, 0.05)
        rest = 1.0 - scores[tess]  # the chance tesseract is wrong
    total = sum(scores.values()) + rest
    if total <= 0 or not scores:
        return Decision(None, 0.0, False, [])
    ranked = sorted(((v, sc / total) for v, sc in scores.items()), key=lambda t: -t[1])
    cands = [Candidate(v, p) for v, p in ranked]
    if not ranked:
        return Decision(None, 0.0, False, [])
    best_read = ranked[0][0]
    if legal is None:
        ok = [(v, p) for v, p in ranked if v <= 9999]
    else:
        ok = [(v, p) for v, p in ranked if v in legal]
    if not ok:
        return Decision(None, 0.0, False, cands)
    value, p = ok[0]
    return Decision(value, p, value != best_read, cands)


# ------------------------------------------------------------------ the reader


CONFIDENT_AT = 0.85
ALT_PENALTY = 0.05  # prior weight of reading two touching pieces as one glyph
SURE = 0.995  # classifier probability above which tesseract is not consulted


@dataclass
class _Cell:
    row: Row
    r: int
    c: int
    rect: tuple[int, int, int, int]  # in card coordinates
    crop: np.ndarray
    mask: np.ndarray
    glyphs: list[Glyph]
    kind: str
    tess_index: int | None = None
    probs: np.ndarray | None = None
    alts: list[np.ndarray] = dc_field(default_factory=list)
    wide: bool = False  # a glyph much wider than this hand's digits: perhaps two touching


def _prep_for_ocr(crop: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A clean, padded, enlarged black-on-white image of the cell's ink."""
    ys, xs = np.nonzero(mask)
    if len(xs):
        crop = crop[max(ys.min() - 3, 0): ys.max() + 4, max(xs.min() - 3, 0): xs.max() + 4]
        mask = mask[max(ys.min() - 3, 0): ys.max() + 4, max(xs.min() - 3, 0): xs.max() + 4]
    bg = float(np.percentile(crop, 90)) or 255.0
    norm = np.clip(crop.astype(np.float32) / bg * 255.0, 0, 255)
    norm[mask == 0] = 255
    h = norm.shape[0]
    scale = 48.0 / max(h, 1)
    big = cv2.resize(norm, (max(1, int(norm.shape[1] * scale)), 48), interpolation=cv2.INTER_CUBIC)
    out: np.ndarray = cv2.copyMakeBorder(big.astype(np.uint8), 16, 16, 24, 24,
                                         cv2.BORDER_CONSTANT, value=255)
    return out


def _name_prep(crop: np.ndarray) -> np.ndarray:
    mask = ink_mask(crop)
    return _prep_for_ocr(crop, mask)


def _clean_name(text: str) -> str:
    t = re.sub(r"[^A-Za-z' .-]", "", text).strip(" .-'")
    return t[:64].capitalize() if t.isupper() or t.islower() else t[:64]


@dataclass
class _Plan:
    """Where the cells are: from the template (our pad) or found by ``adaptive``."""

    card: np.ndarray  # the flattened, upright card the cells are cut from
    side: Side
    rotation: int  # quarter turns
    score: float  # template correlation, or the adaptive path's mean label similarity
    layout: str  # "template" or "adaptive"
    cells: list[_Cell]
    to_work: np.ndarray  # 3x3 homography: card pixels -> working image pixels
    name_crop: np.ndarray | None  # front: where the player's name is written
    name_rect: tuple[int, int, int, int] | None  # ... in card pixels (front)


class Reader:
    """Reads photos of the pad; ``engine`` is the OCR engine (tesseract by default)."""

    def __init__(self, engine: Engine | None = None, *, model: dg.Classifier | None = None,
                 use_classifier: bool = True, use_tesseract: bool = True,
                 tesseract_all: bool = False, cross_check: bool = True, adapt: bool = True,
                 max_bytes: int = MAX_BYTES, max_pixels: int = MAX_PIXELS) -> None:
        self.engine: Engine = engine or TesseractEngine()
        self.model = model
        self.use_classifier = use_classifier
        self.use_tesseract = use_tesseract
        self.tesseract_all = tesseract_all
        self.cross_check = cross_check
        self.adapt = adapt
        self.max_bytes = max_bytes
        self.max_pixels = max_pixels

    # -- geometry
    def _work_gray(self, rgb: Image.Image) -> tuple[np.ndarray, float]:
        gray_full = np.asarray(rgb.convert("L"))
        h, w = gray_full.shape
        scale = min(1.0, WORK_SIDE / max(h, w))
        gray = gray_full if scale == 1.0 else cv2.resize(
            gray_full, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
        if min(gray.shape) < 200:
            raise ScanError("not_a_pad", "the image is too small to hold a readable pad")
        return gray, scale

    def _plan_photo(self, rgb: Image.Image) -> tuple[_Plan, np.ndarray]:
        """The plan, and the homography from its card to the photo's own pixels.

        A big photo is searched at WORK_SIDE; when the pad is small in it (photographed
        from afar), its cells would be cut from too few pixels, so the pad's part of the
        full-resolution photo is planned again (``ZOOM_BELOW``)."""
        gray, scale = self._work_gray(rgb)
        try:
            plan: _Plan | None = self._plan(gray)
            error = None
        except ScanError as exc:
            plan, error = None, exc
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

    def _zoomed(self, rgb: Image.Image, quad: np.ndarray,
                target: int) -> tuple[_Plan, np.ndarray] | None:
        """The plan of the photo's full-resolution part around ``quad`` (photo pixels),
        scaled so that the card is about ``target`` pixels long, as a close photo gives it
        (warping down from many more pixels would alias thin strokes)."""
        w, h = rgb.size
        x0, y0 = quad.min(axis=0)
        x1, y1 = quad.max(axis=0)
        m = 0.08 * max(x1 - x0, y1 - y0)
        box = (max(0, int(x0 - m)), max(0, int(y0 - m)), min(w, int(x1 + m)), min(h, int(y1 + m)))
        if box[2] - box[0] < 200 or box[3] - box[1] < 200:
            return None
        full = np.asarray(rgb.crop(box).convert("L"))
        scale = min(1.0, 1.1 * target / _quad_side(quad))
        gray = full if scale == 1.0 else cv2.resize(
            full, (round(full.shape[1] * scale), round(full.shape[0] * scale)),
            interpolation=cv2.INTER_AREA)
        try:
            plan = self._plan(gray)
        except ScanError:
            return None
        to_photo = np.array([[1 / scale, 0, box[0]], [0, 1 / scale, box[1]], [0, 0, 1]]) @ plan.to_work
        return plan, to_photo

    def _locate(self, rgb: Image.Image) -> tuple[np.ndarray, float, geometry.Match]:
        """The template match only (our own pad)."""
        gray, scale = self._work_gray(rgb)
        match = geometry.best_match(gray)
        if match is None or match.score < MIN_MATCH:
            raise ScanError("not_a_pad", "no Yahtzee score pad was found in the photo")
        return gray, scale, match

    def _template_plan(self, gray: np.ndarray, match: geometry.Match) -> _Plan:
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
        return _Plan(card, match.side, match.rotation, match.score, "template", self._cut(card, g),
                     to_work, name_crop, name_rect)

    def _adaptive_plan(self, t: adaptive.Table) -> _Plan:
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
                cells.append(self._make_cell(card, row, r, c, (x0 + mx, y0 + my, x1 - mx, y1 - my)))
        name_crop = None
        if t.side is Side.FRONT and t.name_rect is not None:
            x0, y0, x1, y1 = t.name_rect
            name_crop = card[y0:y1, x0:x1]
        name_rect = t.name_rect if t.name_rect is not None else (t.xs[0], max(t.ys[0] - 50, 0),
                                                                 t.xs[-1], t.ys[0])
        return _Plan(card, t.side, t.rotation, t.score, "adaptive", cells, t.to_work, name_crop,
                     name_rect)

    def _plan(self, gray: np.ndarray) -> _Plan:
        """Our own pad by the template when it matches well; else any pad by its lines and labels."""
        match = geometry.best_match(gray)
        if match is not None and match.score >= STRONG_MATCH:
            return self._template_plan(gray, match)
        weak = match if match is not None and match.score >= MIN_MATCH else None
        # the adaptive path reads the printed labels; without it, or without a ruled
        # table, a weak template match is all there is
        grid = adaptive.find_grid(gray) if self.use_tesseract else None
        if grid is None:
            if weak is not None:
                return self._template_plan(gray, weak)
            raise ScanError("not_a_pad", "no Yahtzee score pad was found in the photo")
        try:
            table = adaptive.recognise(gray, grid, self.engine)
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
        raise ScanError("not_a_pad", "no Yahtzee score pad was found in the photo")

    def scan(self, data: bytes, *, rules: str | RuleSet | dict[str, Any] | None = None) -> ScanResult:
        t0 = time.perf_counter()
        rs = get_rules(rules)
        img = load_image(data, max_bytes=self.max_bytes, max_pixels=self.max_pixels)
        plan, to_photo = self._plan_photo(img)

        def photo_box(rect: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
            x0, y0, x1, y1 = rect
            pts = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], dtype=np.float32)
            p = cv2.perspectiveTransform(pts, to_photo).reshape(4, 2)
            return (int(p[:, 0].min()), int(p[:, 1].min()), int(math.ceil(p[:, 0].max())),
                    int(math.ceil(p[:, 1].max())))

        cells = plan.cells
        model = (self.model or dg.default_model()) if self.use_classifier else None
        if model is not None:  # every glyph of the photo in one batch
            batch: list[np.ndarray] = []
            spans: list[tuple[_Cell, int, int, int]] = []
            widths = [g.x1 - g.x0 for c in cells if c.kind == NUMBER for g in c.glyphs]
            median_w = float(np.median(widths)) if widths else 0.0
            for cell in cells:
                if cell.kind == NUMBER:
                    gs = cell.glyphs
                    groups = [gs] + [[*gs[:i], join(gs[i], gs[i + 1]), *gs[i + 2:]]
                                     for i in range(len(gs) - 1)]  # two neighbours as one glyph
                    for i, g in enumerate(gs):  # one wide glyph as two touching digits
                        halves = split(g) if g.x1 - g.x0 > WIDE * median_w else None
                        if halves is not None and len(gs) < MAX_DIGITS:
                            cell.wide = True
                            groups.append([*gs[:i], *halves, *gs[i + 1:]])
                    for k, grp in enumerate(groups):
                        spans.append((cell, k, len(batch), len(batch) + len(grp)))
                        batch += [gl.mask for gl in grp]
            embed = getattr(model, "classify_embed", None) if self.adapt else None
            if embed is not None and batch:
                probs, feats = embed(batch)
                probs = adapt.adapt(probs, feats, _anchors(probs, spans, rs))
            else:
                probs = dg.classify(batch, model)
            for cell, k, a, b in spans:
                if k == 0:
                    cell.probs = probs[a:b]
                else:
                    cell.alts.append(probs[a:b])
        # ONE tesseract run over the cells the classifier is not sure of (and the names).
        ocr_images: list[np.ndarray] = []
        for cell in cells:
            if cell.kind == TEXT or (cell.kind == NUMBER and not self._sure(cell, rs)):
                cell.tess_index = len(ocr_images)
                ocr_images.append(_prep_for_ocr(cell.crop, cell.mask))
        name_index = None
        name_crop = plan.name_crop
        if (plan.side is Side.FRONT and name_crop is not None and name_crop.size
                and ink_mask(name_crop).any()):
            name_index = len(ocr_images)
            ocr_images.append(_name_prep(name_crop))
        texts: list[OcrText] = []
        if self.use_tesseract and ocr_images:
            texts = self.engine.read_batch(ocr_images)
        reads = [self._read_cell(cell, texts, model, rs, photo_box(cell.rect)) for cell in cells]
        if self.cross_check:
            cross_check(reads, plan.side, rs)
        if plan.side is Side.FRONT:
            name_box = photo_box(plan.name_rect) if plan.name_rect else (0, 0, 0, 0)
            reads.insert(0, self._name_read(texts, name_index, 0, "NAME", name_box))
            sheet = _front_sheet(reads, rs)
        else:
            sheet = _back_sheet(reads)
        return ScanResult(sheet, plan.side, reads, (plan.rotation * 90) % 360, plan.score,
                          time.perf_counter() - t0, self.engine.name if self.use_tesseract else "none",
                          plan.layout)

    def _sure(self, cell: _Cell, rules: RuleSet) -> bool:
        """The classifier alone is sure enough: tesseract is not asked about this cell."""
        if not self.use_classifier or self.tesseract_all or cell.probs is None:
            return False
        probs = cell.probs
        if len(probs) == 1 and float(probs[0, dg.N_DIGITS:].sum()) >= SURE:
            return True
        cls = classifier_candidates(probs)
        legal = legal_values(cell.row, rules)
        return bool(cls) and cls[0].p >= SURE and (legal is None or cls[0].value in legal)

    def _cut(self, card: np.ndarray, g: Grid) -> list[_Cell]:
        out = []
        for r, row in enumerate(g.rows):
            if row.kind is Kind.HEADER:
                continue
            for c in range(g.value_cols):
                x0, y0, x1, y1 = g.cell(r, c)
                mx, my = 6, 5
                out.append(self._make_cell(card, row, r, c, (x0 + mx, y0 + my, x1 - mx, y1 - my)))
        return out

    @staticmethod
    def _make_cell(card: np.ndarray, row: Row, r: int, c: int,
                   rect: tuple[int, int, int, int]) -> _Cell:
        crop = card[rect[1]: rect[3], rect[0]: rect[2]]
        mask = ink_mask(crop)
        gs = glyphs(mask)
        if not gs:
            kind = BLANK
        elif row.kind is Kind.MARKS:
            kind = MARKS
        elif row.kind is Kind.NAME:
            kind = TEXT
        else:
            kind = NUMBER
        return _Cell(row, r, c, rect, crop, mask, gs, kind)

    def _name_read(self, texts: list[OcrText], index: int | None, column: int, label: str,
                   box: tuple[int, int, int, int]) -> CellRead:
        if index is None:
            return CellRead(label, "name", column, None, BLANK, None, 1.0, CONFIDENT, box=box)
        t = texts[index] if index < len(texts) else OcrText("", 0.0)
        name = _clean_name(t.text)
        if not name:
            return CellRead(label, "name", column, None, TEXT, None, 0.0, UNREADABLE, box=box,
                            readers={"tesseract": t.text})
        status = CONFIDENT if t.confidence >= 0.85 else NEEDS_REVIEW
        return CellRead(label, "name", column, None, TEXT, name, t.confidence, status, box=box,
                        candidates=[Candidate(name, t.confidence)], readers={"tesseract": t.text})

    def _read_cell(self, cell: _Cell, texts: list[OcrText], model: dg.Classifier | None,
                   rules: RuleSet, box: tuple[int, int, int, int]) -> CellRead:
        row = cell.row
        fieldname = _field_name(row)
        game = _game_of(row, cell.c)
        base: dict[str, Any] = {"row": row.label, "field": fieldname, "column": cell.c,
                                "game": game, "box": box}
        if cell.kind == BLANK:
            return CellRead(**base, kind=BLANK, value=None, confidence=1.0, status=CONFIDENT)
        if cell.kind == TEXT:
            return self._name_read(texts, cell.tess_index, cell.c, row.label, box)
        if cell.kind == MARKS:
            n = count_marks(cell.glyphs)
            return CellRead(**base, kind=MARKS, value=n, confidence=0.97 if n <= 3 else 0.7,
                            status=CONFIDENT if n <= 3 else NEEDS_REVIEW,
                            candidates=[Candidate(n, 1.0)])
        tess = texts[cell.tess_index] if cell.tess_index is not None and cell.tess_index < len(
            texts) else OcrText("", 0.0)
        tnum = tesseract_number(tess.text) if self.use_tesseract else None
        asked = self.use_tesseract and cell.tess_index is not None
        readers: dict[str, str | None] = {"tesseract": tess.text if asked else None}
        legal = legal_values(row, rules)
        probs = cell.probs
        # A lone scratch stroke: a zero written as a dash, slash or X.
        if probs is not None and len(cell.glyphs) == 1:
            p_scratch = float(probs[0, dg.N_DIGITS:].sum())
            readers["classifier"] = dg.CLASSES[int(np.argmax(probs[0]))]
            if p_scratch > 0.5 and (legal is None or 0 in legal):
                agree = tnum in (None, 0) or tess.text.strip() in ("-", "—", "/", "X", "x")
                conf = p_scratch * (1.0 if agree else 0.85)
                return CellRead(**base, kind=SCRATCH, value=0, confidence=conf,
                                status=CONFIDENT if conf >= CONFIDENT_AT else NEEDS_REVIEW,
                                candidates=[Candidate(0, p_scratch)], readers=readers)
        cls = classifier_candidates(probs) if probs is not None else []
        if cell.alts:
            seen = {c.value: c for c in cls}
            for alt in cell.alts:
                for c in classifier_candidates(alt):
                    p = c.p * ALT_PENALTY
                    if c.value not in seen or seen[c.value].p < p:
                        seen[c.value] = Candidate(c.value, p)
            cls = sorted(seen.values(), key=lambda c: -c.p)
        if probs is not None:
            readers["classifier"] = str(cls[0].value) if cls else None
            if legal is not None:
                known = {c.value for c in cls}
                cls += [c for c in legal_candidates(probs, legal) if c.value not in known]
                cls.sort(key=lambda c: -c.p)
        d = decide(cls, tnum, tess.confidence, legal, use_cls=model is not None,
                   use_tess=self.use_tesseract)
        if d.value is None:
            return CellRead(**base, kind=NUMBER, value=None, confidence=0.0, status=UNREADABLE,
                            candidates=d.candidates, readers=readers)
        # a wide glyph may be two touching digits: only the pad's sums can make it confident
        sure = d.confidence >= CONFIDENT_AT and not d.inferred and not cell.wide
        status = CONFIDENT if sure else NEEDS_REVIEW
        return CellRead(**base, kind=NUMBER, value=d.value, confidence=d.confidence,
                        status=status, inferred=d.inferred, candidates=d.candidates,
                        readers=readers)


ZOOM_BELOW = 0.6  # a card warped up from less than this share of its size is re-planned


def _card_quad(plan: _Plan) -> np.ndarray:
    """The plan's card in the working image."""
    h, w = plan.card.shape[:2]
    corners = np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float32)
    quad: np.ndarray = cv2.perspectiveTransform(corners, plan.to_work).reshape(4, 2)
    return quad


def _quad_side(quad: np.ndarray) -> float:
    """The quadrilateral's longest side."""
    return float(max(np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)))


def _anchors(probs: np.ndarray, spans: Sequence[tuple[_Cell, int, int, int]],
             rules: RuleSet) -> dict[int, int]:
    """Glyphs surely read, in cells read as a legal value: batch row -> its digit."""
    out: dict[int, int] = {}
    for cell, k, a, b in spans:
        if k != 0 or cell.wide:
            continue
        legal = legal_values(cell.row, rules)
        # a box with one legal value of this many digits (25 in Full House, 30, 40, 50)
        forced = [v for v in legal or () if len(str(v)) == b - a]
        if len(forced) == 1:
            out.update({a + i: int(ch) for i, ch in enumerate(str(forced[0]))})
            continue
        cls = classifier_candidates(probs[a:b])
        if not cls or cls[0].p < adapt.ANCHOR_AT:
            continue
        value = cls[0].value
        assert isinstance(value, int)
        if legal is not None and value not in legal:
            continue
        text = str(value)
        if len(text) == b - a:
            out.update({a + i: int(ch) for i, ch in enumerate(text)})
    return out


KEEP_ON_FAIL = 0.99  # a failed sum leaves readings at least this sure confident
CROSS_MIN = 0.5  # a reading this likely, confirmed by the pad's own arithmetic, is confident
SUSPECTS = 2  # a failed sum no doubtful cell explains: its least sure confident readings are
DOUBT_ON_FAIL = 0.9  # marked for review, and so is every one below this (one at KEEP_ON_FAIL
# or above stays confident)


def cross_check(reads: Sequence[CellRead], side: Side, rules: RuleSet) -> None:
    """Confidence from the pad's arithmetic, never values.

    When the numbers as read satisfy one of the pad's sums (the six upper boxes
    add up to TOTAL SCORE, ...), a misreading would have to be cancelled by
    another one, which is unlikely: such readings become confident.  Nothing
    is ever changed to make a sum agree; a sum that fails changes nothing
    either (it may be the player's mistake, which the audit reports).
    """
    groups: dict[int, dict[str, CellRead]] = {}
    for r in reads:
        if r.field != "name":
            groups.setdefault(r.column, {})[f"{r.field}:{r.game}" if side is Side.BACK
                                             else r.field] = r
    for col in groups.values():
        relations: list[tuple[str, list[CellRead], list[CellRead]]] = []
        if side is Side.FRONT:
            def cells(*names: str, col: dict[str, CellRead] = col) -> list[CellRead]:
                return [col[n] for n in names if n in col]

            upper = cells(*(b.value for b in Box if b.is_upper))
            lower = cells(*(b.value for b in Box if not b.is_upper), "yahtzee_bonus_checks")
            T = TotalField
            relations = [
                ("upper_sum", upper, cells(T.UPPER_SUBTOTAL.value)),
                ("upper_total", cells(T.UPPER_SUBTOTAL.value, T.UPPER_BONUS.value),
                 cells(T.UPPER_TOTAL.value)),
                ("lower_sum", lower, cells(T.LOWER_TOTAL.value)),
                ("upper_repeat", cells(T.UPPER_TOTAL.value), cells(T.UPPER_TOTAL_REPEAT.value)),
                ("grand_total", cells(T.UPPER_TOTAL_REPEAT.value, T.LOWER_TOTAL.value),
                 cells(T.GRAND_TOTAL.value)),
            ]
        else:
            scores = [r for k, r in col.items() if k.startswith("score:")]
            total = [r for k, r in col.items() if k.startswith("total:")]
            relations = [("players_total", scores, total)]
        held: dict[int, tuple[CellRead, str]] = {}
        failed: dict[int, tuple[CellRead, str]] = {}
        unexplained: set[int] = set()  # suspects of failed sums no doubtful cell accounts for
        for name, parts, result in relations:
            if len(result) != 1 or result[0].kind == BLANK or result[0].value is None:
                continue
            if any(p.value is None and p.kind != BLANK for p in parts):
                continue
            written = [r for r in [*parts, result[0]] if r.kind != BLANK]
            if sum(_worth(p, rules) for p in parts) != result[0].value:
                # a misreading or the player's own mistake: the values stay as read
                for r in written:
                    failed.setdefault(id(r), (r, f"{name}_failed"))
                if not _explained(parts, result[0], rules):
                    # a doubtful cell would have explained it: the suspects are the least
                    # sure of the readings still marked confident
                    sure = sorted((r for r in written if r.status == CONFIDENT and r.kind != BLANK),
                                  key=lambda r: r.confidence)
                    suspects = sure[:SUSPECTS] + [r for r in sure if r.confidence < DOUBT_ON_FAIL]
                    unexplained.update(id(r) for r in suspects)
            elif sum(_worth(p, rules) != 0 for p in parts) >= 2:
                # (x == y, or x + 0 == y, is no evidence: one hand's digits misread alike)
                for r in written:
                    held.setdefault(id(r), (r, name))
        for r, note in held.values():
            r.checks.append(note)
            if (r.status == NEEDS_REVIEW and not r.inferred and r.kind != TEXT
                    and r.confidence >= CROSS_MIN):
                r.status = CONFIDENT
        for key, (r, note) in failed.items():
            r.checks.append(note)
            if (key not in held and key in unexplained and r.status == CONFIDENT
                    and r.confidence < KEEP_ON_FAIL):
                r.status = NEEDS_REVIEW


def _explained(parts: list[CellRead], result: CellRead, rules: RuleSet) -> bool:
    """A failed sum is accounted for by a cell already marked for review: one of that
    cell's own candidates would make the sum hold.  (Only confidence depends on this;
    the value stays as read.)  Otherwise the failure may hide a confident misreading."""
    total = sum(_worth(p, rules) for p in parts)
    target = result.value
    assert isinstance(target, int)
    for r in [*parts, result]:
        if r.status == CONFIDENT or r.kind == BLANK:
            continue
        for c in r.candidates[:5]:
            if not isinstance(c.value, int) or c.value == r.value:
                continue
            if r is result:
                if total == c.value:
                    return True
            elif total - _worth(r, rules) + _points(r.field, c.value, rules) == target:
                return True
    return False


def _worth(r: CellRead, rules: RuleSet) -> int:
    if r.kind == BLANK or not isinstance(r.value, int):
        return 0
    return _points(r.field, r.value, rules)


def _points(field: str, value: int, rules: RuleSet) -> int:
    """What a reading adds to its sum (a YAHTZEE BONUS reading counts check marks)."""
    return value * rules.yahtzee_bonus if field == "yahtzee_bonus_checks" else value


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


def _game_of(row: Row, column: int) -> int | None:
    """The 0-based game of a cell: its column on the front, its row on the back."""
    return row.game if row.kind in (Kind.SCORE, Kind.GRAND, Kind.NAME) else column


def _field_name(row: Row) -> str:
    if row.kind is Kind.MARKS:
        return "yahtzee_bonus_checks"
    if row.kind is Kind.NAME:
        return "name"
    if row.kind is Kind.SCORE:
        return "score"
    if row.kind is Kind.GRAND:
        return "total"
    assert row.field is not None
    return str(row.field.value)


def _front_sheet(reads: Sequence[CellRead], rules: RuleSet) -> Sheet:
    name_cell = reads[0]
    name = str(name_cell.value) if name_cell.value else "Player 1"
    games: list[Game | None] = []
    for c in range(FRONT.value_cols):
        col = [r for r in reads[1:] if r.column == c]
        if all(r.kind == BLANK for r in col):
            games.append(None)
            continue
        game = Game()
        for r in col:
            if r.value is None or r.kind == BLANK:
                continue
            assert isinstance(r.value, int)
            if r.field == "yahtzee_bonus_checks":
                game.bonus_checks = r.value
            elif r.field in Box._value2member_map_:
                game.boxes[Box(r.field)] = r.value
            else:
                game.totals[TotalField(r.field)] = r.value
        games.append(game)
    while games and games[-1] is None:
        games.pop()
    return Sheet(players=[Player(name=name, games=games)],
                 rules=rules.name if rules.name in REGISTRY else rules, title=None)


def _back_sheet(reads: Sequence[CellRead]) -> Sheet:
    players = []
    used: set[str] = set()
    for c in range(BACK.value_cols):
        col = [r for r in reads if r.column == c]
        if all(r.kind == BLANK for r in col):
            continue
        name_cell = next((r for r in col if r.field == "name"), None)
        name = str(name_cell.value) if name_cell and name_cell.value else f"Player {c + 1}"
        if name.casefold() in used:
            name = f"{name} ({c + 1})"
        used.add(name.casefold())
        scores: list[int | None] = [None] * 6
        total = None
        for r in col:
            if r.field == "score" and r.game is not None and isinstance(r.value, int):
                scores[r.game] = r.value
            elif r.field == "total" and isinstance(r.value, int):
                total = r.value
        while scores and scores[-1] is None:
            scores.pop()
        players.append(Player(name=name, games=[], players_scores=PlayersScores(scores, total)))
    if not players:
        raise ScanError("empty_pad", "the PLAYERS' SCORES sheet has nothing written on it")
    return Sheet(players=players, rules=None)


def scan_image(data: bytes, *, rules: str | RuleSet | dict[str, Any] | None = None,
               engine: Engine | None = None) -> ScanResult:
    """Read a photo of a pad (front or back). Raises ScanError with a stable ``code``."""
    return Reader(engine).scan(data, rules=rules)
