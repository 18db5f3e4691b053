"""How a cell of a scanned sheet was read: the photo reader's confidence in each value.

A sheet typed by a person has no readings; a sheet read from a photo carries one
``Reading`` per cell the reader looked at (``Game.readings``, ``PlayersScores.readings``).
The audit trusts a cell with no reading, or one a person ``confirmed``; a finding that
rests on an unsure reading, or that one plausible other reading makes disappear, is a
doubt ("check this cell on the photo"), not an error (``doubts.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .sheetspec import MAX_CANDIDATES

__all__ = ["MAX_CANDIDATES", "ReadStatus", "Reading", "digit_apart", "digit_other"]


class ReadStatus(str, Enum):
    CONFIDENT = "confident"  # the reader is sure (it may still be wrong: candidates say how)
    NEEDS_REVIEW = "needs_review"  # the reader is unsure: a person should look
    UNREADABLE = "unreadable"  # the reader could not read the cell
    CONFIRMED = "confirmed"  # a person checked the value against the photo (or typed it)

    @property
    def unsure(self) -> bool:
        return self in (ReadStatus.NEEDS_REVIEW, ReadStatus.UNREADABLE)


@dataclass(frozen=True)
class Reading:
    """The reader's account of one cell: status, confidence, other plausible values, crop."""

    status: ReadStatus
    confidence: float | None = None
    candidates: tuple[int | None, ...] = ()  # other plausible readings, best first; None = blank
    box: tuple[int, int, int, int] | None = None  # the cell's crop in the photo (x0, y0, x1, y1)
    photo: int | None = None  # which photo of a multi-photo scan (0-based)
    # what the ink alone reads, where the reader took another value (the one a failed sum
    # needs): the audit tries it, so a card right only as taken is a doubt (``doubts.py``)
    ink: int | None = None

    def __post_init__(self) -> None:
        # Accept plain strings and lists from callers; store the enum and tuples.
        object.__setattr__(self, "status", ReadStatus(self.status))
        object.__setattr__(self, "candidates", tuple(self.candidates))
        if self.box is not None:
            x0, y0, x1, y1 = self.box
            object.__setattr__(self, "box", (x0, y0, x1, y1))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "status": self.status.value,
            "confidence": self.confidence,
            "candidates": list(self.candidates),
            "box": None if self.box is None else list(self.box),
            "photo": self.photo,
        }
        if self.ink is not None:  # (only where the reader took another value)
            out["ink"] = self.ink
        return out


def digit_apart(a: int, b: int) -> bool:
    """Whether the numerals of a and b differ by one digit added or dropped (146 and 46):
    a digit lost at a cell's edge, or a mark beside it read as one."""
    x, y = str(a), str(b)
    if abs(len(x) - len(y)) != 1:
        return False
    short, long = (x, y) if len(x) < len(y) else (y, x)
    return any(long[:k] + long[k + 1:] == short for k in range(len(long)))


def digit_other(a: int, b: int) -> bool:
    """Whether the numerals of a and b differ in one digit only (219 and 919): one digit
    misread as another, which a classifier can be sure of in a hand it does not know."""
    x, y = str(a), str(b)
    return len(x) == len(y) and sum(p != q for p, q in zip(x, y, strict=True)) == 1
