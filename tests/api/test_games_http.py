"""``/api/v1/verify`` and ``/api/v1/tally`` for SCRABBLE and SORRY! sheets over real HTTP
(werkzeug's server on loopback): dispatch on ``game``, rule sets by ?rules=, 422 with the JSON
path for a bad sheet, and the OpenAPI document naming both answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests

PADS = Path(__file__).resolve().parents[2] / "sample_pads"


def pad(name: str) -> Any:
    return json.loads((PADS / name).read_text())


@pytest.fixture()
def server(server: str) -> str:
    """conftest's server, at the API's base URL."""
    return f"{server}/api/v1"


def test_verify_dispatches_on_the_game(server: str) -> None:
    r = requests.post(f"{server}/verify", json=pad("scrabble/slip_changes_winner.json"),
                      timeout=30)
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/json"
    body = r.json()
    assert body["game"] == "scrabble" and body["verdict"] == "errors"
    assert body["rule_set"]["name"] == "scrabble"
    assert sorted(f["code"] for f in body["findings"]) == [
        "SCRABBLE_RUNNING_TOTAL", "SCRABBLE_SLIP_CHANGES_WINNER", "SCRABBLE_WINNER_WRONG"]
    assert all(f["rules"] and f["rule_set"] == "scrabble" for f in body["findings"])
    r = requests.post(f"{server}/verify", json=pad("sorry/evening.json"), timeout=30)
    assert r.status_code == 200 and r.json()["ok"] is True and r.json()["game"] == "sorry"


def test_yahtzee_answers_are_unchanged(server: str) -> None:
    sheet = pad("hasbro_clean_single.json")
    plain = requests.post(f"{server}/verify", json=sheet, timeout=30)
    named = requests.post(f"{server}/verify", json={"game": "yahtzee", **sheet}, timeout=30)
    assert plain.status_code == named.status_code == 200
    assert plain.content == named.content and "game" not in plain.json()
    plain = requests.post(f"{server}/tally", json=sheet, timeout=30)
    assert plain.status_code == 200 and "players_scores" in plain.json()


def test_rules_query_per_game(server: str) -> None:
    sheet = pad("sorry/shutout.json")
    assert requests.post(f"{server}/verify", json=sheet, timeout=30).json()["ok"] is True
    r = requests.post(f"{server}/verify?rules=sorry-best", json=sheet, timeout=30)
    assert r.json()["rule_set"]["shutout"] == "best"
    assert [f["code"] for f in r.json()["findings"]] == ["SORRY_POINTS_WRONG"]
    r = requests.post(f"{server}/verify?rules=hasbro", json=sheet, timeout=30)
    assert r.status_code == 422 and r.json()["errors"][0]["path"] == "query.rules"


def test_tally(server: str) -> None:
    r = requests.post(f"{server}/tally", json=pad("scrabble/finished_game.json"), timeout=30)
    assert r.status_code == 200
    t = r.json()
    assert t["verdict"] == "correct" and t["winners"] == [["Ann"]]
    assert t["best_turn"]["score"] == 25 and t["players"][0]["player"] == "Ann"
    r = requests.post(f"{server}/tally", json=pad("sorry/evening.json"), timeout=30)
    assert [p["total"] for p in r.json()["players"]] == [135, 85, 60]


@pytest.mark.parametrize(("body", "path"), [
    ({"game": "scrabble", "games": [{"players": [{"name": "A", "turns": [
        {"score": 1, "tiles": [{"square": "H16", "letter": "A"}]}]}]}]},
     "$.games[0].players[0].turns[0].tiles[0].square"),
    ({"game": "sorry", "games": [{"players": [{"name": "A", "home": "4"}]}]},
     "$.games[0].players[0].home"),
    ({"game": "monopoly", "players": []}, "$.game"),
])
def test_a_bad_sheet_is_422_with_its_path(server: str, body: dict[str, Any], path: str) -> None:
    for endpoint in ("verify", "tally"):
        r = requests.post(f"{server}/{endpoint}", json=body, timeout=30)
        assert r.status_code == 422
        assert r.json()["code"] == "VALIDATION_FAILED"
        assert path in [e["path"] for e in r.json()["errors"]]


def test_openapi_documents_both_games(server: str) -> None:
    spec = requests.get(server.removesuffix("/api/v1") + "/openapi.json", timeout=30).json()
    schemas = spec["components"]["schemas"]
    assert {"ScrabbleSheet", "SorrySheet", "BoardGameReport", "BoardGameTallyAnswer"} <= set(schemas)
    verify = spec["paths"]["/api/v1/verify"]["post"]
    refs = [s["$ref"] for s in verify["requestBody"]["content"]["application/json"]["schema"]["oneOf"]]
    assert refs[1:] == ["#/components/schemas/ScrabbleSheet", "#/components/schemas/SorrySheet"]
    answer = verify["responses"]["200"]["content"]["application/json"]["schema"]["anyOf"]
    assert {"$ref": "#/components/schemas/BoardGameReport"} in answer
    codes = schemas["BoardGameFinding"]["properties"]["code"]["enum"]
    assert "SCRABBLE_BINGO_MISSING" in codes and "SORRY_POINTS_WRONG" in codes
