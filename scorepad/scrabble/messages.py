"""The wording of SCRABBLE findings, kept apart from the checks (tests assert codes)."""

from __future__ import annotations

from typing import Any

from ..games.common import GameFinding
from .codes import ScrabbleCode as C

TEMPLATES: dict[C, str] = {
    C.PLAYER_COUNT: "{where}: {written} players; the book is for 2 to 4",
    C.TURN_COUNT: "{where}: turns per player {written}; play passes to the left, so each "
    "player has as many turns as the first, or one fewer after the last to play",
    C.NO_PLAY_SCORED: "{where}: a {kind} scores 0, written {written}",
    C.NO_PLAY_TILES: "{where}: a {kind} puts no tiles on the board (tiles of a challenged "
    "play are taken back)",
    C.SCORE_NEGATIVE: "{where}: a turn score of {written}; no play scores below 0",
    C.RUNNING_TOTAL: "{where}: running total written {written}, the previous total and this "
    "turn make {expected}",
    C.ADJUSTMENT_WRONG: "{where}: unplayed letters counted {written}, should be {expected}",
    C.TWO_WENT_OUT: "{where}: {written} all used their last letter; only one player can",
    C.OUT_NOT_LAST: "{where}: went out, so the game ended on that turn, but others played "
    "after",
    C.FINAL_WRONG: "{where}: final score written {written}, the last total and the unplayed "
    "letters make {expected}",
    C.WINNER_WRONG: "{where}: winner written {written}, the scores make {expected} the winner",
    C.SLIP_CHANGES_WINNER: "{where}: the scores as written make {written} the winner, the "
    "correct scores make {expected} the winner",
    C.GAME_IN_PROGRESS: "{where}: no end-of-game scores yet; checked as far as it goes",
    C.TILES_EXCEED_BAG: "{where}: more tiles than the 100 hold: {letters}",
    C.MOVE_LOG_INCOMPLETE: "{where}: some plays list no tiles; the move log is not checked",
    C.TOO_MANY_TILES: "{where}: {tiles} tiles in one play; a rack holds seven",
    C.SQUARE_TAKEN: "{where}: a tile on a square already taken: {squares}",
    C.NOT_IN_LINE: "{where}: the tiles are not in one row or one column",
    C.GAP: "{where}: the tiles and the letters on the board do not make one word",
    C.FIRST_NOT_ON_STAR: "{where}: the first word does not cover the centre star (H8)",
    C.FIRST_TOO_SHORT: "{where}: the first play must use two or more letters",
    C.NOT_CONNECTED: "{where}: the play touches no letter already on the board",
    C.TURN_SCORE_WRONG: "{where}: turn score written {written}, the play scores {expected} "
    "({words_text})",
    C.BINGO_MISSING: "{where}: seven tiles played: {written} leaves out the {bonus}-point "
    "premium ({expected})",
    C.BINGO_NOT_EARNED: "{where}: {written} adds the {bonus}-point premium, but only {tiles} "
    "tile(s) were played ({expected})",
    C.WORD_NOT_IN_LIST: "{where}: {word} is not in the word list",
}


def render(f: GameFinding) -> str:
    where = f"game {f.game}" + (f", {f.player_name}" if f.player_name else "")
    if f.field:
        where += f" ({f.field})"
    data: dict[str, Any] = {"kind": "turn", "tiles": "", "squares": "", "bonus": "",
                            "word": "", "letters": "", **f.details, "where": where,
                            "written": _text(f.written), "expected": _text(f.expected)}
    data["words_text"] = ", ".join(f"{w['word']} {w['score']}"
                                   for w in f.details.get("words", []))
    if isinstance(data["squares"], list):
        data["squares"] = ", ".join(data["squares"])
    if isinstance(data["letters"], dict):
        data["letters"] = ", ".join(f"{k} {v[0]} of {v[1]}" for k, v in data["letters"].items())
    return TEMPLATES[f.code].format_map(data)  # type: ignore[index]


def _text(value: Any) -> Any:
    """A list of names or numbers as prose: "Ann, Ben"."""
    return ", ".join(map(str, value)) if isinstance(value, list) else value
