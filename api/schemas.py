"""Request and response schemas at the HTTP edge (marshmallow).

The sheet itself is ``scorepad.schemas.SheetSchema``, the same format the CLI
reads; everything here wraps it. Every request schema rejects unknown fields.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import RAISE, fields, validate

from scorepad.boxes import ALL_BOXES
from scorepad.games import GAMES, YAHTZEE
from scorepad.games.dispatch import UnknownGame, game_of, load_other, without_game

# RULE_NAMES: every name and alias of the registry, as the OpenAPI enum of a rule-set parameter
from scorepad.jsonschema import RULE_NAMES as RULE_NAMES
from scorepad.jsonschema import rules_properties
from scorepad.rules import MAX_RULES_NAME as MAX_RULES_NAME
from scorepad.rules import UnknownRuleSet, get_rules
from scorepad.schemas import RulesField, SheetFormatError, SheetSchema, StrictInteger
from scorepad.sheetspec import MAX_NAME, MAX_PLAYERS, MAX_VALUE

# The report, tally and rule-set output schemas (api.reports), as the views name them here
from .reports import FindingSchema as FindingSchema
from .reports import MatchAuditSchema as MatchAuditSchema
from .reports import ReportSchema as ReportSchema
from .reports import RuleSetSchema as RuleSetSchema
from .reports import TallySchema as TallySchema

MAX_GROUP_NAME = 100
MAX_PLACE = 200
MAX_NOTE = 2000
MAX_REASON = 500


def _rule_name(value: str) -> None:
    try:
        get_rules(value)
    except UnknownRuleSet as exc:
        raise ma.ValidationError(str(exc)) from None


def _rules_field(**kw: Any) -> fields.String:
    enum: list[str | None] = list(RULE_NAMES)
    if kw.get("allow_none"):
        enum.append(None)
    return fields.String(validate=_rule_name,
                         metadata={"enum": enum, **kw.pop("metadata", {})}, **kw)


def rules_field2properties(self: Any, field: Any, **kwargs: Any) -> dict[str, Any]:
    """Document scorepad.schemas.RulesField: a rule-set name or a house-rule object."""
    if not isinstance(field, RulesField):
        return {}
    return {"nullable": True, "oneOf": [
        {"type": "string", "enum": RULE_NAMES},
        {"type": "object", "additionalProperties": False,
         "properties": rules_properties({"type": "string", "enum": RULE_NAMES})},
    ]}


# PostgreSQL text cannot hold NUL and no pad needs one (documented as a pattern).
_NO_NUL = validate.Regexp(r"^[^\x00]*$", error="must not contain NUL characters")


def _text(max_len: int, min_len: int = 0) -> list[Any]:
    return [validate.Length(min=min_len, max=max_len), _NO_NUL]


class UtcDateTime(fields.DateTime):
    """A date-time stored as naive UTC, written as RFC 3339 with its offset (+00:00)."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        if isinstance(value, dt.datetime) and value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)
        return super()._serialize(value, attr, obj, **kwargs)


class UtcSeconds(UtcDateTime):
    """A backup's date-time: read as any RFC 3339 date-time, written in whole seconds."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        if isinstance(value, dt.datetime):
            value = value.replace(microsecond=0)
        return super()._serialize(value, attr, obj, **kwargs)


def nullable_exact(self: Any, field: Any, ret: dict[str, Any], **_: Any) -> dict[str, Any]:
    """apispec documents a nullable nested schema as "that schema or ANY object"; make the
    second branch null only, so that the document says what the service accepts."""
    any_of = ret.get("anyOf")
    if not any_of:
        return {}
    loose = {"type": "object", "nullable": True}
    return {"anyOf": [dict(x, enum=[None]) if x == loose else x for x in any_of]}


class PassThrough(ma.Schema):
    """A response schema that documents some fields and passes every field through."""

    class Meta:
        unknown = ma.INCLUDE

    @ma.post_dump(pass_original=True)
    def _keep(self, data: dict[str, Any], original: Any, **_: Any) -> dict[str, Any]:
        if isinstance(original, dict):
            return {**original, **data}
        return data


class StrictSchema(ma.Schema):
    class Meta:
        unknown = RAISE


class RulesQuerySchema(StrictSchema):
    rules = _rules_field(
        metadata={"description": "rule-set name or alias; overrides the sheet's own rules"})


# The pad's four corners as text: ocr.corners.CORNERS_PATTERN (written out here too, so that the
# API documents it where the reader is not installed; tests/api/test_scan.py keeps them equal).
CORNERS_PATTERN = r"^ *-?[0-9]+(?:\.[0-9]+)?(?: *[, ] *-?[0-9]+(?:\.[0-9]+)?){7} *$"
CORNERS_HELP = ("the pad's four corners in the photo's pixels (the photo turned upright as "
                "its EXIF orientation says), in any order, as x1,y1 x2,y2 x3,y3 x4,y4 or "
                "x1,y1,x2,y2,x3,y3,x4,y4: the pad is then not searched for (when it is not "
                "found, or found wrong); the result's corners are those the reader used")


class ScanQuerySchema(RulesQuerySchema):
    corners = fields.String(
        validate=validate.Regexp(CORNERS_PATTERN,
                                 error="four x,y pairs in pixels: x1,y1 x2,y2 x3,y3 x4,y4"),
        metadata={"description": CORNERS_HELP, "example": "10,20 400,22 410,600 5,590"})


# ---- options --------------------------------------------------------------------------------

BoxValuesSchema = ma.Schema.from_dict(
    {b.value: StrictInteger(allow_none=True, validate=validate.Range(0, MAX_VALUE))
     for b in ALL_BOXES},
    name="BoxValuesSchema",
)
BoxValuesSchema.Meta.unknown = RAISE


class OptionsRequestSchema(StrictSchema):
    rules = _rules_field(load_default=None, allow_none=True)
    boxes = fields.Nested(BoxValuesSchema, load_default=dict,
                          metadata={"description": "the card so far: box -> value (or null)"})
    dice = fields.List(StrictInteger(validate=validate.Range(1, 6)), required=True,
                       validate=validate.Length(equal=5))


class OptionSchema(ma.Schema):
    box = fields.String()
    allowed = fields.Boolean()
    values = fields.List(fields.Integer())
    reason = fields.String()
    rule = fields.List(fields.String())


class LegalSchema(ma.Schema):
    box = fields.String()
    value = fields.Integer()


class OptionsResponseSchema(ma.Schema):
    rule_set = fields.String()
    dice = fields.List(fields.Integer())
    joker = fields.Boolean()
    bonus = fields.Boolean()
    options = fields.List(fields.Nested(OptionSchema))
    legal = fields.List(fields.Nested(LegalSchema))


class ScanResultSchema(PassThrough):
    sheet = fields.Dict()
    corners = fields.List(fields.List(fields.Integer()), allow_none=True, metadata={
        "description": "the pad's corners the reader used, [[x, y], ...] in the upright "
                       "photo's pixels (top-left, top-right, bottom-right, bottom-left as seen "
                       "in the photo); send them back as ?corners= after adjusting them"})
    corners_given = fields.Boolean(metadata={"description": "the corners were given (?corners=)"})


class RulesListSchema(ma.Schema):
    default = fields.String()
    rule_sets = fields.List(fields.Nested(RuleSetSchema))
    options = fields.Dict(keys=fields.String(), values=fields.String())


# ---- groups and matches ---------------------------------------------------------------------

class GroupCreateSchema(StrictSchema):
    name = fields.String(required=True, validate=_text(MAX_GROUP_NAME, 1))


class GroupSchema(ma.Schema):
    id = fields.String()
    name = fields.String()
    created_at = UtcDateTime()
    matches = fields.Integer()


class GroupCreatedSchema(GroupSchema):
    token = fields.String(metadata={"description": "shown once; store it: only its hash is kept"})


def _nested_messages(errors: list[tuple[str, str]]) -> dict[Any, Any]:
    """[(JSON path, message)] -> marshmallow's nested messages (``api.errors`` flattens
    them back, under the field's own path)."""
    out: dict[Any, Any] = {}
    for path, msg in errors:
        keys: list[Any] = [int(i) if i else k for k, i in re.findall(
            r"\.([^.\[]+)|\[(\d+)\]", path[1:])] or ["_schema"]
        node = out
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        node.setdefault(keys[-1], []).append(msg)
    return out


class AnySheetField(fields.Nested):
    """A sheet of any game (``scorepad.games``): a Yahtzee sheet (no ``game``, or
    ``"game": "yahtzee"``) loads as ``SheetSchema``; a SCRABBLE or SORRY! sheet as its
    game's sheet."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(SheetSchema, metadata={
            "description": "a sheet: Yahtzee (this schema), or a SCRABBLE or SORRY! sheet "
                           "(\"game\": \"scrabble\" or \"sorry\"; see ScrabbleSheet and "
                           "SorrySheet)"}, **kw)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     partial: Any = None, **kw: Any) -> Any:
        try:
            game = game_of(value)
        except UnknownGame as exc:
            raise ma.ValidationError(_nested_messages(exc.errors)) from None
        if game == YAHTZEE:
            return super()._deserialize(without_game(value), attr, data, partial, **kw)
        try:
            return load_other(game, value)
        except SheetFormatError as exc:
            raise ma.ValidationError(_nested_messages(exc.errors)) from None


class MatchInSchema(StrictSchema):
    played_on = fields.Date(load_default=None, allow_none=True)
    place = fields.String(load_default=None, allow_none=True, validate=_text(MAX_PLACE))
    note = fields.String(load_default=None, allow_none=True, validate=_text(MAX_NOTE))
    rules = _rules_field(load_default=None, allow_none=True,
                         metadata={"description": "overrides the sheet's rules (a Yahtzee "
                                                  "sheet; a SCRABBLE or SORRY! sheet names "
                                                  "its own)"})
    sheet = AnySheetField(required=True)


class MatchCorrectionSchema(MatchInSchema):
    reason = fields.String(load_default=None, allow_none=True, validate=_text(MAX_REASON))


class MatchVersionSchema(ma.Schema):
    version = fields.Integer()
    played_on = fields.Date(allow_none=True)
    place = fields.String(allow_none=True)
    note = fields.String(allow_none=True)
    reason = fields.String(allow_none=True)
    rule_set = fields.String()
    players = fields.List(fields.String())
    audit_ok = fields.Boolean(allow_none=True)
    created_at = UtcDateTime()
    sheet = fields.Dict()


class MatchSchema(MatchVersionSchema):
    """A match as it stands: its current version's fields (``MatchOut`` in api.groups), the
    match's own, a summary of its games and, in answer to a write, the audit."""

    id = fields.String()
    group_id = fields.String()
    versions = fields.Integer()
    first_created_at = UtcDateTime()
    games = fields.List(fields.Dict())
    audit = fields.Nested(MatchAuditSchema, allow_none=True)
    game = fields.String(metadata={"enum": list(GAMES), "description": "a SCRABBLE or SORRY! "
                                   "match's game (a Yahtzee match names none)"})


class MatchSummarySchema(ma.Schema):
    id = fields.String()
    version = fields.Integer()
    played_on = fields.Date(allow_none=True)
    place = fields.String(allow_none=True)
    rule_set = fields.String()
    players = fields.List(fields.String())
    audit_ok = fields.Boolean(allow_none=True)
    updated_at = UtcDateTime()
    game = fields.String(metadata={"enum": list(GAMES), "description": "a SCRABBLE or SORRY! "
                                   "match's game (a Yahtzee match names none)"})


class MatchListSchema(ma.Schema):
    total = fields.Integer()
    limit = fields.Integer()
    offset = fields.Integer()
    matches = fields.List(fields.Nested(MatchSummarySchema))


class MatchListQuerySchema(StrictSchema):
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 500))
    offset = fields.Integer(load_default=0, validate=validate.Range(0, 1_000_000))
    player = fields.String(validate=validate.Length(min=1, max=MAX_NAME))
    game = fields.String(validate=validate.OneOf(GAMES), metadata={
        "description": "only the matches of this game"})


class HistorySchema(ma.Schema):
    id = fields.String()
    current_version = fields.Integer()
    versions = fields.List(fields.Nested(MatchVersionSchema))


# ---- statistics ------------------------------------------------------------------------------

# (their schemas are in api.statschemas)


# ---- backup ----------------------------------------------------------------------------------

BACKUP_FORMAT = "scorepad/backup@1"


class BackupVersionSchema(StrictSchema):
    version = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10_000))
    played_on = fields.Date(allow_none=True, load_default=None)
    place = fields.String(allow_none=True, load_default=None, validate=_text(MAX_PLACE))
    note = fields.String(allow_none=True, load_default=None, validate=_text(MAX_NOTE))
    reason = fields.String(allow_none=True, load_default=None, validate=_text(MAX_REASON))
    rule_set = fields.String(required=True, validate=_text(MAX_RULES_NAME, 1))
    players = fields.List(fields.String(validate=validate.Length(max=MAX_NAME)), required=True,
                          validate=validate.Length(max=MAX_PLAYERS))
    audit_ok = fields.Boolean(allow_none=True, load_default=None)
    created_at = UtcSeconds(required=True)
    sheet = fields.Dict(required=True)


class BackupMatchSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{32}$"))
    current_version = fields.Integer(required=True, strict=True)
    created_at = UtcSeconds(required=True)
    updated_at = UtcSeconds(required=True)
    versions = fields.List(fields.Nested(BackupVersionSchema), required=True,
                           validate=validate.Length(min=1, max=1000))


class BackupGroupSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{32}$"))
    name = fields.String(required=True, validate=_text(MAX_GROUP_NAME, 1))
    token_hash = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{64}$"))
    created_at = UtcSeconds(required=True)


class BackupSchema(StrictSchema):
    format = fields.String(required=True, validate=validate.Equal(BACKUP_FORMAT))
    exported_at = UtcSeconds(required=True)
    group = fields.Nested(BackupGroupSchema, required=True)
    matches = fields.List(fields.Nested(BackupMatchSchema), required=True,
                          validate=validate.Length(max=100_000))


class EchoSchema(PassThrough):
    pass


class HealthSchema(ma.Schema):
    status = fields.String()
    database = fields.String()
    revision = fields.String(allow_none=True)
