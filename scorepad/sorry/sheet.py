"""The SORRY! play-for-points sheet model: games over an evening, each player's pawns HOME
and points as written, and optionally each player's total. May hold an invalid sheet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rules import OPTION_FIELDS, SorryRules


@dataclass
class SorryPlayer:
    name: str
    home: int  # pawns HOME at the end of the game
    points: int | None = None  # as written (None: not written)


@dataclass
class SorryGame:
    players: list[SorryPlayer]


@dataclass
class SorryTotal:
    name: str
    total: int | None = None


@dataclass
class SorrySheet:
    games: list[SorryGame]
    rules: str | SorryRules | None = None
    title: str | None = None
    totals: list[SorryTotal] | None = None

    def to_dict(self) -> dict[str, Any]:
        rules: Any = self.rules
        if isinstance(rules, SorryRules):
            rules = {"name": rules.name, "title": rules.title, "summary": rules.summary,
                     **{k: getattr(rules, k) for k in OPTION_FIELDS}}
        out: dict[str, Any] = {
            "format": "scorepad/sheet@1", "game": "sorry", "title": self.title, "rules": rules,
            "games": [{"players": [{"name": p.name, "home": p.home, "points": p.points}
                                   for p in g.players]} for g in self.games]}
        if self.totals is not None:
            out["totals"] = [{"name": t.name, "total": t.total} for t in self.totals]
        return out
