"""Fixtures for the HTTP service tests: an app on a fresh SQLite file per test."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from api import create_app

ROOT = Path(__file__).resolve().parents[2]
PADS = ROOT / "sample_pads"


def pad(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PADS / f"{name}.json").read_text())
    return data


def expect(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PADS / f"{name}.expect.json").read_text())
    return data


def pad_names() -> list[str]:
    return sorted(p.name[: -len(".json")] for p in PADS.glob("*.json")
                  if not p.name.endswith(".expect.json"))


def full_game(**overrides: int) -> dict[str, Any]:
    """A complete, legal game column: 63 in the upper section (bonus), then the lower boxes."""
    boxes = {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
             "three_of_a_kind": 20, "four_of_a_kind": 0, "full_house": 25,
             "small_straight": 30, "large_straight": 40, "yahtzee": 0, "chance": 22}
    boxes.update(overrides)
    return {"boxes": boxes}


def sheet(*players: tuple[str, list[dict[str, Any]]], rules: str | None = None
          ) -> dict[str, Any]:
    d: dict[str, Any] = {"players": [{"name": n, "games": g} for n, g in players]}
    if rules:
        d["rules"] = rules
    return d


def head_revision() -> str:
    """The newest Alembic revision (what a database is upgraded to)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from api.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({
        "TESTING": True,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
        "RATELIMIT_ENABLED": False,
        "ENABLE_ECHO": True,
    })
    yield app
    app.extensions["scorepad.engine"].dispose()


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """``app`` over real HTTP on loopback (werkzeug's server in a thread): its base URL."""
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        srv.server_close()
        t.join(5)
        app.extensions["scorepad.engine"].dispose()


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    """The service (no rate limits) over real HTTP on loopback: its base URL."""
    with serving(create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'srv.db'}",
                             "RATELIMIT_ENABLED": False})) as url:
        yield url


class GroupRef:
    def __init__(self, client: FlaskClient, name: str = "family") -> None:
        r = client.post("/api/v1/groups", json={"name": name})
        assert r.status_code == 201, r.json
        assert r.json is not None
        self.id: str = r.json["id"]
        self.token: str = r.json["token"]
        self.client = client
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.base = f"/api/v1/groups/{self.id}"

    def post_match(self, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
        r = self.client.post(f"{self.base}/matches", json=body, headers=self.headers)
        assert r.status_code == status, r.json
        assert r.json is not None
        data: dict[str, Any] = r.json
        return data

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(self.base + path, headers=self.headers, **kw)


@pytest.fixture()
def group(client: FlaskClient) -> GroupRef:
    return GroupRef(client)
