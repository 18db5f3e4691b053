"""The SORRY! play-for-points sheet format with marshmallow (the edge)."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields, post_load, validate, validates_schema

from ..games import SORRY
from ..games.schemas import (
    format_field,
    game_field,
    load_with,
    name_field,
    optional_value,
    rules_field,
    title_field,
    unique_names,
    value,
)
from ..games.spec import MAX_GAME_PLAYERS, MAX_SHEET_GAMES
from .rules import REGISTRY, SorryRules
from .sheet import SorryGame, SorryPlayer, SorrySheet, SorryTotal


class _Strict(Schema):
    class Meta:
        unknown = RAISE


class SorryPlayerSchema(_Strict):
    name = name_field(required=True)
    home = value(required=True)
    points = optional_value()

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> SorryPlayer:
        return SorryPlayer(**data)


class SorryGameSchema(_Strict):
    players = fields.List(fields.Nested(SorryPlayerSchema), required=True,
                          validate=validate.Length(min=1, max=MAX_GAME_PLAYERS))

    @validates_schema
    def names(self, data: dict[str, Any], **_: Any) -> None:
        unique_names([p.name for p in data.get("players", [])], "players")

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> SorryGame:
        return SorryGame(**data)


class SorryTotalSchema(_Strict):
    name = name_field(required=True)
    total = optional_value()

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> SorryTotal:
        return SorryTotal(**data)


class SorrySheetSchema(_Strict):
    format = format_field()
    game = game_field(SORRY)
    title = title_field()
    rules = rules_field(REGISTRY, SorryRules)
    games = fields.List(fields.Nested(SorryGameSchema), required=True,
                        validate=validate.Length(min=1, max=MAX_SHEET_GAMES))
    totals = fields.List(fields.Nested(SorryTotalSchema), allow_none=True, load_default=None,
                         validate=validate.Length(max=MAX_SHEET_GAMES * MAX_GAME_PLAYERS))

    @validates_schema
    def names(self, data: dict[str, Any], **_: Any) -> None:
        unique_names([t.name for t in data.get("totals") or []], "totals")

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> SorrySheet:
        return SorrySheet(games=data["games"], rules=data["rules"], title=data["title"],
                          totals=data["totals"])


_SCHEMA = SorrySheetSchema()


def load_sheet(data: Any) -> SorrySheet:
    """A parsed JSON value -> SorrySheet; raises SheetFormatError naming every bad path."""
    sheet: SorrySheet = load_with(_SCHEMA, data)
    return sheet
