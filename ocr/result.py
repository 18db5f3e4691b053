"""What the reader returns: every cell's reading with its confidence, and the errors it raises.

Plain dataclasses (no image data), so the API, the CLI and the web page can serialise them.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from scorepad.card import Sheet
from scorepad.schemas import dump_sheet

from .layout import Side

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
    suggested: bool = False  # a reading the pad's sums suggest (``crosscheck``), not the ink's


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
    # what the ink alone reads where the value is another reading, the one a failed sum's
    # only explanation needs (``crosscheck``); the cell is then for a person to check
    ink: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "row": self.row, "field": self.field, "column": self.column, "game": self.game,
            "kind": self.kind, "value": self.value, "confidence": round(self.confidence, 4),
            "status": self.status, "inferred": self.inferred,
            "candidates": [{"value": c.value, "p": round(c.p, 4)} for c in self.candidates[:5]],
            "box": list(self.box), "readers": dict(self.readers), "checks": list(self.checks),
            "ink": self.ink,
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
    # the pad's corners the reader used, in the upright photo's pixels (TL, TR, BR, BL as
    # seen in the photo): found, or moved onto the printed frame from those a person marked
    corners: list[list[int]] | None = None
    corners_given: bool = False  # the corners were marked by a person (no search)
    # seconds per step (load, find: the pad and its labels, classify, tesseract: the cells,
    # decide): where a slow photo's time went (the benchmark names it; not in ``to_dict``)
    timings: dict[str, float] = dc_field(default_factory=dict)

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
            "corners": [list(p) for p in self.corners] if self.corners is not None else None,
            "corners_given": self.corners_given,
            "seconds": round(self.seconds, 3),
            "counts": self.counts(),
            "cells": [c.to_dict() for c in self.cells],
        }

