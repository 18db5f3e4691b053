"""The SCRABBLE and SORRY! sheet formats as JSON Schemas, generated from ``games.spec`` and
the rule registries: ``python -m scorepad.jsonschema.games`` writes ``scrabble.schema.json``
and ``sorry.schema.json`` next to this module (``--check`` says whether they are current;
tests/games/test_game_jsonschema.py checks it too). Standard library only."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..games import SCRABBLE, SORRY
from ..games.spec import (
    LETTER_PATTERN,
    MAX_GAME_PLAYERS,
    MAX_NAME,
    MAX_PLAY_TILES,
    MAX_RACK,
    MAX_SCRABBLE_TURNS,
    MAX_SHEET_GAMES,
    MAX_TITLE,
    MAX_VALUE,
    MAX_WORD,
    MAX_WORDS,
    MIN_VALUE,
    SQUARE_PATTERN,
    TURN_KINDS,
    UNPLAYED_PATTERN,
)
from ..rules import MAX_RULES_TEXT
from ..scrabble.rules import REGISTRY as SCRABBLE_RULES
from ..scrabble.rules import TIE_BREAKS
from ..sheetspec import FORMAT
from ..sorry.rules import REGISTRY as SORRY_RULES
from ..sorry.rules import SHUTOUTS
from . import NO_NUL, _object, rules_name

HERE = Path(__file__).parent


def _int(nullable: bool = False) -> dict[str, Any]:
    return {"type": ["integer", "null"] if nullable else "integer", "minimum": MIN_VALUE,
            "maximum": MAX_VALUE}


def _name() -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": NO_NUL}


def house_rules(names: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """A house-rule object of one game: a name (not a built-in one), a base, the options."""
    text = {"type": "string", "maxLength": MAX_RULES_TEXT, "pattern": NO_NUL}
    return _object({"name": rules_name(names), "base": {"type": "string", "enum": names},
                    "title": text, "summary": text, **options},
                   description="house rules: options not given come from 'base'")


def _sheet(game: str, title: str, options: dict[str, Any], names: list[str],
           props: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    house = house_rules(names, options)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://scorepad.example/schemas/{game}.schema.json",
        "title": title, "type": "object", "additionalProperties": False,
        "required": ["game", "games"],
        "properties": {
            "format": {"const": FORMAT}, "game": {"const": game},
            "title": {"type": ["string", "null"], "maxLength": MAX_TITLE, "pattern": NO_NUL},
            "rules": {"oneOf": [{"enum": names}, house, {"type": "null"}]},
            **props,
        },
        "$defs": defs,
    }


SCRABBLE_OPTIONS: dict[str, Any] = {
    "bingo_bonus": {"type": "integer", "minimum": 0, "maximum": 1000},
    "out_bonus": {"type": "boolean"},
    "tie_break": {"type": "string", "enum": list(TIE_BREAKS)}}
SORRY_OPTIONS: dict[str, Any] = {"shutout": {"type": "string", "enum": list(SHUTOUTS)}}


def rule_names(game: str) -> list[str]:
    reg = SCRABBLE_RULES if game == SCRABBLE else SORRY_RULES
    return sorted({n for rs in reg.all() for n in (rs.name, *rs.aliases)})


def scrabble_schema() -> dict[str, Any]:
    names = rule_names(SCRABBLE)
    tile = _object({"square": {"type": "string", "pattern": SQUARE_PATTERN,
                               "description": "column A-O, row 1-15: H8 is the centre star"},
                    "letter": {"type": "string", "pattern": LETTER_PATTERN},
                    "blank": {"type": "boolean"}}, required=["square", "letter"])
    turn = _object({"score": _int(), "total": _int(True), "kind": {"enum": list(TURN_KINDS)},
                    "tiles": {"oneOf": [{"type": "null"}, {
                        "type": "array", "minItems": 1, "maxItems": MAX_PLAY_TILES,
                        "items": {"$ref": "#/$defs/tile"}}],
                        "description": "the move log: only a play lists tiles"}},
                   required=["score"])
    player = _object({"name": _name(),
                      "turns": {"type": "array", "maxItems": MAX_SCRABBLE_TURNS,
                                "items": {"$ref": "#/$defs/turn"}},
                      "unplayed": {"type": ["string", "null"], "maxLength": MAX_RACK,
                                   "pattern": UNPLAYED_PATTERN},
                      "adjustment": _int(True), "final": _int(True)}, required=["name"])
    game = _object({"players": {"type": "array", "minItems": 1, "maxItems": MAX_GAME_PLAYERS,
                                "items": {"$ref": "#/$defs/player"},
                                "description": "in the order they play"},
                    "winners": {"oneOf": [{"type": "null"}, {
                        "type": "array", "maxItems": MAX_GAME_PLAYERS, "items": _name()}]}},
                   required=["players"])
    options = SCRABBLE_OPTIONS
    return _sheet(SCRABBLE, f"scorepad SCRABBLE sheet ({FORMAT})", options, names, {
        "words": {"oneOf": [{"type": "null"}, {
            "type": "array", "maxItems": MAX_WORDS,
            "items": {"type": "string", "pattern": f"^[A-Za-z]{{1,{MAX_WORD}}}$"}}]},
        "games": {"type": "array", "minItems": 1, "maxItems": MAX_SHEET_GAMES,
                  "items": {"$ref": "#/$defs/game"}},
    }, {"game": game, "player": player, "turn": turn, "tile": tile})


def sorry_schema() -> dict[str, Any]:
    names = rule_names(SORRY)
    player = _object({"name": _name(), "home": _int(), "points": _int(True)},
                     required=["name", "home"])
    game = _object({"players": {"type": "array", "minItems": 1, "maxItems": MAX_GAME_PLAYERS,
                                "items": {"$ref": "#/$defs/player"}}}, required=["players"])
    total = _object({"name": _name(), "total": _int(True)}, required=["name"])
    return _sheet(SORRY, f"scorepad SORRY! play-for-points sheet ({FORMAT})",
                  SORRY_OPTIONS, names, {
                      "games": {"type": "array", "minItems": 1, "maxItems": MAX_SHEET_GAMES,
                                "items": {"$ref": "#/$defs/game"}},
                      "totals": {"oneOf": [{"type": "null"}, {
                          "type": "array", "maxItems": MAX_SHEET_GAMES * MAX_GAME_PLAYERS,
                          "items": {"$ref": "#/$defs/total"}}]},
                  }, {"game": game, "player": player, "total": total})


SCHEMAS = {HERE / "scrabble.schema.json": scrabble_schema,
           HERE / "sorry.schema.json": sorry_schema}


def text(build: Any) -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    stale = [p for p, build in SCHEMAS.items()
             if not p.exists() or p.read_text(encoding="utf-8") != text(build)]
    if args == ["--check"]:
        for p in SCHEMAS:
            state = "out of date: run python -m scorepad.jsonschema.games"
            print(f"{p}: {state if p in stale else 'current'}")
        return 1 if stale else 0
    if args:
        print("usage: python -m scorepad.jsonschema.games [--check]", file=sys.stderr)
        return 2
    for p, build in SCHEMAS.items():
        p.write_text(text(build), encoding="utf-8")
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
