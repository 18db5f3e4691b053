"""Issue 15, point 10 without a browser: HTML error pages (the API keeps problem+json), the
blank pad to print, a verdict's link, chart axes that tell games apart and reach the top
score, and a group restored from its backup through the "My groups" form."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from api.web import charts, share
from tests.api.conftest import full_game

from .conftest import csrf_token, make_app

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path)
    yield app
    app.extensions["scorepad.engine"].dispose()


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def test_a_mistyped_address_is_a_page_with_a_way_home(client: FlaskClient) -> None:
    for path in ("/no/such/page", "/pad/nope", "/g/x/y/z"):
        r = client.get(path, headers=HTML)
        assert r.status_code == 404 and r.mimetype == "text/html", path
        text = r.get_data(as_text=True)
        assert "No page here" in text and 'href="/"' in text and '<html lang="en">' in text
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
    # the JSON API keeps its problem+json, even for a browser, and so does a script
    r = client.get("/api/v1/no-such-thing", headers=HTML)
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
    r = client.get("/no/such/page")
    assert r.status_code == 404 and r.mimetype == "application/problem+json"


def test_the_blank_pad_prints_as_scorepad_render_draws_it(client: FlaskClient) -> None:
    png = client.get("/pad/blank.png")
    assert png.status_code == 200 and png.mimetype == "image/png"
    im = Image.open(io.BytesIO(png.data))
    assert im.width > 1000 and im.height > 1000
    back = client.get("/pad/blank.png?side=back")
    assert back.status_code == 200 and back.data != png.data
    pdf = client.get("/pad/blank.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert pdf.data.startswith(b"%PDF")
    assert client.get("/pad/blank.gif", headers=HTML).status_code == 404
    assert client.get("/pad/blank.png?side=edge", headers=HTML).status_code == 404
    assert 'href="/pad/blank.pdf"' in client.get("/").get_data(as_text=True)


def _checked(client: FlaskClient, grand_total: str = "235") -> str:
    values = {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
              "three_of_a_kind": 20, "four_of_a_kind": 0, "full_house": 25,
              "small_straight": 30, "large_straight": 40, "yahtzee": 0, "chance": 22}
    form = {"csrf_token": csrf_token(client), "rules": "hasbro", "players": "1", "games": "1",
            "p0.name": "Ann", "p0.g0.grand_total": grand_total,
            **{f"p0.g0.{k}": str(v) for k, v in values.items()}}
    r = client.post("/check", data=form)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def test_a_verdict_has_a_link_that_opens_it_again(client: FlaskClient) -> None:
    page = _checked(client, "999")  # a wrong grand total: an error to see again
    link = re.search(r'href="(/v\?s=[^"]+)" id="share-link"', page)
    assert link, "no link to share"
    shared = client.get(link.group(1).replace("&amp;", "&"), headers=HTML)
    assert shared.status_code == 200
    text = shared.get_data(as_text=True)
    assert 'data-verdict="errors"' in text and 'data-field="p0.g0.grand_total"' in text
    # a link that is not one is a page that says so, not a crash
    for bad in ("/v", "/v?s=abc", "/v?s=" + "A" * (share.MAX_SHARE + 4),
                "/v?s=" + share.encode({"players": "nope"})):
        r = client.get(bad, headers=HTML)
        assert r.status_code == 400 and r.mimetype == "text/html", bad
    # a sheet too big for an address gets no link
    assert share.share_url({"x": "".join(f"{i:x}" for i in range(5000))}) is None


def test_chart_axes_tell_games_of_a_day_apart_and_reach_the_top_score() -> None:
    line = charts.line_chart("s", ["26 Nov", "26 Nov", "27 Nov"], [200.0, 419.0, 250.0])
    assert [p["label"] for p in line["points"]] == ["26 Nov #1", "26 Nov #2", "27 Nov"]
    assert max(float(t["label"]) for t in line["yticks"]) >= 419
    h = charts.histogram("d", [("Ann", "s1", [419, 250, 30]), ("optimal", "s2", [250.0])])
    rows = [r[0] for r in h["table"]["rows"]]
    assert rows[-1] == "400-424" and rows[0] == "25-49"
    assert int(h["xticks"][-1]["label"]) >= 419


def _backup(tmp_path: Path) -> tuple[dict[str, object], str]:
    other = make_app(tmp_path / "other")
    try:
        c = other.test_client()
        g = c.post("/api/v1/groups", json={"name": "Tuesday table"}).json
        assert g is not None
        h = {"Authorization": f"Bearer {g['token']}"}
        body = {"played_on": "2026-11-26", "sheet": {"players": [
            {"name": "Ann", "games": [full_game()]}, {"name": "Ben", "games": [full_game()]}]}}
        assert c.post(f"/api/v1/groups/{g['id']}/matches", json=body, headers=h).status_code == 201
        backup = c.get(f"/api/v1/groups/{g['id']}/backup", headers=h)
        assert backup.status_code == 200
        return json.loads(backup.data), g["token"]
    finally:
        other.extensions["scorepad.engine"].dispose()


def test_a_lost_group_is_restored_from_its_backup_on_my_groups(client: FlaskClient,
                                                                tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    backup, token = _backup(tmp_path)
    page = client.get("/groups").get_data(as_text=True)
    assert 'id="restore-form"' in page and 'enctype="multipart/form-data"' in page

    def send(tok: str, csrf: bool = True, data: bytes | None = None) -> tuple[int, str]:
        form: dict[str, object] = {"token": tok, "backup": (
            io.BytesIO(data if data is not None else json.dumps(backup).encode()), "b.json")}
        if csrf:
            form["csrf_token"] = csrf_token(client)
        r = client.post("/groups/restore", data=form, content_type="multipart/form-data",
                        headers=HTML)
        return r.status_code, r.get_data(as_text=True)

    assert send(token, csrf=False)[0] == 400  # no CSRF token: refused
    assert send("not-a-key")[0] == 422
    assert send(token, data=b"{}")[0] == 422
    status, text = send("spg_" + "x" * 43)
    assert status == 403 and "not the key" in text
    status, text = send(f"http://x/g/abc#join={token}")  # the invite link pasted whole
    assert status == 201, text
    assert "Restored Tuesday table with 1 match" in text
    link = re.search(r'href="/g/(\w+)#join=([^"]+)" id="restored-link"', text)
    assert link and link.group(2) == token
    h = {"Authorization": f"Bearer {token}"}
    restored = client.get(f"/api/v1/groups/{link.group(1)}/matches", headers=h)
    assert restored.status_code == 200
    status, text = send(token)  # the group is here now: nothing to restore
    assert status == 409 and "still here" in text
