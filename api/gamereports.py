"""Output schemas of the SCRABBLE and SORRY! reports and tallies (marshmallow), each field
declared and documented for OpenAPI, in the order ``scorepad.games.common.GameReport``
writes it; the content belongs to ``scorepad.scrabble`` and ``scorepad.sorry``."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from scorepad.findings import Severity
from scorepad.games import SCRABBLE, SORRY
from scorepad.scrabble.codes import ScrabbleCode
from scorepad.scrabble.rules import TIE_BREAKS
from scorepad.sorry.rules import SHUTOUTS, SorryCode

CODES = [c.value for c in ScrabbleCode] + [c.value for c in SorryCode]


class BoardGameRuleSetSchema(ma.Schema):
    """A SCRABBLE or SORRY! rule set: its names and options (the other game's are absent)."""

    name = fields.String()
    title = fields.String()
    summary = fields.String()
    aliases = fields.List(fields.String())
    game = fields.String(metadata={"enum": [SCRABBLE, SORRY]})
    bingo_bonus = fields.Integer(metadata={"description": "SCRABBLE: seven tiles' premium "
                                                          "(000:321)"})
    out_bonus = fields.Boolean(metadata={"description": "SCRABBLE: the player who went out "
                                                        "adds the others' letters (000:322)"})
    tie_break = fields.String(metadata={"enum": list(TIE_BREAKS), "description": "SCRABBLE: "
                                        "a tie on finals goes to the higher score before the "
                                        "unplayed letters (000:326), or is shared"})
    shutout = fields.String(metadata={"enum": list(SHUTOUTS), "description": "SORRY!: the "
                                      "winner adds every shut-out premium that holds "
                                      "(cumulative) or the largest (best), 000:141-143"})


class BoardGameFindingSchema(ma.Schema):
    """One problem (or note) at one place on a SCRABBLE or SORRY! sheet."""

    code = fields.String(metadata={"enum": CODES, "description": "stable finding code"})
    severity = fields.String(metadata={"enum": [s.value for s in Severity]})
    player = fields.Integer(allow_none=True, metadata={"description": "index into the game's "
                                                                      "players"})
    player_name = fields.String(allow_none=True)
    game = fields.Integer(allow_none=True, metadata={"description": "game number, from 1; "
                                                                    "null for the totals"})
    field = fields.String(allow_none=True, metadata={
        "description": 'JSON path below the game, "players[0].turns[3].total"'})
    written = fields.Raw(allow_none=True)
    expected = fields.Raw(allow_none=True)
    message = fields.String(metadata={"description": "in English, for people"})
    rule_set = fields.String()
    rules = fields.List(fields.String(), metadata={"description": 'book lines, "000:321"'})
    details = fields.Dict(keys=fields.String())


class BoardGameTallySchema(ma.Schema):
    """The evening's tally: games, winners, and per player games, wins and points."""

    game = fields.String(metadata={"enum": [SCRABBLE, SORRY]})
    games = fields.Integer()
    complete = fields.Integer()
    winners = fields.List(fields.List(fields.String()), metadata={
        "description": "each game's winners (several: a shared win), [] while in progress"})
    players = fields.List(fields.Dict(keys=fields.String()), metadata={
        "description": "standings: rank, player, games, wins, total, average (SCRABBLE also "
                       "complete, shared_wins, best_turn)"})
    best_turn = fields.Dict(keys=fields.String(), allow_none=True, metadata={
        "description": "SCRABBLE: the evening's best turn {player, game, score, turn}"})
    leaders = fields.List(fields.String(), metadata={"description": "SORRY!: the highest "
                                                                     "total of points"})


class BoardGameReportSchema(ma.Schema):
    """The check of a SCRABBLE or SORRY! sheet: every finding, the games, the tally."""

    game = fields.String(metadata={"enum": [SCRABBLE, SORRY]})
    rule_set = fields.Nested(BoardGameRuleSetSchema)
    ok = fields.Boolean(metadata={"description": "no finding is an error"})
    verdict = fields.String(metadata={"enum": ["correct", "errors"]})
    counts = fields.Dict(keys=fields.String(), values=fields.Integer())
    findings = fields.List(fields.Nested(BoardGameFindingSchema))
    games = fields.List(fields.Dict(keys=fields.String()), metadata={
        "description": "each game as checked: complete, winners, players (correct scores)"})
    tally = fields.Nested(BoardGameTallySchema)


class BoardGameTallyAnswerSchema(BoardGameTallySchema):
    """``/tally`` for a SCRABBLE or SORRY! sheet: the verdict, the rule set and the tally."""

    verdict = fields.String(metadata={"enum": ["correct", "errors"]})
    rule_set = fields.String()
