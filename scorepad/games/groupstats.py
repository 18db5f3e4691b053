"""A group's statistics of SCRABBLE and SORRY! games, from the stored sheets alone.

Each game is taken as checked (``dispatch.check_other``): the correct final score
(SCRABBLE) or points (SORRY!), not a slip written on the sheet, and the winners as the
book decides them. A player's figures count the finished games: games, wins, win rate
(wins / games), average and best score, and for SCRABBLE the best turn. The service
keeps the same figures in rows (``api.boardstats``); ``recompute`` is the reference a
test compares them with."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from ..sheetspec import player_key
from . import SCRABBLE
from .dispatch import check_other, load_other


@dataclasses.dataclass(frozen=True)
class BoardLine:
    name: str
    score: int | None  # the correct final score (SCRABBLE) or points (SORRY!)
    rank: int | None
    won: bool  # a finished game's winner (a shared win counts for each)
    best_turn: int | None  # SCRABBLE: the best turn's correct score


@dataclasses.dataclass(frozen=True)
class BoardGame:
    game_no: int
    complete: bool
    rule_set: str
    players: list[BoardLine]


def board_games(game: str, sheet: Mapping[str, Any]) -> list[BoardGame]:
    """The games of a stored SCRABBLE or SORRY! sheet, as checked."""
    report = check_other(load_other(game, sheet))
    out = []
    for g in report.games:
        complete = bool(g["complete"])
        winners = {player_key(w) for w in g["winners"]}
        scores = [p.get("final" if game == SCRABBLE else "points") for p in g["players"]]
        ranked = sorted({x for x in scores if x is not None}, reverse=True)
        lines = []
        for p, score in zip(g["players"], scores, strict=True):
            turn = p.get("best_turn")
            lines.append(BoardLine(
                p["name"], score, ranked.index(score) + 1 if score is not None else None,
                complete and player_key(p["name"]) in winners,
                turn["score"] if turn else None))
        out.append(BoardGame(int(g["game"]), complete, report.rule_set.name, lines))
    return out


def player_figures(game: str, name: str, games: int, wins: int, total: int, best: int,
                   best_turn: int | None) -> dict[str, Any]:
    """A player's figures as the API writes them."""
    d: dict[str, Any] = {
        "player": name, "games": games, "wins": wins,
        "win_rate": round(wins / games, 2) if games else None,
        "average": round(total / games, 2) if games else None,
        "best": best if games else None}
    if game == SCRABBLE:
        d["best_turn"] = best_turn
    return d


@dataclasses.dataclass(frozen=True)
class StoredBoardMatch:
    match_id: str
    played_on: dt.date | None
    sheet: Mapping[str, Any]


def recompute(game: str, matches: Iterable[StoredBoardMatch]) -> dict[str, dict[str, Any]]:
    """Every player's figures in ``game`` over ``matches`` (player key -> figures; the name
    is the spelling of the player's latest finished game: by date, match id, game, seat)."""
    acc: dict[str, dict[str, Any]] = {}
    for m in matches:
        for g in board_games(game, m.sheet):
            if not g.complete:
                continue
            for seat, p in enumerate(g.players):
                a = acc.setdefault(player_key(p.name), {
                    "games": 0, "wins": 0, "total": 0, "best": None, "best_turn": None,
                    "latest": None})
                a["games"] += 1
                a["wins"] += int(p.won)
                a["total"] += p.score or 0
                if p.score is not None:
                    a["best"] = p.score if a["best"] is None else max(a["best"], p.score)
                if p.best_turn is not None:
                    a["best_turn"] = p.best_turn if a["best_turn"] is None \
                        else max(a["best_turn"], p.best_turn)
                order = (m.played_on or dt.date.min, m.match_id, g.game_no, seat)
                if a["latest"] is None or order > a["latest"][0]:
                    a["latest"] = (order, p.name)
    return {k: player_figures(game, a["latest"][1], a["games"], a["wins"], a["total"],
                              a["best"] or 0, a["best_turn"]) for k, a in acc.items()}
