"""A fast path for loading the common sheet: the same result as ``SheetSchema``, ~10x sooner.

Used by the API (``api.fastsheet`` re-exports it) and by ``scorepad verify``, which so
starts without importing marshmallow (about 70 ms) for a plain sheet.

marshmallow spends about 5 ms on a two-player, six-game sheet, more than the audit
itself. ``fast_load`` checks the plain case by hand (no turn logs, and no ``readings``:
a scanned sheet goes through marshmallow) and returns the
very ``Sheet`` that ``scorepad.schemas.load_sheet`` would return; on anything
outside that case, valid or not, it returns None and the caller uses
``load_sheet``, which names every bad JSON path. tests/api/test_fastsheet.py checks
with generated sheets that whenever the fast path answers, marshmallow agrees.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .boxes import ALL_BOXES, Box, TotalField
from .card import Game, Player, PlayersScores, Sheet
from .rules import RuleSetError, UnknownRuleSet, custom_rules, get_rules
from .sheetspec import (
    CHECKS_KEY,
    FORMAT,
    GAME_KEYS,
    MAX_CHECKS,
    MAX_GAMES,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_TITLE,
    MAX_VALUE,
    MIN_VALUE,
    PLAYER_KEYS,
    SCORES_KEYS,
    SHEET_KEYS,
    bad_text,
    player_key,
)

_BOX_KEYS = {b.value: b for b in ALL_BOXES}
_TOTAL_KEYS = {t.value: t for t in TotalField}
_SHEET_KEYS = frozenset(SHEET_KEYS)
_PLAYER_KEYS = frozenset(PLAYER_KEYS)
_GAME_KEYS = frozenset(GAME_KEYS) - {"readings"}  # readings: marshmallow's
_SCORES_KEYS = frozenset(SCORES_KEYS) - {"readings"}
_LO, _HI = MIN_VALUE, MAX_VALUE


class _Miss(Exception):
    """Not the plain case: let marshmallow decide."""


def _value(v: Any) -> int | None:
    if v is None:
        return None
    if type(v) is not int or not _LO <= v <= _HI:
        raise _Miss
    return v


def _values(d: Any, keys: Mapping[str, Any]) -> dict[Any, int]:
    if type(d) is not dict:
        raise _Miss
    out = {}
    for k, v in d.items():
        key = keys.get(k)
        if key is None:
            raise _Miss
        val = _value(v)
        if val is not None:
            out[key] = val
    return out


def _game(d: Any) -> Game | None:
    if d is None:
        return None
    if type(d) is not dict or not d.keys() <= _GAME_KEYS or d.get("turns") is not None:
        raise _Miss
    checks = d.get(CHECKS_KEY, 0)
    if type(checks) is not int or not 0 <= checks <= MAX_CHECKS:
        raise _Miss
    boxes: dict[Box, int] = _values(d.get("boxes", {}), _BOX_KEYS)
    totals: dict[TotalField, int] = _values(d.get("totals", {}), _TOTAL_KEYS)
    # key order as the schema builds them (declaration order of the boxes)
    return Game(boxes={b: boxes[b] for b in ALL_BOXES if b in boxes}, bonus_checks=checks,
                totals={t: totals[t] for t in TotalField if t in totals}, turns=None)


def _scores(d: Any) -> PlayersScores | None:
    if d is None:
        return None
    if type(d) is not dict or not d.keys() <= _SCORES_KEYS:
        raise _Miss
    games = d.get("games", [])
    if type(games) is not list or len(games) > MAX_GAMES:
        raise _Miss
    return PlayersScores(games=[_value(g) for g in games], total=_value(d.get("total")))


def _player(d: Any) -> Player:
    if type(d) is not dict or not d.keys() <= _PLAYER_KEYS:
        raise _Miss
    name = d.get("name")
    if type(name) is not str or not 1 <= len(name) <= MAX_NAME or bad_text(name):
        raise _Miss
    games = d.get("games", [])
    if type(games) is not list or len(games) > MAX_GAMES:
        raise _Miss
    return Player(name=name, games=[_game(g) for g in games],
                  players_scores=_scores(d.get("players_scores")))


def _rules(v: Any) -> Any:
    if v is None:
        return None
    try:
        if type(v) is str:
            return get_rules(v).name
        if type(v) is dict:
            return custom_rules(v)
    except (UnknownRuleSet, RuleSetError):
        raise _Miss from None
    raise _Miss


def fast_load(data: Any) -> Sheet | None:
    """The Sheet for a plain, valid sheet (no turn logs, no readings); None when unsure."""
    try:
        if type(data) is not dict or not data.keys() <= _SHEET_KEYS:
            return None
        if data.get("format", FORMAT) != FORMAT:
            return None
        title = data.get("title")
        if title is not None and (type(title) is not str or len(title) > MAX_TITLE
                                  or bad_text(title)):
            return None
        players = data.get("players")
        if type(players) is not list or not 1 <= len(players) <= MAX_PLAYERS:
            return None
        loaded = [_player(p) for p in players]
        names = [player_key(p.name) for p in loaded]
        if len(set(names)) != len(names):
            return None
        return Sheet(players=loaded, rules=_rules(data.get("rules")), title=title)
    except _Miss:
        return None


def load(data: Any) -> Sheet:
    """fast_load, else scorepad.schemas.load_sheet (raises SheetFormatError with paths)."""
    sheet = fast_load(data)
    if sheet is not None:
        return sheet
    from .schemas import load_sheet  # marshmallow: only for what the fast path leaves

    return load_sheet(data)
