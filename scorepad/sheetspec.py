"""The sheet format's limits and field names, written once (standard library only).

Everything that reads or describes a sheet takes its limits and keys from here: the
marshmallow schemas (``schemas``), the fast loader (``fastsheet``: the CLI's and the API's
fast path, ``api/fastsheet.py`` re-exports it), the generated JSON Schema
(``scorepad.jsonschema``, ``python -m scorepad.jsonschema``), the OpenAPI document and the
web form (``api/web/pad.py``). The rule-set fields and their ranges are in ``rules``
(``RULE_FIELDS``).
"""

from __future__ import annotations

import re

from .boxes import ALL_BOXES, TotalField

FORMAT = "scorepad/sheet@1"

MAX_PLAYERS = 12
MAX_GAMES = 6  # the pad's GAME #1..#6 columns
MAX_NAME = 64  # a player's name
MAX_TITLE = 200  # the sheet's title
MIN_VALUE, MAX_VALUE = -99_999, 99_999  # any number written in a box or total
MAX_CHECKS = 99  # YAHTZEE BONUS check marks
MAX_TURNS = 20  # more than 13 is a rule finding; more than this is not a turn log
MAX_ROLLS = 6  # more than 3 is a rule finding
DICE = 5
MAX_JSON_BYTES = 1_000_000
# readings (a sheet read from a photo)
MAX_CANDIDATES = 8
MAX_PIXEL = 1_000_000  # a crop box coordinate
MAX_PHOTOS = 99

# Field names, level by level.
SHEET_KEYS = ("format", "title", "rules", "players")
PLAYER_KEYS = ("name", "games", "players_scores")
CHECKS_KEY = "yahtzee_bonus_checks"
GAME_KEYS = ("boxes", CHECKS_KEY, "totals", "turns", "readings")
SCORES_KEYS = ("games", "total", "readings")
TURN_KEYS = ("rolls", "kept", "box", "value")
READING_KEYS = ("status", "confidence", "candidates", "box", "photo", "ink")
BOX_KEYS: tuple[str, ...] = tuple(b.value for b in ALL_BOXES)
TOTAL_KEYS: tuple[str, ...] = tuple(t.value for t in TotalField)
# The keys a reading may have: a game's cells, and a PLAYERS' SCORES column's cells.
CARD_READING_KEYS: tuple[str, ...] = (*BOX_KEYS, CHECKS_KEY, *TOTAL_KEYS)
SCORES_READING_KEYS: tuple[str, ...] = (*(f"games[{i}]" for i in range(MAX_GAMES)), "total")


def player_key(name: str) -> str:
    """The one identity of a player's name: spaces collapsed, case folded.

    Two players of one sheet may not share a key (loading refuses it), and statistics
    merge a player's games across matches by it ("Ann  Lee" is "ann lee")."""
    return " ".join(name.split()).casefold()


# Text no sheet may hold: NUL (PostgreSQL text refuses it) and lone UTF-16 surrogates (no
# UTF-8 encoding exists: json.loads makes them from "\udfff"). Loading refuses them with the
# path; the API refuses them in any request (api/textguard.py).
_UNENCODABLE = re.compile("[\x00\ud800-\udfff]")
NUL_TEXT = "must not contain NUL characters"
SURROGATE_TEXT = "must not contain lone UTF-16 surrogates (text that cannot be encoded)"


def printable(text: str) -> str:
    """``text`` with each lone surrogate and NUL written as an escape (\\udfff, \\u0000): for
    a JSON path that names a bad key, so that the error itself can be sent and printed."""
    if _UNENCODABLE.search(text) is None:
        return text
    return _UNENCODABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def bad_text(text: str) -> str | None:
    """What is wrong with ``text`` (NUL or a lone surrogate), or None when it may be stored."""
    m = _UNENCODABLE.search(text)
    if m is None:
        return None
    return NUL_TEXT if m.group() == "\x00" else SURROGATE_TEXT
