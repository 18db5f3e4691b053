"""Several photos of one pad (score cards and the PLAYERS' SCORES back) -> one sheet."""

from __future__ import annotations

from collections.abc import Sequence

from scorepad.card import Player, PlayersScores, Sheet

from .layout import Side
from .result import ScanError, ScanResult


def merge(results: Sequence[ScanResult]) -> Sheet:
    """Front photos give the players in order; a back photo gives their PLAYERS' SCORES,
    column by column (the n-th column is the n-th front's player)."""
    if not results:
        raise ScanError("empty_pad", "no photo was given")
    fronts = [r for r in results if r.side is Side.FRONT]
    backs = [r for r in results if r.side is Side.BACK]
    if len(backs) > 1:
        raise ScanError("two_backs", "more than one PLAYERS' SCORES photo was given")
    back_players = backs[0].sheet.players if backs else []
    players: list[Player] = []
    used: set[str] = set()
    count = max(len(fronts), len(back_players))
    for i in range(count):
        front = fronts[i].sheet.players[0] if i < len(fronts) else None
        back = back_players[i] if i < len(back_players) else None
        name = front.name if front else back.name if back else f"Player {i + 1}"
        if name.casefold() in used:
            name = f"{name} ({i + 1})"
        used.add(name.casefold())
        scores: PlayersScores | None = back.players_scores if back else None
        players.append(Player(name=name, games=list(front.games) if front else [],
                              players_scores=scores))
    rules = fronts[0].sheet.rules if fronts else None
    return Sheet(players=players, rules=rules, title=None)
