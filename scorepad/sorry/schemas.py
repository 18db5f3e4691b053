"""The SORRY! play-for-points sheet format with marshmallow (the edge)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate, validates_schema

from ..games import SORRY
from ..games.schemas import (
    GameSchema,
    Strict,
    format_field,
    game_field,
    games_field,
    load_with,
    name_field,
    optional_value,
    players_field,
    rules_field,
    title_field,
    unique_names,
    value,
)
from ..games.spec import MAX_GAME_PLAYERS, MAX_SHEET_GAMES
from .rules import REGISTRY, SorryRules
from .sheet import SorryGame, SorryPlayer, SorrySheet, SorryTotal


class SorryPlayerSchema(Strict):
    model = SorryPlayer
    name = name_field(required=True)
    home = value(required=True)
    points = optional_value()


class SorryGameSchema(GameSchema):
    model = SorryGame
    players = players_field(SorryPlayerSchema)


class SorryTotalSchema(Strict):
    model = SorryTotal
    name = name_field(required=True)
    total = optional_value()


class SorrySheetSchema(Strict):
    model = SorrySheet
    format = format_field()
    game = game_field(SORRY)
    title = title_field()
    rules = rules_field(REGISTRY, SorryRules)
    games = games_field(SorryGameSchema)
    totals = fields.List(fields.Nested(SorryTotalSchema), allow_none=True, load_default=None,
                         validate=validate.Length(max=MAX_SHEET_GAMES * MAX_GAME_PLAYERS))

    @validates_schema
    def names(self, data: dict[str, Any], **_: Any) -> None:
        unique_names([t.name for t in data.get("totals") or []], "totals")


_SCHEMA = SorrySheetSchema()


def load_sheet(data: Any) -> SorrySheet:
    """A parsed JSON value -> SorrySheet; raises SheetFormatError naming every bad path."""
    sheet: SorrySheet = load_with(_SCHEMA, data)
    return sheet
