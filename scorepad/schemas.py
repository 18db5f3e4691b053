"""The sheet JSON format, loaded and dumped with marshmallow (the edge of the domain).

Shared by the CLI and the HTTP API. Malformed input raises ``SheetFormatError``
whose ``errors`` name each bad JSON path and what was expected there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from marshmallow import (
    EXCLUDE,
    RAISE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from .boxes import ALL_BOXES, Box, TotalField
from .card import Game, Player, PlayersScores, Sheet, Turn
from .readings import Reading, ReadStatus
from .rules import RULE_FIELDS, RuleSet, RuleSetError, UnknownRuleSet, custom_rules, get_rules
from .sheetspec import (
    CARD_READING_KEYS,
    CHECKS_KEY,
    DICE,
    FORMAT,
    MAX_CANDIDATES,
    MAX_CHECKS,
    MAX_GAMES,
    MAX_JSON_BYTES,
    MAX_NAME,
    MAX_PHOTOS,
    MAX_PIXEL,
    MAX_PLAYERS,
    MAX_ROLLS,
    MAX_TITLE,
    MAX_TURNS,
    MAX_VALUE,
    MIN_VALUE,
    NUL_TEXT,
    SCORES_READING_KEYS,
    bad_text,
    player_key,
    printable,
)

# the limits are defined in sheetspec; these names stay importable from here
__all__ = ["FORMAT", "MAX_JSON_BYTES", "MAX_NAME", "MAX_PLAYERS", "GameSchema", "RulesField",
           "SheetFormatError", "SheetSchema", "StrictInteger", "dump_sheet", "load_sheet",
           "loads_sheet"]

VALUE_RANGE = validate.Range(min=MIN_VALUE, max=MAX_VALUE)
CHECKS_RANGE = validate.Range(0, MAX_CHECKS)


class SheetFormatError(ValueError):
    """The input is not a sheet: ``errors`` is a list of (JSON path, message)."""

    def __init__(self, errors: list[tuple[str, str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{p}: {m}" for p, m in errors))


class StrictInteger(fields.Integer):
    """An integer, and only an integer: no strings, floats or booleans."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictFloat(fields.Float):
    """A number, and only a number: no strings or booleans."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


def encodable(value: str) -> None:
    """A validator: no lone surrogate (``sheetspec.bad_text``; NUL is ``NO_NUL``'s, which the
    documents show as a pattern)."""
    why = bad_text(value.replace("\x00", ""))
    if why:
        raise ValidationError(why)


NO_NUL = validate.Regexp(r"^[^\x00]*$", error=NUL_TEXT)


def _value(**kw: Any) -> StrictInteger:
    return StrictInteger(allow_none=True, load_default=None, validate=VALUE_RANGE, **kw)


def _reading_schema(name: str, candidate: StrictInteger, ink_field: StrictInteger
                    ) -> type[Schema]:
    """A cell's reading; ``candidate`` is the field for one candidate value (null: blank),
    ``ink_field`` the same for what the ink read (null: the value itself)."""

    class ReadingSchema(Schema):
        class Meta:
            unknown = RAISE

        status = fields.String(required=True,
                               validate=validate.OneOf([s.value for s in ReadStatus]))
        confidence = StrictFloat(allow_none=True, load_default=None, allow_nan=False,
                                 validate=validate.Range(0, 1))
        candidates = fields.List(candidate, load_default=list,
                                 validate=validate.Length(max=MAX_CANDIDATES))
        box = fields.List(StrictInteger(validate=validate.Range(0, MAX_PIXEL)), allow_none=True,
                          load_default=None, validate=validate.Length(equal=4))
        photo = StrictInteger(allow_none=True, load_default=None,
                              validate=validate.Range(0, MAX_PHOTOS))
        ink = ink_field

        @post_load
        def make(self, data: dict[str, Any], **_: Any) -> Reading:
            box = data["box"]
            return Reading(status=ReadStatus(data["status"]), confidence=data["confidence"],
                           candidates=tuple(data["candidates"]),
                           box=None if box is None else (box[0], box[1], box[2], box[3]),
                           photo=data["photo"], ink=data["ink"])

    ReadingSchema.__name__ = ReadingSchema.__qualname__ = name
    return ReadingSchema


ReadingSchema = _reading_schema("ReadingSchema", _value(), _value())
# the check marks: a count, 0..99 (null: no marks)
ChecksReadingSchema = _reading_schema(
    "ChecksReadingSchema", StrictInteger(allow_none=True, validate=CHECKS_RANGE),
    StrictInteger(allow_none=True, load_default=None, validate=CHECKS_RANGE))


def _readings_schema(name: str, keys: tuple[str, ...]) -> type[Schema]:
    schema = Schema.from_dict(
        {k: fields.Nested(ChecksReadingSchema if k == CHECKS_KEY else ReadingSchema)
         for k in keys}, name=name)
    schema.Meta.unknown = RAISE
    return schema


CardReadingsSchema = _readings_schema("CardReadingsSchema", CARD_READING_KEYS)
ScoresReadingsSchema = _readings_schema("ScoresReadingsSchema", SCORES_READING_KEYS)


def _readings(schema: type[Schema]) -> fields.Nested:
    return fields.Nested(schema, load_default=dict, metadata={
        "description": "how each cell was read from a photo (absent: typed by a person)"})


def _ordered(readings: dict[str, Reading], keys: tuple[str, ...]) -> dict[str, Reading]:
    return {k: readings[k] for k in keys if k in readings}


BoxesSchema = Schema.from_dict({b.value: _value() for b in ALL_BOXES}, name="BoxesSchema")
TotalsSchema = Schema.from_dict({t.value: _value() for t in TotalField}, name="TotalsSchema")

_DIE = StrictInteger(validate=validate.Range(1, 6))


class TurnSchema(Schema):
    class Meta:
        unknown = RAISE

    rolls = fields.List(
        fields.List(_DIE, validate=validate.Length(equal=DICE, error=f"a roll is exactly {DICE} dice")),
        required=True,
        validate=validate.Length(min=1, max=MAX_ROLLS),
    )
    kept = fields.List(
        fields.List(_DIE, validate=validate.Length(max=DICE)),
        load_default=list,
        validate=validate.Length(max=MAX_ROLLS),
    )
    box = fields.String(
        allow_none=True, load_default=None, validate=validate.OneOf([b.value for b in ALL_BOXES])
    )
    value = _value()

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Turn:
        return Turn(
            rolls=data["rolls"],
            kept=data["kept"],
            box=Box(data["box"]) if data["box"] else None,
            value=data["value"],
        )


class GameSchema(Schema):
    class Meta:
        unknown = RAISE

    boxes = fields.Nested(BoxesSchema, load_default=dict)
    yahtzee_bonus_checks = StrictInteger(load_default=0, validate=CHECKS_RANGE)
    totals = fields.Nested(TotalsSchema, load_default=dict)
    turns = fields.List(
        fields.Nested(TurnSchema), allow_none=True, load_default=None,
        validate=validate.Length(max=MAX_TURNS),
    )
    readings = _readings(CardReadingsSchema)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Game:
        return Game(
            boxes={Box(k): v for k, v in data["boxes"].items() if v is not None},
            bonus_checks=data["yahtzee_bonus_checks"],
            totals={TotalField(k): v for k, v in data["totals"].items() if v is not None},
            turns=data["turns"],
            readings=_ordered(data["readings"], CARD_READING_KEYS),
        )


class PlayersScoresSchema(Schema):
    class Meta:
        unknown = RAISE

    games = fields.List(_value(), load_default=list, validate=validate.Length(max=MAX_GAMES))
    total = _value()
    readings = _readings(ScoresReadingsSchema)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> PlayersScores:
        return PlayersScores(games=list(data["games"]), total=data["total"],
                             readings=_ordered(data["readings"], SCORES_READING_KEYS))


class PlayerSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_NAME), NO_NUL, encodable])
    games = fields.List(
        fields.Nested(GameSchema, allow_none=True),
        load_default=list,
        validate=validate.Length(max=MAX_GAMES, error=f"a pad has at most {MAX_GAMES} games"),
    )
    players_scores = fields.Nested(PlayersScoresSchema, allow_none=True, load_default=None)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Player:
        return Player(name=data["name"], games=data["games"],
                      players_scores=data["players_scores"])


class RulesField(fields.Field):  # type: ignore[type-arg]
    """A rule-set name or alias, or a custom (house) rule set as an object."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        try:
            if isinstance(value, str):
                return get_rules(value).name
            if isinstance(value, Mapping):
                return custom_rules(value)
        except (UnknownRuleSet, RuleSetError) as exc:
            raise ValidationError(str(exc)) from None
        raise ValidationError("expected a rule-set name or a custom rule-set object")

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        if isinstance(value, RuleSet):
            d = value.to_dict()
            return {k: d[k] for k in ("name", "title", "summary", *RULE_FIELDS)}
        return value


class SheetSchema(Schema):
    class Meta:
        unknown = RAISE

    format = fields.String(load_default=FORMAT, validate=validate.Equal(FORMAT))
    title = fields.String(allow_none=True, load_default=None,
                          validate=[validate.Length(max=MAX_TITLE), NO_NUL, encodable])
    rules = RulesField(allow_none=True, load_default=None)
    players = fields.List(
        fields.Nested(PlayerSchema), required=True,
        validate=validate.Length(min=1, max=MAX_PLAYERS),
    )

    @validates_schema
    def unique_names(self, data: dict[str, Any], **_: Any) -> None:
        names = [player_key(p.name) for p in data.get("players", [])]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValidationError(f"player names must differ; repeated: {', '.join(dupes)}",
                                  "players")

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Sheet:
        return Sheet(players=data["players"], rules=data["rules"], title=data["title"])


def _flatten(messages: Any, path: str = "$") -> list[tuple[str, str]]:
    if isinstance(messages, Mapping):
        out: list[tuple[str, str]] = []
        for key, sub in messages.items():
            if key == "_schema":
                out += _flatten(sub, path)
            elif isinstance(key, int):
                out += _flatten(sub, f"{path}[{key}]")
            else:
                out += _flatten(sub, f"{path}.{printable(str(key))}")
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [(path, m) for m in messages]
    if isinstance(messages, list):
        return [e for m in messages for e in _flatten(m, path)]
    return [(path, str(messages))]


_SHEET_SCHEMA = SheetSchema()  # reused: building the nested schemas costs more than a load


def load_sheet(data: Any) -> Sheet:
    """A parsed JSON value -> Sheet; raises SheetFormatError naming every bad path."""
    if not isinstance(data, Mapping):
        raise SheetFormatError([("$", "expected a JSON object (a sheet)")])
    try:
        sheet: Sheet = _SHEET_SCHEMA.load(data)
    except ValidationError as exc:
        raise SheetFormatError(_flatten(exc.messages)) from None
    return sheet


def loads_sheet(text: str | bytes) -> Sheet:
    """JSON text -> Sheet; raises SheetFormatError for bad JSON too."""
    if len(text) > MAX_JSON_BYTES:
        raise SheetFormatError([("$", f"sheet is larger than {MAX_JSON_BYTES} bytes")])
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f"line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise SheetFormatError([("$", f"not valid JSON {where}: {exc}".strip())]) from None
    except RecursionError:
        raise SheetFormatError([("$", "JSON nested too deeply")]) from None
    return load_sheet(data)


def _game_dict(game: Game) -> dict[str, Any]:
    d: dict[str, Any] = {
        "boxes": {b.value: game.boxes.get(b) for b in ALL_BOXES},
        "yahtzee_bonus_checks": game.bonus_checks,
        "totals": {t.value: game.totals.get(t) for t in TotalField},
    }
    if game.turns is not None:
        d["turns"] = [
            {"rolls": t.rolls, "kept": t.kept, "box": t.box.value if t.box else None,
             "value": t.value}
            for t in game.turns
        ]
    if game.readings:  # only a scanned sheet has them: a typed sheet dumps as before
        d["readings"] = _readings_dict(game.readings, CARD_READING_KEYS)
    return d


def _readings_dict(readings: dict[str, Reading], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: r.to_dict() for k, r in _ordered(readings, keys).items()}


def _scores_dict(ps: PlayersScores) -> dict[str, Any]:
    d: dict[str, Any] = {"games": ps.games, "total": ps.total}
    if ps.readings:
        d["readings"] = _readings_dict(ps.readings, SCORES_READING_KEYS)
    return d


def dump_sheet(sheet: Sheet) -> dict[str, Any]:
    """Sheet -> JSON-ready dict in the published format (round-trips through load_sheet)."""
    raw = {
        "format": FORMAT,
        "title": sheet.title,
        "rules": sheet.rules,
        "players": [
            {
                "name": p.name,
                "games": [None if g is None else _game_dict(g) for g in p.games],
                "players_scores": None if p.players_scores is None
                else _scores_dict(p.players_scores),
            }
            for p in sheet.players
        ],
    }
    dumped: dict[str, Any] = _DumpSchema().dump(raw)
    return dumped


class _DumpSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    format = fields.String()
    title = fields.String(allow_none=True)
    rules = RulesField(allow_none=True)
    players = fields.Raw()
