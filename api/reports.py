"""Output schemas of the audit report, the tally and a rule set (marshmallow).

Each field the service answers is declared here, in the order the core's ``to_dict`` writes
it: a schema dumps what it declares and nothing else, so the OpenAPI document (findings,
games, witness turns, the tally's tables) is the response's exact shape. The content belongs
to ``scorepad.audit``, ``scorepad.findings`` and ``scorepad.tally``; a test checks that these
schemas and the core's dicts agree on every sample pad.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields

from scorepad.audit import Report
from scorepad.boxes import TotalField
from scorepad.findings import Code, Severity
from scorepad.rules import RULE_BOOL_FIELDS, RULE_FIELDS, RULE_INT_RANGES, JokerRule
from scorepad.tally import Tally

SEVERITIES = [s.value for s in Severity]
VERDICTS = ["correct", "unsure", "errors"]


def _players(values: fields.Field[Any], what: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=values,
                       metadata={"description": f"player name -> {what}"})


def _rule_field(name: str) -> fields.Field[Any]:
    if name == "joker":
        return fields.String(metadata={"enum": [j.value for j in JokerRule]})
    if name in RULE_BOOL_FIELDS:
        return fields.Boolean()
    lo, hi = RULE_INT_RANGES[name]
    return fields.Integer(metadata={"minimum": lo, "maximum": hi})


RuleSetSchema = ma.Schema.from_dict({
    "name": fields.String(),
    "title": fields.String(),
    "summary": fields.String(),
    "aliases": fields.List(fields.String()),
    "game": fields.String(),
    **{f: _rule_field(f) for f in RULE_FIELDS},
}, name="RuleSetSchema")
RuleSetSchema.__doc__ = "A rule set: its names and every rule-set field (scorepad.rules.RULE_FIELDS)."

GameTotalsSchema = ma.Schema.from_dict({
    **{t.value: fields.Integer() for t in TotalField},
    "complete": fields.Boolean(metadata={"description": "every box of the game is filled"}),
}, name="GameTotalsSchema")
GameTotalsSchema.__doc__ = "A game's totals as the boxes add up (the pad's total fields)."


class FindingSchema(ma.Schema):
    """One problem (or note) about one place on the sheet (``scorepad.findings.Finding``)."""

    code = fields.String(metadata={"enum": [c.value for c in Code],
                                   "description": "stable finding code (scorepad/findings.py)"})
    severity = fields.String(metadata={
        "enum": SEVERITIES,
        "description": "doubt: an error on a scanned sheet that a misread cell explains; "
                       "details.doubt names the cells (with crop boxes) to check on the photo "
                       "and the readings that would make the card right"})
    player = fields.Integer(allow_none=True, metadata={"description": "player index"})
    player_name = fields.String(allow_none=True)
    game = fields.Integer(allow_none=True, metadata={"description": "game number, from 1"})
    field = fields.String(allow_none=True, metadata={"description": "box or total field"})
    written = fields.Raw(allow_none=True, metadata={"description": "what the sheet says"})
    expected = fields.Raw(allow_none=True, metadata={
        "description": "the correct value, or the values the rules allow"})
    message = fields.String(metadata={"description": "the finding in English (for people; "
                                                     "programs read code and details)"})
    rule_set = fields.String()
    rules = fields.List(fields.String(), metadata={"description": 'book passages, "001:144-160"'})
    details = fields.Dict(keys=fields.String(), metadata={
        "description": "code-specific facts; for a doubt, doubt: {reason, cells: [{field, game, "
                       "read, status, confidence, box, photo}], would_be_right_if: "
                       "[{field, game, value}]} (reason hidden: would_be_wrong_if instead)"})


class WitnessTurnSchema(ma.Schema):
    """One turn of a sequence of rolls that fills the card as written."""

    box = fields.String()
    value = fields.Integer()
    dice = fields.List(fields.Integer())
    bonus = fields.Boolean(metadata={"description": "the turn earns a Yahtzee bonus check"})
    turn = fields.Integer()


class GameReportSchema(ma.Schema):
    player = fields.Integer()
    player_name = fields.String()
    game = fields.Integer()
    complete = fields.Boolean()
    totals = fields.Nested(GameTotalsSchema)
    witness = fields.List(fields.Nested(WitnessTurnSchema), allow_none=True, metadata={
        "description": "rolls that fill the card as written (when the bonus checks ask for one)"})


class TallyGameScoresSchema(ma.Schema):
    game = fields.Integer()
    scores = _players(fields.Integer(allow_none=True), "grand total (null: not played)")


class TallyPlayersScoresSchema(ma.Schema):
    games = fields.List(fields.Nested(TallyGameScoresSchema))
    total_of_all_games = _players(fields.Integer(), "sum of the games' grand totals")


class TallyGameSchema(ma.Schema):
    game = fields.Integer()
    scores = _players(fields.Integer(allow_none=True), "grand total")
    in_progress = fields.List(fields.String())
    winners = fields.List(fields.String())
    tie = fields.Boolean()


class StandingSchema(ma.Schema):
    player = fields.String()
    rank = fields.Integer()
    total_of_all_games = fields.Integer()
    games_won = fields.Integer()
    difference_points = fields.Raw(metadata={"type": "number"})


class TallySchema(ma.Schema):
    """Totals, game winners and the standing of a sheet (``scorepad.tally.Tally``)."""

    rule_set = fields.String()
    players = fields.List(fields.String())
    six_game_sheet = _players(fields.List(fields.Nested(GameTotalsSchema, allow_none=True)),
                              "each game's totals (null: not played)")
    players_scores = fields.Nested(TallyPlayersScoresSchema)
    games = fields.List(fields.Nested(TallyGameSchema))
    games_won = _players(fields.Integer(), "games won (a tie is a win for each)")
    from_players_scores = _players(fields.List(fields.Integer()),
                                   "games read from the PLAYERS' SCORES column")
    difference_points = _players(fields.Raw(metadata={"type": "number"}),
                                 "points over the lowest total")
    standings = fields.List(fields.Nested(StandingSchema))
    winners = fields.List(fields.String())

    @ma.pre_dump
    def _from_tally(self, tally: Any, **_: Any) -> Any:
        return tally.to_dict() if isinstance(tally, Tally) else tally


class ReportSchema(ma.Schema):
    """An audit report (a ``scorepad.audit.Report``, or its ``to_dict``)."""

    rule_set = fields.Nested(RuleSetSchema)
    ok = fields.Boolean(required=True, metadata={"description": "no finding is an error"})
    verdict = fields.String(metadata={
        "enum": VERDICTS,
        "description": "correct: no error and no doubt; unsure: doubts (check the cells named on "
                       "the photo) but no error; errors: at least one error"})
    counts = fields.Dict(keys=fields.String(metadata={"enum": SEVERITIES}),
                         values=fields.Integer(), metadata={"description": "findings per severity"})
    findings = fields.List(fields.Nested(FindingSchema))
    games = fields.List(fields.Nested(GameReportSchema))
    tally = fields.Nested(TallySchema, allow_none=True)

    @ma.pre_dump
    def _from_report(self, report: Any, **_: Any) -> Any:
        return report.to_dict() if isinstance(report, Report) else report


class MatchAuditSchema(ma.Schema):
    """The audit of the sheet just stored (a ``scorepad.audit.Report``, or its dict)."""

    ok = fields.Boolean(metadata={"description": "no finding is an error"})
    verdict = fields.String(metadata={"enum": VERDICTS})
    counts = fields.Dict(keys=fields.String(metadata={"enum": SEVERITIES}),
                         values=fields.Integer(), metadata={"description": "findings per severity"})
    findings = fields.List(fields.Nested(FindingSchema))

    @ma.pre_dump
    def _from_report(self, report: Any, **_: Any) -> Any:
        if isinstance(report, Report):
            return {"ok": report.ok, "verdict": report.verdict, "counts": report.counts(),
                    "findings": [f.to_dict() for f in report.findings]}
        return report
