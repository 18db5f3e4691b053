"""/docs under its Content-Security-Policy (issue 13, fault 12): Swagger UI still renders in
Chromium, with no CSP violation, and the page may not be framed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def test_the_docs_render_under_their_csp(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text)
            if "Content Security Policy" in m.text else None)
    r = page.goto(f"{base}/docs")
    assert r is not None and r.status == 200
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    page.wait_for_selector(".swagger-ui .info .title")
    assert "scorepad" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-tag")  # the operations were fetched and drawn
    assert violations == []
