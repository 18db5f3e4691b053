"""Statistics at scale (issue 13): a 10,000-match group on SQLite and on PostgreSQL.

Builds one group (the group through the API, its matches by bulk insert of the same rows
the service writes: matches, versions with their sheets, and the statistics rows of
``api.aggregates``), then times through the Flask test client, on the same app:

- baseline: ``GET /api/v1/health`` (one trivial query through the whole stack)
- group statistics ``GET .../stats``, the leaderboard, a player's statistics,
  the player's web page (its HTML fragment), the overview page, the matches list,
  and the CSV export until its first bytes (the header and the first rows) arrive.

Prints the median and 90th percentile in ms and the ratio to the baseline; target: each
of stats, leaderboard, player page and first CSV bytes under 100 ms.

    .venv/bin/python benchmarks/stats_scale.py [--matches 10000] [--db sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psycopg
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from api import aggregates, create_app  # noqa: E402
from api.db import Match, MatchVersion, StatMatch, engine, utcnow, writing  # noqa: E402
from scorepad.boxes import ALL_BOXES, Box  # noqa: E402

PG_URL = os.environ.get("SCOREPAD_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
REGULARS = ["Ann", "Bob", "Cy", "Dee", "Ed", "Flo"]
GUESTS = [f"Guest {i}" for i in range(40)]
UPPER = {Box.ACES: 1, Box.TWOS: 2, Box.THREES: 3, Box.FOURS: 4, Box.FIVES: 5, Box.SIXES: 6}
LOWER = {Box.THREE_OF_A_KIND: [0, 12, 17, 24, 29], Box.FOUR_OF_A_KIND: [0, 9, 16, 26],
         Box.FULL_HOUSE: [0, 25], Box.SMALL_STRAIGHT: [0, 30], Box.LARGE_STRAIGHT: [0, 40],
         Box.YAHTZEE: [0, 0, 50], Box.CHANCE: [5, 18, 22, 27, 30]}
TARGET_MS = 100.0


def random_sheet(rng: random.Random) -> dict[str, Any]:
    names = rng.sample(REGULARS, rng.randint(2, 4))
    if rng.random() < 0.2:
        names.append(rng.choice(GUESTS))
    n_games = rng.randint(1, 3)

    def game(last: bool) -> dict[str, Any]:
        boxes = {b.value: (UPPER[b] * rng.randint(1, 5) if b in UPPER else rng.choice(LOWER[b]))
                 for b in ALL_BOXES}
        if last and rng.random() < 0.05:  # a game left unfinished
            del boxes["chance"]
        return {"boxes": boxes}

    return {"players": [{"name": n, "games": [game(i == n_games - 1) for i in range(n_games)]}
                        for n in names]}


def build_group(app: Flask, client: FlaskClient, matches: int, seed: int = 13) -> tuple[str, str]:
    r = client.post("/api/v1/groups", json={"name": "benchmark"})
    gid, token = r.json["id"], r.json["token"]  # type: ignore[index]
    rng = random.Random(seed)
    templates = [random_sheet(rng) for _ in range(300)]
    start = dt.date(2000, 1, 1)
    now = utcnow()
    with app.app_context(), writing() as s:
        m_rows, v_rows, l_rows, g_rows, e_rows = [], [], [], [], []
        for i in range(matches):
            sheet = templates[i % len(templates)]
            mid = uuid.uuid4().hex
            played_on = start + dt.timedelta(days=i // 3) if i % 50 else None
            version = SimpleNamespace(version=1, played_on=played_on, place="home", sheet=sheet)
            games, entries = aggregates.match_rows(gid, mid, version)
            m_rows.append({"id": mid, "group_id": gid, "current_version": 1, "created_at": now,
                           "updated_at": now})
            v_rows.append({"match_id": mid, "version": 1, "played_on": played_on,
                           "place": "home", "note": None, "reason": None, "rule_set": "hasbro",
                           "players": [p["name"] for p in sheet["players"]], "sheet": sheet,
                           "audit_ok": True, "created_at": now})
            l_rows.append({"match_id": mid, "group_id": gid, "created_at": now,
                           "sort_date": played_on or dt.date.min})
            g_rows += games
            e_rows += entries
        for table, rows in ((Match, m_rows), (MatchVersion, v_rows), (StatMatch, l_rows)):
            for k in range(0, len(rows), 2000):
                s.execute(insert(table), rows[k:k + 2000])
        for k in range(0, len(e_rows), 5000):
            aggregates.insert_rows(s, g_rows[k:k + 5000], e_rows[k:k + 5000])
        aggregates.rebuild_from_entries(s, gid)
    with app.app_context(), engine().connect() as conn:  # a live database has its statistics
        conn.execute(text("ANALYZE"))
        conn.commit()
    return gid, token


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    for _ in range(2):
        fn()
    ms = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ms.append((time.perf_counter() - t0) * 1000)
    ms.sort()
    return statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.9))]


def run(db: str, url: str, matches: int, repeat: int) -> list[tuple[str, float, float, str]]:
    app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False,
                      "MAX_MATCHES_PER_GROUP": matches + 1000})  # room for the writes timed
    client = app.test_client()
    t0 = time.perf_counter()
    gid, token = build_group(app, client, matches)
    build_s = time.perf_counter() - t0
    h = {"Authorization": f"Bearer {token}"}
    base = f"/api/v1/groups/{gid}"

    def get(path: str) -> Callable[[], Any]:
        def fn() -> Any:
            r = client.get(path, headers=h)
            assert r.status_code == 200, (path, r.status_code, r.get_data()[:300])
            return r
        return fn

    def csv_first_bytes() -> None:
        r = client.get(f"{base}/export.csv", headers=h, buffered=False)
        assert r.status_code == 200
        first = next(iter(r.response))
        assert first.count(b"\r\n") > 1  # the header and rows
        r.close()

    st = client.get(f"{base}/stats", headers=h).json
    assert st is not None
    rows: list[tuple[str, float, float, str]] = []
    checks: list[tuple[str, Callable[[], Any], str]] = [
        ("baseline: GET /health (trivial query)", get("/api/v1/health"), ""),
        ("group statistics", get(f"{base}/stats"), "target"),
        ("leaderboard", get(f"{base}/leaderboard"), "target"),
        ("player statistics (API)", get(f"{base}/players/Ann/stats"), ""),
        ("player page (web fragment)", get(f"/g/{gid}/part/players/Ann"), "target"),
        ("CSV export, first bytes", csv_first_bytes, "target"),
        ("group overview page (web fragment)", get(f"/g/{gid}/part/overview"), ""),
        ("matches list (50)", get(f"{base}/matches"), ""),
        ("head-to-head", get(f"{base}/head-to-head"), ""),
    ]
    for name, fn, target in checks:
        med, p90 = timed(fn, repeat)
        rows.append((name, med, p90, target))
    body = {"played_on": "2030-01-01", "sheet": random_sheet(random.Random(5))}
    posted: list[str] = []

    def post() -> None:
        r = client.post(f"{base}/matches", headers=h, json=body)
        assert r.status_code == 201, r.get_data()[:300]
        posted.append(r.json["id"])  # type: ignore[index]

    def correct() -> None:
        r = client.put(f"{base}/matches/{posted[0]}", headers=h, json=body)
        assert r.status_code == 200, r.get_data()[:300]

    rows.append(("write: store a match (info)", *timed(post, repeat), ""))
    rows.append(("write: correct a match (info)", *timed(correct, repeat), ""))
    t0 = time.perf_counter()
    full = client.get(f"{base}/export.csv", headers=h).get_data()
    rows.append((f"CSV export, all {len(full) // 1024} kB (info)",
                 (time.perf_counter() - t0) * 1000, float("nan"), ""))
    print(f"\n{db}: {matches} matches, {st['games']} finished games, {st['player_games']} "
          f"player-games, {st['players_total']} players (built in {build_s:.1f} s)")
    base_ms = rows[0][1]
    print(f"| {'request':<40} | {'median ms':>9} | {'p90 ms':>7} | {'ratio':>6} | target |")
    print(f"|{'-' * 42}|{'-' * 11}:|{'-' * 8}:|{'-' * 7}:|--------|")
    for name, med, p90, target in rows:
        verdict = ("ok" if p90 < TARGET_MS else "SLOW") if target else ""
        print(f"| {name:<40} | {med:9.1f} | {p90:7.1f} | {med / base_ms:6.1f} | {verdict:<6} |")
    app.extensions["scorepad.engine"].dispose()
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--db", default="sqlite,postgresql")
    args = ap.parse_args()
    slow = False
    for db in args.db.split(","):
        if db == "sqlite":
            with tempfile.TemporaryDirectory() as d:
                rows = run(db, f"sqlite:///{d}/bench.db", args.matches, args.repeat)
        else:
            schema = f"scorepad_bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(f'CREATE SCHEMA "{schema}"')
                try:
                    sep = "&" if "?" in PG_URL else "?"
                    rows = run(db, f"{PG_URL}{sep}options=-csearch_path%3D{schema}",
                               args.matches, args.repeat)
                finally:
                    conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
        slow |= any(t and p90 >= TARGET_MS for _, _, p90, t in rows)
    print("\ntarget (90th percentile under 100 ms):", "NOT MET" if slow else "met")
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
