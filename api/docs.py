"""Swagger UI assets served by the app itself (from the swagger-ui-bundle package).

flask-smorest renders the docs page at ``/docs`` with ``OPENAPI_SWAGGER_UI_URL``
pointing here, so the browsable docs need no CDN and work offline.
"""

from __future__ import annotations

import base64
import hashlib
import re

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


_INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S)


def secure_headers(resp: Response) -> None:
    """The docs page's CSP: assets from here only; its inline boot script allowed by its hash
    (no 'unsafe-inline' for scripts); never framed."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(m.group(1)).digest()).decode() + "'"
        for m in _INLINE_SCRIPT.finditer(resp.get_data()))
    resp.headers["Content-Security-Policy"] = (
        f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'")
    resp.headers["X-Frame-Options"] = "DENY"
    resp.headers["Referrer-Policy"] = "no-referrer"
