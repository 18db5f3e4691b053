"""Migration 0001a_repair_text repairs text stored before the edge refused it (issue 13):
rows written at revision 0001 with lone surrogates, NUL and a custom rule set named
``hasbro`` read back after the upgrade, on SQLite and on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask

from api import create_app
from api.auth import hash_token, new_token
from api.db import make_engine, upgrade
from scorepad.schemas import load_sheet

from .conftest import full_game
from .test_postgres import pg_schema, schema_url  # noqa: F401 - the fixture

NOW = dt.datetime(2026, 11, 1, 12, 0, 0)


def _sheet(*names: str, rules: Any = None) -> dict[str, Any]:
    d: dict[str, Any] = {"players": [{"name": n, "games": [full_game()]} for n in names]}
    if rules is not None:
        d["rules"] = rules
    return d


SHEETS = {
    "a" * 32: (_sheet("A\udfff", "B"), "hasbro"),
    "b" * 32: (_sheet("x\ud800", "x\udc00"), "hasbro"),  # the same name once repaired
    "c" * 32: (_sheet("N\x00ul", rules={"name": "Hasbro", "yahtzee_bonus": 0}), "hasbro"),
}


def seed(url: str) -> tuple[str, str]:
    """At revision 0001, rows as the service stored them before issue 13."""
    engine = make_engine(url)
    upgrade(engine, "0001")
    token = new_token()
    gid = "9" * 32
    groups = sa.table("groups", *(sa.column(c) for c in ("id", "name", "token_hash",
                                                         "created_at")))
    matches = sa.table("matches", *(sa.column(c) for c in (
        "id", "group_id", "current_version", "created_at", "updated_at")))
    versions = sa.table("match_versions", sa.column("match_id"), sa.column("version"),
                        sa.column("rule_set"), sa.column("players", sa.JSON),
                        sa.column("sheet", sa.JSON), sa.column("audit_ok"),
                        sa.column("created_at"))
    with engine.begin() as conn:
        conn.execute(groups.insert().values(id=gid, name="club", token_hash=hash_token(token),
                                            created_at=NOW))
        for mid, (sheet, rule_set) in SHEETS.items():
            conn.execute(matches.insert().values(id=mid, group_id=gid, current_version=1,
                                                 created_at=NOW, updated_at=NOW))
            conn.execute(versions.insert().values(
                match_id=mid, version=1, rule_set=rule_set, audit_ok=True, created_at=NOW,
                players=[p["name"] for p in sheet["players"]], sheet=sheet))
    engine.dispose()
    return gid, token


def check_repaired(app: Flask, gid: str, token: str) -> None:
    c = app.test_client()
    h = {"Authorization": f"Bearer {token}"}
    base = f"/api/v1/groups/{gid}"
    r = c.get(f"{base}/matches", headers=h)
    assert r.status_code == 200 and r.json["total"] == 3
    players = {m["id"]: m["players"] for m in r.json["matches"]}
    assert players == {"a" * 32: ["A\ufffd", "B"], "b" * 32: ["x\ufffd", "x\ufffd (2)"],
                       "c" * 32: ["N\ufffdul"]}
    m = c.get(f"{base}/matches/{'c' * 32}", headers=h).json
    assert m["rule_set"] == "custom-hasbro" and m["sheet"]["rules"]["name"] == "custom-hasbro"
    backup = c.get(f"{base}/backup", headers=h)
    assert backup.status_code == 200
    for match in backup.json["matches"]:
        load_sheet(match["versions"][0]["sheet"])  # every stored sheet loads again


def test_the_repair_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    gid, token = seed(url)
    app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False})
    check_repaired(app, gid, token)
    app.extensions["scorepad.engine"].dispose()


def test_the_repair_on_postgres(pg_schema: str) -> None:  # noqa: F811 - the fixture
    url = schema_url(pg_schema)
    gid, token = seed(url)
    app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False})
    check_repaired(app, gid, token)
    app.extensions["scorepad.engine"].dispose()
