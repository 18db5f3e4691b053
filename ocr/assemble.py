"""Cell readings -> the sheet (front: one player's GAME columns; back: PLAYERS' SCORES)."""

from __future__ import annotations

from collections.abc import Sequence

from scorepad.boxes import Box, TotalField
from scorepad.card import Game, Player, PlayersScores, Sheet
from scorepad.rules import REGISTRY, RuleSet

from .layout import BACK, FRONT
from .result import BLANK, CellRead, ScanError


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
        for r in col:
            if r.value is None or r.kind == BLANK:
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
        for r in col:
            if r.field == "score" and r.game is not None and isinstance(r.value, int):
                scores[r.game] = r.value
            elif r.field == "total" and isinstance(r.value, int):
                total = r.value
        while scores and scores[-1] is None:
            scores.pop()
        players.append(Player(name=name, games=[], players_scores=PlayersScores(scores, total)))
    if not players:
        raise ScanError("empty_pad", "the PLAYERS' SCORES sheet has nothing written on it")
    return Sheet(players=players, rules=None)
