"""A group's JSON backup imports into an empty database with nothing lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask

from api import create_app

from .conftest import GroupRef, full_game, head_revision, pad, sheet
from .test_service import assert_problem


def fill(g: GroupRef) -> None:
    m = g.post_match({"played_on": "2026-11-01", "place": "Oslo", "note": "ünïcode ✓",
                      "sheet": pad("hasbro_two_players_six_games")})
    g.post_match({"sheet": pad("turn_log_clean_classic")})
    g.post_match({"sheet": pad("scanned_misread_total")})  # a scanned sheet, with readings
    custom = sheet(("Ann", [full_game()]))
    custom["rules"] = {"name": "house", "base": "travel", "yahtzee_bonus": 0}
    g.post_match({"sheet": custom, "note": None})
    r = g.client.put(f"{g.base}/matches/{m['id']}", headers=g.headers, json={
        "played_on": "2026-11-02", "place": "Bergen", "sheet": pad("four_players_tie"),
        "reason": "wrong pad"})
    assert r.status_code == 200


def snapshot(g: GroupRef) -> dict[str, Any]:
    backup = g.get("/backup").json
    backup.pop("exported_at")
    return {
        "backup": backup,
        "stats": g.get("/stats").json,
        "csv": g.get("/export.csv").get_data(as_text=True),
        "history": [g.get(f"/matches/{m['id']}/history").json for m in backup["matches"]],
    }


def round_trip(source: Flask, target: Flask) -> None:
    g = GroupRef(source.test_client())
    fill(g)
    before = snapshot(g)
    raw = g.get("/backup")
    assert raw.headers["Content-Disposition"].startswith("attachment")
    c2 = target.test_client()
    # the import needs the group's own token
    other = GroupRef(c2, "someone else")
    assert_problem(c2.post("/api/v1/backups", json=raw.json, headers=other.headers), 403)
    r = c2.post("/api/v1/backups", json=raw.json, headers=g.headers)
    assert r.status_code == 201, r.json
    assert r.json["matches"] == 4
    # restored under new ids (the API never tells whether ids exist), the matches in order
    new = r.json["id"]
    g2 = GroupRef.__new__(GroupRef)
    g2.__dict__.update(g.__dict__, client=c2, id=new, base=f"/api/v1/groups/{new}")
    after = snapshot(g2)
    ids = {g.id: new} | dict(zip([m["id"] for m in before["backup"]["matches"]],
                                 [m["id"] for m in after["backup"]["matches"]], strict=True))
    text = json.dumps(before)
    for old_id, new_id in ids.items():
        text = text.replace(old_id, new_id)
    assert after == json.loads(text)
    # importing twice is a conflict, not a duplicate
    assert_problem(c2.post("/api/v1/backups", json=raw.json, headers=g.headers), 409)


def test_backup_round_trip_sqlite(app: Flask, tmp_path: Path) -> None:
    target = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'restored.db'}",
                         "RATELIMIT_ENABLED": False})
    round_trip(app, target)
    target.extensions["scorepad.engine"].dispose()


def test_import_validates(client: Any, group: GroupRef) -> None:
    backup = group.get("/backup").json
    backup["matches"] = [{"id": "x", "current_version": 1, "created_at": "2026-01-01T00:00:00",
                          "updated_at": "2026-01-01T00:00:00", "versions": []}]
    backup["surprise"] = 1
    body = assert_problem(client.post("/api/v1/backups", json=backup,
                                      headers=group.headers), 422)
    paths = {e["path"] for e in body["errors"]}
    assert {"$.matches[0].id", "$.matches[0].versions", "$.surprise"} <= paths


def test_cli_export_import(app: Flask, tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    from scorepad.cli import main

    g = GroupRef(app.test_client())
    fill(g)
    before = snapshot(g)
    monkeypatch.setenv("SCOREPAD_DATABASE_URL", app.config["DATABASE_URL"])
    assert main(["db", "export", g.id]) == 0
    out = capsys.readouterr().out
    path = tmp_path / "backup.json"
    path.write_text(out)
    assert json.loads(out)["group"]["id"] == g.id
    new_db = tmp_path / "cli.db"
    monkeypatch.setenv("SCOREPAD_DATABASE_URL", f"sqlite:///{new_db}")
    assert main(["db", "upgrade"]) == 0
    assert main(["db", "import", str(path)]) == 0
    assert main(["db", "import", str(path)]) == 2  # already there
    assert main(["db", "import", str(tmp_path / "missing.json")]) == 2
    target = create_app({"DATABASE_URL": f"sqlite:///{new_db}", "RATELIMIT_ENABLED": False})
    g2 = GroupRef.__new__(GroupRef)
    g2.__dict__.update(g.__dict__, client=target.test_client())
    assert snapshot(g2) == before
    target.extensions["scorepad.engine"].dispose()


def test_cli_db_current(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    from scorepad.cli import main

    monkeypatch.setenv("SCOREPAD_DATABASE_URL", f"sqlite:///{tmp_path / 'cur.db'}")
    assert main(["db", "current"]) == 0
    assert capsys.readouterr().out.strip() == "(empty)"
    assert main(["db", "upgrade"]) == 0
    assert head_revision() in capsys.readouterr().out
    assert main(["db", "current"]) == 0
    assert capsys.readouterr().out.strip() == head_revision()
