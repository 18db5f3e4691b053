"""Photo -> sheet: the reader, honest about every cell it is unsure of.

The steps, each in its own module: ``loading`` (limits, decoding, EXIF orientation),
``plan`` (the card found and warped: ``geometry`` for our pad, ``table_layout`` for
another design; cells cut), ``glyphs`` (ink and glyphs), the digit classifier over every
glyph in one batch (adapted to the writer's hand by ``writer``), ONE tesseract run over
the cells the classifier is unsure of, ``cellread`` and ``decode`` (candidates decoded
against what the box can legally hold), ``crosscheck`` (confidence from the pad's sums)
and ``assemble`` (the sheet).  The reader never changes a written value to make totals
agree; a value chosen because it is legal rather than because it read best is marked
``inferred``.
"""

from __future__ import annotations

import math
import time
from typing import Any

import cv2
import numpy as np

from scorepad.rules import RuleSet, get_rules

from . import cnn, writer
from . import digits as dg
from .assemble import back_sheet, front_sheet
from .cellread import anchors, classifier_sure, name_prep, prep_for_ocr, read_cell, read_name
from .crosscheck import cross_check
from .decode import MAX_DIGITS
from .glyphs import WIDE, ink_mask, join, split
from .layout import Side
from .loading import MAX_BYTES, MAX_PIXELS, load_image
from .plan import Cell, Planner
from .result import NUMBER, TEXT, ScanResult
from .tesseract import Engine, OcrText, TesseractEngine


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
        # the adaptive layout path reads printed labels with tesseract
        self.planner = Planner(self.engine, read_labels=use_tesseract)

    def scan(self, data: bytes, *, rules: str | RuleSet | dict[str, Any] | None = None) -> ScanResult:
        """Read one photo; raises ScanError (the photo) or OcrEngineError (tesseract)."""
        t0 = time.perf_counter()
        rs = get_rules(rules)
        img = load_image(data, max_bytes=self.max_bytes, max_pixels=self.max_pixels)
        plan, to_photo = self.planner.plan_photo(img)

        def photo_box(rect: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
            x0, y0, x1, y1 = rect
            pts = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], dtype=np.float32)
            p = cv2.perspectiveTransform(pts, to_photo).reshape(4, 2)
            return (int(p[:, 0].min()), int(p[:, 1].min()), int(math.ceil(p[:, 0].max())),
                    int(math.ceil(p[:, 1].max())))

        cells = plan.cells
        if self.use_classifier:
            self._classify(cells, self.model or cnn.load(), rs)
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
        return ScanResult(sheet, plan.side, reads, (plan.rotation * 90) % 360, plan.score,
                          time.perf_counter() - t0, self.engine.name if self.use_tesseract else "none",
                          plan.layout)

    def _classify(self, cells: list[Cell], model: dg.Classifier, rules: RuleSet) -> None:
        """Every glyph of the photo in one batch, with the alternative segmentations: two
        neighbours as one glyph, one wide glyph as two touching digits."""
        batch: list[np.ndarray] = []
        spans: list[tuple[Cell, int, int, int]] = []
        widths = [g.x1 - g.x0 for c in cells if c.kind == NUMBER for g in c.glyphs]
        median_w = float(np.median(widths)) if widths else 0.0
        for cell in cells:
            if cell.kind != NUMBER:
                continue
            gs = cell.glyphs
            groups = [gs] + [[*gs[:i], join(gs[i], gs[i + 1]), *gs[i + 2:]]
                             for i in range(len(gs) - 1)]
            for i, g in enumerate(gs):
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
            probs = writer.adapt(probs, feats, anchors(probs, spans, rules))
        else:
            probs = dg.classify(batch, model)
        for cell, k, a, b in spans:
            if k == 0:
                cell.probs = probs[a:b]
            else:
                cell.alts.append(probs[a:b])

    def _asks_tesseract(self, cell: Cell, rules: RuleSet) -> bool:
        if cell.kind == TEXT:
            return True
        if cell.kind != NUMBER:
            return False
        return not self.use_classifier or self.tesseract_all or not classifier_sure(cell, rules)


def scan_image(data: bytes, *, rules: str | RuleSet | dict[str, Any] | None = None,
               engine: Engine | None = None) -> ScanResult:
    """Read a photo of a pad (front or back). Raises ScanError with a stable ``code``."""
    return Reader(engine).scan(data, rules=rules)
