"""The web pages without a browser: CSRF, the pad form <-> sheet JSON, fragments, charts."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.web import charts, pad
from scorepad import audit_sheet, load_sheet

from .conftest import ROOT, csrf_token, make_app
from .fakescan import FakeScanner

PADS = ROOT / "sample_pads"


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path, WEB_SCANNER=FakeScanner())
    yield app
    app.extensions["scorepad.engine"].dispose()


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()




def test_pages_render_with_security_headers(client: FlaskClient) -> None:
    for url in ("/", "/pad", "/pad?players=3&games=6&rules=travel", "/groups", "/g/abc"):
        r = client.get(url)
        assert r.status_code == 200, url
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    r = client.get("/web-static/app.js")
    assert r.status_code == 200
    r.close()


def test_the_pages_script_is_modules_all_preloaded(client: FlaskClient) -> None:
    """app.js is an ES module importing js/*.js (script-src 'self' allows them); the page
    preloads every one of them, and each is served as JavaScript."""
    static = Path(__file__).resolve().parents[2] / "api" / "web" / "static"
    modules = sorted(p.name for p in (static / "js").glob("*.js"))
    page = client.get("/pad").get_data(as_text=True)
    assert '<script type="module" src="/web-static/app.js">' in page
    assert sorted(re.findall(r'<link rel="modulepreload" href="/web-static/js/([a-z]+\.js)">',
                             page)) == modules
    for name in ["app.js", *(f"js/{m}" for m in modules)]:
        r = client.get(f"/web-static/{name}")
        assert r.status_code == 200 and r.mimetype == "text/javascript", name
        r.close()


def test_state_changing_posts_need_the_csrf_token(client: FlaskClient) -> None:
    form = {"players": "1", "games": "1", "p0.name": "Ann", "p0.g0.aces": "3"}
    assert client.post("/check", data=form).status_code == 400
    assert client.post("/check", data={**form, "csrf_token": "forged"}).status_code == 400
    assert client.post("/pad", data={"action": "add_player"}).status_code == 400
    photo = FakeScanner().photo()
    r = client.post("/scan", data={"photo": (io.BytesIO(photo), "pad.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 400
    tok = csrf_token(client)
    r = client.post("/check", data={**form, "csrf_token": tok})
    assert r.status_code == 200 and b'class="verdict' in r.data
    # another browser (another session) cannot reuse the token
    other = client.application.test_client()
    assert other.post("/check", data={**form, "csrf_token": tok}).status_code == 400


def test_nothing_is_verified_before_the_unsure_cells_are_confirmed(client: FlaskClient) -> None:
    tok = csrf_token(client)
    photo = FakeScanner().photo()
    r = client.post("/scan", data={"csrf_token": tok, "photo": (io.BytesIO(photo), "pad.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    review = client.get(r.headers["Location"])
    assert review.status_code == 200
    sid = r.headers["Location"].rsplit("/", 1)[1]
    fields = dict(re.findall(r'name="(p0\.[^"]+)" value="([^"]*)"', review.text))
    base = {"csrf_token": tok, "scan_id": sid, "players": "1", "games": "1", **fields}
    r = client.post("/check", data=base)
    assert r.status_code == 422 and b'class="verdict' not in r.data
    partly = {**base, "confirm.p0.g0.aces": "1", "confirm.p0.g0.full_house": "1"}
    assert client.post("/check", data=partly).status_code == 422
    done = {**partly, "confirm.p0.g0.chance": "1", "p0.g0.chance": "22"}
    r = client.post("/check", data=done)
    assert r.status_code == 200 and b'class="verdict' in r.data
    # the crop of an unsure cell, and the photo
    assert client.get(f"/scan/{sid}/photo").mimetype == "image/jpeg"
    assert client.get(f"/scan/{sid}/cell/1.png").mimetype == "image/png"
    assert client.get("/scan/../../etc/photo").status_code == 404
    assert client.get("/scan/nope-nope-nope-nope-nope/photo").status_code == 404


def test_fragments_need_the_group_token(client: FlaskClient) -> None:
    g = client.post("/api/v1/groups", json={"name": "club"}).json
    assert g is not None
    assert client.get(f"/g/{g['id']}/part/overview").status_code == 401
    other = client.post("/api/v1/groups", json={"name": "other"}).json
    assert other is not None
    h = {"Authorization": f"Bearer {other['token']}"}
    assert client.get(f"/g/{g['id']}/part/overview", headers=h).status_code == 404
    h = {"Authorization": f"Bearer {g['token']}"}
    r = client.get(f"/g/{g['id']}/part/overview", headers=h)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    assert client.get(f"/g/{g['id']}/part/players/nobody", headers=h).status_code == 404


def _sample_sheets() -> list[str]:
    names = []
    for p in sorted(PADS.glob("*.json")):
        if p.name.endswith(".expect.json"):
            continue
        data = json.loads(p.read_text())
        if any(g and g.get("turns") for pl in data["players"] for g in pl.get("games") or []):
            continue  # the on-screen pad has no turn log
        names.append(p.stem)
    return names


@pytest.mark.parametrize("name", _sample_sheets())
def test_the_pad_form_keeps_every_sample_verdict(name: str) -> None:
    data: dict[str, Any] = json.loads((PADS / f"{name}.json").read_text())
    values, players, games, with_ps = pad.values_from_sheet(data)
    form = {k: str(v) for k, v in values.items()}
    form.update(players=str(players), games=str(games), players_scores="1" if with_ps else "")
    rules = data.get("rules") if isinstance(data.get("rules"), str) else None
    back = pad.sheet_from_form(form, rules or "hasbro")
    if not isinstance(data.get("rules"), str | None):
        back["rules"] = data["rules"]
    typed = json.loads(json.dumps(data))  # the form holds values, not how they were read
    for pl in typed["players"]:
        for part in [*(pl.get("games") or []), pl.get("players_scores")]:
            if part:
                part.pop("readings", None)
    before = sorted((f.code, f.player, f.game, f.field)
                    for f in audit_sheet(load_sheet(typed)).findings)
    after = sorted((f.code, f.player, f.game, f.field)
                   for f in audit_sheet(load_sheet(back)).findings)
    assert after == before


def test_bad_numbers_are_named() -> None:
    with pytest.raises(pad.FormError) as exc:
        pad.sheet_from_form({"players": "1", "p0.g0.aces": "three", "p0.g0.twos": "-"}, "hasbro")
    assert [f for f, _ in exc.value.errors] == ["p0.g0.aces"]
    sheet = pad.sheet_from_form({"players": "1", "p0.g0.twos": "-"}, "hasbro")
    assert sheet["players"][0]["games"][0]["boxes"] == {"twos": 0}


def test_chart_geometry() -> None:
    h = charts.histogram("d", [("a", "s1", [100, 250, 260, 390]), ("b", "s2", [250.0] * 3)])
    for name in ("a", "b"):
        shares = [float(r[1 + (name == "b")].rstrip("%")) for r in h["table"]["rows"]]
        assert abs(sum(shares) - 100) < 1
    line = charts.line_chart("s", ["x"], [200.0], reference=254.59)
    assert len(line["points"]) == 1
    assert all(0 <= p["y"] <= charts.H for p in line["points"])
    hb = charts.hbars("b", ["u"], [("a", "s1", [85.0])], unit="%", max_value=100)
    assert hb["bars"][0]["tx"] < charts.W
    normal, source = charts.optimal_scores("hasbro", "normal")
    assert isinstance(normal, list) and len(normal) == 400 and "254.59" in source
    assert abs(sum(normal) / len(normal) - 254.59) < 1
    shipped, source = charts.optimal_scores("hasbro", "auto")
    assert isinstance(shipped, dict) and "optimal play" in source
    games = sum(shipped.values())
    assert abs(sum(s * n for s, n in shipped.items()) / games - 254.59) < 1.5
    h = charts.histogram("d", [("optimal", "s2", shipped)])
    assert abs(sum(float(r[1].rstrip("%")) for r in h["table"]["rows"]) - 100) < 4  # rounding


def _form_fields(html: str) -> dict[str, str]:
    out = {}
    for tag in re.findall(r"<input[^>]*>", html):
        n = re.search(r'name="((?:p\d|confirm\.)[^"]*)"', tag)
        v = re.search(r'value="([^"]*)"', tag)
        if n:
            out[n.group(1)] = v.group(1) if v else ""
    return out


def test_a_card_with_bonus_yahtzees_shows_the_witness_order(client: FlaskClient) -> None:
    tok = csrf_token(client)
    sheet = (PADS / "perfect_1575.json").read_text()
    r = client.post("/pad", data={"csrf_token": tok, "sheet_json": sheet})
    assert r.status_code == 200
    form = {**_form_fields(r.text), "csrf_token": tok, "players": "1", "games": "1",
            "rules": "hasbro"}
    r = client.post("/check", data=form)
    assert r.status_code == 200
    assert 'data-verdict="correct"' in r.text
    turns = re.search(r'<ol class="turns">(.*?)</ol>', r.text, re.S)
    assert turns and turns.group(1).count("<li>") == 13
    assert turns.group(1).count("bonus ✓") == 12


def test_a_photo_that_cannot_be_read_says_what_to_do(tmp_path: Path) -> None:
    from api.web import ScanFailed

    def failing(data: bytes, rules: str) -> dict[str, Any]:
        raise ScanFailed("not_a_pad", "no pad found")

    app = make_app(tmp_path, WEB_SCANNER=failing)
    try:
        c = app.test_client()
        tok = csrf_token(c)
        r = c.post("/scan", data={"csrf_token": tok, "photo": (io.BytesIO(b"x"), "p.jpg")},
                   content_type="multipart/form-data")
        assert r.status_code == 422
        assert b'role="alert" data-code="not_a_pad"' in r.data
        r = c.post("/scan", data={"csrf_token": tok}, content_type="multipart/form-data")
        assert r.status_code == 422
    finally:
        app.extensions["scorepad.engine"].dispose()


def _corner_fields(html: str) -> dict[str, str]:
    return dict(re.findall(r'name="(c[0-3][xy])" value="([^"]*)"', html))


def test_a_pad_not_found_is_no_dead_end_its_corners_are_marked(tmp_path: Path) -> None:
    scanner = FakeScanner()
    scanner.find_pad = False
    app = make_app(tmp_path, WEB_SCANNER=scanner)
    try:
        c = app.test_client()
        tok = csrf_token(c)
        photo = scanner.photo()
        r = c.post("/scan", data={"csrf_token": tok, "photo": (io.BytesIO(photo), "pad.jpg")},
                   content_type="multipart/form-data")
        assert r.status_code == 303 and r.headers["Location"].endswith("/corners")
        corners_url = r.headers["Location"]
        sid = corners_url.split("/")[-2]
        assert c.get(f"/scan/{sid}").headers["Location"].endswith("/corners")  # no review yet
        page = c.get(corners_url)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert 'id="corners-error"' in html and html.count('class="corner-handle"') == 4
        from PIL import Image
        w, h = Image.open(io.BytesIO(photo)).size
        assert _corner_fields(html) == {  # 10% in from the photo's corners
            "c0x": str(round(0.1 * w)), "c0y": str(round(0.1 * h)),
            "c1x": str(round(0.9 * w)), "c1y": str(round(0.1 * h)),
            "c2x": str(round(0.9 * w)), "c2y": str(round(0.9 * h)),
            "c3x": str(round(0.1 * w)), "c3y": str(round(0.9 * h))}
        marked = {"c0x": "12", "c0y": "11", "c1x": "300", "c1y": "9", "c2x": "301",
                  "c2y": "870", "c3x": "9", "c3y": "872"}
        assert c.post(corners_url, data=marked).status_code == 400  # the CSRF token
        r = c.post(corners_url, data={**marked, "csrf_token": tok, "c2y": "far"})
        assert r.status_code == 422 and 'role="alert"' in r.get_data(as_text=True)
        assert scanner.calls == 1  # not read with a corner missing
        r = c.post(corners_url, data={**marked, "csrf_token": tok})
        assert r.status_code == 303
        assert scanner.corners[-1] == [(12.0, 11.0), (300.0, 9.0), (301.0, 870.0), (9.0, 872.0)]
        review = r.headers["Location"]
        new_sid = review.rsplit("/", 1)[-1]
        assert new_sid != sid  # a new id: no crop of the old reading from a cache
        r = c.get(review)
        assert r.status_code == 200 and "td" in r.get_data(as_text=True)
        assert c.get(f"/scan/{new_sid}/photo").data == c.get(f"/scan/{sid}/photo").data
        # the review offers the editor again, with the corners the reader used
        assert f'href="/scan/{new_sid}/corners"' in r.get_data(as_text=True)
        again = c.get(f"/scan/{new_sid}/corners").get_data(as_text=True)
        assert _corner_fields(again) == marked
        assert 'id="corners-error"' not in again
        assert f'href="/scan/{new_sid}" id="corners-cancel"' in again  # back to the review
    finally:
        app.extensions["scorepad.engine"].dispose()


def test_corners_the_reader_cannot_use_say_so_and_keep_the_marks(tmp_path: Path) -> None:
    from api.web import ScanFailed

    def refusing(data: bytes, rules: str, corners: Any = None) -> dict[str, Any]:
        raise ScanFailed("not_a_pad" if corners is None else "bad_corners", "no")

    app = make_app(tmp_path, WEB_SCANNER=refusing)
    try:
        c = app.test_client()
        tok = csrf_token(c)
        r = c.post("/scan", data={"csrf_token": tok,
                                  "photo": (io.BytesIO(FakeScanner().photo()), "p.jpg")},
                   content_type="multipart/form-data")
        url = r.headers["Location"]
        marked = {"c0x": "1", "c0y": "2", "c1x": "3", "c1y": "4", "c2x": "5", "c2y": "6",
                  "c3x": "7", "c3y": "8"}
        r = c.post(url, data={**marked, "csrf_token": tok})
        assert r.status_code == 422
        html = r.get_data(as_text=True)
        assert 'role="alert"' in html and _corner_fields(html) == marked
        assert c.get("/scan/nope-nope-nope-nope-nope/corners").status_code == 404
    finally:
        app.extensions["scorepad.engine"].dispose()


def test_the_pages_inputs_take_what_the_api_takes(client: FlaskClient) -> None:
    from api.schemas import MAX_GROUP_NAME, MAX_NOTE, MAX_PLACE

    page = client.get("/groups").get_data(as_text=True)
    assert f'id="create-name" maxlength="{MAX_GROUP_NAME}"' in page
    tok = csrf_token(client)
    r = client.post("/pad", data={"csrf_token": tok,
                                  "sheet_json": (PADS / "perfect_1575.json").read_text()})
    form = {**_form_fields(r.text), "csrf_token": tok, "players": "1", "games": "1"}
    page = client.post("/check", data=form).get_data(as_text=True)
    assert f'id="place" maxlength="{MAX_PLACE}"' in page
    assert f'id="note" maxlength="{MAX_NOTE}"' in page
