"""The SCRABBLE and SORRY! pads (/pad/scrabble, /pad/sorry) through Flask's test client:
the forms draw, a filled pad is checked, findings come with their codes and mark the cells
they point at, and a bad number is a form error, never a 500."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from .conftest import csrf_token, make_app


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    app = make_app(tmp_path)
    yield app.test_client()
    app.extensions["scorepad.engine"].dispose()


def codes(html: bytes) -> list[str]:
    return sorted(m.decode() for m in re.findall(rb'data-code="([A-Z_]+)"', html))


def verdict(html: bytes) -> str:
    m = re.search(rb'data-verdict="([a-z]+)"', html)
    assert m, html[:2000]
    return m.group(1).decode()


def test_the_pads_draw_phone_first(client: FlaskClient) -> None:
    for game, field in (("sorry", b'name="g2.p2.points"'), ("scrabble", b'name="t9.p1.total"')):
        r = client.get(f"/pad/{game}")
        assert r.status_code == 200 and field in r.data
        assert b'name="viewport"' in r.data and b"gamepads.css" in r.data
        assert b'data-verdict' not in r.data
    r = client.get("/pad/sorry?players=4&rows=5")
    assert b'name="g4.p3.home"' in r.data


def test_a_sorry_pad_is_checked(client: FlaskClient) -> None:
    form = {"csrf_token": csrf_token(client), "players": "2", "rows": "3", "rules": "sorry",
            "p0.name": "Ann", "p1.name": "Ben",
            "g0.p0.home": "4", "g0.p0.points": "55", "g0.p1.home": "2", "g0.p1.points": "10",
            "g1.p0.home": "1", "g1.p0.points": "5", "g1.p1.home": "4", "g1.p1.points": "110",
            "p0.total": "60", "p1.total": "120"}
    r = client.post("/pad/sorry", data=form)
    assert r.status_code == 200 and verdict(r.data) == "correct", codes(r.data)
    r = client.post("/pad/sorry", data={**form, "g1.p1.points": "60", "p1.total": "70"})
    assert verdict(r.data) == "errors" and codes(r.data) == ["SORRY_POINTS_WRONG"]
    assert re.search(rb'name="g1.p1.points"[^>]*aria-invalid="true"', r.data)
    r = client.post("/pad/sorry", data={**form, "rules": "sorry-best"})
    assert b'data-rule-set="sorry-best"' in r.data


def test_a_scrabble_pad_is_checked(client: FlaskClient) -> None:
    form = {"csrf_token": csrf_token(client), "players": "2", "rows": "4",
            "p0.name": "Ann", "p1.name": "Ben",
            "t0.p0.score": "14", "t0.p0.total": "14", "t0.p1.score": "9", "t0.p1.total": "9",
            "t1.p0.score": "25", "t1.p0.total": "39", "t1.p1.score": "0", "t1.p1.total": "9",
            "t1.p1.kind": "exchange", "t2.p0.score": "16", "t2.p0.total": "55",
            "p0.out": "1", "p0.adjustment": "11", "p0.final": "66",
            "p1.unplayed": "eq", "p1.adjustment": "-11", "p1.final": "-2", "winner": "Ann"}
    r = client.post("/pad/scrabble", data=form)
    assert r.status_code == 200 and verdict(r.data) == "correct", codes(r.data)
    r = client.post("/pad/scrabble", data={**form, "t1.p0.total": "40", "t2.p0.total": "56",
                                           "p0.final": "67", "winner": "Ben"})
    assert codes(r.data) == ["SCRABBLE_RUNNING_TOTAL", "SCRABBLE_WINNER_WRONG"]
    assert re.search(rb'name="t1.p0.total"[^>]*aria-invalid="true"', r.data)
    r = client.post("/pad/scrabble", data={**form, "t1.p1.score": "5"})
    assert "SCRABBLE_NO_PLAY_SCORED" in codes(r.data)


def test_form_errors_and_buttons(client: FlaskClient) -> None:
    tok = csrf_token(client)
    r = client.post("/pad/sorry", data={"csrf_token": tok, "g0.p0.home": "four"})
    assert r.status_code == 422 and verdict(r.data) == "unreadable"
    assert re.search(rb'name="g0.p0.home"[^>]*aria-invalid="true"', r.data)
    r = client.post("/pad/scrabble", data={"csrf_token": tok, "players": "2", "rows": "3",
                                           "action": "add_row"})
    assert r.status_code == 200 and b'name="t3.p1.score"' in r.data
    r = client.post("/pad/scrabble", data={"csrf_token": tok, "players": "2",
                                           "action": "add_player"})
    assert b'name="t0.p2.score"' in r.data
    assert client.post("/pad/sorry", data={"g0.p0.home": "4"}).status_code == 400  # no CSRF
