"""One error shape for every failure: RFC 9457 ``application/problem+json``.

Every error leaves the service through :func:`problem`: ``type``, ``title``,
``status``, ``detail``, ``instance``, a stable machine ``code`` and, for
validation failures, ``errors``: one ``{"path": "$.players[0].name", "message": ...}``
per bad JSON path. No handler ever returns a stack trace.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from enum import Enum
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, has_request_context, json, request
from werkzeug.exceptions import HTTPException, InternalServerError

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://scorepad.invalid/problems/"


class ProblemCode(str, Enum):
    """The stable ``code`` of every problem the service answers with (never reworded).

    A photo the reader refuses answers with the reader's code upper-cased
    (``NOT_A_PAD``, ``BAD_CORNERS``...; ``api.scanning``), not listed here."""

    BAD_REQUEST = "BAD_REQUEST"
    CONFLICT = "CONFLICT"
    DATABASE_UNAVAILABLE = "DATABASE_UNAVAILABLE"
    FORBIDDEN = "FORBIDDEN"
    GROUP_EXISTS = "GROUP_EXISTS"
    GROUP_FULL = "GROUP_FULL"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    INVALID_JSON = "INVALID_JSON"
    JOB_FAILED = "JOB_FAILED"  # a queued job (api/jobs.py) crashed, timed out or lost its worker
    LENGTH_REQUIRED = "LENGTH_REQUIRED"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    NOT_ACCEPTABLE = "NOT_ACCEPTABLE"
    NOT_FOUND = "NOT_FOUND"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    POSITION_NOT_ANALYSABLE = "POSITION_NOT_ANALYSABLE"
    RATE_LIMITED = "RATE_LIMITED"
    TOKEN_INVALID = "TOKEN_INVALID"
    TOKEN_MISMATCH = "TOKEN_MISMATCH"
    TOKEN_REQUIRED = "TOKEN_REQUIRED"
    TOO_MANY_VERSIONS = "TOO_MANY_VERSIONS"
    TURN_LOG_NOT_ANALYSABLE = "TURN_LOG_NOT_ANALYSABLE"
    UNAUTHORIZED = "UNAUTHORIZED"
    UNAVAILABLE = "UNAVAILABLE"
    UNKNOWN_PLAYER = "UNKNOWN_PLAYER"
    UNKNOWN_RULE_SET = "UNKNOWN_RULE_SET"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    VALIDATION_FAILED = "VALIDATION_FAILED"

log = logging.getLogger("api")


class ProblemErrorSchema(ma.Schema):
    """Documentation of the problem-details body (RFC 9457)."""

    class Meta:
        unknown = ma.INCLUDE

    path = ma.fields.String(
        metadata={"description": "JSON path of the bad value, e.g. $.players[0]"})
    message = ma.fields.String()


class ProblemSchema(ma.Schema):
    """RFC 9457 problem details, plus ``code`` and ``errors``."""

    class Meta:
        unknown = ma.INCLUDE

    type = ma.fields.String(required=True, metadata={"description": "URI naming the problem type"})
    title = ma.fields.String(required=True)
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String()
    instance = ma.fields.String()
    code = ma.fields.String(
        required=True, metadata={"description": "stable machine-readable problem code"}
    )
    errors = ma.fields.List(ma.fields.Nested(ProblemErrorSchema))


class ApiError(HTTPException):
    """An error raised by our views: status, stable code, detail, optional path errors."""

    def __init__(
        self,
        status: int,
        code: ProblemCode | str,
        detail: str,
        errors: list[tuple[str, str]] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(description=detail)
        self.code = status
        self.problem_code = code.value if isinstance(code, ProblemCode) else code
        self.errors = errors
        self.extra_headers = dict(headers or {})


def flatten_messages(messages: Any, path: str = "$") -> list[tuple[str, str]]:
    """marshmallow/webargs nested error messages -> [(JSON path, message)]."""
    if isinstance(messages, Mapping):
        out: list[tuple[str, str]] = []
        for key, sub in messages.items():
            if key == "_schema":
                out += flatten_messages(sub, path)
            elif isinstance(key, int):
                out += flatten_messages(sub, f"{path}[{key}]")
            else:
                out += flatten_messages(sub, f"{path}.{key}")
        return out
    if isinstance(messages, list | tuple):
        if all(isinstance(m, str) for m in messages):
            return [(path, m) for m in messages]
        return [e for m in messages for e in flatten_messages(m, path)]
    return [(path, str(messages))]


_CODES = {
    400: ProblemCode.BAD_REQUEST.value,
    401: ProblemCode.UNAUTHORIZED.value,
    403: ProblemCode.FORBIDDEN.value,
    404: ProblemCode.NOT_FOUND.value,
    405: ProblemCode.METHOD_NOT_ALLOWED.value,
    406: ProblemCode.NOT_ACCEPTABLE.value,
    409: ProblemCode.CONFLICT.value,
    411: ProblemCode.LENGTH_REQUIRED.value,
    413: ProblemCode.PAYLOAD_TOO_LARGE.value,
    415: ProblemCode.UNSUPPORTED_MEDIA_TYPE.value,
    422: ProblemCode.VALIDATION_FAILED.value,
    429: ProblemCode.RATE_LIMITED.value,
    500: ProblemCode.INTERNAL_ERROR.value,
    503: ProblemCode.UNAVAILABLE.value,
}


def problem(
    status: int,
    code: ProblemCode | str | None = None,
    detail: str | None = None,
    errors: list[tuple[str, str]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """Build the one error response shape."""
    code = (code.value if isinstance(code, ProblemCode) else code) or \
        _CODES.get(status, f"HTTP_{status}")
    try:
        title = HTTPStatus(status).phrase
    except ValueError:
        title = "Error"
    body: dict[str, Any] = {
        "type": TYPE_BASE + code.lower().replace("_", "-"),
        "title": title,
        "status": status,
        "code": code,
    }
    if detail:
        body["detail"] = detail
    if has_request_context():
        body["instance"] = request.path
    if errors is not None:
        body["errors"] = [{"path": p, "message": m} for p, m in errors]
    resp = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def handle_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    if isinstance(error, ApiError):
        return problem(status, error.problem_code, error.description, error.errors,
                       error.extra_headers)
    headers: dict[str, str] = {}
    valid_methods = getattr(error, "valid_methods", None)
    if status == 405 and valid_methods:
        headers["Allow"] = ", ".join(valid_methods)
    if status == 429:
        # Flask-Limiter's RateLimitExceeded carries Retry-After etc. in its response
        resp = error.get_response()
        for k in ("Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining",
                  "X-RateLimit-Reset"):
            if k in resp.headers:
                headers[k] = resp.headers[k]
        return problem(429, ProblemCode.RATE_LIMITED, "too many write requests; retry later",
                       headers=headers)
    data = getattr(error, "data", None)
    errors: list[tuple[str, str]] | None = None
    detail = error.description if status != 500 else "internal error"
    if isinstance(data, Mapping):
        messages = data.get("errors") or data.get("messages")
        if messages is not None:
            # webargs nests body errors under the location ("json", "query", ...)
            if isinstance(messages, Mapping) and set(messages) <= {"json", "query", "form",
                                                                   "files", "headers"}:
                errs: list[tuple[str, str]] = []
                for loc, sub in messages.items():
                    if loc == "json":
                        errs += flatten_messages(sub, "$")
                    else:
                        errs += flatten_messages(sub, loc)
                errors = errs
            else:
                errors = flatten_messages(messages)
        if "message" in data:
            detail = str(data["message"])
    if status == 400 and errors == [("$", "Invalid JSON body.")]:
        return problem(400, ProblemCode.INVALID_JSON, "the request body is not valid JSON")
    if status == 422 and errors is not None:
        detail = "the request does not validate"
    return problem(status, None, detail, errors, headers)


def handle_unexpected(error: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.path)
    return problem(500, ProblemCode.INTERNAL_ERROR, "internal error")


def register(app: Flask) -> None:
    for status in (400, 401, 403, 404, 405, 406, 409, 411, 413, 415, 422, 429, 500, 503):
        app.register_error_handler(status, handle_http_exception)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(InternalServerError, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)
