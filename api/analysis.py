"""Skill analysis endpoints: what each decision cost, and advice for a position (issue 5).

``POST /api/v1/analyse`` takes a sheet (``scorepad/sheet@1``) and values every keep
and box choice of each game that carries a turn log against optimal play.
``POST /api/v1/advice`` takes a card in progress, the dice and the roll number and
answers with the best keep (rolls 1-2) or box (roll 3) and the runner-up.

A sheet without turn logs gets an empty ``games`` list. Both answer 422 for
requests that are well-formed but cannot be analysed: a turn log no legal game
produces (``TURN_LOG_NOT_ANALYSABLE``), a card no legal game reaches or a full
card (``POSITION_NOT_ANALYSABLE``).

The optimal-play table of a rule set is loaded from the disk cache (or solved,
a few seconds) on the first request that needs it, then kept in memory. Tables
for custom rule sets are built within a budget per client (``RATELIMIT_TABLE_BUILD``,
429 beyond it) and the disk keeps the most recently used few
(``$SCOREPAD_CACHE_MAX_TABLES``); a rule set's table is found by its content.
"""

# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import RAISE, fields, validate

from scorepad.boxes import ALL_BOXES
from scorepad.card import Sheet
from scorepad.rules import REGISTRY, RuleSetError, UnknownRuleSet, get_rules
from scorepad.schemas import SheetSchema, StrictInteger
from scorepad.solver import AnalysisError, SolverError, advise, analyse_sheet, parse_card
from scorepad.solver.table import table_available

from . import jobs, limits
from .blueprint import Blueprint
from .errors import ApiError, ProblemCode
from .schemas import RulesQuerySchema

blp = Blueprint("analysis", __name__,
                description="Skill analysis against optimal play, and advice for a position")


RULE_NAMES = sorted({n for rs in REGISTRY.all() for n in (rs.name, *rs.aliases)})


class ChoiceSchema(ma.Schema):
    kind = fields.String(metadata={"description": "keep or box"})
    expected = fields.Float(metadata={"description": "expected final score of this choice"})
    keep = fields.List(fields.Integer(), metadata={"description": "dice held (kind keep)"})
    box = fields.String()
    value = fields.Integer()
    worse_by = fields.Float()


class DecisionSchema(ma.Schema):
    turn = fields.Integer()
    roll = fields.Integer()
    kind = fields.String()
    dice = fields.List(fields.Integer())
    chosen = fields.Nested(ChoiceSchema)
    best = fields.Nested(ChoiceSchema)
    loss = fields.Float()
    inferred = fields.Boolean(metadata={"description": "keep inferred from consecutive rolls"})


class GameAnalysisSchema(ma.Schema):
    rule_set = fields.String()
    player = fields.String()
    game = fields.Integer()
    turns = fields.Integer()
    complete = fields.Boolean()
    decisions = fields.List(fields.Nested(DecisionSchema))
    decision_count = fields.Integer()
    total_loss = fields.Float()
    mean_loss_per_decision = fields.Float()
    turn_losses = fields.List(fields.Float())
    optimal_expected = fields.Float()
    expected_given_decisions = fields.Float()
    score = fields.Float(metadata={"description": "final score (or so far + expected rest)"})
    luck = fields.Float(metadata={"description": "score minus expected given the decisions"})


class AnalyseResponseSchema(ma.Schema):
    games = fields.List(fields.Nested(GameAnalysisSchema),
                        metadata={"description": "one entry per game with a turn log"})


CardSchema = ma.Schema.from_dict(
    {
        **{b.value: StrictInteger(allow_none=True, validate=validate.Range(0, 50))
           for b in ALL_BOXES},
        "yahtzee_bonus_checks": StrictInteger(validate=validate.Range(0, 99)),
    },
    name="AdviceCardSchema",
)
CardSchema.Meta.unknown = RAISE


class AdviceRequestSchema(ma.Schema):
    class Meta:
        unknown = RAISE

    rules = fields.String(load_default=None, allow_none=True,
                          validate=validate.OneOf(RULE_NAMES),
                          metadata={"description": "rule-set name or alias (default hasbro)"})
    card = fields.Nested(CardSchema, load_default=dict, metadata={
        "description": "the card so far: box -> value (or null), and yahtzee_bonus_checks"})
    dice = fields.List(StrictInteger(validate=validate.Range(1, 6)), required=True,
                       validate=validate.Length(equal=5))
    roll = StrictInteger(required=True, validate=validate.Range(1, 3),
                         metadata={"description": "which roll of the turn the dice are"})


class AdviceResponseSchema(ma.Schema):
    rule_set = fields.String()
    roll = fields.Integer()
    dice = fields.List(fields.Integer())
    kind = fields.String()
    current_points = fields.Integer()
    best = fields.Nested(ChoiceSchema)
    runner_up = fields.Nested(ChoiceSchema, allow_none=True)
    options = fields.List(fields.Nested(ChoiceSchema))


def _unprocessable(code: ProblemCode, detail: str) -> ApiError:
    return ApiError(422, code, detail)


@blp.route("/analyse", methods=["POST"])
@blp.arguments(SheetSchema, description="a sheet (scorepad/sheet@1) whose games carry turn logs")
@blp.arguments(RulesQuerySchema, location="query")
@blp.response(200, AnalyseResponseSchema)
@blp.alt_response(202, description="with SCOREPAD_REDIS_URL set, when the rule set's table "
                  "must be built: a job; poll GET /api/v1/jobs/{id} (the Location header)")
def analyse(sheet: Sheet, query: dict[str, Any]) -> Any:
    """Each keep and box choice valued against optimal play: loss, total loss, luck."""
    try:
        rules = get_rules(query.get("rules") or sheet.rules)
    except (UnknownRuleSet, RuleSetError) as exc:
        raise _unprocessable(ProblemCode.UNKNOWN_RULE_SET, str(exc)) from None
    if rules.name not in REGISTRY and not table_available(rules):
        # a custom rule set's table costs ~1.5 s of CPU and 12 MB on disk: a budget per client
        limits.spend("RATELIMIT_TABLE_BUILD", "table-build",
                     "optimal-play tables built for custom rule sets")
        # the build is a job: queued (202) with REDIS_URL, else run here (api/jobs.py)
        return jobs.submit("analyse", analyse_job, sheet, rules)
    try:
        results = analyse_sheet(sheet, rules)
    except (AnalysisError, SolverError) as exc:
        raise _unprocessable(ProblemCode.TURN_LOG_NOT_ANALYSABLE, str(exc)) from None
    return {"games": [a.to_dict() for a in results]}


def analyse_job(sheet: Sheet, rules: Any) -> dict[str, Any]:
    """The analysis as a job (api/jobs.py: a worker's, or in-process): ``{"result": ...}`` or
    ``{"problem": ...}``; building the rule set's table first when it is missing."""

    def run() -> dict[str, Any]:
        try:
            results = analyse_sheet(sheet, rules)
        except (AnalysisError, SolverError) as exc:
            return {"problem": jobs.problem_of(422, ProblemCode.TURN_LOG_NOT_ANALYSABLE.value,
                                               str(exc))}
        return {"result": {"games": [a.to_dict() for a in results]}}

    return jobs.timed("analyse", run)


@blp.route("/advice", methods=["POST"])
@blp.arguments(AdviceRequestSchema)
@blp.response(200, AdviceResponseSchema)
def advice(body: dict[str, Any]) -> dict[str, Any]:
    """The best keep (after roll 1 or 2) or box (after roll 3), and the runner-up."""
    try:
        boxes, checks = parse_card(body["card"])
        result = advise(boxes, body["dice"], body["roll"], body["rules"], bonus_checks=checks)
    except (AnalysisError, SolverError) as exc:
        raise _unprocessable(ProblemCode.POSITION_NOT_ANALYSABLE, str(exc)) from None
    return result.to_dict()
