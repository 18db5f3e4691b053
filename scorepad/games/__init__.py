"""The other scored games of seed book 000: SCRABBLE (``scorepad.scrabble``) and SORRY!
play for points (``scorepad.sorry``), beside Yahtzee.

A sheet names its game in its ``game`` field (absent: ``"yahtzee"``, the original sheet
format, unchanged). ``common`` holds what both games share (findings, reports, rule-set
registries), ``spec`` the sheet format's limits, ``dispatch`` loads, verifies and tallies a
sheet of any game. Standard library only (``dispatch`` imports marshmallow inside its
functions, for the schemas).
"""

from __future__ import annotations

YAHTZEE, SCRABBLE, SORRY = "yahtzee", "scrabble", "sorry"
GAMES: tuple[str, ...] = (YAHTZEE, SCRABBLE, SORRY)
