"""SCRABBLE score sheets (seed book 000, lines 265-333): the standard board and English
tiles (``board``), rule sets (``rules``), the sheet model (``sheet``), the checks
(``check``) and the tally (``tally``); ``schemas`` is the marshmallow edge. The core is
standard library only."""

from __future__ import annotations

from .board import Placed, PlayResult, parse_square, score_play
from .check import check_sheet
from .codes import ScrabbleCode
from .rules import REGISTRY, ScrabbleRules, get_rules
from .sheet import PlayerGame, ScrabbleGame, ScrabbleSheet, Tile, Turn

__all__ = ["REGISTRY", "Placed", "PlayResult", "PlayerGame", "ScrabbleCode", "ScrabbleGame",
           "ScrabbleRules", "ScrabbleSheet", "Tile", "Turn", "check_sheet", "get_rules",
           "parse_square", "score_play"]
