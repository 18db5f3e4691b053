"""One error shape for every failure: RFC 9457 ``application/problem+json``.

Every error leaves the service through :func:`problem`: ``type``, ``title``,
``status``, ``detail``, ``instance``, a stable machine ``code`` and, for
validation failures, ``errors``: one ``{"path": "$.players[0].name", "message": ...}``
per bad JSON path. No handler ever returns a stack trace.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, has_request_context, json, request
from werkzeug.exceptions import HTTPException, InternalServerError

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://scorepad.invalid/problems/"

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
        code: str,
        detail: str,
        errors: list[tuple[str, str]] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(description=detail)
        self.code = status
        self.problem_code = code
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
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    406: "NOT_ACCEPTABLE",
    409: "CONFLICT",
    411: "LENGTH_REQUIRED",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    422: "VALIDATION_FAILED",
    429: "RATE_LIMITED",
    500: "INTERNAL_ERROR",
    503: "UNAVAILABLE",
}


def problem(
    status: int,
    code: str | None = None,
    detail: str | None = None,
    errors: list[tuple[str, str]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """Build the one error response shape."""
    code = code or _CODES.get(status, f"HTTP_{status}")
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
        return problem(429, "RATE_LIMITED", "too many write requests; retry later",
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
        return problem(400, "INVALID_JSON", "the request body is not valid JSON")
    if status == 422 and errors is not None:
        detail = "the request does not validate"
    return problem(status, None, detail, errors, headers)


def handle_unexpected(error: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.path)
    return problem(500, "INTERNAL_ERROR", "internal error")


def register(app: Flask) -> None:
    for status in (400, 401, 403, 404, 405, 406, 409, 411, 413, 415, 422, 429, 500, 503):
        app.register_error_handler(status, handle_http_exception)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(InternalServerError, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)
