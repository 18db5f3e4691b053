"""The wording of SORRY! findings, kept apart from the checks (tests assert codes)."""

from __future__ import annotations

from typing import Any

from ..games.common import GameFinding
from .rules import SorryCode as C

TEMPLATES: dict[str, str] = {
    C.PLAYER_COUNT.value: "{where}: {written} players; the book is for 2 to 4",
    C.PAWNS_IMPOSSIBLE.value: "{where}: {written} pawns HOME; a player has four pawns",
    C.NO_WINNER.value: "{where}: points written, but no player has all four pawns HOME",
    C.TWO_WINNERS.value: "{where}: {written} all have four pawns HOME; the first to do so wins and "
    "the game ends",
    C.POINTS_WRONG.value: "{where}: {written} points written, {home} pawn(s) HOME score {expected}",
    C.TOTAL_WRONG.value: "{where}: total written {written}, the games add up to {expected}",
    C.TOTAL_UNKNOWN_PLAYER.value: "{where}: a total for {written}, who played no game here",
    C.SLIP_CHANGES_LEADER.value: "{where}: the totals as written put {written} ahead, the correct "
    "points put {expected} ahead",
    C.GAME_IN_PROGRESS.value: "{where}: no player has all four pawns HOME yet",
}


def render(f: GameFinding) -> str:
    where = "totals" if f.game is None else f"game {f.game}"
    if f.player_name:
        where += f", {f.player_name}"
    if f.field:
        where += f" ({f.field})"
    data: dict[str, Any] = {"home": "", **f.details, "where": where, "written": _text(f.written),
                            "expected": _text(f.expected)}
    return TEMPLATES[f.code.value].format_map(data)


def _text(value: Any) -> Any:
    """A list of names or numbers as prose: "Ann, Ben"."""
    return ", ".join(map(str, value)) if isinstance(value, list) else value
