"""Stateless endpoints and the error contract, through the Flask test client."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient

from .conftest import expect, full_game, head_revision, pad, pad_names, sheet

PROBLEM = "application/problem+json"


def assert_problem(r: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.get_data(as_text=True)
    assert r.mimetype == PROBLEM
    body: dict[str, Any] = r.json
    assert body["status"] == status
    assert {"type", "title", "status", "code"} <= set(body)
    assert "Traceback" not in r.get_data(as_text=True)
    if code:
        assert body["code"] == code
    return body


CASES = [pytest.param(n, r, w, id=f"{n}[{r or 'sheet'}]")
         for n in pad_names()
         for r, w in (expect(n).get("by_rules") or {None: expect(n)}).items()]


@pytest.mark.parametrize(("name", "rules", "want"), CASES)
def test_verify_sample_pads(client: FlaskClient, name: str, rules: str | None,
                            want: dict[str, Any]) -> None:
    url = "/api/v1/verify" + (f"?rules={rules}" if rules else "")
    r = client.post(url, json=pad(name))
    assert r.status_code == 200  # an invalid card is still a successful request
    assert r.json is not None
    assert r.json["ok"] is want["ok"]
    assert r.json["verdict"] == want.get("verdict", "correct" if want["ok"] else "errors")
    got = Counter(f"{'DOUBT:' if f['severity'] == 'doubt' else ''}{f['code']}@{f['field']}"
                  for f in r.json["findings"])
    assert got == Counter(want["codes"])
    if "winners" in want:
        assert r.json["tally"]["winners"] == want["winners"]


def test_verify_invalid_card_lists_findings(client: FlaskClient) -> None:
    r = client.post("/api/v1/verify", json=sheet(("Ann", [full_game(aces=7)])))
    assert r.status_code == 200
    assert r.json is not None
    assert r.json["ok"] is False
    f = next(f for f in r.json["findings"] if f["code"] == "BOX_VALUE_IMPOSSIBLE")
    assert f["field"] == "aces" and f["written"] == 7 and f["player_name"] == "Ann"


def test_verify_rules_override(client: FlaskClient) -> None:
    # A zero in Chance: legal under hasbro, an impossible value under classic.
    s = sheet(("Ann", [full_game(chance=0)]), rules="hasbro")
    assert client.post("/api/v1/verify", json=s).json["ok"] is True
    r = client.post("/api/v1/verify?rules=classic", json=s)
    assert r.status_code == 200
    assert r.json["rule_set"]["name"] == "classic"
    assert r.json["ok"] is False


def test_verify_unknown_rules_is_422(client: FlaskClient) -> None:
    body = assert_problem(client.post("/api/v1/verify?rules=nope", json=sheet(("A", []))), 422)
    assert body["errors"][0]["path"] == "query.rules"


def test_tally(client: FlaskClient) -> None:
    s = sheet(("Ann", [full_game(), full_game(yahtzee=50)]), ("Bob", [full_game(), full_game()]))
    r = client.post("/api/v1/tally", json=s)
    assert r.status_code == 200
    games = r.json["games"]
    assert sorted(games[0]["winners"]) == ["Ann", "Bob"]  # a tie: both win
    assert games[1]["winners"] == ["Ann"]


def test_options_joker(client: FlaskClient) -> None:
    r = client.post("/api/v1/options", json={"rules": "hasbro", "boxes": {"yahtzee": 50},
                                             "dice": [6, 6, 6, 6, 6]})
    assert r.status_code == 200
    assert r.json["bonus"] is True and r.json["joker"] is True
    assert r.json["legal"] == [{"box": "sixes", "value": 30}]
    by_box = {o["box"]: o for o in r.json["options"]}
    assert by_box["full_house"]["reason"] == "FORBIDDEN_UPPER_FIRST"


def test_options_validation(client: FlaskClient) -> None:
    body = assert_problem(client.post("/api/v1/options", json={"dice": [1, 2, 7, 1],
                                                               "boxes": {"sevens": 1}}), 422)
    paths = {e["path"] for e in body["errors"]}
    assert "$.dice" in paths or "$.dice[2]" in paths
    assert "$.boxes.sevens" in paths


def test_rules_list_and_one(client: FlaskClient) -> None:
    r = client.get("/api/v1/rules")
    assert r.status_code == 200
    assert {"hasbro", "classic", "travel"} <= {x["name"] for x in r.json["rule_sets"]}
    assert r.json["default"] == "hasbro"
    assert client.get("/api/v1/rules/official").json["name"] == "hasbro"
    assert_problem(client.get("/api/v1/rules/nope"), 404, "UNKNOWN_RULE_SET")


def test_health(client: FlaskClient) -> None:
    r = client.get("/api/v1/health")
    assert r.status_code == 200
    assert r.json["database"] == "sqlite" and r.json["revision"] == head_revision()


# ---- the error contract ----------------------------------------------------------------------

def test_validation_errors_list_each_path(client: FlaskClient) -> None:
    bad = {"players": [{"name": "", "games": [{"boxes": {"aces": "x"}, "bogus": 1}]},
                       {"name": "B", "colour": "red"}], "extra": True}
    body = assert_problem(client.post("/api/v1/verify", json=bad), 422, "VALIDATION_FAILED")
    paths = {e["path"] for e in body["errors"]}
    assert {"$.players[0].name", "$.players[0].games[0].boxes.aces",
            "$.players[0].games[0].bogus", "$.players[1].colour", "$.extra"} <= paths


@pytest.mark.parametrize("data", ["{bad", "[" * 100_000, '{"players": ' + "9" * 5000 + "}",
                                  "\xff\xfe", ""])
def test_malformed_json_never_500(client: FlaskClient, data: str) -> None:
    r = client.post("/api/v1/verify", data=data.encode("latin-1"),
                    content_type="application/json")
    assert r.status_code in (400, 422)
    assert r.mimetype == PROBLEM
    if data and data != "":
        assert r.json["code"] in ("INVALID_JSON", "VALIDATION_FAILED")


def test_not_a_json_object(client: FlaskClient) -> None:
    for body in ([1, 2], "text", 3, None):
        r = client.post("/api/v1/verify", data=json.dumps(body), content_type="application/json")
        assert_problem(r, 422)


def test_wrong_content_type_is_415(client: FlaskClient) -> None:
    assert_problem(client.post("/api/v1/verify", data="players", content_type="text/plain"),
                   415, "UNSUPPORTED_MEDIA_TYPE")


def test_404_405(client: FlaskClient) -> None:
    assert_problem(client.get("/api/v1/nothing"), 404, "NOT_FOUND")
    r = client.delete("/api/v1/verify")
    assert_problem(r, 405, "METHOD_NOT_ALLOWED")
    assert "POST" in r.headers["Allow"]


def test_body_too_large_is_413(client: FlaskClient) -> None:
    big = b'{"players": [' + b" " * 1_100_000 + b"]}"
    assert_problem(client.post("/api/v1/verify", data=big, content_type="application/json"),
                   413, "PAYLOAD_TOO_LARGE")


def test_unexpected_exception_is_problem_500(client: FlaskClient, monkeypatch: Any) -> None:
    from api import domain

    def boom(*a: Any, **k: Any) -> Any:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(domain, "audit_sheet", boom)
    r = client.post("/api/v1/verify", json=sheet(("A", [])))
    body = assert_problem(r, 500, "INTERNAL_ERROR")
    assert "secret" not in json.dumps(body)


# ---- limits --------------------------------------------------------------------------------

def test_limit_players(client: FlaskClient) -> None:
    s = sheet(*[(f"P{i}", []) for i in range(13)])
    body = assert_problem(client.post("/api/v1/verify", json=s), 422)
    assert any(e["path"] == "$.players" for e in body["errors"])


def test_limit_games(client: FlaskClient) -> None:
    s = sheet(("A", [full_game()] * 7))
    body = assert_problem(client.post("/api/v1/verify", json=s), 422)
    assert any(e["path"] == "$.players[0].games" for e in body["errors"])


def test_limit_turns(client: FlaskClient) -> None:
    turn = {"rolls": [[1, 2, 3, 4, 5]], "box": "chance", "value": 15}
    s = sheet(("A", [{"boxes": {}, "turns": [turn] * 21}]))
    body = assert_problem(client.post("/api/v1/verify", json=s), 422)
    assert any(e["path"] == "$.players[0].games[0].turns" for e in body["errors"])


def test_limit_string_lengths(client: FlaskClient) -> None:
    body = assert_problem(client.post("/api/v1/verify", json=sheet(("N" * 65, []))), 422)
    assert body["errors"][0]["path"] == "$.players[0].name"
    r = client.post("/api/v1/groups", json={"name": "g" * 101})
    assert_problem(r, 422)


def test_echo_is_off_by_default(tmp_path: Any) -> None:
    from api import create_app

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'e.db'}"})
    c = app.test_client()
    assert_problem(c.post("/api/v1/echo", json={"a": 1}), 404)
    assert "/api/v1/echo" not in c.get("/openapi.json").json["paths"]
    app.extensions["scorepad.engine"].dispose()


def test_echo(client: FlaskClient) -> None:
    r = client.post("/api/v1/echo", json={"a": [1, 2]})
    assert r.status_code == 200 and r.json == {"a": [1, 2]}


# ---- OpenAPI and docs ------------------------------------------------------------------------

def test_openapi_document(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    assert spec["openapi"] == "3.0.3"
    assert "/api/v1/verify" in spec["paths"]
    default = spec["components"]["responses"]["DEFAULT_ERROR"]
    assert list(default["content"]) == [PROBLEM]
    assert set(spec["components"]["schemas"]["Problem"]["required"]) == {"code", "status",
                                                                        "title", "type"}
    op = spec["paths"]["/api/v1/verify"]["post"]
    assert "422" in op["responses"] and "default" in op["responses"]


def test_docs_served_without_cdn(client: FlaskClient) -> None:
    page = client.get("/docs").get_data(as_text=True)
    assert "/docs/assets/swagger-ui-bundle.js" in page
    assert "http://" not in page and "https://" not in page
    r = client.get("/docs/assets/swagger-ui-bundle.js")
    assert r.status_code == 200 and len(r.data) > 100_000
    r.close()
    assert_problem(client.get("/docs/assets/../../etc/passwd"), 404)


# ---- scanned sheets: doubts --------------------------------------------------------------------

def test_verify_scanned_sheet_reports_doubts(client: FlaskClient) -> None:
    r = client.post("/api/v1/verify", json=pad("scanned_misread_total"))
    assert r.status_code == 200 and r.json is not None
    assert r.json["ok"] is True and r.json["verdict"] == "unsure"
    assert r.json["counts"]["doubt"] == 1
    (f,) = r.json["findings"]
    assert (f["code"], f["severity"], f["field"]) == ("TOTAL_ARITHMETIC", "doubt", "grand_total")
    doubt = f["details"]["doubt"]
    assert doubt["cells"][0]["box"] == [812, 1400, 905, 1452]
    assert doubt["would_be_right_if"][0] == {"field": "grand_total", "game": 1, "value": 355}
    # the same card with that cell confirmed by a person: an error again
    data = pad("scanned_misread_total")
    data["players"][0]["games"][0]["readings"]["grand_total"]["status"] = "confirmed"
    r = client.post("/api/v1/verify", json=data)
    assert r.json is not None and r.json["verdict"] == "errors"
    assert [(f["code"], f["severity"]) for f in r.json["findings"]] == [
        ("TOTAL_ARITHMETIC", "error")]


@pytest.mark.parametrize(("name", "field", "other"), [
    # the upper TOTAL SCORE read unsure as 63, the reader's best other reading 763: the
    # player may have written 163 (a slip the sum holding with 63 would hide)
    ("scanned_hidden_slip", "upper_total_score", 763),
    # the lower TOTAL's ink reads 247, taken as 257 for the column's sake (its "ink" kept)
    ("scanned_taken_total", "lower_total", 247),
])
def test_verify_scanned_sheet_right_only_as_read_is_unsure(client: FlaskClient, name: str,
                                                           field: str, other: int) -> None:
    r = client.post("/api/v1/verify", json=pad(name))
    assert r.status_code == 200 and r.json is not None
    assert r.json["ok"] is True and r.json["verdict"] == "unsure"
    (f,) = r.json["findings"]
    assert (f["code"], f["severity"], f["field"]) == ("TOTAL_ARITHMETIC", "doubt", field)
    assert f["details"]["doubt"]["reason"] == "hidden"
    assert f["details"]["doubt"]["would_be_wrong_if"] == [
        {"field": field, "game": 1, "value": other}]
    data = pad(name)
    data["players"][0]["games"][0]["readings"][field]["status"] = "confirmed"
    r = client.post("/api/v1/verify", json=data)
    assert r.json is not None and r.json["verdict"] == "correct" and r.json["findings"] == []


def test_verify_bad_readings_name_the_path(client: FlaskClient) -> None:
    data = pad("scanned_misread_total")
    data["players"][0]["games"][0]["readings"]["aces"]["confidence"] = 2
    data["players"][0]["players_scores"]["readings"]["games[9]"] = {"status": "confident"}
    body = assert_problem(client.post("/api/v1/verify", json=data), 422, "VALIDATION_FAILED")
    assert {e["path"] for e in body["errors"]} == {
        "$.players[0].games[0].readings.aces.confidence",
        "$.players[0].players_scores.readings.games[9]"}


def test_openapi_documents_readings_and_doubts(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").json["components"]["schemas"]
    assert "doubt" in schemas["Finding"]["properties"]["severity"]["enum"]
    assert schemas["Report"]["properties"]["verdict"]["enum"] == ["correct", "unsure", "errors"]
    assert set(schemas["Reading"]["properties"]) == {"status", "confidence", "candidates", "box",
                                                     "photo", "ink"}
