"""The statistics kept up to date on writes equal a full recomputation from the sheets.

Random writes, corrections and deletions through the API, on SQLite and on the real
PostgreSQL; after them every statistics answer (group stats, each player's stats,
every leaderboard, head-to-head, the CSV) is compared with ``scorepad.stats`` run over
every stored sheet, and the stored aggregate rows with rows rebuilt from scratch. The
migration's back-fill is checked the same way.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from flask import Flask
from sqlalchemy import select

from api import aggregates, export, statsread
from api.db import (
    MIGRATIONS,
    StatEntry,
    StatGame,
    StatGroup,
    StatMatch,
    StatPair,
    StatPlayer,
    StatScore,
    engine,
    reading,
    upgrade,
    writing,
)
from api.storage import stored_matches
from scorepad import stats
from scorepad.boxes import ALL_BOXES, Box
from scorepad.rules import REGISTRY

from .conftest import PADS, GroupRef
from .test_postgres import pg_app, pg_schema  # noqa: F401 - fixtures

NAMES = ["Ann", "Bob", "Cy", "Dee", "Éva", "Zoë"]
UPPER = {Box.ACES: 1, Box.TWOS: 2, Box.THREES: 3, Box.FOURS: 4, Box.FIVES: 5, Box.SIXES: 6}
LOWER = {Box.THREE_OF_A_KIND: [0, 12, 17, 24, 29], Box.FOUR_OF_A_KIND: [0, 9, 16, 26],
         Box.FULL_HOUSE: [0, 25], Box.SMALL_STRAIGHT: [0, 30], Box.LARGE_STRAIGHT: [0, 40],
         Box.YAHTZEE: [0, 0, 50], Box.CHANCE: [5, 18, 22, 27, 30]}


def random_game(rng: random.Random) -> dict[str, Any] | None:
    kind = rng.random()
    if kind < 0.08:
        return None  # blank column
    boxes: dict[str, int] = {}
    for b in ALL_BOXES:
        boxes[b.value] = (UPPER[b] * rng.randint(0, 5) if b in UPPER
                          else rng.choice(LOWER[b]))
    if kind < 0.2:  # unfinished
        for b in rng.sample(ALL_BOXES, rng.randint(1, 6)):
            del boxes[b.value]
    game: dict[str, Any] = {"boxes": boxes}
    if boxes.get("yahtzee") == 50 and rng.random() < 0.4:
        game["yahtzee_bonus_checks"] = rng.randint(1, 2)
    return game


def random_body(rng: random.Random) -> dict[str, Any]:
    names = rng.sample(NAMES, rng.randint(1, 4))
    n_games = rng.randint(1, 3)
    players = [{"name": rng.choice([n, n.upper(), n.lower()]),
                "games": [random_game(rng) for _ in range(n_games)]} for n in names]
    body: dict[str, Any] = {"sheet": {"players": players}}
    if rng.random() < 0.5:
        body["sheet"]["rules"] = rng.choice(sorted(REGISTRY))
    if rng.random() < 0.8:  # some undated, several on one day
        body["played_on"] = f"2026-0{rng.randint(1, 3)}-1{rng.randint(0, 3)}"
    if rng.random() < 0.3:
        body["place"] = rng.choice(["home", "=cabin", "Lake"])
    return body


def random_history(g: GroupRef, rng: random.Random, ops: int) -> None:
    ids: list[str] = []
    for _ in range(ops):
        r = rng.random()
        if ids and r < 0.25:
            resp = g.client.put(f"{g.base}/matches/{rng.choice(ids)}", headers=g.headers,
                                json=random_body(rng))
            assert resp.status_code == 200, resp.json
        elif ids and r < 0.35:
            mid = ids.pop(rng.randrange(len(ids)))
            assert g.client.delete(f"{g.base}/matches/{mid}",
                                   headers=g.headers).status_code == 204
        else:
            ids.append(g.post_match(random_body(rng))["id"])


def recomputed(app: Flask, gid: str) -> list[stats.GameRecord]:
    with app.app_context(), reading() as s:
        return stats.all_games(stored_matches(s, gid))


def aggregate_rows(app: Flask, gid: str) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    with app.app_context(), reading() as s:
        for table in (StatGame, StatEntry, StatPlayer, StatScore, StatPair, StatGroup,
                      StatMatch):
            cols = [c for c in table.__table__.columns if c.name != "id"]
            rows = s.execute(select(*cols).where(table.__table__.c.group_id == gid)).all()
            out[table.__tablename__] = sorted(tuple(r) for r in rows)
    return out


def assert_equal_to_recomputation(app: Flask, g: GroupRef) -> None:
    games = recomputed(app, g.id)
    full = stats.group_summary(games)
    st = g.get("/stats?limit=1000").json
    assert st == {"group": g.id, **full, "players_total": len(full["players"]),
                  "limit": 1000, "offset": 0}
    for by in stats.LEADERBOARD_KEYS:
        for min_games in (1, 3):
            rows = g.get(f"/leaderboard?by={by}&min_games={min_games}&limit=1000").json
            assert rows["rows"] == stats.leaderboard(games, by, min_games), (by, min_games)
            assert rows["total"] == len(rows["rows"])
    players = stats.per_player(games)
    for key, ps in players.items():
        name = ps.name.upper() if key.startswith("b") else ps.name
        got = g.get(f"/players/{name}/stats").json
        assert got == {**ps.to_dict(), "head_to_head": stats.head_to_head(games, a=name)}
    assert g.get("/head-to-head?limit=1000").json["records"] == stats.head_to_head(games)
    for a in [*NAMES[:3], "nobody"]:
        for b in (None, "Dee", "zoë"):
            q = f"/head-to-head?a={a}" + (f"&b={b}" if b else "") + "&limit=1000"
            assert g.get(q).json["records"] == stats.head_to_head(games, a, b), (a, b)
        q = f"/head-to-head?b={a}&limit=1000"
        assert g.get(q).json["records"] == stats.head_to_head(games, None, a), a
    r = g.get("/export.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    assert r.get_data(as_text=True) == export.csv_text(games)
    # the stored rows are those a rebuild from the sheets gives
    before = aggregate_rows(app, g.id)
    with app.app_context(), writing() as s:
        aggregates.rebuild_group(s, g.id)
    assert aggregate_rows(app, g.id) == before


@pytest.fixture(params=["sqlite", "postgresql"])
def any_app(request: pytest.FixtureRequest) -> Iterator[Flask]:
    name = "app" if request.param == "sqlite" else "pg_app"
    yield request.getfixturevalue(name)


@pytest.mark.parametrize("seed", [1, 2])
def test_incremental_statistics_equal_full_recomputation(any_app: Flask, seed: int) -> None:
    rng = random.Random(seed)
    g = GroupRef(any_app.test_client())
    random_history(g, rng, 45)
    assert g.get("/stats").json["games"] > 10
    assert_equal_to_recomputation(any_app, g)


def test_pages_of_long_lists(app: Flask) -> None:
    g = GroupRef(app.test_client())
    random_history(g, random.Random(7), 25)
    full = g.get("/stats?limit=1000").json
    page = g.get("/stats?limit=2&offset=1").json
    assert page["players"] == full["players"][1:3]
    assert page["players_total"] == len(full["players"]) and page["limit"] == 2
    board = g.get("/leaderboard?limit=1000").json["rows"]
    assert g.get("/leaderboard?limit=2&offset=2").json["rows"] == board[2:4]
    recs = g.get("/head-to-head?limit=1000").json
    assert g.get("/head-to-head?limit=3&offset=1").json["records"] == recs["records"][1:4]
    matches = g.get("/matches?limit=500").json
    two = g.get("/matches?limit=2&offset=3").json
    assert two["matches"] == matches["matches"][3:5] and two["total"] == matches["total"]
    ann = g.get("/matches?player=ANN&limit=500").json
    assert ann["total"] == len(ann["matches"]) > 0
    assert all("ann" in {p.casefold() for p in m["players"]} for m in ann["matches"])
    for q in ("/stats?limit=1001", "/leaderboard?limit=0", "/head-to-head?offset=-1"):
        assert g.get(q).status_code == 422, q


def test_migration_back_fills_from_stored_sheets(any_app: Flask) -> None:
    g = GroupRef(any_app.test_client())
    random_history(g, random.Random(11), 30)
    with any_app.app_context():
        eng = engine()
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001a_repair_text")  # to before 0002_stats
    upgrade(eng)
    assert_equal_to_recomputation(any_app, g)


def test_deleting_every_match_leaves_no_rows(app: Flask) -> None:
    g = GroupRef(app.test_client())
    random_history(g, random.Random(3), 6)
    for m in g.get("/matches?limit=500").json["matches"]:
        assert g.client.delete(f"{g.base}/matches/{m['id']}", headers=g.headers).status_code \
            == 204
    assert all(rows == [] for rows in aggregate_rows(app, g.id).values())
    st = g.get("/stats").json
    assert (st["games"], st["matches"], st["players"], st["overall"]["average"]) == (0, 0, [], None)
    assert g.get("/export.csv").get_data(as_text=True) == export.csv_text([])


def test_decision_loss_equals_full_recomputation(app: Flask, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Logged games are analysed at read time, once the optimal-play table exists, and
    add up as a full recomputation adds them (the aggregates hold no decision loss)."""
    from scorepad.solver import get_table, table

    monkeypatch.setenv("SCOREPAD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(table, "_MEMO", {})
    g = GroupRef(app.test_client())
    logged = json.loads((PADS / "turn_log_clean_hasbro.json").read_text())
    for day in ("2026-01-02", "2026-01-01", None):
        g.post_match({"played_on": day, "sheet": logged} if day else {"sheet": logged})
    random_history(g, random.Random(5), 8)
    name = logged["players"][0]["name"]
    assert g.get(f"/players/{name}/stats").json["decision_loss"]["games_analysed"] == 0
    get_table("hasbro")
    assert g.get(f"/players/{name}/stats").json["decision_loss"]["games_analysed"] >= 3
    assert_equal_to_recomputation(app, g)


def test_spread_from_counts_is_exactly_that_of_the_list() -> None:
    """Mean, median, best, worst and sd from a histogram equal ``statistics`` on the list,
    bit for bit (not only after rounding)."""
    rng = random.Random(9)
    cases = [[235], [235, 236], [7, 7, 7], [0, 1575], [100] * 50 + [101]]
    cases += [[rng.randint(0, 1575) for _ in range(rng.randint(1, 400))] for _ in range(300)]
    cases += [[rng.choice([180, 235, 250, 285]) for _ in range(rng.randint(1, 60))]
              for _ in range(200)]
    for totals in cases:
        hist: dict[int, int] = {}
        for t in totals:
            hist[t] = hist.get(t, 0) + 1
        assert statsread.spread_of(hist) == stats.Spread.of(totals), totals
    assert statsread.spread_of({}) is None and stats.Spread.of([]) is None


def test_box_columns_are_the_boxes_in_order() -> None:
    from api.db import BOX_COLUMNS

    assert list(BOX_COLUMNS) == [b.value for b in ALL_BOXES]
