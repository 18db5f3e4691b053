"""The SCRABBLE tally of an evening: games, wins, average final score, best turn (from the
games as checked: correct scores, not the slips)."""

from __future__ import annotations

from typing import Any

from ..sheetspec import player_key


def tally_games(games: list[dict[str, Any]]) -> dict[str, Any]:
    """``games``: the per-game summaries of ``check._check_game``."""
    players: dict[str, dict[str, Any]] = {}
    best: dict[str, Any] | None = None
    for g in games:
        shared = len(g["winners"]) > 1
        won = {player_key(w) for w in g["winners"]}
        for p in g["players"]:
            key = player_key(p["name"])
            row = players.setdefault(key, {"player": p["name"], "games": 0, "complete": 0,
                                           "wins": 0, "shared_wins": 0, "total": 0,
                                           "average": None, "best_turn": None})
            row["games"] += 1
            if g["complete"]:
                row["complete"] += 1
                row["total"] += p["final"]
                row["average"] = round(row["total"] / row["complete"], 2)
            if key in won:
                row["shared_wins" if shared else "wins"] += 1
            turn = p["best_turn"]
            if turn is not None and (row["best_turn"] is None
                                     or turn["score"] > row["best_turn"]["score"]):
                row["best_turn"] = {**turn, "game": g["game"]}
            if turn is not None and (best is None or turn["score"] > best["score"]):
                best = {"player": p["name"], "game": g["game"], **turn}
    standings = sorted(players.values(),
                       key=lambda r: (-r["wins"], -r["shared_wins"], -(r["average"] or 0),
                                      player_key(r["player"])))
    return {
        "game": "scrabble",
        "games": len(games),
        "complete": sum(1 for g in games if g["complete"]),
        "winners": [g["winners"] for g in games],
        "players": [{"rank": i, **r} for i, r in enumerate(standings, 1)],
        "best_turn": best,
    }
