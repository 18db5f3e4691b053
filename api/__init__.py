"""The scorepad HTTP service (Flask + flask-smorest + SQLAlchemy).

``create_app(test_config=None)`` builds the app. Configuration comes from the
defaults below, then environment variables prefixed ``SCOREPAD_`` (for example
``SCOREPAD_DATABASE_URL``, ``SCOREPAD_RATELIMIT_WRITE="30 per minute"``; values
are parsed as JSON when they can be, so ``SCOREPAD_RATELIMIT_ENABLED=false``
works), then ``test_config``. Rate limits count per client; their counters are shared by
every worker and machine when ``SCOREPAD_REDIS_URL=redis://host:6379/0`` is set
(``api/limits.py`` lists the limits).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from flask import Flask, request
from flask_smorest import Api

from . import db, docs, errors, limits, textguard
from .errors import ProblemCode
from .limits import SCAN_MAX_BYTES

API_PREFIX = "/api/v1"

DEFAULTS: dict[str, Any] = {
    "API_TITLE": "scorepad",
    "API_VERSION": "1.0.0",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    # Swagger UI from the swagger-ui-bundle package, served by api.docs: no CDN.
    "OPENAPI_SWAGGER_UI_PATH": "/docs",
    "OPENAPI_SWAGGER_UI_URL": "/docs/assets/",
    "DATABASE_URL": None,  # default: SQLite file scorepad.db in the instance folder
    "AUTO_MIGRATE": True,  # apply Alembic migrations when the app starts
    "MAX_CONTENT_LENGTH": 1_000_000,  # bytes, for every request but /scan and /backups
    "BACKUP_MAX_BYTES": 100_000_000,  # bytes, for a backup sent to POST /api/v1/backups
    "SCAN_MAX_BYTES": SCAN_MAX_BYTES,  # bytes, for an image sent to /scan
    "MAX_MATCHES_PER_GROUP": 10_000,
    "MAX_VERSIONS_PER_MATCH": 100,
    "RATELIMIT_ENABLED": True,
    # Rate limits per client (api/limits.py): one count for all of a client's writes, one per
    # group, photos read, optimal-play tables built for custom rule sets.
    "RATELIMIT_WRITE": "60 per minute",
    "RATELIMIT_GROUP_WRITE": "120 per minute",
    "RATELIMIT_SCAN": "10 per minute",
    "RATELIMIT_TABLE_BUILD": "10 per hour",
    "REDIS_URL": None,  # redis://host:6379/0: rate limits and the job queue (api/jobs.py), shared
    "RATELIMIT_STORAGE_URI": None,  # default: REDIS_URL, else memory:// (per worker process)
    "RATELIMIT_KEY_PREFIX": "scorepad",
    "RATELIMIT_HEADERS_ENABLED": True,
    "JOB_TIMEOUT": 300,  # s: a queued job running longer is killed, then retried or failed
    "JOB_RETRIES": 1,  # times a queued job that failed or lost its worker is run again
    "ENABLE_ECHO": False,  # POST /api/v1/echo, a baseline for benchmarks/api_load.py
}


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest's Api with RFC 9457 errors, documented as application/problem+json."""

    ERROR_SCHEMA = errors.ProblemSchema

    def _register_error_handlers(self) -> None:
        errors.register(self._app)

    def _register_responses(self) -> None:
        # Error responses are documented as application/problem+json.
        self.DEFAULT_RESPONSE_CONTENT_TYPE = errors.PROBLEM_JSON
        try:
            super()._register_responses()
        finally:
            del self.DEFAULT_RESPONSE_CONTENT_TYPE  # back to the class's application/json


def _json_config(app: Flask) -> None:
    # Keep keys in order and non-ASCII as is in responses.
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]


# Endpoints whose body may be larger than MAX_CONTENT_LENGTH, and the config key of their limit.
BODY_LIMITS = {"service.scan": "SCAN_MAX_BYTES", "web.scan_upload": "SCAN_MAX_BYTES",
               "groups.import_group": "BACKUP_MAX_BYTES"}


def _limit_body(app: Flask) -> None:
    """The request's body limit, enforced for bodies of unknown length (chunked) too.

    Werkzeug refuses a Content-Length over the limit with 413, but silently cuts a chunked
    body at the limit (the JSON then looks broken: 400). Such a body is read here, up to one
    byte over the limit: 413 when it is over, else it is kept for the view as if its length
    had been sent."""
    key = BODY_LIMITS.get(request.endpoint or "")
    limit = int(app.config[key]) if key else app.config["MAX_CONTENT_LENGTH"]
    request.max_content_length = limit
    env = request.environ
    if (limit is None or request.method in ("GET", "HEAD", "OPTIONS") or "CONTENT_LENGTH" in env
            or not env.get("wsgi.input_terminated")):
        return
    data = bytearray()
    stream = env["wsgi.input"]
    while len(data) <= limit:
        chunk = stream.read(min(65536, limit + 1 - len(data)))
        if not chunk:
            break
        data += chunk
    if len(data) > limit:
        raise errors.ApiError(413, ProblemCode.PAYLOAD_TOO_LARGE,
                              f"the request body may be at most {limit} bytes")
    env["wsgi.input"] = io.BytesIO(bytes(data))
    env["CONTENT_LENGTH"] = str(len(data))
    del env["wsgi.input_terminated"]
    for cached in ("content_length", "stream"):
        request.__dict__.pop(cached, None)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("SCOREPAD")
    if test_config:
        app.config.from_mapping(test_config)
    _json_config(app)

    db.init_app(app)
    limits.configure(app)

    api = ProblemApi(app)
    from .schemas import nullable_exact, rules_field2properties

    api.ma_plugin.converter.add_attribute_function(rules_field2properties)
    api.ma_plugin.converter.add_attribute_function(nullable_exact)
    from scorepad.schemas import SheetSchema

    api.spec.components.schema("Sheet", schema=SheetSchema)
    from .gameviews import register_components

    register_components(api)  # the SCRABBLE and SORRY! sheets and answers
    api.spec.components.security_scheme(
        "groupToken", {"type": "http", "scheme": "bearer",
                       "description": "the token returned once when the group was created"})

    from . import analysis, groups, service, web

    app.register_blueprint(docs.assets)
    api.register_blueprint(service.blp, url_prefix=API_PREFIX)
    api.register_blueprint(groups.blp, url_prefix=API_PREFIX)
    if app.config["ENABLE_ECHO"]:
        api.register_blueprint(service.echo_blp, url_prefix=API_PREFIX)
    api.register_blueprint(analysis.blp, url_prefix=API_PREFIX)  # the solver's endpoints
    app.register_blueprint(web.bp)  # the web pages
    from . import health, jobs, metrics

    api.register_blueprint(jobs.blp, url_prefix=API_PREFIX)  # GET /api/v1/jobs/<id>: queued
    api.register_blueprint(health.blp, url_prefix=API_PREFIX)  # GET /api/v1/ready
    metrics.init_app(app, jobs.queue_length)  # GET /metrics; a JSON log line per request

    @app.before_request
    def _body() -> None:
        _limit_body(app)

    @app.before_request
    def _text() -> None:
        textguard.check_request()  # NUL in the path or query: 422 naming where

    @app.before_request
    def _content_type() -> Any:
        # JSON bodies only, on JSON routes (415 otherwise); /scan takes images.
        if request.method in ("POST", "PUT", "PATCH") and request.path.startswith(API_PREFIX):
            if request.path.rstrip("/").endswith("/scan"):
                return None
            has_body = (request.content_length or 0) > 0 or request.headers.get(
                "Transfer-Encoding", "").lower() == "chunked"
            if has_body and not request.is_json:
                return errors.problem(415, ProblemCode.UNSUPPORTED_MEDIA_TYPE,
                                      "send JSON with Content-Type: application/json")
        return None

    @app.after_request
    def _headers(resp: Any) -> Any:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        if request.path == app.config["OPENAPI_SWAGGER_UI_PATH"] and resp.mimetype == "text/html":
            docs.secure_headers(resp)
        return resp

    app.extensions["scorepad.api"] = api
    return app
