"""What the SCRABBLE and SORRY! marshmallow schemas share (the edge: malformed input is a
``SheetFormatError`` naming each JSON path)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from ..rules import RuleSetError, UnknownRuleSet
from ..schemas import NO_NUL, SheetFormatError, StrictInteger, _flatten, encodable
from ..sheetspec import FORMAT, MAX_NAME, MAX_TITLE, MAX_VALUE, MIN_VALUE, player_key
from .common import OptionRegistry
from .spec import MAX_GAME_PLAYERS, MAX_SHEET_GAMES

VALUE_RANGE = validate.Range(min=MIN_VALUE, max=MAX_VALUE)

__all__ = ["GameSchema", "SheetFormatError", "Strict", "StrictInteger", "games_field",
           "load_with", "name_field", "players_field", "rules_field"]
# A sheet's "format" and "game" pick its schema; its model does not keep them.
_NOT_KEPT = ("format", "game")


class Strict(Schema):
    """Unknown fields are errors; what loads is the ``model`` built from the fields."""

    model: ClassVar[Callable[..., Any]]

    class Meta:
        unknown = RAISE

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Any:
        return self.model(**{k: v for k, v in data.items() if k not in _NOT_KEPT})


class GameSchema(Strict):
    """One game of a sheet: its ``players`` (a ``players_field``), whose names differ."""

    @validates_schema
    def names(self, data: dict[str, Any], **_: Any) -> None:
        unique_names([p.name for p in data.get("players", [])], "players")


def players_field(player: type[Schema]) -> fields.List[Any]:
    return fields.List(fields.Nested(player), required=True,
                       validate=validate.Length(min=1, max=MAX_GAME_PLAYERS))


def games_field(game: type[Schema]) -> fields.List[Any]:
    return fields.List(fields.Nested(game), required=True,
                       validate=validate.Length(min=1, max=MAX_SHEET_GAMES))


def value(**kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=VALUE_RANGE, **kwargs)


def optional_value() -> StrictInteger:
    return value(allow_none=True, load_default=None)


def name_field(**kwargs: Any) -> fields.String:
    return fields.String(validate=[validate.Length(min=1, max=MAX_NAME), NO_NUL, encodable],
                         **kwargs)


def title_field() -> fields.String:
    return fields.String(allow_none=True, load_default=None,
                         validate=[validate.Length(max=MAX_TITLE), NO_NUL, encodable])


def format_field() -> fields.String:
    return fields.String(load_default=FORMAT, validate=validate.Equal(FORMAT))


def game_field(game: str) -> fields.String:
    return fields.String(required=True, validate=validate.Equal(game))


class StrictBoolean(fields.Boolean):
    truthy = {True}
    falsy = {False}


class GameRulesField(fields.Field):  # type: ignore[type-arg]
    """A rule set of one game: a name or alias, or a house rule as an object."""

    def __init__(self, registry: OptionRegistry[Any], kind: type, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.registry, self.kind = registry, kind

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, str | Mapping):
            raise ValidationError("expected a rule-set name or a custom rule-set object")
        try:
            rs = self.registry.get(value, self.kind)
        except (UnknownRuleSet, RuleSetError) as exc:
            raise ValidationError(str(exc)) from None
        return rs.name if isinstance(value, str) else rs


def rules_field(registry: OptionRegistry[Any], kind: type) -> GameRulesField:
    return GameRulesField(registry, kind, allow_none=True, load_default=None)


def unique_names(names: list[str], where: str) -> None:
    keys = [player_key(n) for n in names]
    dupes = sorted({k for k in keys if keys.count(k) > 1})
    if dupes:
        raise ValidationError(f"player names must differ; repeated: {', '.join(dupes)}", where)


def load_with(schema: Schema, data: Any) -> Any:
    """A parsed JSON value through ``schema``; SheetFormatError names every bad path."""
    if not isinstance(data, Mapping):
        raise SheetFormatError([("$", "expected a JSON object (a sheet)")])
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise SheetFormatError(_flatten(exc.messages)) from None

