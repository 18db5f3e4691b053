"""What the SCRABBLE and SORRY! marshmallow schemas share (the edge: malformed input is a
``SheetFormatError`` naming each JSON path)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from ..rules import RuleSetError, UnknownRuleSet
from ..schemas import NO_NUL, SheetFormatError, StrictInteger, _flatten, encodable
from ..sheetspec import FORMAT, MAX_NAME, MAX_TITLE, MAX_VALUE, MIN_VALUE, player_key
from .common import OptionRegistry

VALUE_RANGE = validate.Range(min=MIN_VALUE, max=MAX_VALUE)

__all__ = ["SheetFormatError", "StrictInteger", "load_with", "name_field", "rules_field"]


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

