"""The OpenAPI document names every route of the JSON API (/api/v1), the queue's and the
readiness check's included."""

from __future__ import annotations

import re
from pathlib import Path

from api import create_app


def test_every_api_route_is_in_the_openapi_document(tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'docs.db'}",
                      "ENABLE_ECHO": True})
    paths = app.test_client().get("/openapi.json").json["paths"]
    routes = {(re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule), method.lower())
              for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/v1/")
              for method in rule.methods or () if method not in ("HEAD", "OPTIONS")}
    assert len(routes) > 20
    missing = sorted(f"{m.upper()} {p}" for p, m in routes if m not in paths.get(p, {}))
    assert missing == []
    for path in ("/api/v1/jobs/{job_id}", "/api/v1/ready", "/api/v1/health"):
        assert "get" in paths[path] and "200" in paths[path]["get"]["responses"]
    app.extensions["scorepad.engine"].dispose()
