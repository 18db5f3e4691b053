"""Photo -> sheet: the reader, honest about every cell it is unsure of.

The steps, each in its own module: ``loading`` (limits, decoding, EXIF orientation),
``plan`` (the card found and warped: ``geometry`` for our pad, ``table_layout`` for
another design; cells cut), ``glyphs`` (ink and glyphs), the digit classifier over every
glyph in one batch (adapted to the writer's hand by ``writer``), ONE tesseract run over
the cells the classifier is unsure of, ``cellread`` and ``decode`` (candidates decoded
against what the box can legally hold), ``crosscheck`` (confidence from the pad's sums)
and ``assemble`` (the sheet).  The reader never changes a sure reading to make totals
agree; a value chosen because it is legal rather than because it read best is marked
``inferred``, and a doubtful cell read as the one candidate that explains a failed sum
keeps what its ink read (``ink``), for the audit to try.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import cv2
import numpy as np

from scorepad.rules import RuleSet, get_rules

from . import cnn, writer
from . import digits as dg
from .assemble import back_sheet, front_sheet
from .cell import Cell
from .cellread import ALT_PENALTY, anchors, classifier_sure, name_prep, prep_for_ocr, read_cell, read_name
from .crosscheck import cross_check
from .decode import MAX_DIGITS
from .geometry import order_corners
from .glyphs import (
    MAX_ODDS,
    Glyph,
    digits_in,
    halves,
    ink_mask,
    join,
    seam_splits,
    splits,
    width_odds,
)
from .layout import Kind, Side
from .loading import MAX_BYTES, MAX_PIXELS, load_image
from .plan import Plan, Planner
from .result import NUMBER, TEXT, ScanResult
from .tesseract import Engine, OcrText, Remembering, TesseractEngine

MAX_SPLIT = 3  # a glyph is cut into at most this many touching digits (but see ``four``)
Pairs = dict[int, list[tuple[list[Glyph], float]]]  # a cell's glyph -> its cuts in two, odds
SEVERAL_CUT = 0.5  # the classifier's 'several' from which a glyph of one digit's width is cut


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

    def scan(self, data: bytes, *, rules: str | RuleSet | dict[str, Any] | None = None,
             corners: Sequence[Sequence[float]] | None = None) -> ScanResult:
        """Read one photo; raises ScanError (the photo) or OcrEngineError (tesseract).

        ``corners``: the pad's four corners marked by a person, (x, y) in the pixels of the
        photo turned upright (as ``load_image`` returns it), in any order; the pad is then
        not searched for (``bad_corners`` when they are not four points around a part of
        the photo)."""
        t0 = time.perf_counter()
        rs = get_rules(rules)
        img = load_image(data, max_bytes=self.max_bytes, max_pixels=self.max_pixels)
        marks = [("load", time.perf_counter())]
        # the adaptive layout path reads printed labels with tesseract, each crop once a scan
        planner = Planner(Remembering(self.engine), read_labels=self.use_tesseract)
        plan, to_photo = planner.plan_photo(img, corners)
        marks.append(("find", time.perf_counter()))

        def photo_box(rect: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
            x0, y0, x1, y1 = rect
            pts = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], dtype=np.float32)
            p = cv2.perspectiveTransform(pts, to_photo).reshape(4, 2)
            return (int(p[:, 0].min()), int(p[:, 1].min()), int(math.ceil(p[:, 0].max())),
                    int(math.ceil(p[:, 1].max())))

        cells = plan.cells
        if self.use_classifier:
            self._classify(cells, self.model or cnn.load(), rs)
        marks.append(("classify", time.perf_counter()))
        # ONE tesseract run over the cells the classifier is not sure of (and the names).
        ocr_images: list[np.ndarray] = []
        for cell in cells:
            if self._asks_tesseract(cell, rs):
                cell.tess_index = len(ocr_images)
                ocr_images.append(prep_for_ocr(cell.crop, cell.mask))
        name_index = None
        name_crop = plan.name_crop
        if (plan.side is Side.FRONT and name_crop is not None and name_crop.size
                and ink_mask(name_crop).any()):
            name_index = len(ocr_images)
            ocr_images.append(name_prep(name_crop))
        texts: list[OcrText] = []
        if self.use_tesseract and ocr_images:
            texts = self.engine.read_batch(ocr_images)
        marks.append(("tesseract", time.perf_counter()))
        reads = [read_cell(cell, texts, rs, photo_box(cell.rect), classifier=self.use_classifier,
                           tesseract=self.use_tesseract) for cell in cells]
        if self.cross_check:
            cross_check(reads, plan.side, rs)
        if plan.side is Side.FRONT:
            name_box = photo_box(plan.name_rect) if plan.name_rect else (0, 0, 0, 0)
            reads.insert(0, read_name(texts, name_index, 0, "NAME", name_box))
            sheet = front_sheet(reads, rs)
        else:
            sheet = back_sheet(reads)
        marks.append(("decide", time.perf_counter()))
        timings = {step: t - before
                   for (_s, before), (step, t) in itertools.pairwise([("start", t0), *marks])}
        return ScanResult(sheet, plan.side, reads, (plan.rotation * 90) % 360, plan.score,
                          marks[-1][1] - t0, self.engine.name if self.use_tesseract else "none",
                          plan.layout, _photo_corners(plan, to_photo, img.size), plan.marked,
                          timings)

    def _classify(self, cells: list[Cell], model: dg.Classifier, rules: RuleSet) -> None:
        """Every glyph of the photo in one batch, with the alternative segmentations: two
        neighbours as one glyph, one wide glyph as two or three touching digits; then, in a
        second small batch, the cuts of a glyph the classifier sees as several digits
        though it is no wider than one (``_cut_several``)."""
        batch: list[np.ndarray] = []
        spans: list[tuple[Cell, int, list[int]]] = []  # a segmentation's glyphs' batch rows
        # glyph (by identity) -> its batch row: each read once (the glyph is kept, so that
        # its id is not reused by another while the batch is made)
        rows: dict[int, tuple[int, Glyph]] = {}

        def row_of(gl: Glyph) -> int:
            if id(gl) not in rows:
                rows[id(gl)] = (len(batch), gl)
                batch.append(gl.mask)
            return rows[id(gl)][0]

        glyphs = [g for c in cells if c.kind == NUMBER for g in c.glyphs]
        median_w = float(np.median([g.x1 - g.x0 for g in glyphs])) if glyphs else 0.0
        median_h = float(np.median([g.y1 - g.y0 for g in glyphs])) if glyphs else 0.0
        doubles: list[tuple[Cell, Pairs]] = []  # cells of four digits with two glyphs to cut
        for cell in cells:
            if cell.kind != NUMBER:
                continue
            gs = cell.glyphs
            # (segmentation, prior): as written, two neighbours as one glyph, a glyph as
            # two or three digits that touch (as likely as whole when its shape says so)
            groups: list[tuple[list[Glyph], float]] = [(gs, 1.0)]
            groups += [([*gs[:i], join(gs[i], gs[i + 1]), *gs[i + 2:]], ALT_PENALTY)
                       for i in range(len(gs) - 1)]
            pairs: Pairs = {}
            # four digits are written only in the back's TOTAL OF ALL GAMES (one game's
            # total stays below 1,000: decode.ONE_GAME_MOST): elsewhere a fourth piece is
            # a misread
            four = cell.row.kind is Kind.GRAND
            for i, g in enumerate(gs):
                n, maybe = digits_in(g, median_w, median_h)
                if not maybe:
                    continue
                cell.wide = True  # perhaps digits that touch: confident only when sure (cellread)
                # surely several: every cut into as many (or one more or fewer) pieces, into
                # four only in a cell of four digits; perhaps two: the one cut at the
                # thinnest column of its middle
                most = min(n + 1 if n < 3 else n, MAX_DIGITS if four else MAX_SPLIT,
                           MAX_DIGITS - len(gs) + 1)
                counts = range(2, most + 1) if n > 1 else [2]
                ways = ([p for m in counts for p in splits(g, m)] if n > 1
                        else [p for p in [halves(g)] if p])
                # ... and parted along seams round the digits (slanted ones overlap in x)
                ways += [p for m in counts for p in seam_splits(g, m)]
                for pieces in ways:
                    odds = width_odds(g, len(pieces), median_w, median_h)
                    groups.append(([*gs[:i], *pieces, *gs[i + 1:]], odds))
                    if len(pieces) == 2:
                        pairs.setdefault(i, []).append((pieces, odds))
            if four and len(gs) + 2 <= MAX_DIGITS and len(pairs) > 1:
                doubles.append((cell, pairs))
            # the glyphs as cut come first: their probabilities are the cell's own (``probs``);
            # a glyph the other segmentations keep as it is is not read again
            for k, (grp, prior) in enumerate(groups):
                spans.append((cell, k, [row_of(gl) for gl in grp]))
                if k:
                    cell.priors.append(prior)
        embed = getattr(model, "classify_embed", None) if self.adapt else None
        if embed is not None and batch:
            raw, feats = embed(batch)
            found, said = anchors(raw, spans, rules)
            first = len(batch)
            self._cut_several(spans, raw, row_of)
            self._cut_pairs(doubles, spans, raw, row_of)
            if len(batch) > first:
                more, more_feats = embed(batch[first:])
                raw, feats = np.vstack([raw, more]), np.vstack([feats, more_feats])
            probs = writer.adapt(raw, feats, found, said)
        else:
            probs = dg.classify(batch, model)
            first = len(batch)
            self._cut_several(spans, probs, row_of)
            self._cut_pairs(doubles, spans, probs, row_of)
            if len(batch) > first:
                probs = np.vstack([probs, dg.classify(batch[first:], model)])
        for cell, k, idx in spans:
            if k == 0:
                cell.probs = probs[idx]
            else:
                cell.alts.append(probs[idx])
        for cell in cells:
            # one glyph the classifier sees as several digits (a 15 written close): its cuts
            # in two are at least that likely, whatever its width says (not those in three:
            # the class says several, not how many)
            if len(cell.glyphs) == 1 and cell.probs is not None and cell.priors:
                several = float(cell.probs[0, dg.SEVERAL])
                cell.priors = [max(prior, several) if len(alt) == 2 else prior
                               for prior, alt in zip(cell.priors, cell.alts, strict=True)]

    @staticmethod
    def _cut_several(spans: list[tuple[Cell, int, list[int]]], probs: np.ndarray,
                     row_of: Callable[[Glyph], int]) -> None:
        """A glyph the width did not offer to cut, but the classifier sees as several digits
        (``several`` at SEVERAL_CUT or more: digits written close, as narrow as one): the
        cuts into two, as likely as the classifier says it is several."""
        for cell, k, idx in list(spans):
            if k != 0 or len(idx) >= MAX_DIGITS or cell.wide:
                continue  # (a wide glyph's cuts are read already)
            gs = cell.glyphs
            for i, row in enumerate(idx):
                several = float(probs[row, dg.SEVERAL])
                if several < SEVERAL_CUT:
                    continue
                ways = [p for p in [halves(gs[i])] if p] + seam_splits(gs[i], 2)
                for pieces in ways:
                    grp = [*gs[:i], *pieces, *gs[i + 1:]]
                    spans.append((cell, len(cell.priors) + 1, [row_of(g) for g in grp]))
                    cell.priors.append(several)
                if ways:
                    cell.wide = True

    @staticmethod
    def _cut_pairs(doubles: list[tuple[Cell, Pairs]], spans: list[tuple[Cell, int, list[int]]],
                   probs: np.ndarray, row_of: Callable[[Glyph], int]) -> None:
        """Two touching pairs in one cell of four digits (1294 written 12 94): both glyphs
        cut at once, where the classifier sees each as several digits (a wide 2 beside a
        pair is one digit), and no likelier by width than one cut.  The pieces were read
        already, with the cuts of one glyph."""
        for cell, pairs in doubles:
            gs = cell.glyphs
            several = [i for i in sorted(pairs)
                       if float(probs[row_of(gs[i]), dg.SEVERAL]) >= SEVERAL_CUT]
            for i, j in itertools.combinations(several, 2):
                for (a, oa), (b, ob) in itertools.product(pairs[i], pairs[j]):
                    grp = [*gs[:i], *a, *gs[i + 1:j], *b, *gs[j + 1:]]
                    spans.append((cell, len(cell.priors) + 1, [row_of(g) for g in grp]))
                    cell.priors.append(min(oa * ob, MAX_ODDS))

    def _asks_tesseract(self, cell: Cell, rules: RuleSet) -> bool:
        if cell.kind == TEXT:
            return True
        if cell.kind != NUMBER:
            return False
        return not self.use_classifier or self.tesseract_all or not classifier_sure(cell, rules)


def _photo_corners(plan: Plan, to_photo: np.ndarray, size: tuple[int, int]) -> list[list[int]]:
    """The corners of the card the cells were cut from, in the photo (within it), as seen."""
    h, w = plan.card.shape[:2]
    card = np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float32)
    quad = order_corners(cv2.perspectiveTransform(card, to_photo).reshape(4, 2))
    return [[int(round(min(max(float(x), 0.0), size[0]))), int(round(min(max(float(y), 0.0), size[1])))]
            for x, y in quad]


def scan_image(data: bytes, *, rules: str | RuleSet | dict[str, Any] | None = None,
               engine: Engine | None = None,
               corners: Sequence[Sequence[float]] | None = None) -> ScanResult:
    """Read a photo of a pad (front or back). Raises ScanError with a stable ``code``.

    ``corners``: the pad's four corners, when a person marked them (see ``Reader.scan``)."""
    return Reader(engine).scan(data, rules=rules, corners=corners)
