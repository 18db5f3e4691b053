"""Several photos of one pad (score cards and the PLAYERS' SCORES back) -> one sheet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scorepad.card import Player, PlayersScores, Sheet
from scorepad.readings import Reading

from .layout import Side
from .result import ScanError, ScanResult


def merge(results: Sequence[ScanResult]) -> Sheet:
    """Front photos give the players in order; a back photo gives their PLAYERS' SCORES,
    column by column (the n-th column is the n-th front's player)."""
    if not results:
        raise ScanError("empty_pad", "no photo was given")
    index = {id(r): i for i, r in enumerate(results)}
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
        front_photo = index[id(fronts[i])] if i < len(fronts) else 0
        name = front.name if front else back.name if back else f"Player {i + 1}"
        if name.casefold() in used:
            name = f"{name} ({i + 1})"
        used.add(name.casefold())
        scores: PlayersScores | None = back.players_scores if back else None
        if scores is not None:
            scores = replace(scores, readings=_on_photo(scores.readings, index[id(backs[0])]))
        games = [None if g is None else replace(g, readings=_on_photo(g.readings, front_photo))
                 for g in (front.games if front else [])]
        players.append(Player(name=name, games=games, players_scores=scores))
    rules = fronts[0].sheet.rules if fronts else None
    return Sheet(players=players, rules=rules, title=None)


def _on_photo(readings: dict[str, Reading], photo: int) -> dict[str, Reading]:
    """Readings marked with the photo (0-based, in the order given) their crops are in."""
    return {k: replace(r, photo=photo) for k, r in readings.items()}
