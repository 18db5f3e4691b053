"""Groups, tokens and matches with their correction history."""

from __future__ import annotations

import hashlib

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from api.db import Group, MatchVersion, reading

from .conftest import GroupRef, full_game, sheet
from .test_service import assert_problem


def two_player_match(**extra: object) -> dict[str, object]:
    body: dict[str, object] = {
        "played_on": "2026-11-20", "place": "Kitchen", "note": "after dinner",
        "sheet": sheet(("Ann", [full_game(yahtzee=50)]), ("Bob", [full_game()])),
    }
    body.update(extra)
    return body


def test_token_shown_once_and_stored_only_as_hash(app: Flask, client: FlaskClient) -> None:
    g = GroupRef(client)
    with app.app_context(), reading() as s:
        row = s.scalars(select(Group)).one()
        assert row.token_hash == hashlib.sha256(g.token.encode()).hexdigest()
        assert g.token not in (row.id, row.name, row.token_hash)
    r = g.get("")
    assert r.status_code == 200
    assert "token" not in r.json and "token_hash" not in r.json
    assert r.json["name"] == "family"


def test_auth_missing_wrong_and_other_groups_token(client: FlaskClient) -> None:
    a, b = GroupRef(client, "a"), GroupRef(client, "b")
    a.post_match(two_player_match())
    assert_problem(client.get(f"{a.base}/matches"), 401, "TOKEN_REQUIRED")
    # another group's token: 404, not the data
    r = client.get(f"{a.base}/matches", headers=b.headers)
    assert_problem(r, 404)
    # a token that opens no group at all: 401
    assert_problem(client.get(f"{a.base}/matches",
                              headers={"Authorization": "Bearer spg_nope"}), 401, "TOKEN_INVALID")
    assert_problem(client.post(f"{a.base}/matches", json=two_player_match(),
                               headers=b.headers), 404)
    assert_problem(client.get("/api/v1/groups/doesnotexist", headers=a.headers), 404)


def test_match_create_read_list(group: GroupRef) -> None:
    m = group.post_match(two_player_match())
    assert m["version"] == 1 and m["versions"] == 1
    assert m["players"] == ["Ann", "Bob"] and m["rule_set"] == "hasbro"
    assert m["played_on"] == "2026-11-20" and m["place"] == "Kitchen"
    assert m["audit"]["ok"] is True and m["audit_ok"] is True
    assert m["games"][0]["winners"] == ["Ann"]
    r = group.get(f"/matches/{m['id']}")
    assert r.status_code == 200
    assert r.json["sheet"]["players"][0]["games"][0]["boxes"]["yahtzee"] == 50
    lst = group.get("/matches").json
    assert lst["total"] == 1 and lst["matches"][0]["id"] == m["id"]
    assert group.get("/matches?player=bob").json["total"] == 1
    assert group.get("/matches?player=zed").json["total"] == 0


def test_invalid_sheet_is_stored_with_its_verdict(group: GroupRef) -> None:
    m = group.post_match(two_player_match(sheet=sheet(("Ann", [full_game(aces=7)]))))
    assert m["audit_ok"] is False
    assert any(f["code"] == "BOX_VALUE_IMPOSSIBLE" for f in m["audit"]["findings"])


def test_match_validation(group: GroupRef) -> None:
    r = group.client.post(f"{group.base}/matches", headers=group.headers, json={
        "played_on": "yesterday", "place": "p" * 201, "sheet": {"players": []}, "mood": "x"})
    body = assert_problem(r, 422, "VALIDATION_FAILED")
    paths = {e["path"] for e in body["errors"]}
    assert {"$.played_on", "$.place", "$.sheet.players", "$.mood"} <= paths


def test_correction_keeps_history(group: GroupRef) -> None:
    m = group.post_match(two_player_match())
    fixed = two_player_match(sheet=sheet(("Ann", [full_game()]), ("Bob", [full_game(yahtzee=50)])),
                             reason="Ann's Yahtzee was Bob's")
    r = group.client.put(f"{group.base}/matches/{m['id']}", json=fixed, headers=group.headers)
    assert r.status_code == 200
    assert r.json["version"] == 2 and r.json["versions"] == 2
    assert r.json["games"][0]["winners"] == ["Bob"]
    h = group.get(f"/matches/{m['id']}/history").json
    assert [v["version"] for v in h["versions"]] == [1, 2]
    assert h["versions"][0]["sheet"]["players"][0]["games"][0]["boxes"]["yahtzee"] == 50
    assert h["versions"][1]["reason"] == "Ann's Yahtzee was Bob's"
    assert group.get(f"/matches/{m['id']}").json["version"] == 2


def test_delete_match(app: Flask, group: GroupRef) -> None:
    m = group.post_match(two_player_match())
    other = GroupRef(group.client, "other")
    assert_problem(group.client.delete(f"{group.base}/matches/{m['id']}",
                                       headers=other.headers), 404)
    r = group.client.delete(f"{group.base}/matches/{m['id']}", headers=group.headers)
    assert r.status_code == 204
    assert_problem(group.get(f"/matches/{m['id']}"), 404)
    with app.app_context(), reading() as s:
        assert s.scalars(select(MatchVersion)).all() == []


def test_rules_field_overrides_sheet(group: GroupRef) -> None:
    m = group.post_match(two_player_match(rules="classic"))
    assert m["rule_set"] == "classic"
    assert m["sheet"]["rules"] == "classic"


def test_custom_rules_in_sheet(group: GroupRef) -> None:
    s = sheet(("Ann", [full_game()]))
    s["rules"] = {"name": "no-bonus", "base": "hasbro", "yahtzee_bonus": 0}
    m = group.post_match({"sheet": s})
    assert m["rule_set"] == "no-bonus"
    assert m["sheet"]["rules"]["yahtzee_bonus"] == 0


def test_group_match_limit(tmp_path: object) -> None:
    from api import create_app

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/l.db", "RATELIMIT_ENABLED": False,
                      "MAX_MATCHES_PER_GROUP": 2})
    g = GroupRef(app.test_client())
    g.post_match(two_player_match())
    g.post_match(two_player_match())
    body = g.post_match(two_player_match(), status=409)
    assert body["code"] == "GROUP_FULL"
    app.extensions["scorepad.engine"].dispose()


def test_rate_limit_on_writes(tmp_path: object) -> None:
    from api import create_app

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/r.db",
                      "RATELIMIT_WRITE": "3 per minute"})
    c = app.test_client()
    codes = [c.post("/api/v1/groups", json={"name": f"g{i}"}).status_code for i in range(4)]
    assert codes == [201, 201, 201, 429]
    r = c.post("/api/v1/groups", json={"name": "x"})
    assert_problem(r, 429, "RATE_LIMITED")
    assert "Retry-After" in r.headers
    # reads are not limited
    assert all(c.get("/api/v1/rules").status_code == 200 for _ in range(5))
    app.extensions["scorepad.engine"].dispose()


def test_scanned_sheet_keeps_its_readings(group: GroupRef) -> None:
    from .conftest import pad

    scanned = pad("scanned_misread_total")
    m = group.post_match({"sheet": scanned})
    assert m["audit_ok"] is True and m["audit"]["verdict"] == "unsure"
    assert [f["severity"] for f in m["audit"]["findings"]] == ["doubt"]
    stored = group.get(f"/matches/{m['id']}").json["sheet"]
    assert stored["players"][0]["games"][0]["readings"] == scanned["players"][0]["games"][0][
        "readings"]
    assert stored["players"][0]["players_scores"]["readings"] == scanned["players"][0][
        "players_scores"]["readings"]
    # a typed correction (no readings) is stored without them
    r = group.client.put(f"{group.base}/matches/{m['id']}", headers=group.headers,
                         json={"sheet": sheet(("Dana", [full_game()]))})
    assert r.status_code == 200 and r.json["audit"]["verdict"] == "correct"
    assert "readings" not in r.json["sheet"]["players"][0]["games"][0]
