"""Issue 15 without a browser: one slip shows once (its carried totals under it), the rule
sets and the rules in words, and what screen readers hear."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .conftest import csrf_token, make_app
from .fakescan import FakeScanner
from .test_scan_doubts import tags

KEYS = ["aces", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
        "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance"]
ANN = [3, 6, 9, 12, 15, 18, 24, 0, 25, 30, 40, 50, 22]  # upper 63 (+35), lower 191: 289


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    app: Flask = make_app(tmp_path, WEB_SCANNER=FakeScanner())
    yield app.test_client()
    app.extensions["scorepad.engine"].dispose()


def _slip_card(client: FlaskClient) -> str:
    """Ann's upper TOTAL SCORE added up 10 too high: the later totals carry the slip."""
    form = {"csrf_token": csrf_token(client), "players": "1", "games": "1", "rules": "hasbro",
            "p0.name": "Ann", **{f"p0.g0.{k}": str(v) for k, v in zip(KEYS, ANN, strict=True)},
            "p0.g0.upper_total_score": "73", "p0.g0.upper_bonus": "35",
            "p0.g0.upper_total": "108", "p0.g0.upper_total_repeat": "108",
            "p0.g0.lower_total": "191", "p0.g0.grand_total": "299"}
    r = client.post("/check", data=form)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def test_a_slip_shows_once_with_its_consequences_under_it(client: FlaskClient) -> None:
    page = _slip_card(client)
    found = [a for t, a in tags(page) if t == "li" and "finding" in a.get("class", "").split()]
    causes = [f for f in found if not f.get("data-cause")]
    carried = [f for f in found if f.get("data-cause")]
    assert [f["data-field"] for f in causes] == ["upper_total_score"]
    assert {f["data-field"] for f in carried} == {"upper_total", "upper_total_repeat",
                                                 "grand_total"}
    cause_id = causes[0]["id"]
    assert all(f["data-cause"] == cause_id for f in carried)
    assert causes[0]["data-consequences"] == str(len(carried))
    # the verdict counts the slip once
    verdict = next(a for t, a in tags(page) if "verdict" in a.get("class", "").split())
    assert verdict["data-slips"] == "1"
    # the quick links at the top name the cause only
    jump = [a["href"] for t, a in tags(page) if t == "a" and a.get("data-jump")]
    assert jump == ["#" + cause_id]


def test_rules_in_words_quoted_and_no_codes_read_aloud(client: FlaskClient) -> None:
    from api.web.common import RULE_WORDS
    from scorepad.rules import book_quotes

    page = _slip_card(client)
    at = tags(page)
    # the rule set by what it is; its name stays a data attribute
    assert any(a.get("data-rule-set") == "hasbro" and "rs-words" in a.get("class", "")
               for _, a in at)
    assert RULE_WORDS["hasbro"] in page
    # each cited passage is quoted from the rule-set data, its book reference a detail
    quotes = [a["data-cite"] for _, a in at if "quote" in a.get("class", "").split()]
    assert "001:166-172" in quotes
    assert book_quotes()["001:166-172"] in page
    # no code reaches a screen reader
    labels = [a["aria-label"] for _, a in at if "aria-label" in a]
    assert labels and not [x for x in labels if re.search(r"\b[A-Z]{2,}_[A-Z_]{2,}\b", x)]
    home = client.get("/").get_data(as_text=True)
    names = [a["data-rule-set"] for _, a in tags(home) if "rule-name" in a.get("class", "")]
    assert names == ["hasbro", "classic", "travel"]
    assert all(RULE_WORDS[n] in home for n in names)


def test_a_sideways_photo_is_shown_upright(client: FlaskClient) -> None:
    import io

    from PIL import Image

    im = Image.new("RGB", (300, 120), (250, 248, 240))
    exif = im.getexif()
    exif[0x0112] = 6  # taken sideways: turn 90° clockwise to view
    raw = io.BytesIO()
    im.save(raw, "JPEG", exif=exif)
    r = client.post("/scan", data={"csrf_token": csrf_token(client),
                                   "photo": (io.BytesIO(raw.getvalue()), "pad.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    sid = r.headers["Location"].rstrip("/").split("/")[-1]
    shown = Image.open(io.BytesIO(client.get(f"/scan/{sid}/photo").data))
    assert shown.size == (120, 300)


def test_wins_count_alike_on_the_verdict_and_in_the_statistics(client: FlaskClient) -> None:
    """A card of one player: the verdict's Won column counts what the leaderboard and the
    CSV count (no win in a game played alone), and the pages say what a win is."""
    from scorepad.stats import StoredMatch, games_of, leaderboard

    page = _slip_card(client)
    won = [a["data-won"] for _, a in tags(page) if "data-won" in a]
    rule = [a for _, a in tags(page) if "data-win-rule" in a]
    assert rule and rule[0]["data-rank-by"] == "total"
    game = {"boxes": dict(zip(KEYS, ANN, strict=True)), "yahtzee_bonus_checks": 0}
    sheet = {"rules": "hasbro", "players": [{"name": "Ann", "games": [game]}]}
    board = leaderboard(games_of(StoredMatch("m", 1, None, None, sheet)))
    assert won == [str(r["wins"]) for r in board] == ["0"]
    # the group's leaderboard states its ranking rule
    g = client.post("/api/v1/groups", json={"name": "club"}).json
    assert g is not None
    h = {"Authorization": f"Bearer {g['token']}"}
    two = {**sheet, "players": [{"name": "Ann", "games": [game]}, {"name": "Bo", "games": [game]}]}
    r = client.post(f"/api/v1/groups/{g['id']}/matches", json={"sheet": two}, headers=h)
    assert r.status_code == 201, r.json
    part = client.get(f"/g/{g['id']}/part/overview", headers=h).get_data(as_text=True)
    rule = [a for _, a in tags(part) if "data-win-rule" in a]
    assert rule and rule[0]["data-rank-by"] == "wins"


class BackScanner(FakeScanner):
    """A PLAYERS' SCORES sheet of two players whose names could not be read."""

    def __call__(self, data: bytes, rules: str, corners: Any = None) -> dict[str, Any]:
        self.calls += 1
        cells, players = [], []
        for col in range(2):
            x = 200 + 90 * col
            cells.append({"row": "name", "field": "name", "column": col, "game": None,
                          "kind": "text", "value": None, "confidence": 0.0,
                          "status": "unreadable", "inferred": False, "candidates": [],
                          "box": [x, 10, x + 90, 40], "readers": {}})
            for g in range(2):
                cells.append({"row": f"g{g}", "field": "game", "column": col, "game": g,
                              "kind": "number", "value": 200 + g, "confidence": 0.97,
                              "status": "confident", "inferred": False, "candidates": [],
                              "box": [x, 50 + 34 * g, x + 90, 84 + 34 * g], "readers": {}})
            players.append({"name": f"Player {col + 1}", "games": [],
                            "players_scores": {"games": [200, 201], "total": 401}})
        return {"sheet": {"format": "scorepad/sheet@1", "rules": rules, "title": None,
                          "players": players},
                "side": "back", "rotation": 0, "match_score": 0.9, "engine": "fake",
                "seconds": 0.01, "corners": [[10, 10], [300, 10], [300, 200], [10, 200]],
                "corners_given": False, "counts": {}, "cells": cells}


def test_unread_names_count_as_unsure(tmp_path: Path) -> None:
    import io

    app = make_app(tmp_path, WEB_SCANNER=BackScanner())
    try:
        c = app.test_client()
        r = c.post("/scan", data={"csrf_token": csrf_token(c),
                                  "photo": (io.BytesIO(FakeScanner().photo()), "pad.jpg")},
                   content_type="multipart/form-data", follow_redirects=True)
        page = r.get_data(as_text=True)
        intro = next(a for _, a in tags(page) if a.get("id") == "review-intro")
        assert (intro["data-unsure"], intro["data-left"]) == ("2", "2")
        confirms = {a["name"]: a.get("value", "") for t, a in tags(page)
                    if t == "input" and a.get("name", "").startswith("confirm.")}
        assert confirms == {"confirm.p0.name": "", "confirm.p1.name": ""}  # none looked at yet
        flags = [a["data-field"] for _, a in tags(page) if "flag-btn" in a.get("class", "")]
        assert flags == ["p0.name", "p1.name"]
        check = next(a for _, a in tags(page) if a.get("id") == "check-btn")
        assert check["data-flagged"] == "2"
    finally:
        app.extensions["scorepad.engine"].dispose()


def test_a_saved_match_shows_its_card_findings_and_old_versions(client: FlaskClient) -> None:
    g = client.post("/api/v1/groups", json={"name": "club"}).json
    assert g is not None
    h = {"Authorization": f"Bearer {g['token']}"}
    game = {"boxes": dict(zip(KEYS, ANN, strict=True)), "yahtzee_bonus_checks": 0,
            "totals": {"grand_total": 299}}
    sheet = {"rules": "hasbro", "players": [{"name": "Ann", "games": [game]}]}
    r = client.post(f"/api/v1/groups/{g['id']}/matches", headers=h,
                    json={"sheet": sheet, "played_on": "2026-09-01", "place": "kitchen"})
    assert r.status_code == 201, r.json
    mid = r.json["id"]
    fixed = {**sheet, "players": [{"name": "Ann", "games": [{**game, "totals": {}}]}]}
    r = client.put(f"/api/v1/groups/{g['id']}/matches/{mid}", headers=h,
                   json={"sheet": fixed, "played_on": "2026-09-01", "place": "kitchen"})
    assert r.status_code == 200, r.json
    # version 2 is right; version 1 (with its error) can be opened again
    part = client.get(f"/g/{g['id']}/part/m/{mid}", headers=h).get_data(as_text=True)
    at = tags(part)
    card = next(a for _, a in at if "saved-card" in a.get("class", "").split())
    assert (card["data-verdict"], card["data-errors"]) == ("correct", "0")
    assert [a["data-field"] for t, a in at if t == "td" and "data-field" in a]
    old = [a["data-version"] for t, a in at if t == "button" and "data-version" in a]
    assert old == ["1"]
    form = {a["name"]: a.get("value", "") for t, a in at if t == "input" and a.get("name")
            and a.get("name") != "sheet_json"}
    assert form["correct"] == f"{g['id']}:{mid}" and "2026-09-01" in form["correct_label"]
    # 'Correct the card' says which match is being corrected
    r = client.post("/pad", data={"csrf_token": csrf_token(client), "correct": form["correct"],
                                  "correct_label": form["correct_label"],
                                  "sheet_json": json.dumps(sheet)})
    pad_page = r.get_data(as_text=True)
    note = next(a for _, a in tags(pad_page) if a.get("id") == "correcting")
    assert note["data-correct"] == form["correct"] and "kitchen" in pad_page
    # the old version with its error: its card and finding show once it is current again
    r = client.put(f"/api/v1/groups/{g['id']}/matches/{mid}", headers=h,
                   json={"sheet": sheet, "played_on": "2026-09-01", "place": "kitchen"})
    part = client.get(f"/g/{g['id']}/part/m/{mid}", headers=h).get_data(as_text=True)
    card = next(a for _, a in tags(part) if "saved-card" in a.get("class", "").split())
    assert card["data-errors"] == "1"
    codes = [a["data-code"] for t, a in tags(part) if t == "li" and "data-code" in a]
    assert "TOTAL_ARITHMETIC" in codes
