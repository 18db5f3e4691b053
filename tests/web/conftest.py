"""Browser tests of the web pages: the app on loopback (werkzeug in a thread, temp SQLite),
driven by Playwright with Debian's Chromium (/usr/bin/chromium)."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from api import create_app

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("SCOREPAD_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 900}


def csrf_token(client: FlaskClient) -> str:
    """The CSRF token the home page hands out (every form posts it)."""
    m = re.search(rb'name="csrf_token" value="([^"]+)"', client.get("/").data)
    assert m
    return m.group(1).decode()


def make_app(tmp: Path, **extra: Any) -> Flask:
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp / 'web.db'}",
                      "RATELIMIT_ENABLED": False, "SECRET_KEY": "test-secret",
                      "WEB_SCAN_DIR": str(tmp / "scans"), **extra})
    if "web" not in app.blueprints:  # until create_app registers the pages itself
        from api.web import bp
        app.register_blueprint(bp)
    return app


def closing_bodies(app: Any) -> Callable[..., Iterator[bytes]]:
    """The WSGI app with each response body closed once sent (or when dropped).

    werkzeug's development server closes a body only after reading what is left of the
    request; a browser that resets the connection then (leaving a page while an icon is
    sent) makes that read raise, the open static file is never closed, and its
    ResourceWarning fails the test under ``filterwarnings = error``."""

    def wrapped(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterator[bytes]:
        body: Iterable[bytes] = app(environ, start_response)

        def sent() -> Iterator[bytes]:
            try:
                yield from body
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()

        return sent()

    return wrapped


@pytest.fixture()
def serve(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """``serve(**config) -> base URL``: the app on 127.0.0.1, stopped after the test."""
    running: list[tuple[Any, threading.Thread, Flask]] = []

    def start(**extra: Any) -> str:
        app = make_app(tmp_path, **extra)
        srv = make_server("127.0.0.1", 0, closing_bodies(app), threaded=True)
        t = threading.Thread(target=srv.serve_forever, daemon=True)
        t.start()
        running.append((srv, t, app))
        return f"http://127.0.0.1:{srv.server_port}"

    yield start
    for srv, t, app in running:
        srv.shutdown()
        srv.server_close()
        t.join(5)
        app.extensions["scorepad.engine"].dispose()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright import sync_api  # a dev dependency: the browser tests never skip
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="en-GB")
    pg = ctx.new_page()
    pg.set_default_timeout(15_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.js_errors = errors
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def wait_js(page: Any, expression: str, timeout: float = 15.0) -> None:
    """Wait until ``expression`` (or a function's text) is truthy in the page.

    Not Playwright's ``wait_for_function``: once the condition is not met at once, it polls
    by evaluating a string inside the page, which the page's CSP (script-src 'self', no
    'unsafe-eval') rightly forbids; ``page.evaluate`` goes through the browser's protocol."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {expression}")
        page.wait_for_timeout(50)


def shoot(page: Any, name: str, both: bool = True) -> list[Path]:
    """Save NAME-phone.png (360x740) and NAME-desktop.png (1366x900) into docs/screenshots/."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    out = []
    sizes = [("phone", PHONE), ("desktop", DESKTOP)] if both else [("phone", PHONE)]
    for label, size in sizes:
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        path = SHOTS / f"{name}-{label}.png"
        # a bar stuck to the bottom of the screen would sit mid-page in a full-page picture
        page.evaluate("document.querySelectorAll('.sticky-bottom')"
                      ".forEach(e => { e.style.position = 'static'; })")
        page.screenshot(path=str(path), full_page=True)
        page.evaluate("document.querySelectorAll('.sticky-bottom')"
                      ".forEach(e => { e.style.position = ''; })")
        out.append(path)
    page.set_viewport_size(PHONE)
    return out
