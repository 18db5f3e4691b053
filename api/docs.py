"""Swagger UI assets served by the app itself (from the swagger-ui-bundle package).

flask-smorest renders the docs page at ``/docs`` with ``OPENAPI_SWAGGER_UI_URL``
pointing here, so the browsable docs need no CDN and work offline.
"""

from __future__ import annotations

from flask import Blueprint, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped, unused-ignore]

from .errors import ApiError, ProblemCode

ALLOWED = {"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
           "favicon-32x32.png", "favicon-16x16.png"}

assets = Blueprint("docs_assets", __name__)


@assets.get("/docs/assets/<path:name>")
def asset(name: str) -> Response:
    if name not in ALLOWED:
        raise ApiError(404, ProblemCode.NOT_FOUND, "no such asset")
    resp = send_from_directory(swagger_ui_path, name, max_age=86400)
    return resp
