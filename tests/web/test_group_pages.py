"""The group's pages are pages: 25 matches at a time, a player's latest 100 games."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.conftest import full_game

from .conftest import make_app


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path)
    yield app
    app.extensions["scorepad.engine"].dispose()


def _group(client: FlaskClient, matches: int, games: int) -> tuple[str, dict[str, str]]:
    g = client.post("/api/v1/groups", json={"name": "club"}).json
    assert g is not None
    h = {"Authorization": f"Bearer {g['token']}"}
    for i in range(matches):
        body = {"played_on": f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}", "sheet": {"players": [
            {"name": "Ann", "games": [full_game(aces=i % 4) for _ in range(games)]},
            {"name": "Bob", "games": [full_game() for _ in range(games)]}]}}
        r = client.post(f"/api/v1/groups/{g['id']}/matches", json=body, headers=h)
        assert r.status_code == 201, r.json
    return g["id"], h


def test_the_overview_lists_matches_a_page_at_a_time(client: FlaskClient) -> None:
    gid, h = _group(client, 27, 1)
    shell = client.get(f"/g/{gid}?page=2").get_data(as_text=True)
    assert f'data-url="/g/{gid}/part/overview?page=2"' in shell
    first = client.get(f"/g/{gid}/part/overview", headers=h).get_data(as_text=True)
    assert first.count(f'href="/g/{gid}/m/') == 25
    assert f'href="/g/{gid}?page=2"' in first and 'rel="prev"' not in first
    second = client.get(f"/g/{gid}/part/overview?page=2", headers=h).get_data(as_text=True)
    assert second.count(f'href="/g/{gid}/m/') == 2
    assert f'href="/g/{gid}?page=1"' in second and 'rel="next"' not in second
    ids = re.findall(rf'href="/g/{gid}/m/(\w+)"', first + second)
    assert len(set(ids)) == 27  # every match once, newest first
    beyond = client.get(f"/g/{gid}/part/overview?page=99", headers=h)
    assert beyond.status_code == 200 and f'href="/g/{gid}/m/' not in beyond.get_data(as_text=True)


def test_a_players_page_charts_the_latest_games_then_earlier_pages(client: FlaskClient) -> None:
    gid, h = _group(client, 26, 4)  # 104 finished games each
    latest = client.get(f"/g/{gid}/part/players/Ann", headers=h)
    assert latest.status_code == 200
    text = latest.get_data(as_text=True)
    assert "104" in text and f'href="/g/{gid}/players/Ann?page=2"' in text
    earlier = client.get(f"/g/{gid}/part/players/Ann?page=2", headers=h).get_data(as_text=True)
    assert f'href="/g/{gid}/players/Ann?page=1"' in earlier
    assert 'rel="next"' not in earlier  # the first four games are the last page
    shell = client.get(f"/g/{gid}/players/Ann?page=2").get_data(as_text=True)
    assert f'data-url="/g/{gid}/part/players/Ann?page=2"' in shell


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()
