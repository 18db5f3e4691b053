"""Compare a scan with the true sheet, cell by cell and verdict by verdict (used by the
benchmark and the tests, for photos of any renderer)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace

from ocr.layout import BACK, FRONT, Kind, Side, field_key
from ocr.result import BLANK, CONFIDENT, ScanResult
from scorepad.audit import audit_sheet
from scorepad.card import CHECKS_KEY, Player, PlayersScores, Sheet
from scorepad.readings import ReadStatus
from scorepad.rules import RuleSet


def truth_cells(sheet: Sheet, side: Side, fields: Collection[str] | None = None
                ) -> dict[tuple[str, int, int | None], int | None]:
    """(field, column, game) -> the value written there (None: blank), for every cell of the
    pad's rows: our own pad's (``FRONT``/``BACK``) or, front, the sheet keys ``fields``."""
    out: dict[tuple[str, int, int | None], int | None] = {}
    if side is Side.FRONT:
        p = sheet.players[0]
        keys = list(fields) if fields is not None else [field_key(r) for r in FRONT.rows
                                                       if r.kind is not Kind.HEADER]
        for c in range(FRONT.value_cols):
            game = p.games[c] if c < len(p.games) else None
            for key in keys:
                v = game.cell(key) if game is not None else None
                out[(key, c, c)] = v or None if key == CHECKS_KEY else v
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
    blank_as_number: int = 0  # a blank cell read as a confident number (a 0 is an accusation)
    missing: int = 0  # written cells the reader never produced (not flagged either)
    by_digits: dict[int, list[int]] = field(default_factory=dict)  # digits -> [cells, correct]
    errors: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for k in ("cells", "correct", "confident", "silent", "wrong", "wrong_flagged", "sheets",
                  "sheets_exact", "names", "names_right", "blank_as_number", "missing"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        for d, (n, ok) in other.by_digits.items():
            mine = self.by_digits.setdefault(d, [0, 0])
            mine[0] += n
            mine[1] += ok
        self.errors += other.errors

    def digits_accuracy(self, digits: int) -> float:
        n, ok = self.by_digits.get(digits, [0, 0])
        return ok / n if n else 1.0


def score(result: ScanResult, sheet: Sheet, side: Side,
          fields: Collection[str] | None = None) -> Score:
    """The scan against the truth; a written cell the reader never produced (a row or column
    it did not find) counts as wrong and unflagged."""
    truth = truth_cells(sheet, side, fields)
    s = Score(sheets=1)
    seen = {(c.field, c.column, c.game) for c in result.cells}
    for key, written in truth.items():
        if written is not None and key not in seen:
            s.cells += 1
            s.wrong += 1
            s.missing += 1
            if key[0] != CHECKS_KEY:
                s.by_digits.setdefault(len(str(written)), [0, 0])[0] += 1
            s.errors.append(f"{key[0]}[{key[1]}] want {written}: never read (no row or column)")
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
        s.blank_as_number += want_v is None and conf
        if want_v is not None and cell.field != "yahtzee_bonus_checks":
            bucket = s.by_digits.setdefault(len(str(want_v)), [0, 0])
            bucket[0] += 1
            bucket[1] += ok
        if not ok:
            s.wrong += 1
            s.wrong_flagged += not conf
            s.silent += conf
            s.errors.append(f"{cell.field}[{cell.column}] want {want_v} got {got} "
                            f"({cell.status}, {cell.readers})")
    s.sheets_exact = int(s.wrong == 0)
    return s


# ------------------------------------------------------------------ end to end


@dataclass
class Verdicts:
    """Per game column (front) or player column (back): the verdict on the scanned sheet
    against the verdict on what was truly written."""

    columns: int = 0
    faulty: int = 0  # columns whose true sheet has an error (the player's own slip)
    false_accusations: int = 0  # a column with an error the true sheet does not have
    missed: int = 0  # a faulty column the scan calls correct (no error, no doubt)
    unsure: int = 0  # columns with doubts and no error: "check these cells on the photo"
    accused: list[str] = field(default_factory=list)

    def add(self, other: Verdicts) -> None:
        for k in ("columns", "faulty", "false_accusations", "missed", "unsure"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.accused += other.accused


def _by_column(sheet: Sheet, rules: str | RuleSet) -> dict[tuple[int | None, int | None],
                                                           dict[str, set[tuple[str, str | None]]]]:
    """(player, game) -> severity -> {(code, field)} of the sheet's audit."""
    out: dict[tuple[int | None, int | None], dict[str, set[tuple[str, str | None]]]] = {}
    for f in audit_sheet(sheet, rules).findings:
        d = f.to_dict()
        out.setdefault((f.player, f.game), {}).setdefault(d["severity"], set()).add(
            (d["code"], d["field"]))
    return out


def columns_of(sheet: Sheet) -> list[tuple[int, int | None]]:
    """The written columns: (player, GAME #n) of each game, (player, None) of a back column."""
    out: list[tuple[int, int | None]] = []
    for p, player in enumerate(sheet.players):
        out += [(p, g + 1) for g, game in enumerate(player.games) if game is not None]
        if player.players_scores is not None and not player.games:
            out.append((p, None))
    return out


def on_photo(sheet: Sheet, side: Side) -> Sheet:
    """What one photo of ``sheet`` shows: the first player's card (front), or every
    player's PLAYERS' SCORES column (back)."""
    if side is Side.FRONT:
        return replace(sheet, players=[replace(sheet.players[0], players_scores=None)])
    return replace(sheet, players=[replace(p, games=[]) for p in sheet.players
                                   if p.players_scores is not None])


def verdicts(scanned: Sheet, truth: Sheet, rules: str | RuleSet) -> Verdicts:
    """The scanned sheet's verdict per column against the true sheet's (same rule set)."""
    got, want = _by_column(scanned, rules), _by_column(truth, rules)
    v = Verdicts()
    for col in columns_of(truth):
        v.columns += 1
        true_errors = want.get(col, {}).get("error", set())
        errors = got.get(col, {}).get("error", set())
        doubts = got.get(col, {}).get("doubt", set())
        v.faulty += bool(true_errors)
        if errors - true_errors:
            v.false_accusations += 1
            v.accused.append(f"{col}: {sorted(errors - true_errors)}")
        elif true_errors and not errors and not doubts:
            v.missed += 1
        elif doubts and not errors:
            v.unsure += 1
    return v


def reviewed(scanned: Sheet, truth: Sheet) -> Sheet:
    """The scanned sheet after a person checked every unsure cell on the photo: each takes
    its true value and is marked confirmed (confident readings stay as read)."""
    players = []
    for sp, tp in zip(scanned.players, truth.players, strict=False):
        games = []
        for g, game in enumerate(sp.games):
            true_game = tp.games[g] if g < len(tp.games) else None
            if game is None or true_game is None:
                games.append(game)
                continue
            readings = dict(game.readings)  # the scanned sheet keeps its own
            for key, r in game.readings.items():
                if r.status.unsure:
                    game = game.with_cell(key, true_game.cell(key))
                    readings[key] = replace(r, status=ReadStatus.CONFIRMED)
            games.append(replace(game, readings=readings))
        scores = sp.players_scores
        if scores is not None and tp.players_scores is not None:
            score_readings = dict(scores.readings)
            for key, r in scores.readings.items():
                if r.status.unsure:
                    scores = scores.with_cell(key, tp.players_scores.cell(key))
                    score_readings[key] = replace(r, status=ReadStatus.CONFIRMED)
            scores = replace(scores, readings=score_readings)
        players.append(Player(name=sp.name, games=games, players_scores=scores))
    return replace(scanned, players=players)
