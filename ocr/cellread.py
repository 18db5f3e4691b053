"""One cell's reading: its glyphs' classifier probabilities and tesseract's text decoded
into a value, a confidence and a status; and the images tesseract is given."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from scorepad.rules import RuleSet

from . import digits as dg
from . import writer
from .cell import Cell
from .decode import (
    CONFIDENT_AT,
    classifier_candidates,
    decide,
    fixed_sure,
    legal_candidates,
    legal_values,
    most_of,
    tesseract_number,
)
from .glyphs import count_marks, ink_mask
from .paper import paper_level
from .result import (
    BLANK,
    CONFIDENT,
    MARKS,
    NEEDS_REVIEW,
    NUMBER,
    SCRATCH,
    TEXT,
    UNREADABLE,
    Candidate,
    CellRead,
)
from .tesseract import OcrText

ALT_PENALTY = 0.05  # prior weight of an unlikely segmentation (two pieces as one glyph, ...)
SURE = 0.995  # classifier probability above which tesseract is not consulted
WHOLE_SURE = 0.9  # glyphs read whole at least this surely: cutting them is an outside chance
NAME_SURE = 0.85  # tesseract's confidence from which a name is confident
MARKS_SURE = 3  # up to this many bonus marks counted is confident (more are rare: reviewed)
MARKS_CONFIDENCE, MARKS_DOUBT = 0.97, 0.7  # ... the confidence given to a count either way
SCRATCH_DISAGREE = 0.85  # a scratch mark's odds when tesseract read a number there
SCRATCH_DIGIT = 0.02  # a scratch mark this likely a digit the box can hold (a 1): reviewed


def prep_for_ocr(crop: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A clean, padded, enlarged black-on-white image of the cell's ink."""
    ys, xs = np.nonzero(mask)
    if len(xs):
        crop = crop[max(ys.min() - 3, 0): ys.max() + 4, max(xs.min() - 3, 0): xs.max() + 4]
        mask = mask[max(ys.min() - 3, 0): ys.max() + 4, max(xs.min() - 3, 0): xs.max() + 4]
    bg = paper_level(crop) or 255.0
    norm = np.clip(crop.astype(np.float32) / bg * 255.0, 0, 255)
    norm[mask == 0] = 255
    h = norm.shape[0]
    scale = 48.0 / max(h, 1)
    big = cv2.resize(norm, (max(1, int(norm.shape[1] * scale)), 48), interpolation=cv2.INTER_CUBIC)
    out: np.ndarray = cv2.copyMakeBorder(big.astype(np.uint8), 16, 16, 24, 24,
                                         cv2.BORDER_CONSTANT, value=255)
    return out


def name_prep(crop: np.ndarray) -> np.ndarray:
    mask = ink_mask(crop)
    return prep_for_ocr(crop, mask)


def _clean_name(text: str) -> str:
    t = re.sub(r"[^A-Za-z' .-]", "", text).strip(" .-'")
    return t[:64].capitalize() if t.isupper() or t.islower() else t[:64]




def classifier_sure(cell: Cell, rules: RuleSet) -> bool:
    """The classifier alone is sure enough: tesseract is not asked about this cell.

    Never for a wide glyph (perhaps digits that touch): how many digits tesseract sees
    there is worth asking, however sure the classifier is of one way to cut it."""
    if cell.probs is None or cell.wide:
        return False
    probs = cell.probs
    if len(probs) == 1 and float(probs[0, dg.SCRATCH].sum()) >= SURE:
        return True
    cls = classifier_candidates(probs)
    legal = legal_values(cell.row, rules)
    return bool(cls) and cls[0].p >= SURE and (legal is None or cls[0].value in legal)


def read_name(texts: list[OcrText], index: int | None, column: int, label: str,
              box: tuple[int, int, int, int]) -> CellRead:
    if index is None:
        return CellRead(label, "name", column, None, BLANK, None, 1.0, CONFIDENT, box=box)
    t = texts[index] if index < len(texts) else OcrText("", 0.0)
    name = _clean_name(t.text)
    if not name:
        return CellRead(label, "name", column, None, TEXT, None, 0.0, UNREADABLE, box=box,
                        readers={"tesseract": t.text})
    status = CONFIDENT if t.confidence >= NAME_SURE else NEEDS_REVIEW
    return CellRead(label, "name", column, None, TEXT, name, t.confidence, status, box=box,
                    candidates=[Candidate(name, t.confidence)], readers={"tesseract": t.text})


def read_cell(cell: Cell, texts: list[OcrText], rules: RuleSet, box: tuple[int, int, int, int],
              *, classifier: bool = True, tesseract: bool = True) -> CellRead:
    """The cell's value, confidence and status from both readers (either may be off)."""
    row = cell.row
    fieldname = cell.field
    game = cell.game
    base: dict[str, Any] = {"row": row.label, "field": fieldname, "column": cell.c,
                            "game": game, "box": box}
    if cell.kind == BLANK and cell.on_print:
        # only slivers along the printed boxes: their edge laid a pixel off, or a tally
        # stroke drawn along one (a mark missed there is a bonus denied): a person looks
        return CellRead(**base, kind=BLANK, value=None, confidence=MARKS_DOUBT,
                        status=NEEDS_REVIEW, candidates=[Candidate(cell.on_print, 0.5)])
    if cell.kind == BLANK:
        return CellRead(**base, kind=BLANK, value=None, confidence=1.0, status=CONFIDENT)
    if cell.kind == TEXT:
        return read_name(texts, cell.tess_index, cell.c, row.label, box)
    if cell.kind == MARKS:
        n = count_marks(cell.glyphs)
        sure = n <= MARKS_SURE and not cell.unsure_ink
        return CellRead(**base, kind=MARKS, value=n, confidence=MARKS_CONFIDENCE if sure else MARKS_DOUBT,
                        status=CONFIDENT if sure else NEEDS_REVIEW,
                        candidates=[Candidate(n, 1.0)])
    tess = texts[cell.tess_index] if cell.tess_index is not None and cell.tess_index < len(
        texts) else OcrText("", 0.0)
    tnum = tesseract_number(tess.text) if tesseract else None
    asked = tesseract and cell.tess_index is not None
    readers: dict[str, str | None] = {"tesseract": tess.text if asked else None}
    legal = legal_values(row, rules)
    probs = cell.probs
    # A lone scratch stroke: a zero written as a dash, slash or X.
    if probs is not None and len(cell.glyphs) == 1:
        p_scratch = float(probs[0, dg.SCRATCH].sum())
        readers["classifier"] = dg.CLASSES[int(np.argmax(probs[0]))]
        if p_scratch > 0.5 and (legal is None or 0 in legal):
            agree = tnum in (None, 0) or tess.text.strip() in ("-", "—", "/", "X", "x")
            conf = p_scratch * (1.0 if agree else SCRATCH_DISAGREE)
            # a slanted 1 is one stroke too: where the box can hold the digit the stroke
            # may be, a zero read there is for a person to confirm
            digit = int(np.argmax(probs[0, : dg.N_DIGITS]))
            maybe = (float(probs[0, digit]) >= SCRATCH_DIGIT and digit != 0
                     and (legal is None or digit in legal))
            cands = [Candidate(0, p_scratch)] + ([Candidate(digit, float(probs[0, digit]))]
                                                 if maybe else [])
            # a stroke from the cut's left edge to its right may be a ruled line a skewed
            # warp put inside the cell (a blank read as a sure 0): only the sums may say
            ruled = bool(cell.mask[:, 0].any() and cell.mask[:, -1].any())
            # a zero crossed out is a box's (and BONUS's) way of writing it; a sum's cell
            # (a TOTAL, the GRAND TOTAL, a PLAYERS' SCORES game) holding a lone stroke is
            # more likely a blank's speck or shadow read as a dash: only the sums may say
            summed = legal is None
            # ... and so a stroke of doubtful ink (only as dark as a dim photo's shadow, or
            # cut by the cell's edge), as any other reading of it
            return CellRead(**base, kind=SCRATCH, value=0, confidence=conf,
                            status=CONFIDENT if conf >= CONFIDENT_AT and not maybe
                            and not ruled and not summed and not cell.unsure_ink
                            else NEEDS_REVIEW,
                            candidates=cands, readers=readers)
    cls = classifier_candidates(probs) if probs is not None else []
    if cell.alts:
        seen = {c.value: c for c in cls}
        # the glyphs read whole and sure: a cut the shape suggested is only an outside chance,
        # unless tesseract saw more digits there than the glyphs as cut hold (two readers
        # that count the digits alike outweigh one sure of a glyph it sees whole)
        more = tnum is not None and bool(cls) and len(str(tnum)) > len(str(cls[0].value))
        whole_sure = bool(cls) and cls[0].p >= WHOLE_SURE and not more
        for alt, prior in zip(cell.alts, cell.priors or [ALT_PENALTY] * len(cell.alts),
                              strict=True):
            for c in classifier_candidates(alt):
                p = c.p * (min(prior, ALT_PENALTY) if whole_sure else prior)
                if c.value not in seen or seen[c.value].p < p:
                    seen[c.value] = Candidate(c.value, p)
        cls = sorted(seen.values(), key=lambda c: -c.p)
    if probs is not None:
        readers["classifier"] = str(cls[0].value) if cls else None
        if legal is not None:
            known = {c.value for c in cls}
            cls += [c for c in legal_candidates(probs, legal) if c.value not in known]
            cls.sort(key=lambda c: -c.p)
    # tesseract seeing fewer digits than the glyphs hold has lost one (right once in about
    # 70 such cells of the development seeds): it adds to no reading's odds, though it
    # still disputes the classifier's (as sure, it let a 145 read 115 pass)
    lost = tnum is not None and bool(cls) and classifier and len(str(tnum)) < len(str(cls[0].value))
    d = decide(cls, None if lost else tnum, tess.confidence, legal, use_cls=classifier,
               use_tess=tesseract, most=most_of(row, rules))
    if d.value is None:
        return CellRead(**base, kind=NUMBER, value=None, confidence=0.0, status=UNREADABLE,
                        candidates=d.candidates, readers=readers)
    # (a wide glyph, perhaps two touching digits, is held to the same bar: its misreadings
    # fail the pad's sums, and a failed sum no doubtful cell explains takes confidence
    # from every reading in it.)  Ink cut by the edge may have lost a digit, a pale stroke
    # may be read wrong: only the sums make such a cell confident
    # tesseract reading another number the box can hold: the two readers disagree, and
    # the classifier's odds alone do not settle it (only the pad's sums may)
    disputed = tnum is not None and tnum != d.value and (legal is None or tnum in legal)
    sure = ((d.confidence >= CONFIDENT_AT and not d.inferred
             or fixed_sure(d.value, d.confidence, d.inferred, legal))
            and not disputed and not cell.unsure_ink)
    status = CONFIDENT if sure else NEEDS_REVIEW
    return CellRead(**base, kind=NUMBER, value=d.value, confidence=d.confidence,
                    status=status, inferred=d.inferred, candidates=d.candidates,
                    readers=readers)



def anchors(probs: np.ndarray, spans: Sequence[tuple[Cell, int, list[int]]],
            rules: RuleSet) -> tuple[dict[int, int], set[int]]:
    """Glyphs surely read, in cells read as a legal value: batch row -> its digit; and the
    rows of those the box itself says (its one legal value of that length)."""
    out: dict[int, int] = {}
    said: set[int] = set()
    for cell, k, idx in spans:
        if k != 0 or cell.wide:
            continue
        legal = legal_values(cell.row, rules)
        # a box with one legal value of this many digits (25 in Full House, 30, 40, 50)
        forced = [v for v in legal or () if len(str(v)) == len(idx)]
        if len(forced) == 1:
            out.update({row: int(ch) for row, ch in zip(idx, str(forced[0]), strict=True)})
            said.update(idx)
            continue
        cls = classifier_candidates(probs[idx])
        if not cls or cls[0].p < writer.ANCHOR_AT:
            continue
        value = cls[0].value
        assert isinstance(value, int)
        if legal is not None and value not in legal:
            continue
        text = str(value)
        if len(text) == len(idx):
            out.update({row: int(ch) for row, ch in zip(idx, text, strict=True)})
    return out, said
