"""The scorepad HTTP service (Flask + flask-smorest + SQLAlchemy).

``create_app(test_config=None)`` builds the app. Configuration comes from the
defaults below, then environment variables prefixed ``SCOREPAD_`` (for example
``SCOREPAD_DATABASE_URL``, ``SCOREPAD_RATELIMIT_WRITE="30 per minute"``; values
are parsed as JSON when they can be, so ``SCOREPAD_RATELIMIT_ENABLED=false``
works), then ``test_config``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, request
from flask_smorest import Api

from . import db, errors
from .errors import ProblemCode
from .limits import SCAN_MAX_BYTES, limiter

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
    "MAX_CONTENT_LENGTH": 1_000_000,  # bytes, for every request but /scan
    "SCAN_MAX_BYTES": SCAN_MAX_BYTES,  # bytes, for an image sent to /scan
    "MAX_MATCHES_PER_GROUP": 10_000,
    "MAX_VERSIONS_PER_MATCH": 100,
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_WRITE": "60 per minute",  # per client address, on every write
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
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


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("SCOREPAD")
    if test_config:
        app.config.from_mapping(test_config)
    _json_config(app)

    db.init_app(app)
    limiter.init_app(app)

    api = ProblemApi(app)
    from .schemas import nullable_exact, rules_field2properties

    api.ma_plugin.converter.add_attribute_function(rules_field2properties)
    api.ma_plugin.converter.add_attribute_function(nullable_exact)
    from scorepad.schemas import SheetSchema

    api.spec.components.schema("Sheet", schema=SheetSchema)
    api.spec.components.security_scheme(
        "groupToken", {"type": "http", "scheme": "bearer",
                       "description": "the token returned once when the group was created"})

    from . import analysis, docs, groups, service, web

    app.register_blueprint(docs.assets)
    api.register_blueprint(service.blp, url_prefix=API_PREFIX)
    api.register_blueprint(groups.blp, url_prefix=API_PREFIX)
    if app.config["ENABLE_ECHO"]:
        api.register_blueprint(service.echo_blp, url_prefix=API_PREFIX)
    api.register_blueprint(analysis.blp, url_prefix=API_PREFIX)  # the solver's endpoints
    app.register_blueprint(web.bp)  # the web pages

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
        return resp

    app.extensions["scorepad.api"] = api
    return app
