"""The printed pad's geometry: one source for the renderer and the reader.

Coordinates are pixels of the *card*, the thick frame that encloses the title,
the NAME line and the grid (001 lines 226-300).  The reader warps a photo's
frame onto this canonical rectangle, so every cell is then at a known place.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from scorepad.boxes import Box, TotalField

CARD_W, CARD_H = 1000, 1320  # canonical card size (portrait)
FRAME = 8  # thickness of the outer frame, in card pixels
GAMES = 6


class Side(str, Enum):
    FRONT = "front"  # the score card: one player, GAME #1..#6
    BACK = "back"  # PLAYERS' SCORES: a column per player


class Kind(str, Enum):
    HEADER = "header"  # printed text only
    BOX = "box"  # one of the 13 scoring boxes
    TOTAL = "total"  # a written total
    MARKS = "marks"  # YAHTZEE BONUS check marks
    NAME = "name"  # a player's name
    SCORE = "score"  # PLAYERS' SCORES: one game's score
    GRAND = "grand"  # PLAYERS' SCORES: TOTAL OF ALL GAMES


@dataclass(frozen=True)
class Row:
    label: str
    hint: str  # the HOW TO SCORE text (front) or "" (back)
    kind: Kind
    field: Box | TotalField | None = None
    game: int | None = None  # back: the GAME #n row (0-based)
    optional: bool = False  # a row some designs print and others do not (never on our pad)


@dataclass(frozen=True)
class Grid:
    side: Side
    top: int  # y of the grid's first line
    row_h: int
    col_x: tuple[int, ...]  # x of every vertical line, left to right
    rows: tuple[Row, ...]
    first_value_col: int  # index of the first column that holds handwriting

    @property
    def value_cols(self) -> int:
        return len(self.col_x) - 1 - self.first_value_col

    def row_y(self, r: int) -> tuple[int, int]:
        return self.top + r * self.row_h, self.top + (r + 1) * self.row_h

    def cell(self, r: int, c: int) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) of value column ``c`` (0-based) in row ``r``."""
        col = self.first_value_col + c
        y0, y1 = self.row_y(r)
        return self.col_x[col], y0, self.col_x[col + 1], y1

    @property
    def bottom(self) -> int:
        return self.top + len(self.rows) * self.row_h


_B, _T = Box, TotalField

FRONT_ROWS: tuple[Row, ...] = (
    Row("UPPER SECTION", "HOW TO SCORE", Kind.HEADER),
    Row("Aces = 1", "Count and Add Only Aces", Kind.BOX, _B.ACES),
    Row("Twos = 2", "Count and Add Only Twos", Kind.BOX, _B.TWOS),
    Row("Threes = 3", "Count and Add Only Threes", Kind.BOX, _B.THREES),
    Row("Fours = 4", "Count and Add Only Fours", Kind.BOX, _B.FOURS),
    Row("Fives = 5", "Count and Add Only Fives", Kind.BOX, _B.FIVES),
    Row("Sixes = 6", "Count and Add Only Sixes", Kind.BOX, _B.SIXES),
    Row("TOTAL SCORE", "->", Kind.TOTAL, _T.UPPER_SUBTOTAL),
    Row("BONUS", "SCORE 35 if 63 or over", Kind.TOTAL, _T.UPPER_BONUS),
    Row("TOTAL Of Upper", "->", Kind.TOTAL, _T.UPPER_TOTAL),
    Row("LOWER SECTION", "", Kind.HEADER),
    Row("3 of a kind", "Add Total Of All Dice", Kind.BOX, _B.THREE_OF_A_KIND),
    Row("4 of a kind", "Add Total Of All Dice", Kind.BOX, _B.FOUR_OF_A_KIND),
    Row("Full House", "SCORE 25", Kind.BOX, _B.FULL_HOUSE),
    Row("Sm. Straight", "Sequence of 4 SCORE 30", Kind.BOX, _B.SMALL_STRAIGHT),
    Row("Lg. Straight", "Sequence of 5 SCORE 40", Kind.BOX, _B.LARGE_STRAIGHT),
    Row("YAHTZEE", "5 of a kind SCORE 50", Kind.BOX, _B.YAHTZEE),
    Row("Chance", "Score Total Of All 5 Dice", Kind.BOX, _B.CHANCE),
    Row("YAHTZEE BONUS", "100 PER CHECK", Kind.MARKS),
    Row("TOTAL Of Lower", "->", Kind.TOTAL, _T.LOWER_TOTAL),
    Row("TOTAL Of Upper", "->", Kind.TOTAL, _T.UPPER_TOTAL_REPEAT),
    Row("GRAND TOTAL", "->", Kind.TOTAL, _T.GRAND_TOTAL),
)

# The rows a pad of another design may have, in order: ours, and the official pad's
# "SCORE 100 PER ✓" line under YAHTZEE BONUS, where the bonus points are written.
POINTS_ROW = Row("YAHTZEE BONUS SCORE", "SCORE 100 PER CHECK", Kind.TOTAL, _T.YAHTZEE_BONUS,
                 optional=True)
_MARKS_AT = next(i for i, r in enumerate(FRONT_ROWS) if r.kind is Kind.MARKS)
ANY_FRONT_ROWS: tuple[Row, ...] = (*FRONT_ROWS[: _MARKS_AT + 1], POINTS_ROW,
                                   *FRONT_ROWS[_MARKS_AT + 1:])

BACK_ROWS: tuple[Row, ...] = (
    Row("NAMES OF PLAYERS", "", Kind.NAME),
    *(Row(f"GAME #{g + 1}", "", Kind.SCORE, game=g) for g in range(GAMES)),
    Row("TOTAL OF ALL GAMES", "", Kind.GRAND),
)

# Front: label column, HOW TO SCORE column, six game columns.
_FRONT_COLS = (30, 215, 370, *(370 + 100 * i for i in range(1, GAMES + 1)))
FRONT = Grid(Side.FRONT, top=190, row_h=50, col_x=_FRONT_COLS, rows=FRONT_ROWS,
             first_value_col=2)
_BACK_COLS = (30, 250, *(250 + 120 * i for i in range(1, GAMES + 1)))
BACK = Grid(Side.BACK, top=260, row_h=120, col_x=_BACK_COLS, rows=BACK_ROWS, first_value_col=1)

# The NAME line on the front (a box the reader crops for the player's name).
NAME_BOX = (170, 120, 700, 178)
TITLE_FRONT = "YAHTZEE"
TITLE_BACK = "PLAYERS' SCORES"


def grid(side: Side) -> Grid:
    return FRONT if side is Side.FRONT else BACK


def field_key(row: Row) -> str:
    """The sheet key a row's cells fill: a box, a total, ``yahtzee_bonus_checks``, or on the
    back ``name``, ``score`` (a game's row) and ``total``."""
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


def game_index(row: Row, column: int) -> int | None:
    """The 0-based game of a cell: its column on the front, its row on the back."""
    return row.game if row.kind in (Kind.SCORE, Kind.GRAND, Kind.NAME) else column
