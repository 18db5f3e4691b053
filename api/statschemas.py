"""Statistics responses (group stats, a player's stats, leaderboard, head-to-head) and
their query parameters: every field of ``scorepad.stats.summarize`` written out.

Long lists are pages: ``limit`` (at most ``MAX_PAGE``) and ``offset``, with the list's
``total`` in the answer.

``game`` (default ``yahtzee``): the statistics of that game's matches. A Yahtzee answer is
as it always was (it names no game); a SCRABBLE or SORRY! answer names its game and has
that game's figures (``api.boardstats``): games, wins, win rate, average and best score,
and for SCRABBLE the best turn.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from scorepad.boxes import ALL_BOXES
from scorepad.games import GAMES, SCRABBLE, SORRY, YAHTZEE
from scorepad.sheetspec import MAX_NAME
from scorepad.stats import LEADERBOARD_KEYS

from .schemas import StrictSchema

DEFAULT_PAGE = 100
MAX_PAGE = 1000


def _limit(what: str) -> fields.Integer:
    return fields.Integer(load_default=DEFAULT_PAGE, validate=validate.Range(1, MAX_PAGE),
                          metadata={"description": f"how many {what} (at most {MAX_PAGE})"})


def _offset(what: str) -> fields.Integer:
    return fields.Integer(load_default=0, validate=validate.Range(0, 1_000_000),
                          metadata={"description": f"how many {what} to skip"})


BOARD_LEADERBOARD_KEYS = {SCRABBLE: ("wins", "win_rate", "average", "best", "games",
                                     "best_turn"),
                          SORRY: ("wins", "win_rate", "average", "best", "games")}


def _game() -> fields.String:
    return fields.String(load_default=YAHTZEE, validate=validate.OneOf(GAMES), metadata={
        "description": "the statistics of this game's matches (a SCRABBLE or SORRY! answer "
                       "names its game and has that game's figures)"})


class GameQuerySchema(ma.Schema):
    """``?game=`` alone (other query parameters are ignored, as they always were)."""

    class Meta:
        unknown = ma.EXCLUDE

    game = _game()


BoxFiguresSchema = ma.Schema.from_dict(
    {b.value: fields.Float() for b in ALL_BOXES}, name="BoxFigures")


class DecisionLossSchema(ma.Schema):
    games_analysed = fields.Integer(metadata={
        "description": "finished games with a turn log analysed against optimal play (only "
                       "once the rule set's optimal-play table is built)"})
    decisions = fields.Integer()
    total_loss = fields.Float()
    mean_loss_per_decision = fields.Float(allow_none=True)


class ReferenceSchema(ma.Schema):
    strategy = fields.String()
    mean = fields.Float()
    sd = fields.Float()
    upper_bonus_rate = fields.Float()
    yahtzees_per_game = fields.Float()
    bonus_yahtzees_per_game = fields.Float()
    box_means = fields.Nested(BoxFiguresSchema)
    sources = fields.List(fields.String())


class ReferenceComparisonSchema(ma.Schema):
    reference = fields.Nested(ReferenceSchema, metadata={
        "description": "optimal solitaire play (scorepad.reference)"})
    average_minus_reference = fields.Float()
    z_score = fields.Float(metadata={"description": "of the average against optimal play"})
    upper_bonus_rate_minus_reference = fields.Float()
    box_average_minus_reference = fields.Nested(BoxFiguresSchema)


class FiguresSchema(ma.Schema):
    """Figures of finished games (grand totals recomputed from the boxes)."""

    games = fields.Integer()
    decision_loss = fields.Nested(DecisionLossSchema)
    average = fields.Float(allow_none=True)
    median = fields.Float(allow_none=True)
    best = fields.Integer(allow_none=True)
    worst = fields.Integer(allow_none=True)
    sd = fields.Float(allow_none=True)
    upper_bonus_rate = fields.Float(allow_none=True)
    yahtzees_per_game = fields.Float(allow_none=True)
    bonus_yahtzees_per_game = fields.Float(allow_none=True)
    box_average = fields.Nested(BoxFiguresSchema, allow_none=True)
    box_zero_rate = fields.Nested(BoxFiguresSchema, allow_none=True)
    reference = fields.Nested(ReferenceComparisonSchema)
    best_turn = fields.Integer(allow_none=True, metadata={
        "description": "SCRABBLE: the best turn's score"})


class PlayerFiguresSchema(FiguresSchema):
    player = fields.String(metadata={"description": "the spelling of the latest finished game"})
    wins = fields.Integer(metadata={"description": "games with the top total (ties: all tied)"})
    multiplayer_games = fields.Integer()
    win_rate = fields.Float(allow_none=True, metadata={"description": "wins / multiplayer_games"})


class StatsQuerySchema(StrictSchema):
    limit = _limit("players")
    offset = _offset("players")
    game = _game()


class StatsSchema(ma.Schema):
    group = fields.String()
    game = fields.String(metadata={"enum": [SCRABBLE, SORRY],
                                   "description": "a SCRABBLE or SORRY! answer's game"})
    games = fields.Integer(metadata={"description": "finished games"})
    games_in_progress = fields.Integer()
    matches = fields.Integer()
    player_games = fields.Integer()
    overall = fields.Nested(FiguresSchema)
    players = fields.List(fields.Nested(PlayerFiguresSchema), metadata={
        "description": "a page of the players, by name"})
    players_total = fields.Integer(metadata={"description": "how many players in all"})
    limit = fields.Integer()
    offset = fields.Integer()


class HeadToHeadRowSchema(ma.Schema):
    player_a = fields.String()
    player_b = fields.String()
    games = fields.Integer()
    wins_a = fields.Integer()
    wins_b = fields.Integer()
    ties = fields.Integer()
    average_margin = fields.Float(metadata={"description": "player_a's total minus player_b's"})


class PlayerStatsSchema(PlayerFiguresSchema):
    game = fields.String(metadata={"enum": [SCRABBLE, SORRY],
                                   "description": "a SCRABBLE or SORRY! answer's game"})
    head_to_head = fields.List(fields.Nested(HeadToHeadRowSchema), metadata={
        "description": "this player (player_a) against each other player"})


class LeaderboardQuerySchema(StrictSchema):
    by = fields.String(load_default="wins", validate=validate.OneOf(
        (*LEADERBOARD_KEYS, "best_turn")), metadata={
        "description": "the figure to rank by: best_turn for SCRABBLE only; median, "
                       "upper_bonus_rate and yahtzees_per_game for Yahtzee only"})
    min_games = fields.Integer(load_default=1, validate=validate.Range(1, 100_000))
    limit = _limit("rows")
    offset = _offset("rows")
    game = _game()


class LeaderboardRowSchema(ma.Schema):
    rank = fields.Integer()
    player = fields.String()
    value = fields.Float()
    games = fields.Integer()
    wins = fields.Integer()
    average = fields.Float(allow_none=True)
    best = fields.Integer(allow_none=True)


class LeaderboardSchema(ma.Schema):
    by = fields.String()
    game = fields.String(metadata={"enum": [SCRABBLE, SORRY],
                                   "description": "a SCRABBLE or SORRY! answer's game"})
    total = fields.Integer(metadata={"description": "how many rows in all"})
    limit = fields.Integer()
    offset = fields.Integer()
    rows = fields.List(fields.Nested(LeaderboardRowSchema))


class HeadToHeadQuerySchema(StrictSchema):
    a = fields.String(validate=validate.Length(min=1, max=MAX_NAME))
    b = fields.String(validate=validate.Length(min=1, max=MAX_NAME))
    limit = _limit("records")
    offset = _offset("records")


class HeadToHeadSchema(ma.Schema):
    total = fields.Integer(metadata={"description": "how many records in all"})
    limit = fields.Integer()
    offset = fields.Integer()
    records = fields.List(fields.Nested(HeadToHeadRowSchema))
