"""Doubts: on a scanned sheet, an error that a misread explains is not asserted.

The rule of the house: a verdict on a sheet read from a photo never asserts an error
that a plausible misread explains. After the ordinary audit, each ERROR finding of a
sheet with readings becomes a DOUBT ("check this cell on the photo") when

- a cell it rests on (its *basis*, ``basis``) was read ``needs_review`` or
  ``unreadable``; or
- one read cell that no person confirmed, given one of its candidate readings (None:
  blank) instead of the value read, makes the finding (same code and field) disappear
  when that game, or that PLAYERS' SCORES column, is audited again. That reading is
  recorded as one that would make the card right there. A sure reading is also tried a
  digit other, more or fewer where that makes a failed sum hold (``_slips``): such a
  reading counts only when it brings no error of its own.

Only cells typed or confirmed by a person, and confident readings that no candidate
explains, carry errors. A doubt keeps its code; its severity is ``doubt`` and
``details["doubt"]`` names the cells (with their crop boxes) and the readings that
would make the card right.

A total left blank as read, on a complete game, is a notice (``TOTAL_BLANK``); where the
reader was unsure of that cell or could not read it, it is a doubt (``apply_unread``). So
is a game in progress as read (``GAME_IN_PROGRESS``) where an open box was such a cell.

The other way round (``apply_hidden``): a column that holds as read is not called right
when a cell holds only as the reader took it. Two readings are tried: what the ink read
where the reader took the one reading a failed sum needs (``Reading.ink``: 147 read for
a lower TOTAL the boxes make 157, taken as 157), and, for a written sum read unsure, its
best other reading where that is the same number with a digit more (146 written for an
upper TOTAL SCORE of 46, read 746 and taken as 46: a game never reaches 746). Either may
be what the player wrote (a slip); where it makes an error, the error is reported as a
doubt (reason ``hidden``, with the reading, ``would_be_wrong_if``). Only those readings:
trying every candidate of every unsure cell this way made two thirds of the game columns
of the development photos unsure, nearly all of them read right.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from . import messages
from .boxes import ALL_BOXES, LOWER, UPPER
from .card import (
    CARD_READING_KEYS,
    CHECKS_KEY,
    MAX_GAMES,
    SCORES_READING_KEYS,
    Game,
    Player,
    Sheet,
)
from .findings import Code, Finding, Severity
from .readings import Reading, ReadStatus, digit_apart, digit_other

# At most this many games / PLAYERS' SCORES columns audited again per sheet. A finding
# whose cells could not all be tried within it is a doubt (it was not ruled out).
MAX_REAUDITS = 4000

_BOXES = tuple(b.value for b in ALL_BOXES)
_UPPER = tuple(b.value for b in UPPER)
_LOWER = tuple(b.value for b in LOWER)
_BONUS = (CHECKS_KEY, "yahtzee")
# The written sums of a game (any number: no box's legal values)
_SUMS = ("upper_total_score", "upper_total", "lower_total", "upper_total_repeat", "grand_total")

# What a finding on a game's field is computed from, besides the field itself.
FIELD_BASIS: dict[str, tuple[str, ...]] = {
    "upper_total_score": _UPPER,
    "upper_bonus": (*_UPPER, "upper_total_score"),
    "upper_total": (*_UPPER, "upper_total_score", "upper_bonus"),
    "upper_total_repeat": (*_UPPER, "upper_total_score", "upper_bonus"),
    "yahtzee_bonus": _BONUS,
    "lower_total": (*_LOWER, CHECKS_KEY, "yahtzee_bonus"),
    "grand_total": CARD_READING_KEYS,
    CHECKS_KEY: _BONUS,
}
# Codes that rest on more cells than their field's (joker and bonus-check findings).
CODE_BASIS: dict[Code, tuple[str, ...]] = {
    Code.BONUS_CHECKS_WITHOUT_YAHTZEE_50: (*_BONUS, *_BOXES),
    Code.BONUS_CHECKS_NOT_IN_RULES: _BONUS,
    Code.BONUS_CHECKS_UNSUPPORTED: (*_BONUS, *_BOXES),
    Code.TURN_PLACEMENT_ILLEGAL: _BONUS,
    Code.TURN_BONUS_COUNT: _BONUS,
}
# The cells whose other readings can change a game's findings on other fields: a written
# total is only ever compared with the boxes, so it matters only to findings on itself.
_CARD_INPUTS = frozenset((*_BOXES, CHECKS_KEY))
_PS = "players_scores."


class Reaudit(Protocol):
    """The parts of the audit that can be run again on a changed copy (audit.py)."""

    def game(self, player: int, name: str, n: int, game: Game) -> list[Finding]: ...

    def players_scores(self, player: int, p: Player) -> list[Finding]: ...


@dataclass(frozen=True)
class Cell:
    """A read cell of one player: a game's cell, or (game None) a PLAYERS' SCORES cell."""

    game: int | None  # 0-based game column; None for the PLAYERS' SCORES column
    key: str  # CARD_READING_KEYS / SCORES_READING_KEYS

    @property
    def field(self) -> str:
        return self.key if self.game is not None else _PS + self.key

    @property
    def game_no(self) -> int | None:
        """The GAME #n the cell belongs to (a PLAYERS' SCORES row's too; None for TOTAL)."""
        if self.game is not None:
            return self.game + 1
        return None if self.key == "total" else _row(self.key) + 1

    def reading(self, p: Player) -> Reading | None:
        if self.game is None:
            return p.players_scores.readings.get(self.key) if p.players_scores else None
        g = p.games[self.game] if self.game < len(p.games) else None
        return g.readings.get(self.key) if g is not None else None

    def value(self, p: Player) -> int | None:
        if self.game is None:
            return p.players_scores.cell(self.key) if p.players_scores else None
        g = p.games[self.game]
        return g.cell(self.key) if g is not None else None

    def substituted(self, p: Player, value: int | None) -> Player:
        """A copy of the player with this cell holding ``value``."""
        if self.game is None:
            assert p.players_scores is not None
            return replace(p, players_scores=p.players_scores.with_cell(self.key, value))
        games = list(p.games)
        g = games[self.game]
        assert g is not None
        games[self.game] = g.with_cell(self.key, value)
        return replace(p, games=games)


def _row(key: str) -> int:
    return int(key.removeprefix("games[").removesuffix("]"))


def has_readings(sheet: Sheet) -> bool:
    return any(
        any(g is not None and g.readings for g in p.games)
        or (p.players_scores is not None and p.players_scores.readings)
        for p in sheet.players
    )


def basis(f: Finding) -> list[Cell]:
    """The cells a finding rests on: its own and those its check is computed from."""
    field = f.field or ""
    if field.startswith(_PS):
        key = field.removeprefix(_PS)
        # a row is checked against its game's boxes; TOTAL OF ALL GAMES against every game
        # (and the rows standing in for games not on the sheet)
        games = range(MAX_GAMES) if key == "total" else (_row(key),)
        rows = SCORES_READING_KEYS if key == "total" else (key,)
        return [Cell(None, k) for k in rows] + [
            Cell(n, k) for n in games for k in CARD_READING_KEYS]
    if f.game is None:
        return []
    keys = {field, *FIELD_BASIS.get(field, ()), *CODE_BASIS.get(f.code, ())}
    return [Cell(f.game - 1, k) for k in CARD_READING_KEYS if k in keys]


def _key(f: Finding) -> tuple[str, str | None, Any]:
    return (f.code.value, f.field, f.details.get("turn"))


def _alternatives(cell: Cell, reading: Reading, read: int | None,
                  own: Iterable[Finding]) -> list[int | None]:
    """The other readings worth trying: the candidates, and for an unsure cell the value
    each finding on it expects (an unsure reader may have missed anything)."""
    alts: list[int | None] = list(reading.candidates)
    if reading.status.unsure:
        alts += [f.expected for f in own
                 if type(f.expected) is int and f.field == cell.field]
    if cell.key == CHECKS_KEY:
        alts = [a or 0 for a in alts]
    out: list[int | None] = []
    for a in alts:
        if a != read and a not in out:
            out.append(a)
    return out


def _slips(cell: Cell, read: int | None, own: Iterable[Finding],
           tried: list[int | None]) -> list[int]:
    """Readings a digit other, more or fewer than a sure one that would make a failed sum
    hold: the written total the sum expects, or a part off by the difference.  A classifier
    can be sure of a digit in a hand it does not know and still be wrong; such a reading
    explains an error only when it brings none of its own, and is tried only for errors
    that no unsure cell and no candidate explains (``apply_doubts``)."""
    if type(read) is not int:
        return []
    out: list[int] = []
    for f in own:
        if type(f.expected) is not int or type(f.written) is not int:
            continue
        want = f.expected if f.field == cell.field else read + (f.written - f.expected)
        if (want >= 0 and want != read and want not in tried and want not in out
                and (digit_other(read, want) or digit_apart(read, want))):
            out.append(want)
    return out


@dataclass
class _Scope:
    """The error findings of one game, or of one PLAYERS' SCORES column, and what explains
    each of them."""

    player: int
    game: int | None  # 0-based; None for the PLAYERS' SCORES column
    errors: list[Finding]
    # by id(finding): (cell, other reading, whether that reading brings no error of its own)
    explained: dict[int, list[tuple[Cell, int | None, bool]]]
    incomplete: bool = False

    def cells(self, p: Player) -> list[Cell]:
        """The read cells, not confirmed by a person, whose other readings may matter."""
        if self.game is not None:
            g = p.games[self.game]
            assert g is not None
            own = {f.field for f in self.errors}
            return [Cell(self.game, k) for k, r in g.readings.items()
                    if r.status is not ReadStatus.CONFIRMED and (k in _CARD_INPUTS or k in own)]
        cells = [Cell(None, k) for k, r in (p.players_scores.readings.items()
                                            if p.players_scores else ())
                 if r.status is not ReadStatus.CONFIRMED]
        for n, g in enumerate(p.games):
            if g is not None:
                cells += [Cell(n, k) for k, r in g.readings.items()
                          if r.status is not ReadStatus.CONFIRMED and k in _CARD_INPUTS]
        return cells


def _column_of(f: Finding) -> tuple[int, int | None] | None:
    """(player, column) of a finding: its game (0-based), or None for the PLAYERS' SCORES
    column; None for a finding on no one column."""
    if f.player is None:
        return None
    if (f.field or "").startswith(_PS):
        return (f.player, None)
    return None if f.game is None else (f.player, f.game - 1)


def _audit_again(reaudit: Reaudit, changed: Player, player: int, column: int | None
                 ) -> list[Finding]:
    """The findings of one column (``_column_of``) of a player with a cell read otherwise."""
    if column is None:
        return reaudit.players_scores(player, changed)
    g = changed.games[column]
    assert g is not None
    return reaudit.game(player, changed.name, column, g)


def _scopes(findings: list[Finding]) -> list[_Scope]:
    scopes: dict[tuple[int, int | None], _Scope] = {}
    for f in findings:
        where = _column_of(f) if f.severity is Severity.ERROR else None
        if where is None:
            continue
        scope = scopes.setdefault(where, _Scope(where[0], where[1], [], {}))
        scope.errors.append(f)
    return list(scopes.values())


def apply_doubts(findings: list[Finding], sheet: Sheet, reaudit: Reaudit) -> None:
    """Turn every error that a misread explains into a doubt (in place)."""
    budget = MAX_REAUDITS
    for scope in _scopes(findings):
        p = sheet.players[scope.player]
        cells = scope.cells(p)
        tried: dict[Cell, list[int | None]] = {}
        sure: list[Cell] = []  # cells read surely (not unsure, not confirmed by a person)
        for cell in cells:
            reading = cell.reading(p)
            assert reading is not None
            tried[cell] = _alternatives(cell, reading, cell.value(p), scope.errors)
            budget = _try(scope, p, cell, tried[cell], reaudit, budget, slips=False)
            if not reading.status.unsure:
                sure.append(cell)
        # an error nothing above explains may still rest on a sure reading a digit off
        open_errors = [f for f in scope.errors
                       if id(f) not in scope.explained and not _unsure_cells(f, p)]
        for cell in sure if open_errors else ():
            slips = _slips(cell, cell.value(p), open_errors, tried[cell])
            budget = _try(scope, p, cell, slips, reaudit, budget, slips=True)
        for f in scope.errors:
            _judge(f, p, scope)


def _try(scope: _Scope, p: Player, cell: Cell, alts: Sequence[int | None], reaudit: Reaudit,
         budget: int, slips: bool) -> int:
    """Audit the scope again with each other reading of one cell; record what it explains.
    Returns the budget left."""
    for alt in alts:
        if budget <= 0:
            scope.incomplete = True
            break
        budget -= 1
        again = _audit_again(reaudit, cell.substituted(p, alt), scope.player, scope.game)
        left = {_key(f) for f in again if f.severity is Severity.ERROR}
        # Aces read as 1 might be 51 for a sum's sake, but 51 is an error itself
        fits = left <= {_key(f) for f in scope.errors}
        if slips and not fits:
            continue  # a digit off that is an error itself explains nothing
        for f in scope.errors:
            if _key(f) not in left:
                scope.explained.setdefault(id(f), []).append((cell, alt, fits))
    return budget


def _unsure_cells(f: Finding, p: Player) -> list[Cell]:
    """The cells a finding rests on that were read and are unsure."""
    return [c for c in basis(f) if (r := c.reading(p)) is not None and r.status.unsure]


def _judge(f: Finding, p: Player, scope: _Scope) -> None:
    cells = basis(f)
    unsure = _unsure_cells(f, p)
    explained = scope.explained.get(id(f), [])
    untried = scope.incomplete and any(
        (r := c.reading(p)) is not None and r.status is not ReadStatus.CONFIRMED for c in cells)
    if not (unsure or explained or untried):
        return
    reason = "unsure_reading" if unsure else "other_reading" if explained else "not_checked"
    shown = list(dict.fromkeys([*unsure, *(c for c, _, _ in explained)]))
    _as_doubt(f, p, reason, shown,
              # only readings that bring no new error of their own make the card right there
              would_be_right_if=[{"field": c.field, "game": c.game_no, "value": v}
                                 for c, v, fits in explained if fits])


def _as_doubt(f: Finding, p: Player, reason: str, cells: Sequence[Cell],
              **readings: list[dict[str, Any]]) -> None:
    """Make ``f`` a doubt (in place): why, the cells to check on the photo, and the other
    readings that make the card right there (``would_be_right_if``) or wrong
    (``would_be_wrong_if``); its message rendered again."""
    f.severity_override = Severity.DOUBT
    f.details = {**f.details, "doubt": {
        "reason": reason, "cells": [_cell_dict(c, p) for c in cells], **readings}}
    f.message = messages.render(f)


def _cell_dict(c: Cell, p: Player) -> dict[str, Any]:
    r = c.reading(p)
    assert r is not None
    return {
        "field": c.field, "game": c.game_no, "read": c.value(p), "status": r.status.value,
        "confidence": r.confidence, "box": None if r.box is None else list(r.box),
        "photo": r.photo,
    }


def apply_hidden(findings: list[Finding], sheet: Sheet, reaudit: Reaudit) -> None:
    """Add a doubt for each cell of a column with no error and no doubt that holds only as
    the reader took it: a written sum read unsure a digit short of its best other reading,
    or any cell whose ink reads otherwise (see the module's docstring)."""
    judged = {_column_of(f) for f in findings if f.severity in (Severity.ERROR, Severity.DOUBT)}
    # (no budget: one audit again per written sum or taken reading at most)
    for pi, p in enumerate(sheet.players):
        columns: list[int | None] = [n for n, g in enumerate(p.games) if g is not None]
        for column in [*columns, None]:
            for cell, alt in [] if (pi, column) in judged else _taken(p, column):
                found = _hidden(pi, p, cell, alt, reaudit)
                if found is not None:
                    findings.append(found)


def apply_unread(findings: list[Finding], sheet: Sheet) -> None:
    """A total blank as read (``TOTAL_BLANK``) where the reader was unsure of the cell, or
    could not read it, is a doubt: the cell may hold a number the reader did not make out,
    and the card is not called right on a total nobody has seen. So is a game in progress
    as read (``GAME_IN_PROGRESS``) whose open boxes include such cells (a row the reader did
    not find is unreadable): those boxes may be filled, and the card is not audited as far
    as it goes, only as far as it was read."""
    for f in findings:
        if f.player is None or f.game is None:
            continue
        p = sheet.players[f.player]
        if f.code is Code.TOTAL_BLANK and f.field:
            cells = [Cell(f.game - 1, f.field)]
        elif f.code is Code.GAME_IN_PROGRESS:
            cells = [Cell(f.game - 1, b.value) for b in ALL_BOXES]
        else:
            continue
        unread = [c for c in cells if c.value(p) is None
                  and (r := c.reading(p)) is not None and r.status.unsure]
        if unread:
            _as_doubt(f, p, "unsure_reading", unread, would_be_right_if=[])


def _taken(p: Player, column: int | None) -> list[tuple[Cell, int]]:
    """The cells of a column read as one value where another reading was seen, with that
    reading: what the ink read where the reader took the reading a failed sum needs, and
    a written sum read unsure whose best other reading is the number read with a digit
    more (the reader saw it, and took the shorter number: a stray mark, or the player's
    slip)."""
    if column is None:
        readings = p.players_scores.readings if p.players_scores else {}
    else:
        g = p.games[column]
        readings = g.readings if g is not None else {}
    out: list[tuple[Cell, int]] = []
    for key, r in readings.items():
        cell = Cell(column, key)
        read = cell.value(p)
        if not r.status.unsure or type(read) is not int:
            continue
        if r.ink is not None and r.ink != read:
            out.append((cell, r.ink))
        elif ((column is None or key in _SUMS) and r.candidates
              and type(alt := r.candidates[0]) is int and alt > read and digit_apart(read, alt)):
            out.append((cell, alt))
    return out


def _hidden(pi: int, p: Player, cell: Cell, alt: int, reaudit: Reaudit) -> Finding | None:
    """The error the cell read as ``alt`` makes, as a doubt."""
    again = _audit_again(reaudit, cell.substituted(p, alt), pi, cell.game)
    errors = [f for f in again if f.severity is Severity.ERROR]
    if not errors:
        return None
    f = errors[0]
    _as_doubt(f, p, "hidden", [cell],
              would_be_wrong_if=[{"field": cell.field, "game": cell.game_no, "value": alt}])
    return f
