"""The standard 15x15 board, the English tiles, and one play scored with the book's placement
rules (000:287-299) and scoring rules (000:310-321).

Squares are written column letter A-O and row 1-15: ``H8`` is the centre star. The book
shows the premium squares only by colour (000:312-315) and the tile values only "at the
bottom of the tile" (000:310): the standard board and the standard English set are a
decision (see ``scorepad.scrabble`` and the issue's closing note).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .codes import ScrabbleCode

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
CENTRE = (7, 7)  # H8
RACK = 7

Square = tuple[int, int]  # (column, row), 0-based


def parse_square(text: str) -> Square:
    """"H8" -> (7, 7); the format (``SQUARE_PATTERN``) has checked it."""
    return COLUMNS.index(text[0]), int(text[1:]) - 1


def square_name(sq: Square) -> str:
    return f"{COLUMNS[sq[0]]}{sq[1] + 1}"


def _squares(names: str) -> frozenset[Square]:
    return frozenset(parse_square(n) for n in names.split())


TRIPLE_WORD = _squares("A1 H1 O1 A8 O8 A15 H15 O15")
DOUBLE_WORD = _squares("B2 C3 D4 E5 N2 M3 L4 K5 B14 C13 D12 E11 N14 M13 L12 K11 H8")
TRIPLE_LETTER = _squares("F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14")
DOUBLE_LETTER = _squares("D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 "
                         "G13 I13 D15 L15")

VALUES: dict[str, int] = {
    **dict.fromkeys("AEILNORSTU", 1), **dict.fromkeys("DG", 2), **dict.fromkeys("BCMP", 3),
    **dict.fromkeys("FHVWY", 4), "K": 5, **dict.fromkeys("JX", 8), **dict.fromkeys("QZ", 10),
    "?": 0,
}
# The 100 tiles (000:274); "?" is a blank (000:300: two of them).
DISTRIBUTION: dict[str, int] = {
    "A": 9, "B": 2, "C": 2, "D": 4, "E": 12, "F": 2, "G": 3, "H": 2, "I": 9, "J": 1, "K": 1,
    "L": 4, "M": 2, "N": 6, "O": 8, "P": 2, "Q": 1, "R": 6, "S": 4, "T": 6, "U": 4, "V": 2,
    "W": 2, "X": 1, "Y": 2, "Z": 1, "?": 2,
}


def letters_value(letters: str) -> int:
    """The unplayed letters' sum ("?" is a blank: 0)."""
    return sum(VALUES[c] for c in letters)


@dataclass(frozen=True)
class Placed:
    """A tile put down: its square, the letter it shows, and whether it is a blank."""

    square: Square
    letter: str
    blank: bool = False

    @property
    def value(self) -> int:
        return 0 if self.blank else VALUES[self.letter]


@dataclass
class Word:
    text: str
    squares: list[Square]
    score: int


@dataclass
class PlayResult:
    """What a play formed and scored, and what the placement rules say about it."""

    problems: list[tuple[ScrabbleCode, dict[str, object]]] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    score: int | None = None  # None: no word can be read from these tiles
    bingo: int = 0


Board = dict[Square, Placed]


def _run(board: Board, start: Square, step: Square) -> list[Square]:
    """The maximal line of filled squares through ``start`` along ``step``."""
    (dx, dy), (x, y) = step, start
    while (x - dx, y - dy) in board:
        x, y = x - dx, y - dy
    out = []
    while (x, y) in board:
        out.append((x, y))
        x, y = x + dx, y + dy
    return out


def score_word(board: Board, squares: list[Square], new: set[Square]) -> int:
    """Letter premiums first, then the word premiums of newly covered squares multiply
    (000:312-313); old tiles count at face value (000:317), blanks 0 (000:319)."""
    total, mult = 0, 1
    for sq in squares:
        v = board[sq].value
        if sq in new:
            v *= 3 if sq in TRIPLE_LETTER else 2 if sq in DOUBLE_LETTER else 1
            mult *= 3 if sq in TRIPLE_WORD else 2 if sq in DOUBLE_WORD else 1
        total += v
    return total * mult


def score_play(board: Board, tiles: list[Placed], bingo_bonus: int = 50) -> PlayResult:
    """Score ``tiles`` played on ``board`` (not changed; see ``place``)."""
    res = PlayResult()
    squares = [t.square for t in tiles]
    taken = sorted({square_name(s) for s in squares if s in board or squares.count(s) > 1})
    if len(tiles) > RACK:
        res.problems.append((ScrabbleCode.TOO_MANY_TILES, {"tiles": len(tiles)}))
    if taken:
        res.problems.append((ScrabbleCode.SQUARE_TAKEN, {"squares": taken}))
        return res
    cols, rows = {x for x, _ in squares}, {y for _, y in squares}
    if len(cols) > 1 and len(rows) > 1:
        res.problems.append((ScrabbleCode.NOT_IN_LINE, {}))
        return res
    after = {**board, **{t.square: t for t in tiles}}
    across = len(rows) == 1 and (len(cols) > 1 or len(_run(after, squares[0], (1, 0))) > 1)
    step, cross = ((1, 0), (0, 1)) if across else ((0, 1), (1, 0))
    line = _run(after, squares[0], step)
    if not set(squares) <= set(line):
        res.problems.append((ScrabbleCode.GAP, {}))
        return res
    new = set(squares)
    lines = [line] + [_run(after, s, cross) for s in squares]
    formed = [ln for ln in lines if len(ln) > 1]
    if not board:
        if CENTRE not in new:
            res.problems.append((ScrabbleCode.FIRST_NOT_ON_STAR, {}))
        if len(tiles) < 2:
            res.problems.append((ScrabbleCode.FIRST_TOO_SHORT, {"tiles": len(tiles)}))
    elif not any(sq in board for ln in formed for sq in ln):
        res.problems.append((ScrabbleCode.NOT_CONNECTED, {}))
    res.words = [Word("".join(after[s].letter for s in ln), ln, score_word(after, ln, new))
                 for ln in formed]
    res.bingo = bingo_bonus if len(tiles) == RACK else 0
    res.score = sum(w.score for w in res.words) + res.bingo
    return res


def place(board: Board, tiles: list[Placed]) -> None:
    """Put the tiles on the board (a tile on a taken square stays off)."""
    for t in tiles:
        board.setdefault(t.square, t)
