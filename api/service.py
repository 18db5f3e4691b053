"""Stateless endpoints: verify, options, tally, rules, scan, health (and echo for benchmarks)."""

# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

import json
import re
from typing import Any

from flask import Response, current_app, request
from sqlalchemy import text

from scorepad.audit import Report
from scorepad.boxes import Box
from scorepad.card import Sheet
from scorepad.games.dispatch import without_game
from scorepad.placement import legal_options
from scorepad.rules import DEFAULT_RULES, OPTION_NOTES, REGISTRY, UnknownRuleSet, get_rules
from scorepad.schemas import SheetFormatError
from scorepad.tally import Tally

from . import db, domain, fastsheet, gameviews, jobs, scanning, textguard
from .blueprint import Blueprint
from .errors import ApiError, ProblemCode
from .jobs import NOT_FOUND_HINT as NOT_FOUND_HINT  # the tests use it
from .limits import scan_limited
from .scanning import ocr_module as ocr_module  # the tests ask whether the reader is there
from .schemas import (
    CORNERS_HELP,
    CORNERS_PATTERN,
    RULE_NAMES,
    EchoSchema,
    HealthSchema,
    OptionsRequestSchema,
    OptionsResponseSchema,
    ReportSchema,
    RuleSetSchema,
    RulesListSchema,
    ScanQuerySchema,
    ScanResultSchema,
    TallySchema,
)
from .shape import json_text

blp = Blueprint("service", __name__, description="Verify sheets, legal options, tallies, rules")
echo_blp = Blueprint("echo", __name__, description="Benchmark baseline")


def _rules(query: dict[str, Any]) -> Any:
    return query.get("rules")


SHEET_BODY = {"required": True, "description": "a sheet (scorepad/sheet@1)",
              "content": {"application/json": {"schema": "Sheet"}}}


def sheet_body() -> Sheet:
    """The request's sheet: the fast path for plain sheets, else marshmallow's paths."""
    raw = request.get_data(cache=True)
    if not raw:
        data: Any = {}
    else:
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise ApiError(400, ProblemCode.INVALID_JSON, "the request body is not valid JSON") from None
        textguard.check_json(data, raw)
    try:
        return fastsheet.load(without_game(data))  # "game": "yahtzee" as no game field
    except SheetFormatError as exc:
        raise ApiError(422, ProblemCode.VALIDATION_FAILED, "the request does not validate",
                       errors=exc.errors) from None


def rules_query() -> str | None:
    """?rules=NAME, read by hand on the hot paths as RulesQuerySchema would (422 if unknown;
    other query parameters are ignored, as everywhere)."""
    values = request.args.getlist("rules")
    if not values:
        return None
    if len(values) > 1 or values[0] not in RULE_NAMES:
        raise ApiError(422, ProblemCode.VALIDATION_FAILED, "the request does not validate",
                       errors=[("query.rules", f"one of: {', '.join(RULE_NAMES)}")])
    return values[0]


RULES_PARAM = [{"in": "query", "name": "rules", "required": False,
                "description": "rule-set name or alias; overrides the sheet's own rules",
                "schema": {"type": "string", "enum": RULE_NAMES}}]


@blp.route("/verify", methods=["POST"])
@blp.doc(requestBody=gameviews.ANY_SHEET_BODY, parameters=gameviews.any_rules_param(RULE_NAMES),
         responses=gameviews.any_answer("Report", "BoardGameReport"))
@blp.response(200, ReportSchema, write=json_text, project=True, description="the audit report; ok is false "
              "when the card has errors (still a 200)")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.alt_response(400, response="BAD_REQUEST")
def verify() -> Report:
    """Audit a sheet: every finding, with the rule set and book lines behind it."""
    if (other := gameviews.other_game("verify")) is not None:  # SCRABBLE, SORRY!
        return other  # type: ignore[return-value]
    rules = rules_query()
    return domain.audit(sheet_body(), rules)


@blp.route("/tally", methods=["POST"])
@blp.doc(requestBody=gameviews.ANY_SHEET_BODY, parameters=gameviews.any_rules_param(RULE_NAMES),
         responses=gameviews.any_answer("Tally", "BoardGameTallyAnswer"))
@blp.response(200, TallySchema, write=json_text, project=True)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.alt_response(400, response="BAD_REQUEST")
def tally() -> Tally:
    """Totals, game winners and the overall standing of a sheet."""
    if (other := gameviews.other_game("tally")) is not None:  # SCRABBLE, SORRY!
        return other  # type: ignore[return-value]
    rules = rules_query()
    return domain.tally(sheet_body(), rules)


@blp.route("/options", methods=["POST"])
@blp.arguments(OptionsRequestSchema)
@blp.response(200, OptionsResponseSchema)
def options(body: dict[str, Any]) -> dict[str, Any]:
    """Where may this roll go on this card? Every box, allowed values and the rule."""
    rules = get_rules(body["rules"])
    boxes = {Box(k): v for k, v in body["boxes"].items()}
    opts = legal_options(rules, boxes, body["dice"])
    return {
        "rule_set": rules.name,
        "dice": list(opts.dice),
        "joker": opts.joker,
        "bonus": opts.bonus,
        "options": [o.to_dict() for o in opts.options],
        "legal": [{"box": b.value, "value": v} for b, v in opts.legal()],
    }


@blp.route("/rules", methods=["GET"])
@blp.response(200, RulesListSchema)
def rules_list() -> dict[str, Any]:
    """The rule sets the service knows, and the open points they settle."""
    return {
        "default": DEFAULT_RULES,
        "rule_sets": [rs.to_dict() for rs in REGISTRY.all()],
        "options": dict(OPTION_NOTES),
    }


@blp.route("/rules/<string:name>", methods=["GET"])
@blp.response(200, RuleSetSchema)
def rules_one(name: str) -> dict[str, Any]:
    """One rule set, by name or alias."""
    try:
        d: dict[str, Any] = get_rules(name).to_dict()
    except UnknownRuleSet:
        raise ApiError(404, ProblemCode.UNKNOWN_RULE_SET, f"no rule set named {name!r}") from None
    return d


@blp.route("/health", methods=["GET"])
@blp.response(200, HealthSchema)
def health() -> dict[str, Any]:
    """Liveness and database reachability."""
    try:
        with db.reading() as s:
            s.execute(text("SELECT 1"))
    except Exception:
        raise ApiError(503, ProblemCode.DATABASE_UNAVAILABLE, "the database does not answer") from None
    return {"status": "ok", "database": db.engine().dialect.name,
            "revision": db.current_revision(db.engine())}


SCAN_TYPES = ("image/png", "image/jpeg", "image/webp", "image/tiff", "image/bmp",
              "image/gif", "image/heic", "image/heif", "application/octet-stream")


def _corners(text: str) -> list[tuple[float, float]]:
    """Text that matches CORNERS_PATTERN -> four (x, y) points."""
    n = [float(v) for v in re.findall(r"-?[0-9]+(?:\.[0-9]+)?", text)]
    return [(n[i], n[i + 1]) for i in range(0, 8, 2)]




@blp.route("/scan", methods=["POST"])
@scan_limited
@blp.arguments(ScanQuerySchema, location="query")
@blp.doc(requestBody={
    "required": True,
    "content": {
        "multipart/form-data": {"schema": {
            "type": "object", "properties": {
                "file": {"type": "string", "format": "binary"},
                "corners": {"type": "string", "pattern": CORNERS_PATTERN,
                            "description": CORNERS_HELP + " (or the query parameter)"}},
            "required": ["file"]}},
        "image/png": {"schema": {"type": "string", "format": "binary"}},
        "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
    },
})
@blp.response(200, ScanResultSchema,
              description="what the photo says: a sheet with confidences")
@blp.alt_response(202, description="with SCOREPAD_REDIS_URL set: the scan is a job; poll "
                  "GET /api/v1/jobs/{id} (the Location header) for its result")
def scan(query: dict[str, Any]) -> Any:
    """Read a photo of a score pad (multipart field ``file`` or a raw image body).

    When the pad is not found (``NOT_A_PAD``) or found wrong, send the photo again with its
    four corners (``?corners=`` or the form field ``corners``)."""
    limit = scanning.scan_max_bytes()
    request.max_content_length = limit
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(413, ProblemCode.PAYLOAD_TOO_LARGE, f"an image may be at most {limit} bytes")
    corners_text, corners_at = query.get("corners"), "query.corners"
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("file")
        if upload is None:
            raise ApiError(422, ProblemCode.VALIDATION_FAILED, "send the photo in the form field 'file'",
                           errors=[("file", "missing")])
        form_corners = request.form.get("corners")
        if form_corners is not None:
            if corners_text is not None:
                raise ApiError(422, ProblemCode.VALIDATION_FAILED, "the request does not validate",
                               errors=[("form.corners", "give the corners once (they are in "
                                                        "the query too)")])
            if not re.match(CORNERS_PATTERN, form_corners):
                raise ApiError(422, ProblemCode.VALIDATION_FAILED, "the request does not validate",
                               errors=[("form.corners", "four x,y pairs in pixels: "
                                                        "x1,y1 x2,y2 x3,y3 x4,y4")])
            corners_text, corners_at = form_corners, "form.corners"
        data = upload.read(limit + 1)
    elif request.mimetype in SCAN_TYPES:
        data = request.get_data(cache=False)
    else:
        raise ApiError(415, ProblemCode.UNSUPPORTED_MEDIA_TYPE,
                       "send an image (image/png, image/jpeg, ...) or multipart/form-data")
    if len(data) > limit:
        raise ApiError(413, ProblemCode.PAYLOAD_TOO_LARGE, f"an image may be at most {limit} bytes")
    if not data:
        raise ApiError(422, ProblemCode.VALIDATION_FAILED, "the image is empty", errors=[("file", "empty")])
    corners = None if corners_text is None else _corners(corners_text)
    # a job: on the queue (202 and the job to poll) with REDIS_URL, else read here (api/jobs.py)
    return jobs.submit("scan", jobs.scan_job, data, _rules(query), corners, corners_at)


@echo_blp.route("/echo", methods=["POST"])
@echo_blp.doc(requestBody={"required": True,
                           "content": {"application/json": {"schema": {"type": "object"}}}})
@echo_blp.response(200, EchoSchema)
def echo() -> Response:
    """Return the JSON body (a baseline for benchmarks/api_load.py; off unless ENABLE_ECHO)."""
    try:
        data = json.loads(request.get_data(cache=False) or b"null")
    except (ValueError, RecursionError):
        raise ApiError(400, ProblemCode.INVALID_JSON, "the request body is not valid JSON") from None
    textguard.check_json(data)
    return current_app.response_class(json.dumps(data), mimetype="application/json")
