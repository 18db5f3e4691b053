"""``/verify`` and ``/tally`` for a SCRABBLE or SORRY! sheet: the views in ``service`` ask
``other_game`` first, which answers for a sheet whose ``game`` names one of them (None: a
Yahtzee sheet, served as before)."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, current_app, request

from scorepad.games import SCRABBLE, SORRY, YAHTZEE
from scorepad.games.dispatch import (
    UnknownGame,
    check_other,
    game_of,
    load_other,
    registry,
    resolve_rules,
)
from scorepad.rules import RuleSetError, UnknownRuleSet
from scorepad.schemas import SheetFormatError

from . import textguard
from .errors import ApiError, ProblemCode
from .gamereports import BoardGameReportSchema, BoardGameTallyAnswerSchema

_REPORT = BoardGameReportSchema()
_TALLY = BoardGameTallyAnswerSchema()
OTHER_RULE_NAMES = sorted({n for g in (SCRABBLE, SORRY) for rs in registry(g).all()
                           for n in (rs.name, *rs.aliases)})


def _invalid(errors: list[tuple[str, str]]) -> ApiError:
    return ApiError(422, ProblemCode.VALIDATION_FAILED, "the request does not validate",
                    errors=errors)


def other_game(kind: str) -> Response | None:
    """The answer to ``/verify`` or ``/tally`` (``kind``) for a SCRABBLE or SORRY! sheet;
    None for anything else (a Yahtzee sheet, or a body the Yahtzee path refuses)."""
    raw = request.get_data(cache=True)
    try:
        data: Any = json.loads(raw) if raw else {}
    except (ValueError, RecursionError):
        return None  # the Yahtzee path answers INVALID_JSON
    try:
        game = game_of(data)
    except UnknownGame as exc:
        raise _invalid(exc.errors) from None
    if game == YAHTZEE:
        return None
    textguard.check_json(data, raw)
    try:
        sheet = load_other(game, data)
    except SheetFormatError as exc:
        raise _invalid(exc.errors) from None
    report = check_other(sheet, _rules(game))
    if kind == "verify":
        body = _REPORT.dump(report.to_dict())
    else:
        body = _TALLY.dump({"verdict": report.verdict, "rule_set": report.rule_set.name,
                            **(report.tally or {})})
    return current_app.response_class(json.dumps(body), mimetype="application/json")


def _rules(game: str) -> Any:
    values = request.args.getlist("rules")
    if not values:
        return None
    names = registry(game).names()
    try:
        if len(values) > 1:
            raise UnknownRuleSet(values)
        return resolve_rules(game, values[0])
    except (UnknownRuleSet, RuleSetError):
        raise _invalid([("query.rules", f"a {game} rule set: one of {', '.join(names)}")]) \
            from None


ANY_SHEET_BODY = {
    "required": True,
    "description": "a sheet (scorepad/sheet@1): Yahtzee (no game field, or \"game\": "
                   "\"yahtzee\"), SCRABBLE (\"game\": \"scrabble\") or SORRY! play for points "
                   "(\"game\": \"sorry\"); the answer follows the sheet's game",
    "content": {"application/json": {"schema": {"oneOf": [
        {"$ref": "#/components/schemas/Sheet"},
        {"$ref": "#/components/schemas/ScrabbleSheet"},
        {"$ref": "#/components/schemas/SorrySheet"}]}}},
}


def game_rules_field2properties(self: Any, field: Any, **kwargs: Any) -> dict[str, Any]:
    """Document a SCRABBLE or SORRY! sheet's rules: a rule-set name or a house-rule object."""
    from scorepad.games.schemas import GameRulesField
    from scorepad.jsonschema.games import (
        SCRABBLE_OPTIONS,
        SORRY_OPTIONS,
        house_rules,
        rule_names,
    )

    if not isinstance(field, GameRulesField):
        return {}
    game = SCRABBLE if field.registry is registry(SCRABBLE) else SORRY
    names = rule_names(game)
    options = SCRABBLE_OPTIONS if game == SCRABBLE else SORRY_OPTIONS
    return {"nullable": True, "oneOf": [{"type": "string", "enum": names},
                                        house_rules(names, options)]}


def register_components(api: Any) -> None:
    """The SCRABBLE and SORRY! sheets and answers in the OpenAPI document."""
    from scorepad.scrabble.schemas import ScrabbleSheetSchema
    from scorepad.sorry.schemas import SorrySheetSchema

    api.ma_plugin.converter.add_attribute_function(game_rules_field2properties)
    spec = api.spec
    spec.components.schema("ScrabbleSheet", schema=ScrabbleSheetSchema)
    spec.components.schema("SorrySheet", schema=SorrySheetSchema)
    spec.components.schema("BoardGameReport", schema=BoardGameReportSchema)
    spec.components.schema("BoardGameTallyAnswer", schema=BoardGameTallyAnswerSchema)


def any_rules_param(yahtzee_names: list[str]) -> list[dict[str, Any]]:
    return [{"in": "query", "name": "rules", "required": False,
             "description": "rule-set name or alias of the sheet's game; overrides the "
                            "sheet's own rules",
             "schema": {"type": "string", "enum": sorted({*yahtzee_names,
                                                          *OTHER_RULE_NAMES})}}]


def any_answer(yahtzee: str, other: str) -> dict[str, Any]:
    """The 200 answer: the Yahtzee schema, or the SCRABBLE/SORRY! one, by the sheet's game."""
    return {"200": {"content": {"application/json": {"schema": {"anyOf": [
        {"$ref": f"#/components/schemas/{yahtzee}"},
        {"$ref": f"#/components/schemas/{other}"}]}}}}}
