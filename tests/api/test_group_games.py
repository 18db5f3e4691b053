"""Groups keep SCRABBLE and SORRY! matches and their statistics per game (issue 17).

Matches of each game are stored, listed (``?game=``), read, corrected and deleted; the
statistics (``?game=``) equal ``scorepad.games.groupstats.recompute`` over the stored
sheets after random writes on SQLite and the real PostgreSQL, the stored rows equal a
rebuild, and a group's Yahtzee answers stay exactly what they were.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from flask import Flask
from sqlalchemy import select

from api import aggregates
from api.db import (
    MIGRATIONS,
    Match,
    MatchVersion,
    StatBoardEntry,
    StatBoardGroup,
    StatBoardPlayer,
    StatMatch,
    engine,
    reading,
    upgrade,
    writing,
)
from scorepad.games.groupstats import StoredBoardMatch, board_games, recompute

from .conftest import PADS, GroupRef, full_game, sheet
from .test_postgres import pg_app, pg_schema  # noqa: F401 - fixtures
from .test_stats_aggregates import random_body

NAMES = ["Ann", "Bob", "Cy", "Dee", "Éva"]


@pytest.fixture(params=["sqlite", "postgresql"])
def any_app(request: pytest.FixtureRequest) -> Flask:
    app: Flask = request.getfixturevalue("app" if request.param == "sqlite" else "pg_app")
    return app


def board(game: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PADS / game / f"{name}.json").read_text())
    return data


def random_scrabble(rng: random.Random) -> dict[str, Any]:
    names = rng.sample(NAMES, rng.randint(2, 4))
    games = []
    for _ in range(rng.randint(1, 3)):
        players = []
        out = rng.randrange(len(names))
        ended = rng.random() > 0.15
        for i, n in enumerate(names):
            total, turns = 0, []
            for _ in range(rng.randint(1, 5)):
                score = rng.choice([0, 4, 9, 14, 16, 25, 33, 61])
                total += score
                turns.append({"score": score, "total": total,
                              "kind": "play" if score else "pass"})
            p: dict[str, Any] = {"name": rng.choice([n, n.upper()]), "turns": turns}
            if ended:
                p["unplayed"] = "" if i == out else "".join(rng.sample("AEQZKT", 2))
                p["final"] = total + rng.choice([-5, 0, 7])  # slips too: stored anyway
            players.append(p)
        games.append({"players": players})
    return {"format": "scorepad/sheet@1", "game": "scrabble", "games": games}


def random_sorry(rng: random.Random) -> dict[str, Any]:
    names = rng.sample(NAMES, rng.randint(2, 4))
    games = []
    for _ in range(rng.randint(1, 4)):
        homes = [rng.randint(0, 3) for _ in names]
        if rng.random() > 0.15:
            homes[rng.randrange(len(names))] = 4
        games.append({"players": [{"name": rng.choice([n, n.lower()]), "home": h,
                                   "points": 5 * h} for n, h in zip(names, homes, strict=True)]})
    return {"format": "scorepad/sheet@1", "game": "sorry",
            "rules": rng.choice(["sorry", "sorry-best"]), "games": games}


def random_match(rng: random.Random, game: str) -> dict[str, Any]:
    sheet = random_scrabble(rng) if game == "scrabble" else random_sorry(rng)
    body: dict[str, Any] = {"sheet": sheet}
    if rng.random() < 0.8:
        body["played_on"] = f"2026-0{rng.randint(1, 3)}-1{rng.randint(0, 3)}"
    return body


def random_history(g: GroupRef, rng: random.Random, ops: int) -> dict[str, str]:
    """Random stores, corrections and deletions of matches of all three games."""
    ids: dict[str, str] = {}
    for _ in range(ops):
        r = rng.random()
        if ids and r < 0.25:
            mid = rng.choice(list(ids))  # in the order stored: the ids themselves are random
            game = ids[mid]
            body = random_body(rng) if game == "yahtzee" else random_match(rng, game)
            resp = g.client.put(f"{g.base}/matches/{mid}", headers=g.headers, json=body)
            assert resp.status_code == 200, resp.json
        elif ids and r < 0.35:
            mid = rng.choice(list(ids))  # in the order stored: the ids themselves are random
            del ids[mid]
            assert g.client.delete(f"{g.base}/matches/{mid}",
                                   headers=g.headers).status_code == 204
        else:
            game = rng.choice(["yahtzee", "scrabble", "sorry", "scrabble", "sorry"])
            body = random_body(rng) if game == "yahtzee" else random_match(rng, game)
            ids[g.post_match(body)["id"]] = game
    return ids


def stored(app: Flask, gid: str, game: str) -> list[StoredBoardMatch]:
    with app.app_context(), reading() as s:
        rows = s.execute(select(Match.id, MatchVersion.played_on, MatchVersion.sheet).join(
            MatchVersion, (MatchVersion.match_id == Match.id)
            & (MatchVersion.version == Match.current_version))
            .where(Match.group_id == gid, Match.game == game)).all()
    return [StoredBoardMatch(mid, d, sh) for mid, d, sh in rows]


def board_rows(app: Flask, gid: str) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    with app.app_context(), reading() as s:
        for table in (StatBoardEntry, StatBoardPlayer, StatBoardGroup, StatMatch):
            cols = [c for c in table.__table__.columns if c.name != "id"]
            rows = s.execute(select(*cols).where(table.__table__.c.group_id == gid)).all()
            out[table.__tablename__] = sorted(tuple(r) for r in rows)
    return out


def assert_board_stats_equal_recomputation(app: Flask, g: GroupRef) -> None:
    for game in ("scrabble", "sorry"):
        matches = stored(app, g.id, game)
        full = recompute(game, matches)
        st = g.get(f"/stats?game={game}&limit=1000").json
        assert st["game"] == game
        assert st["players"] == [full[k] for k in sorted(full)]
        n = sum(p["games"] for p in full.values())
        assert st["player_games"] == st["overall"]["games"] == n
        scores = [p.score or 0 for m in matches for gm in board_games(game, m.sheet)
                  if gm.complete for p in gm.players]
        assert st["overall"]["average"] == (round(sum(scores) / n, 2) if n else None)
        assert st["overall"]["best"] == max(scores, default=None)
        assert st["matches"] == sum(1 for m in matches if m.sheet["games"])
        for key, fig in full.items():
            got = g.get(f"/players/{fig['player'].upper()}/stats?game={game}").json
            assert got == {**fig, "game": game}, key
        for by in ("wins", "average", "best", "games"):
            rows = g.get(f"/leaderboard?game={game}&by={by}&limit=1000").json["rows"]
            assert [r["player"] for r in rows] == [r["player"] for r in sorted(
                full.values(), key=lambda r: (-r[by], -(r["average"] or 0),
                                              r["player"].casefold()))]
        listed = g.get(f"/matches?game={game}&limit=500").json
        assert listed["total"] == len(matches)
        assert {m["id"] for m in listed["matches"]} == {m.match_id for m in matches}
        assert all(m["game"] == game for m in listed["matches"])
    before = board_rows(app, g.id)
    with app.app_context(), writing() as s:
        aggregates.rebuild_group(s, g.id)
    assert board_rows(app, g.id) == before


# ---- matches of each game -------------------------------------------------------------------

def test_scrabble_and_sorry_matches_are_stored_with_their_game(group: GroupRef) -> None:
    yz = group.post_match({"sheet": sheet(("Ann", [full_game()]), ("Ben", [full_game()]))})
    assert "game" not in yz  # a Yahtzee match, as its sheet, names no game
    sc = group.post_match({"played_on": "2026-02-01", "sheet": board("scrabble",
                                                                     "finished_game")})
    assert sc["game"] == "scrabble" and sc["rule_set"] == "scrabble"
    assert sc["audit"]["ok"] is True and sc["players"] == ["Ann", "Ben"]
    assert sc["games"] == [{"game": 1, "complete": True, "winners": ["Ann"], "scores": [
        {"player": "Ann", "score": 66}, {"player": "Ben", "score": 14}]}]
    so = group.post_match({"sheet": board("sorry", "evening")})
    assert so["game"] == "sorry" and so["sheet"]["game"] == "sorry"
    assert [g["winners"] for g in so["games"]] == [["Ann"], ["Ben"], ["Cy"]]
    every = group.get("/matches").json
    assert every["total"] == 3
    assert every["matches"][0]["game"] == "scrabble"  # dated first
    assert sorted(m.get("game", "-") for m in every["matches"]) == ["-", "scrabble", "sorry"]
    for game, mid in (("scrabble", sc["id"]), ("sorry", so["id"]), ("yahtzee", yz["id"])):
        assert [m["id"] for m in group.get(f"/matches?game={game}").json["matches"]] == [mid]
    assert group.get("/matches?game=clue").status_code == 422
    got = group.get(f"/matches/{sc['id']}").json
    assert got["game"] == "scrabble" and got["sheet"] == sc["sheet"]


def test_correction_history_and_deletion(group: GroupRef) -> None:
    sc = group.post_match({"sheet": board("scrabble", "finished_game")})
    fixed = board("scrabble", "finished_game")
    fixed["games"][0]["players"][0]["name"] = "Anna"
    r = group.client.put(f"{group.base}/matches/{sc['id']}", headers=group.headers,
                         json={"sheet": fixed, "reason": "her name"})
    assert r.status_code == 200 and r.json["versions"] == 2
    hist = group.get(f"/matches/{sc['id']}/history").json
    assert [v["reason"] for v in hist["versions"]] == [None, "her name"]
    assert group.get("/stats?game=scrabble").json["players"][0]["player"] == "Anna"
    # a correction keeps the match's game
    r = group.client.put(f"{group.base}/matches/{sc['id']}", headers=group.headers,
                         json={"sheet": board("sorry", "evening")})
    assert r.status_code == 422 and r.json["errors"][0]["path"] == "$.sheet.game"
    assert group.client.delete(f"{group.base}/matches/{sc['id']}",
                               headers=group.headers).status_code == 204
    st = group.get("/stats?game=scrabble").json
    assert (st["games"], st["matches"], st["players"]) == (0, 0, [])


def test_bad_sheets_and_rules_are_refused_with_paths(group: GroupRef) -> None:
    bad = board("sorry", "evening")
    bad["games"][0]["players"][0]["home"] = "four"
    r = group.client.post(f"{group.base}/matches", headers=group.headers, json={"sheet": bad})
    assert r.status_code == 422
    assert [e["path"] for e in r.json["errors"]] == ["$.sheet.games[0].players[0].home"]
    r = group.client.post(f"{group.base}/matches", headers=group.headers,
                          json={"sheet": {**bad, "game": "clue"}})
    assert r.status_code == 422 and r.json["errors"][0]["path"] == "$.sheet.game"
    r = group.client.post(f"{group.base}/matches", headers=group.headers,
                          json={"sheet": board("sorry", "evening"), "rules": "hasbro"})
    assert r.status_code == 422 and r.json["errors"][0]["path"] == "$.rules"


def test_figures_of_each_game(group: GroupRef) -> None:
    group.post_match({"sheet": board("scrabble", "finished_game")})
    group.post_match({"sheet": board("sorry", "evening")})
    group.post_match({"sheet": board("sorry", "no_winner")})  # unfinished games: not counted
    st = group.get("/stats?game=scrabble").json
    assert st["players"] == [
        {"player": "Ann", "games": 1, "wins": 1, "win_rate": 1.0, "average": 66.0,
         "best": 66, "best_turn": 25},
        {"player": "Ben", "games": 1, "wins": 0, "win_rate": 0.0, "average": 14.0,
         "best": 14, "best_turn": 16}]
    assert st["overall"] == {"games": 2, "average": 40.0, "best": 66, "best_turn": 25}
    so = group.get("/stats?game=sorry").json
    assert (so["games"], so["games_in_progress"], so["matches"]) == (3, 2, 2)
    assert so["players"][2] == {"player": "Cy", "games": 3, "wins": 1, "win_rate": 0.33,
                                "average": 45.0, "best": 130}
    assert group.get("/players/cy/stats?game=sorry").json["average"] == 45.0
    assert group.get("/players/cy/stats?game=scrabble").status_code == 404
    assert group.get("/players/cy/stats").status_code == 404  # no Yahtzee game
    board_rows_ = group.get("/leaderboard?game=scrabble&by=best_turn").json
    assert board_rows_["game"] == "scrabble"
    assert [(r["player"], r["value"]) for r in board_rows_["rows"]] == [("Ann", 25), ("Ben", 16)]
    for q in ("game=sorry&by=best_turn", "game=scrabble&by=upper_bonus_rate", "by=best_turn"):
        assert group.get(f"/leaderboard?{q}").json["rows"] == [], q  # not a figure of it
    assert group.get("/leaderboard?game=chess").status_code == 422
    csv = group.get("/export.csv?game=scrabble").get_data(as_text=True).splitlines()
    assert csv[0].split(",")[-5:] == ["player", "score", "rank", "won", "best_turn"]
    assert [ln.split(",")[-5:] for ln in csv[1:]] == [["Ann", "66", "1", "1", "25"],
                                                      ["Ben", "14", "2", "0", "16"]]


def test_yahtzee_answers_unchanged_by_other_games(group: GroupRef) -> None:
    rng = random.Random(4)
    for _ in range(6):
        group.post_match(random_body(rng))
    paths = ["/stats", "/leaderboard", "/head-to-head", "/export.csv", "/players/ann/stats",
             "/stats?game=yahtzee", "/matches?game=yahtzee"]
    before = {p: group.get(p).get_data() for p in paths}
    assert before["/stats"] == before["/stats?game=yahtzee"]
    for _ in range(4):
        group.post_match(random_match(rng, "scrabble"))
        group.post_match(random_match(rng, "sorry"))
    assert {p: group.get(p).get_data() for p in paths} == before


# ---- the aggregates equal a full recomputation ---------------------------------------------

@pytest.mark.parametrize("seed", [1, 2])
def test_incremental_board_statistics_equal_recomputation(any_app: Flask, seed: int) -> None:
    g = GroupRef(any_app.test_client())
    random_history(g, random.Random(seed), 40)
    assert g.get("/stats?game=sorry").json["games"] > 3
    assert g.get("/stats?game=scrabble").json["games"] > 3
    assert_board_stats_equal_recomputation(any_app, g)


def test_backup_and_restore_carry_the_game(client: Any, app: Flask) -> None:
    g = GroupRef(client)
    random_history(g, random.Random(8), 20)
    data = g.get("/backup").json
    before = {q: g.get(q).json for q in ("/stats?game=scrabble", "/stats?game=sorry",
                                         "/stats")}
    with app.app_context(), writing() as s:
        s.delete(s.get(Match, data["matches"][0]["id"]).group)
    r = client.post("/api/v1/backups", json=data, headers=g.headers)
    assert r.status_code == 201, r.json
    g.id, g.base = r.json["id"], f"/api/v1/groups/{r.json['id']}"
    for q, want in before.items():
        assert {**g.get(q).json, "group": ""} == {**want, "group": ""}, q
    games = {m.get("game", "yahtzee") for m in g.get("/matches?limit=500").json["matches"]}
    assert games == {"yahtzee", "scrabble", "sorry"}
    # a version of another game than its match's current one is refused
    mixed = copy.deepcopy(data)
    m = next(m for m in mixed["matches"] if "game" in m["versions"][0]["sheet"])
    m["versions"].append({**m["versions"][0], "version": 99,
                          "sheet": sheet(("Ann", [full_game()]))})
    r = client.post("/api/v1/backups", json=mixed, headers=g.headers)
    assert r.status_code == 422
    assert [e["path"] for e in r.json["errors"]] == [
        f"$.matches[{mixed['matches'].index(m)}].versions"]


def test_migration_back_fills_games_and_board_statistics(any_app: Flask) -> None:
    """Matches stored before 0003 (their rows put back after the downgrade, which drops
    SCRABBLE and SORRY! matches) get their game and statistics from the upgrade."""
    g = GroupRef(any_app.test_client())
    random_history(g, random.Random(12), 25)
    before = board_rows(any_app, g.id)
    assert before["stat_board_entries"]
    with any_app.app_context(), reading() as s:
        kept = [(m.id, m.group_id, m.current_version, m.created_at, m.updated_at,
                 [{"version": v.version, "rule_set": v.rule_set, "players": v.players,
                   "sheet": v.sheet, "created_at": v.created_at, "played_on": v.played_on,
                   "place": v.place, "audit_ok": v.audit_ok} for v in m.versions])
                for m in s.scalars(select(Match).where(Match.game != "yahtzee"))]
    with any_app.app_context():
        eng = engine()
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002_stats")
        matches = sa.table("matches", *(sa.column(c) for c in (
            "id", "group_id", "current_version", "created_at", "updated_at")))
        versions = sa.table("match_versions", *(sa.column(c) for c in (
            "match_id", "version", "rule_set", "created_at", "played_on", "place",
            "audit_ok")), sa.column("players", sa.JSON), sa.column("sheet", sa.JSON))
        for mid, gid, cur, created, updated, vs in kept:
            conn.execute(matches.insert().values(id=mid, group_id=gid, current_version=cur,
                                                 created_at=created, updated_at=updated))
            for v in vs:
                conn.execute(versions.insert().values(match_id=mid, **v))
    upgrade(eng)
    after = board_rows(any_app, g.id)
    assert after == before
    assert_board_stats_equal_recomputation(any_app, g)


def test_group_pages_switch_between_games(group: GroupRef) -> None:
    group.post_match({"sheet": sheet(("Ann", [full_game()]), ("Ben", [full_game()]))})
    sc = group.post_match({"sheet": board("scrabble", "finished_game")})
    group.post_match({"sheet": board("sorry", "evening")})

    def page(path: str) -> str:
        r = group.client.get(f"/g/{group.id}/part/{path}", headers=group.headers)
        assert r.status_code == 200, path
        text: str = r.get_data(as_text=True)
        return text

    over = page("overview?game=sorry")
    assert f"/g/{group.id}?game=scrabble" in over and 'aria-current="page"' in over
    assert f"/g/{group.id}/players/Cy?game=sorry" in over
    assert "export.csv?game=sorry" in over
    assert "/players/Cy" not in page("overview")  # Cy plays no Yahtzee
    ann = page("players/ann?game=scrabble")
    assert re.search(r"<dt>Best turn</dt><dd>25</dd>", ann) and "Upper bonus" not in ann
    assert "Upper bonus" in page("players/ann")
    assert re.search(r"66 <span class=\"star\"", page(f"m/{sc['id']}"))
    r = group.client.get(f"/g/{group.id}/part/players/Cy?game=scrabble", headers=group.headers)
    assert r.status_code == 404
