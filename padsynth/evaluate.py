"""Compare a scan with the true sheet, cell by cell (used by the benchmark and the tests)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ocr.layout import BACK, FRONT, Kind, Side
from ocr.result import BLANK, CONFIDENT, ScanResult
from scorepad.boxes import Box, TotalField
from scorepad.card import PlayersScores, Sheet


def truth_cells(sheet: Sheet, side: Side) -> dict[tuple[str, int, int | None], int | None]:
    """(field, column, game) -> the value written there (None: blank)."""
    out: dict[tuple[str, int, int | None], int | None] = {}
    if side is Side.FRONT:
        p = sheet.players[0]
        for c in range(FRONT.value_cols):
            game = p.games[c] if c < len(p.games) else None
            for row in FRONT.rows:
                if row.kind is Kind.HEADER:
                    continue
                v: int | None = None
                if game is not None:
                    if row.kind is Kind.MARKS:
                        v = game.bonus_checks or None
                        key = "yahtzee_bonus_checks"
                    elif isinstance(row.field, Box):
                        v = game.boxes.get(row.field)
                    elif isinstance(row.field, TotalField):
                        v = game.totals.get(row.field)
                key = "yahtzee_bonus_checks" if row.kind is Kind.MARKS else row.field.value  # type: ignore[union-attr]
                out[(key, c, c)] = v
    else:
        for c in range(BACK.value_cols):
            player = sheet.players[c] if c < len(sheet.players) else None
            ps = (player.players_scores or PlayersScores()) if player else PlayersScores()
            for g in range(6):
                out[("score", c, g)] = ps.games[g] if g < len(ps.games) else None
            out[("total", c, None)] = ps.total
    return out


@dataclass
class Score:
    cells: int = 0  # non-blank truth cells or cells the reader saw ink in
    correct: int = 0
    confident: int = 0
    silent: int = 0  # confident and wrong
    wrong: int = 0
    wrong_flagged: int = 0
    sheets: int = 0
    sheets_exact: int = 0
    names: int = 0
    names_right: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for k in ("cells", "correct", "confident", "silent", "wrong", "wrong_flagged", "sheets",
                  "sheets_exact", "names", "names_right"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.errors += other.errors


def score(result: ScanResult, sheet: Sheet, side: Side) -> Score:
    truth = truth_cells(sheet, side)
    s = Score(sheets=1)
    for cell in result.cells:
        if cell.field == "name":
            want: str | None = None
            if side is Side.FRONT:
                want = sheet.players[0].name
            else:
                want = sheet.players[cell.column].name if cell.column < len(sheet.players) else None
            if want is not None:
                s.names += 1
                s.names_right += int(str(cell.value or "").casefold() == want.casefold())
            continue
        key = (cell.field, cell.column, cell.game)
        want_v = truth.get(key)
        got = None if cell.kind == BLANK else cell.value
        if want_v is None and got is None:
            continue
        s.cells += 1
        ok = got == want_v
        conf = cell.status == CONFIDENT
        s.correct += ok
        s.confident += conf
        if not ok:
            s.wrong += 1
            s.wrong_flagged += not conf
            s.silent += conf
            s.errors.append(f"{cell.field}[{cell.column}] want {want_v} got {got} "
                            f"({cell.status}, {cell.readers})")
    s.sheets_exact = int(s.wrong == 0)
    return s
