"""The SCRABBLE sheet model: games over an evening, each with its players in the order they
play (the first player first, play passes to the left, 000:289), each player's turns (score
and running total as written, and optionally the tiles played) and end of game. A model may
hold an invalid sheet: ``check`` reports what is wrong with it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .rules import ScrabbleRules


@dataclass
class Tile:
    square: str  # "H8"
    letter: str  # "A".."Z": the letter shown (a blank's stated letter, 000:300)
    blank: bool = False


@dataclass
class Turn:
    score: int
    total: int | None = None  # the running total as written (None: not written)
    kind: str = "play"  # "play", "pass", "exchange" or "lost" (to a challenge)
    tiles: list[Tile] | None = None  # the move log: None when not given


@dataclass
class PlayerGame:
    name: str
    turns: list[Turn] = field(default_factory=list)
    unplayed: str | None = None  # letters left on the rack at the end ("?" a blank)
    adjustment: int | None = None  # as written: minus the unplayed letters, plus for going out
    final: int | None = None  # the final score as written


@dataclass
class ScrabbleGame:
    players: list[PlayerGame]
    winners: list[str] | None = None  # as written (None: not written)


@dataclass
class ScrabbleSheet:
    games: list[ScrabbleGame]
    rules: str | ScrabbleRules | None = None
    title: str | None = None
    words: list[str] | None = None  # a word list: formed words not in it are warnings

    def to_dict(self) -> dict[str, Any]:
        rules: Any = self.rules
        if isinstance(rules, ScrabbleRules):
            d = rules.to_dict()
            rules = {k: v for k, v in d.items() if k not in ("aliases", "game")}
        out: dict[str, Any] = {"format": "scorepad/sheet@1", "game": "scrabble",
                               "title": self.title, "rules": rules}
        if self.words is not None:
            out["words"] = list(self.words)
        out["games"] = [{"players": [_player_dict(p) for p in g.players],
                         "winners": g.winners} for g in self.games]
        return out


def _player_dict(p: PlayerGame) -> dict[str, Any]:
    turns = []
    for t in p.turns:
        d: dict[str, Any] = {"score": t.score, "total": t.total, "kind": t.kind}
        if t.tiles is not None:
            d["tiles"] = [{"square": x.square, "letter": x.letter, "blank": x.blank}
                          for x in t.tiles]
        turns.append(d)
    return {"name": p.name, "turns": turns, "unplayed": p.unplayed,
            "adjustment": p.adjustment, "final": p.final}
