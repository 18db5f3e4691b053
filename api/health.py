"""Readiness: ``GET /api/v1/ready`` (liveness is ``GET /api/v1/health``, in api/service.py).

Ready means this process can do its work: the database answers, Redis answers when
``REDIS_URL`` is set (the queue and the rate limits live there), and the text reader
(tesseract) is installed. 200 with each check's state when all pass, else 503 with the
same body (``status: "unavailable"``), so a load balancer takes the process out of rotation
and a person sees which check failed. ``workers`` (RQ workers seen on the queue's Redis)
and ``queued`` are information only: jobs wait for a worker.
"""

# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response, current_app, jsonify
from sqlalchemy import text

from . import db
from .blueprint import Blueprint

blp = Blueprint("health", __name__, description="Readiness (liveness: GET /health)")


class ReadySchema(ma.Schema):
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(("ok", "unavailable")))
    jobs = ma.fields.String(required=True, validate=ma.validate.OneOf(("queue", "in-process")),
                            metadata={"description": "where scans and table builds run"})
    checks = ma.fields.Dict(required=True, metadata={
        "description": "database, tesseract and redis: each with ok (boolean) and what was "
                       "seen (dialect; workers and queued jobs; an error's type)"})


def _database() -> dict[str, Any]:
    try:
        with db.reading() as s:
            s.execute(text("SELECT 1"))
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True, "dialect": db.engine().dialect.name}


def _redis(url: str) -> dict[str, Any]:
    from rq import Worker

    from .jobs import connection, queue_length

    try:
        conn = connection(url)
        conn.ping()
        return {"ok": True, "workers": Worker.count(connection=conn),
                "queued": queue_length(url)}
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}


def _tesseract() -> dict[str, Any]:
    from ocr.tesseract import TesseractEngine  # ocr.tesseract owns every tesseract call

    return {"ok": bool(TesseractEngine().available())}


@blp.route("/ready", methods=["GET"])
@blp.response(200, ReadySchema, description="every check passed")
@blp.alt_response(503, schema=ReadySchema, description="a check failed (status unavailable): "
                  "the same body, naming it")
def ready() -> Response:
    """Readiness: database, Redis (when configured) and tesseract."""
    checks: dict[str, Any] = {"database": _database(), "tesseract": _tesseract()}
    url = current_app.config.get("REDIS_URL")
    checks["redis"] = _redis(str(url)) if url else {"ok": True, "configured": False}
    ok = all(c["ok"] for c in checks.values())
    resp = jsonify({"status": "ok" if ok else "unavailable",
                    "jobs": "queue" if url else "in-process", "checks": checks})
    resp.status_code = 200 if ok else 503
    return resp
