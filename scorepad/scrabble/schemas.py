"""The SCRABBLE sheet format with marshmallow (the edge): limits from ``games.spec``."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from ..games import SCRABBLE
from ..games.schemas import (
    GameSchema,
    Strict,
    StrictBoolean,
    format_field,
    game_field,
    games_field,
    load_with,
    name_field,
    optional_value,
    players_field,
    rules_field,
    title_field,
    value,
)
from ..games.spec import (
    LETTER_PATTERN,
    MAX_GAME_PLAYERS,
    MAX_PLAY_TILES,
    MAX_RACK,
    MAX_SCRABBLE_TURNS,
    MAX_WORD,
    MAX_WORDS,
    SQUARE_PATTERN,
    TURN_KINDS,
    UNPLAYED_PATTERN,
)
from .rules import REGISTRY, ScrabbleRules
from .sheet import PlayerGame, ScrabbleGame, ScrabbleSheet, Tile, Turn


class ScrabbleTileSchema(Strict):
    model = Tile
    square = fields.String(required=True, validate=validate.Regexp(
        SQUARE_PATTERN, error="a square: column A-O and row 1-15, such as H8"))
    letter = fields.String(required=True, validate=validate.Regexp(
        LETTER_PATTERN, error="one capital letter A-Z (a blank: the letter it stands for)"))
    blank = StrictBoolean(load_default=False)


class ScrabbleTurnSchema(Strict):
    model = Turn
    score = value(required=True)
    total = optional_value()
    kind = fields.String(load_default="play", validate=validate.OneOf(TURN_KINDS))
    tiles = fields.List(fields.Nested(ScrabbleTileSchema), allow_none=True, load_default=None,
                        validate=validate.Length(min=1, max=MAX_PLAY_TILES))


class ScrabblePlayerSchema(Strict):
    model = PlayerGame
    name = name_field(required=True)
    turns = fields.List(fields.Nested(ScrabbleTurnSchema), load_default=list,
                        validate=validate.Length(max=MAX_SCRABBLE_TURNS))
    unplayed = fields.String(allow_none=True, load_default=None, validate=[
        validate.Regexp(UNPLAYED_PATTERN, error="capital letters A-Z, ? for a blank"),
        validate.Length(max=MAX_RACK)])
    adjustment = optional_value()
    final = optional_value()


class ScrabbleGameSchema(GameSchema):
    model = ScrabbleGame
    players = players_field(ScrabblePlayerSchema)
    winners = fields.List(name_field(), allow_none=True, load_default=None,
                          validate=validate.Length(max=MAX_GAME_PLAYERS))


class ScrabbleSheetSchema(Strict):
    model = ScrabbleSheet
    format = format_field()
    game = game_field(SCRABBLE)
    title = title_field()
    rules = rules_field(REGISTRY, ScrabbleRules)
    words = fields.List(fields.String(validate=validate.Regexp(
        rf"^[A-Za-z]{{1,{MAX_WORD}}}$", error=f"a word of 1 to {MAX_WORD} letters A-Z")),
        allow_none=True, load_default=None, validate=validate.Length(max=MAX_WORDS))
    games = games_field(ScrabbleGameSchema)


_SCHEMA = ScrabbleSheetSchema()


def load_sheet(data: Any) -> ScrabbleSheet:
    """A parsed JSON value -> ScrabbleSheet; raises SheetFormatError naming every bad path."""
    sheet: ScrabbleSheet = load_with(_SCHEMA, data)
    return sheet
