"""A verdict on a reviewed photo knows how each cell was read: a confident misreading that
explains an error is a doubt ("check this box on the photo"), never an accusation; once a
person has confirmed the cell, the same error is an error. Saved, the sheet keeps its
readings."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from .conftest import csrf_token, make_app
from .fakescan import FakeScanner

GT = "p0.g0.grand_total"
# The card adds up to 235; the reader is sure it saw 285 (an 8 for a 3), 235 its runner-up.
MISREAD = {"grand_total": ("confident", 285, [285, 235])}


class _Tags(HTMLParser):
    """Every start tag with its attributes, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def tags(page: str) -> list[tuple[str, dict[str, str]]]:
    p = _Tags()
    p.feed(page)
    return p.tags


def with_class(page: str, cls: str) -> list[dict[str, str]]:
    return [a for _, a in tags(page) if cls in a.get("class", "").split()]


def sheet_data(page: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="sheet-data">(.*?)</script>', page, re.S)
    assert m
    data: dict[str, Any] = json.loads(m.group(1))
    return data


def form_fields(page: str, form_id: str) -> list[tuple[str, str]]:
    """The named inputs (not buttons) of one form, as a browser would send them."""
    inside, out = False, []
    for tag, a in tags(page):
        if tag == "form":
            inside = a.get("id") == form_id
        elif inside and tag == "input" and a.get("name"):
            out.append((a["name"], html.unescape(a.get("value", ""))))
    return out


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path, WEB_SCANNER=FakeScanner(unsure=MISREAD))
    yield app
    app.extensions["scorepad.engine"].dispose()


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()




def _reviewed(client: FlaskClient) -> tuple[str, dict[str, str]]:
    """Upload the photo; the scan id and the review form as it comes (nothing flagged)."""
    tok = csrf_token(client)
    r = client.post("/scan", data={"csrf_token": tok,
                                   "photo": (io.BytesIO(FakeScanner().photo()), "pad.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    sid = r.headers["Location"].rsplit("/", 1)[1]
    review = client.get(r.headers["Location"]).get_data(as_text=True)
    form = dict(form_fields(review, "pad-form"))
    assert form["scan_id"] == sid and not any(k.startswith("confirm.") for k in form)
    return sid, form


def _findings(page: str) -> list[tuple[str, str, str]]:
    return [(a["data-code"], a["class"].split()[-1], a["data-cell"])
            for a in with_class(page, "finding")]


def test_a_confident_misreading_is_a_doubt_with_its_crop(client: FlaskClient) -> None:
    sid, form = _reviewed(client)
    assert form[GT] == "285"
    r = client.post("/check", data=form)
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    verdict = with_class(page, "verdict")[0]
    assert verdict["data-verdict"] == "unsure" and verdict["data-doubt-cells"] == "1"
    assert _findings(page) == [("TOTAL_ARITHMETIC", "sev-doubt", GT)]
    doubt = with_class(page, "finding")[0]
    assert doubt["data-reason"] == "other_reading" and doubt["data-severity"] == "doubt"
    cell = with_class(page, "doubt-cell")
    assert [(c["data-cell"], c["data-read"], c["data-status"], c["data-right-if"])
            for c in cell] == [(GT, "285", "confident", "235")]
    # the cell's crop from the stored photo, and the way back to the review for that cell
    crop = with_class(page, "crop")
    assert len(crop) == 1
    assert re.fullmatch(rf"/scan/{sid}/cell/\d+\.png", crop[0]["src"])
    assert client.get(crop[0]["src"]).mimetype == "image/png"
    buttons = [a for t, a in tags(page) if t == "button" and a.get("name") == "check"]
    assert [b["value"] for b in buttons] == [GT]
    # the pad marks the cell as a doubt, not an error
    marked = [a for t, a in tags(page) if t == "td" and a.get("data-field") == GT]
    assert "sev-doubt" in marked[0]["class"].split()
    # the audited (and saved) sheet carries the reader's own reading
    reading = sheet_data(page)["players"][0]["games"][0]["readings"]["grand_total"]
    assert reading["status"] == "confident" and reading["candidates"] == [235]


def test_the_same_cell_confirmed_on_the_review_is_an_error(client: FlaskClient) -> None:
    sid, form = _reviewed(client)
    page = client.post("/check", data=form).get_data(as_text=True)
    # "Correct it on the review": back to the review with that cell to confirm
    back = form_fields(page, "recheck-form") + [("check", GT)]
    r = client.post(f"/scan/{sid}/recheck", data=MultiDict(back))
    assert r.status_code == 200
    review = r.get_data(as_text=True)
    again = dict(form_fields(review, "pad-form"))
    assert again["confirm." + GT] == "" and again["recheck"] == GT and again[GT] == "285"
    assert [b["data-field"] for b in with_class(review, "flag-btn")] == [GT]
    # not checked before the cell is confirmed
    assert client.post("/check", data=again).status_code == 422
    # the person looks at the photo: it does say 285
    r = client.post("/check", data={**again, "confirm." + GT: "1"})
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert with_class(page, "verdict")[0]["data-verdict"] == "errors"
    assert _findings(page) == [("TOTAL_ARITHMETIC", "sev-error", GT)]
    assert not with_class(page, "doubt-cell")
    reading = sheet_data(page)["players"][0]["games"][0]["readings"]["grand_total"]
    assert reading["status"] == "confirmed"
    # or it says 235: corrected, the card is right
    r = client.post("/check", data={**again, "confirm." + GT: "1", GT: "235"})
    page = r.get_data(as_text=True)
    assert with_class(page, "verdict")[0]["data-verdict"] == "correct"
    assert _findings(page) == []


def test_a_value_changed_on_the_review_is_one_a_person_looked_at(client: FlaskClient) -> None:
    _, form = _reviewed(client)
    page = client.post("/check", data={**form, GT: "280"}).get_data(as_text=True)
    assert _findings(page) == [("TOTAL_ARITHMETIC", "sev-error", GT)]
    readings = sheet_data(page)["players"][0]["games"][0]["readings"]
    assert readings["grand_total"]["status"] == "confirmed"
    assert readings["aces"]["status"] == "confident"  # untouched: the reader's own
    # a box the reader saw blank, filled in by the person, is theirs too
    page = client.post("/check", data={**form, "p0.g0.yahtzee_bonus_checks": "1",
                                       "p0.g0.yahtzee": "50"}).get_data(as_text=True)
    readings = sheet_data(page)["players"][0]["games"][0]["readings"]
    assert readings["yahtzee_bonus_checks"]["status"] == "confirmed"
    assert readings["yahtzee"]["status"] == "confirmed"


def test_a_reviewed_scan_saved_into_a_group_keeps_its_readings(client: FlaskClient) -> None:
    _, form = _reviewed(client)
    sheet = sheet_data(client.post("/check", data=form).get_data(as_text=True))
    # what the verdict page's Save button sends (app.js: the sheet-data JSON as it is)
    g = client.post("/api/v1/groups", json={"name": "club"}).json
    assert g is not None
    h = {"Authorization": f"Bearer {g['token']}"}
    m = client.post(f"/api/v1/groups/{g['id']}/matches", json={"sheet": sheet}, headers=h)
    assert m.status_code == 201 and m.json is not None
    assert m.json["audit"]["verdict"] == "unsure"
    stored = client.get(f"/api/v1/groups/{g['id']}/matches/{m.json['id']}", headers=h).json
    assert stored is not None
    want = sheet["players"][0]["games"][0]["readings"]
    assert stored["sheet"]["players"][0]["games"][0]["readings"] == want
    assert want["grand_total"]["status"] == "confident"
