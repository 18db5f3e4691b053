"""POST /api/v1/analyse and /api/v1/advice (api/analysis.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

pytest.importorskip("api")
from api import create_app  # noqa: E402

PADS = Path(__file__).resolve().parents[2] / "sample_pads"


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    app: Flask = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}",
                             "RATELIMIT_ENABLED": False})
    yield app.test_client()


def test_analyse_sample_pad(client: FlaskClient) -> None:
    sheet = json.loads((PADS / "turn_log_clean_hasbro.json").read_text())
    r = client.post("/api/v1/analyse", json=sheet)
    assert r.status_code == 200, r.get_json()
    game = r.get_json()["games"][0]
    assert game["rule_set"] == "hasbro" and game["complete"]
    assert game["total_loss"] == pytest.approx(sum(d["loss"] for d in game["decisions"]),
                                               abs=1e-2)
    r = client.post("/api/v1/analyse?rules=travel", json=sheet)
    assert r.status_code == 200 and r.get_json()["games"][0]["rule_set"] == "travel"


def test_analyse_refusals(client: FlaskClient) -> None:
    r = client.post("/api/v1/analyse", json={"players": [{"name": "A", "games": [
        {"boxes": {"aces": 3}}]}]})
    assert r.status_code == 200 and r.get_json() == {"games": []}
    sheet = json.loads((PADS / "turn_log_kept_dice_not_in_roll.json").read_text())
    r = client.post("/api/v1/analyse", json=sheet)
    assert r.status_code == 422 and r.get_json()["code"] == "TURN_LOG_NOT_ANALYSABLE"
    r = client.post("/api/v1/analyse", json={"players": 1})
    assert r.status_code == 422


def test_advice(client: FlaskClient) -> None:
    r = client.post("/api/v1/advice", json={"dice": [6, 6, 6, 6, 6], "roll": 3})
    assert r.status_code == 200
    doc = r.get_json()
    assert doc["best"]["box"] == "yahtzee" and doc["runner_up"]["worse_by"] > 0
    r = client.post("/api/v1/advice", json={"rules": "classic", "card": {"aces": 3},
                                            "dice": [1, 2, 3, 4, 6], "roll": 2})
    assert r.status_code == 200 and r.get_json()["kind"] == "keep"
    for bad in ({"dice": [6, 6, 6, 6], "roll": 3}, {"dice": [6] * 5, "roll": 4},
                {"dice": [6] * 5, "roll": 3, "card": {"aces": 7}},
                {"dice": [6] * 5, "roll": 3, "rules": "nope"},
                {"dice": [6] * 5, "roll": 3, "extra": 1}):
        r = client.post("/api/v1/advice", json=bad)
        assert r.status_code == 422, bad
