"""Cell readings -> the sheet (front: one player's GAME columns; back: PLAYERS' SCORES).

Every cell with ink carries its ``Reading`` into the sheet (status, confidence, the other
plausible values, the crop), so that ``scorepad verify`` of a scanned sheet reports a
finding a plausible misreading explains as a doubt, never as an error.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorepad.boxes import Box, TotalField
from scorepad.card import Game, Player, PlayersScores, Sheet
from scorepad.readings import Reading, ReadStatus
from scorepad.rules import REGISTRY, RuleSet

from .layout import BACK, FRONT, Kind, field_key
from .result import BLANK, CONFIDENT, MARKS, CellRead, ScanError

ALTERNATIVE_AT = 0.002  # another reading at least this likely is a candidate the audit tries
# (low: a sure misreading, 3 read as a sure 2, must still leave its error a doubt)
MAX_ALTERNATIVES = 4
# The cells every score card has (a pad of another design may add the SCORE 100 PER line)
CARD_ROWS = tuple(field_key(r) for r in FRONT.rows if r.kind in (Kind.BOX, Kind.TOTAL, Kind.MARKS))


def front_sheet(reads: Sequence[CellRead], rules: RuleSet) -> Sheet:
    name_cell = reads[0]
    name = str(name_cell.value) if name_cell.value else "Player 1"
    games: list[Game | None] = []
    for c in range(FRONT.value_cols):
        col = [r for r in reads[1:] if r.column == c]
        if all(r.kind == BLANK for r in col):
            games.append(None)
            continue
        game = Game()
        # a row the reader did not find (its label unread, the table cut off) was never
        # looked at: its empty cells are no reading of a blank, a person checks them
        seen = {r.field for r in col}
        for key in CARD_ROWS:
            if key not in seen:
                game.readings[key] = Reading(ReadStatus.UNREADABLE)
        for r in col:
            if r.kind == BLANK:
                if r.status != CONFIDENT:  # blank to the reader, but not surely: a person looks
                    game.readings[r.field] = reading_of(r)
                continue
            game.readings[r.field] = reading_of(r)
            if r.value is None:
                continue
            assert isinstance(r.value, int)
            if r.field == "yahtzee_bonus_checks":
                game.bonus_checks = r.value
            elif r.field in Box._value2member_map_:
                game.boxes[Box(r.field)] = r.value
            else:
                game.totals[TotalField(r.field)] = r.value
        games.append(game)
    while games and games[-1] is None:
        games.pop()
    return Sheet(players=[Player(name=name, games=games)],
                 rules=rules.name if rules.name in REGISTRY else rules, title=None)


def back_sheet(reads: Sequence[CellRead]) -> Sheet:
    players = []
    used: set[str] = set()
    for c in range(BACK.value_cols):
        col = [r for r in reads if r.column == c]
        if all(r.kind == BLANK for r in col):
            continue
        name_cell = next((r for r in col if r.field == "name"), None)
        name = str(name_cell.value) if name_cell and name_cell.value else f"Player {c + 1}"
        if name.casefold() in used:
            name = f"{name} ({c + 1})"
        used.add(name.casefold())
        scores: list[int | None] = [None] * 6
        total = None
        readings: dict[str, Reading] = {}
        for r in col:
            if r.kind == BLANK or r.field not in ("score", "total"):
                continue
            key = "total" if r.field == "total" else f"games[{r.game}]"
            readings[key] = reading_of(r)
            if r.field == "score" and r.game is not None and isinstance(r.value, int):
                scores[r.game] = r.value
            elif r.field == "total" and isinstance(r.value, int):
                total = r.value
        while scores and scores[-1] is None:
            scores.pop()
        players.append(Player(name=name, games=[],
                              players_scores=PlayersScores(scores, total, readings=readings)))
    if not players:
        raise ScanError("empty_pad", "the PLAYERS' SCORES sheet has nothing written on it")
    return Sheet(players=players, rules=None)


def reading_of(r: CellRead) -> Reading:
    """What the audit needs to know of how a cell was read."""
    # (what the ink read, where the value is a failed sum's explanation, is the first)
    others: list[int | None] = [] if r.ink is None else [r.ink]
    for c in r.candidates:
        if (isinstance(c.value, int) and c.value != r.value and c.p >= ALTERNATIVE_AT
                and c.value not in others):
            others.append(c.value)
    if r.kind == MARKS and isinstance(r.value, int):
        # a tally or a tick may be counted one off (strokes that touch, a stray mark)
        others += [n for n in (r.value - 1, r.value + 1) if n >= 0 and n not in others]
    return Reading(ReadStatus(r.status), confidence=round(r.confidence, 4),
                   candidates=tuple(others[:MAX_ALTERNATIVES]), box=r.box, ink=r.ink)
