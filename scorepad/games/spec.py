"""The SCRABBLE and SORRY! sheet formats' limits and field names, written once, in the style
of ``scorepad.sheetspec`` (whose ``FORMAT``, text and number limits they share). The
marshmallow schemas (``scorepad.scrabble.schemas``, ``scorepad.sorry.schemas``) and the
generated JSON Schema take their limits from here. Standard library only."""

from __future__ import annotations

from ..sheetspec import MAX_NAME, MAX_TITLE, MAX_VALUE, MIN_VALUE

__all__ = ["MAX_NAME", "MAX_TITLE", "MAX_VALUE", "MIN_VALUE"]

GAME_KEY = "game"
MAX_SHEET_GAMES = 50  # games over an evening, on one sheet
MAX_GAME_PLAYERS = 8  # more than the books' 4 is a rule finding, more than this no sheet

# SCRABBLE
SCRABBLE_SHEET_KEYS = ("format", GAME_KEY, "title", "rules", "words", "games")
SCRABBLE_GAME_KEYS = ("players", "winners")
SCRABBLE_PLAYER_KEYS = ("name", "turns", "unplayed", "adjustment", "final")
SCRABBLE_TURN_KEYS = ("score", "total", "kind", "tiles")
SCRABBLE_TILE_KEYS = ("square", "letter", "blank")
TURN_KINDS = ("play", "pass", "exchange", "lost")  # lost: a turn lost to a challenge
MAX_SCRABBLE_TURNS = 200  # per player and game (passes are unlimited in the book)
MAX_PLAY_TILES = 15  # a row of the board; more than 7 is a rule finding
MAX_RACK = 7  # unplayed letters: a rack holds seven (000:288)
SQUARE_PATTERN = r"^[A-O](1[0-5]|[1-9])$"  # column A-O, row 1-15: "H8" is the centre star
LETTER_PATTERN = r"^[A-Z]$"
UNPLAYED_PATTERN = r"^[A-Z?]*$"  # "?" is an unplayed blank
MAX_WORDS = 300_000  # a supplied word list
MAX_WORD = 15

# SORRY!
SORRY_SHEET_KEYS = ("format", GAME_KEY, "title", "rules", "games", "totals")
SORRY_GAME_KEYS = ("players",)
SORRY_PLAYER_KEYS = ("name", "home", "points")
SORRY_TOTAL_KEYS = ("name", "total")
