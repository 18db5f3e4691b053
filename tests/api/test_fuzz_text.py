"""Fuzz of the HTTP layer with the text schemathesis never generates (issue 13): lone
surrogates (as JSON escapes and as CESU-8 bytes), NUL and huge unicode, in bodies, keys,
query strings and paths. Never a 5xx; every answer is UTF-8 JSON; text that cannot be stored
is a 422 naming its place, and nothing of it is stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from api import create_app
from scorepad.sheetspec import bad_text

from .conftest import GroupRef, full_game

ANY_CHAR = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
NASTY = st.sampled_from(["\x00", "\ud800", "\udfff", "\udbff\udc00", "\ufeff", "\u202e",
                         "\ufffd", "\uffff", "\U0010ffff", "e\u0301", "𝔘", "\u0085"])
TEXT = st.one_of(
    st.text(ANY_CHAR, min_size=1, max_size=40),
    st.lists(st.one_of(NASTY, st.text(ANY_CHAR, max_size=3)), min_size=1, max_size=20)
    .map("".join),
    st.sampled_from(["𝔘" * 60_000, "e" + "\u0301" * 60_000, "\U0010ffff" * 64, "ä" * 64]),
)
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    path: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path / 'f.db'}",
                      "RATELIMIT_ENABLED": False})
    yield app
    app.extensions["scorepad.engine"].dispose()


@pytest.fixture(scope="module")
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture(scope="module")
def group(client: FlaskClient) -> GroupRef:
    return GroupRef(client)


def _body(data: Any, cesu: bool) -> bytes:
    if cesu:  # surrogates as their (invalid) UTF-8 bytes, which json.loads lets through
        return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return json.dumps(data).encode("ascii")  # surrogates and NUL as \u escapes


def _received(text: str, cesu: bool) -> str:
    """The text as the server reads it (a surrogate pair written as escapes is one character)."""
    got: str = json.loads(_body([text], cesu))[0]
    note(f"text {text[:60]!r} ({len(text)} characters), cesu={cesu}")
    return got


def _answer(r: Any) -> Any:
    assert r.status_code < 500, r.status_code
    body = r.data.decode("utf-8")  # strict: every answer is UTF-8
    return json.loads(body) if r.mimetype.endswith("json") else body


def _refused_at(r: Any, path: str) -> None:
    data = _answer(r)
    assert r.status_code == 422, (r.status_code, data)
    assert data["code"] == "VALIDATION_FAILED"
    assert any(e["path"].startswith(path) for e in data["errors"]), (data["errors"], path)


def _sheet(name: str = "A", **extra: Any) -> dict[str, Any]:
    return {"players": [{"name": name, "games": [full_game()]}, {"name": "B"}], **extra}


PLACES = {
    "name": (lambda t: _sheet(t), "$.players[0].name"),
    "title": (lambda t: _sheet(title=t), "$.title"),
    "rules": (lambda t: _sheet(rules={"name": t, "yahtzee_bonus": 0}), "$.rules.name"),
    "key": (lambda t: {**_sheet(), t: 1}, "$."),
}


@FUZZ
@given(text=TEXT, where=st.sampled_from(sorted(PLACES)), cesu=st.booleans(),
       url=st.sampled_from(["/api/v1/verify", "/api/v1/tally", "/api/v1/analyse"]))
def test_stateless_endpoints(client: FlaskClient, text: str, where: str, cesu: bool,
                             url: str) -> None:
    make, path = PLACES[where]
    r = client.post(url, data=_body(make(text), cesu), content_type="application/json")
    if bad_text(_received(text, cesu)):
        _refused_at(r, path)
    else:
        _answer(r)


@FUZZ
@given(text=TEXT, where=st.sampled_from(["name", "place", "note", "rules", "group"]),
       cesu=st.booleans())
def test_writes_store_only_encodable_text(client: FlaskClient, group: GroupRef, text: str,
                                          where: str, cesu: bool) -> None:
    before = group.get("/matches?limit=1").json["total"]
    if where == "group":
        r = client.post("/api/v1/groups", data=_body({"name": text}, cesu),
                        content_type="application/json")
        path = "$.name"
    else:
        body: dict[str, Any] = {"sheet": _sheet(text if where == "name" else "A")}
        if where in ("place", "note"):
            body[where] = text
        if where == "rules":
            body["rules"] = {"name": text}
        path = {"name": "$.sheet.players[0].name", "rules": "$.rules.name"}.get(where,
                                                                                f"$.{where}")
        r = client.post(f"{group.base}/matches", data=_body(body, cesu),
                        content_type="application/json", headers=group.headers)
    if bad_text(_received(text, cesu)):
        _refused_at(r, path)
        assert group.get("/matches?limit=1").json["total"] == before  # nothing stored
    else:
        _answer(r)
    # the group always reads back, as JSON and as a backup
    _answer(group.get("/matches"))
    _answer(group.get("/backup"))


@FUZZ
@given(text=TEXT)
def test_query_and_path(client: FlaskClient, group: GroupRef, text: str) -> None:
    raw = quote(text[:200].encode("utf-8", "surrogatepass"), safe="")
    r = group.get(f"/matches?player={raw}")
    if "\x00" in text[:200]:
        _refused_at(r, "query.player")
    else:
        _answer(r)
    _answer(client.get(f"/api/v1/rules/{raw}"))
    _answer(client.get(f"/api/v1/groups/{raw}", headers=group.headers))
