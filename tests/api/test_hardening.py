"""Issue 13: each fault an outside probe found, through the test client (real HTTP and real
Redis where the fault is about the server: chunked bodies, several workers)."""

from __future__ import annotations

import copy
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient

from api import create_app

from .conftest import GroupRef, full_game, pad, serving, sheet
from .test_service import PROBLEM, assert_problem

REDIS_URL = os.environ.get("SCOREPAD_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def make_app(tmp_path: Path, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'h.db'}",
                       "RATELIMIT_ENABLED": False, **config})


def raw_post(client: FlaskClient, url: str, body: str | bytes, **kw: Any) -> Any:
    return client.post(url, data=body, content_type="application/json", **kw)


def paths(r: Any) -> set[str]:
    return {e["path"] for e in r.json["errors"]}


# ---- 1: a lone surrogate is refused at the edge, never stored -------------------------------

def test_a_lone_surrogate_in_a_player_name_is_refused_and_not_stored(
        client: FlaskClient, group: GroupRef) -> None:
    body = '{"sheet":{"players":[{"name":"A\\udfff"}]}}'
    r = raw_post(client, f"{group.base}/matches", body, headers=group.headers)
    assert_problem(r, 422, "VALIDATION_FAILED")
    assert paths(r) == {"$.sheet.players[0].name"}
    assert group.get("/matches").json["total"] == 0
    for path in ("/matches", "/backup"):  # (the statistics are another change's)
        assert group.get(path).status_code == 200


@pytest.mark.parametrize("url", ["/api/v1/verify", "/api/v1/tally", "/api/v1/options",
                                 "/api/v1/analyse", "/api/v1/advice", "/api/v1/groups",
                                 "/api/v1/echo"])
def test_a_lone_surrogate_as_a_key_is_a_422_on_stateless_endpoints(client: FlaskClient,
                                                                  url: str) -> None:
    r = raw_post(client, url, '{"\\ud800": 1}')
    assert_problem(r, 422, "VALIDATION_FAILED")
    assert paths(r) == {"$.\\ud800"}


def test_surrogates_sent_as_utf8_bytes_are_refused(client: FlaskClient) -> None:
    # CESU-8: the bytes of U+D800 (json.loads on bytes lets them through as a surrogate)
    r = raw_post(client, "/api/v1/verify", b'{"players":[{"name":"A\xed\xa0\x80"}]}')
    assert_problem(r, 422, "VALIDATION_FAILED")
    assert paths(r) == {"$.players[0].name"}


def test_nul_in_the_path_or_query_is_a_422(client: FlaskClient, group: GroupRef) -> None:
    r = group.get("/matches?player=a%00b")
    assert_problem(r, 422, "VALIDATION_FAILED")
    assert paths(r) == {"query.player"}
    r = client.get("/api/v1/groups/ab%00cd", headers=group.headers)
    assert_problem(r, 422)
    assert paths(r) == {"path"}


# ---- 2: custom tables need a budget --------------------------------------------------------

def test_building_tables_for_new_custom_rules_is_rate_limited(tmp_path: Path,
                                                               monkeypatch: Any) -> None:
    import api.analysis as analysis

    built: list[str] = []
    monkeypatch.setattr(analysis, "table_available", lambda rules: rules.name == "hasbro")

    def analyse_sheet(sheet: Any, rules: Any) -> list[Any]:
        built.append(rules.name)
        return []

    monkeypatch.setattr(analysis, "analyse_sheet", analyse_sheet)
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_TABLE_BUILD="2 per hour",
                   RATELIMIT_KEY_PREFIX=f"t-{uuid.uuid4().hex}")
    c = app.test_client()
    s = sheet(("A", [full_game()]))

    def analyse(n: int, addr: str = "10.0.0.1") -> Any:
        body = {**s, "rules": {"name": f"probe{n}", "yahtzee_bonus": 100 + n}}
        return c.post("/api/v1/analyse", json=body, environ_base={"REMOTE_ADDR": addr})

    assert [analyse(n).status_code for n in range(2)] == [200, 200]
    r = analyse(2)
    assert_problem(r, 429, "RATE_LIMITED")
    assert "Retry-After" in r.headers
    assert built == ["probe0", "probe1"]
    # tables already built cost nothing: the built-in rule set still answers
    assert c.post("/api/v1/analyse", json=s, environ_base={"REMOTE_ADDR": "10.0.0.1"}
                  ).status_code == 200
    assert analyse(3, addr="10.0.0.2").status_code == 200  # counted per client


def test_the_disk_cache_keeps_a_bounded_number_of_custom_tables(tmp_path: Path) -> None:
    from scorepad.rules import get_rules
    from scorepad.solver.table import cache_path, prune_cache

    builtin = cache_path("hasbro", tmp_path)
    builtin.write_bytes(b"x")
    customs = [cache_path({"name": f"c{i}", "yahtzee_bonus": i}, tmp_path) for i in range(5)]
    for i, p in enumerate(customs):
        p.write_bytes(b"x")
        os.utime(p, (1_000_000 + i, 1_000_000 + i))
    os.utime(builtin, (1, 1))  # the oldest of all, and kept
    prune_cache(tmp_path, keep=2)
    assert sorted(tmp_path.iterdir()) == sorted([builtin, customs[3], customs[4]])
    assert get_rules("hasbro").name == "hasbro"


# ---- 3: built-in names are not for custom rule sets; the cache keys by content ---------------

@pytest.mark.parametrize("name", ["hasbro", "Official", " classic ", "travel", "default"])
def test_a_custom_rule_set_cannot_take_a_builtin_name(client: FlaskClient, group: GroupRef,
                                                      name: str) -> None:
    s = sheet(("A", [full_game()]))
    s["rules"] = {"name": name, "yahtzee_bonus": 0}
    r = client.post("/api/v1/verify", json=s)
    assert_problem(r, 422, "VALIDATION_FAILED")
    assert paths(r) == {"$.rules"}
    r = client.post(f"{group.base}/matches", json={"sheet": s}, headers=group.headers)
    assert_problem(r, 422)
    assert paths(r) == {"$.sheet.rules"}
    r = client.post(f"{group.base}/matches", headers=group.headers, json={
        "sheet": sheet(("A", [full_game()])), "rules": {"name": name, "yahtzee_bonus": 0}})
    assert_problem(r, 422)
    assert paths(r) == {"$.rules"}


def test_the_table_cache_is_keyed_by_the_rules_content_not_their_name(tmp_path: Path) -> None:
    from scorepad.solver.table import cache_path

    a = cache_path({"name": "house", "yahtzee_bonus": 0}, tmp_path)
    b = cache_path({"name": "other", "yahtzee_bonus": 0}, tmp_path)
    c = cache_path({"name": "house", "yahtzee_bonus": 50}, tmp_path)
    assert a == b and a != c
    assert cache_path({"name": "mine"}, tmp_path) == cache_path("hasbro", tmp_path)
    assert "house" not in a.name and "hasbro" not in cache_path("hasbro", tmp_path).name


# ---- 4: image memory, and a rate limit on /scan ----------------------------------------------

def png_header_only(width: int, height: int, depth: int, color: int) -> bytes:
    """A PNG that declares its size and mode (its pixels would be blank): a few bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + chunk(b"IEND", b""))


def test_a_16_bit_image_under_the_pixel_limit_is_refused_before_decoding() -> None:
    from ocr.loading import MAX_PIXELS, load_image
    from ocr.result import ScanError

    data = png_header_only(6000, 6500, 16, 0)  # 39 MP of 16-bit grey
    assert MAX_PIXELS > 6000 * 6500 and len(data) < 200
    t0 = time.perf_counter()
    with pytest.raises(ScanError) as err:
        load_image(data)
    assert err.value.code == "too_many_pixels"
    assert time.perf_counter() - t0 < 1.0  # refused from the header, not decoded


def test_decoded_bytes_count_the_mode() -> None:
    from ocr.loading import MAX_DECODED_BYTES, decoded_bytes

    assert decoded_bytes("RGB", (4000, 3000)) == 48_000_000  # a 12 MP photo (RGBX in Pillow)
    assert decoded_bytes("RGB", (7000, 5700)) <= MAX_DECODED_BYTES  # 39.9 MP, 8-bit colour
    assert decoded_bytes("F", (6000, 6500)) > MAX_DECODED_BYTES  # 39 MP of floats
    assert decoded_bytes("I;16", (6000, 6500)) > MAX_DECODED_BYTES  # 39 MP of 16-bit grey
    assert decoded_bytes("L", (4000, 3000)) == 12_000_000 + 48_000_000  # + its RGB copy


def test_scan_has_a_rate_limit(tmp_path: Path) -> None:
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_SCAN="2 per minute",
                   RATELIMIT_KEY_PREFIX=f"t-{uuid.uuid4().hex}")
    c = app.test_client()
    big = png_header_only(6000, 6500, 16, 0)
    codes = [c.post("/api/v1/scan", data=big, content_type="image/png").status_code
             for _ in range(3)]
    assert codes == [422, 422, 429]


# ---- 5: an OCR engine failure is a 503 problem -----------------------------------------------

@pytest.mark.parametrize("code", ["ocr_timeout", "ocr_failed", "ocr_engine_missing"])
def test_an_ocr_engine_failure_is_a_503(client: FlaskClient, monkeypatch: Any,
                                        code: str) -> None:
    import ocr

    def fail(*_: Any, **__: Any) -> Any:
        raise ocr.OcrEngineError(code, "tesseract did not answer")

    monkeypatch.setattr(ocr, "scan_image", fail)
    r = client.post("/api/v1/scan", data=png_header_only(10, 10, 8, 2), content_type="image/png")
    assert_problem(r, 503, code.upper())


# ---- 6: backups over 1 MB restore through the API --------------------------------------------

def test_a_backup_over_a_megabyte_restores(client: FlaskClient, group: GroupRef,
                                           tmp_path: Path) -> None:
    group.post_match({"sheet": pad("hasbro_two_players_six_games"), "note": "n" * 1000})
    backup = group.get("/backup").json
    one = backup["matches"][0]
    backup["matches"] = [{**copy.deepcopy(one), "id": uuid.uuid4().hex} for _ in range(200)]
    body = json.dumps(backup)
    assert len(body) > 1_100_000
    (tmp_path / "t").mkdir()
    target = make_app(tmp_path / "t")
    r = raw_post(target.test_client(), "/api/v1/backups", body, headers=group.headers)
    assert r.status_code == 201, r.json
    assert r.json["matches"] == 200
    target.extensions["scorepad.engine"].dispose()


def test_the_backup_limit_still_holds(tmp_path: Path, group: GroupRef) -> None:
    app = make_app(tmp_path, BACKUP_MAX_BYTES=2000)
    backup = group.get("/backup").json
    backup["group"]["name"] = "x" * 100
    body = json.dumps(backup) + " " * 3000
    assert_problem(raw_post(app.test_client(), "/api/v1/backups", body, headers=group.headers),
                   413, "PAYLOAD_TOO_LARGE")


# ---- 7: the web pad corrects a 12-player match with 12 players -------------------------------

def test_correcting_a_12_player_match_on_the_web_keeps_12_players(client: FlaskClient) -> None:
    import re

    s = sheet(*[(f"P{i}", [full_game()]) for i in range(12)])
    with client.session_transaction() as sess:
        sess["csrf"] = "tok"
    r = client.post("/pad", data={"csrf_token": "tok", "sheet_json": json.dumps(s),
                                  "correct": "g:m"})
    assert r.status_code == 200
    names = set(re.findall(r'name="(p\d+\.name)"', r.get_data(as_text=True)))
    assert len(names) == 12


# ---- 9: /advice refuses cards no game reaches ------------------------------------------------

@pytest.mark.parametrize("card", [{"yahtzee_bonus_checks": 99},
                                  {"yahtzee": 0, "yahtzee_bonus_checks": 5, "aces": 3,
                                   "twos": 6, "threes": 9, "fours": 12, "fives": 15},
                                  {"yahtzee": 50, "yahtzee_bonus_checks": 2, "aces": 5}])
def test_advice_refuses_unreachable_bonus_checks(client: FlaskClient, card: dict[str, Any]
                                                 ) -> None:
    r = client.post("/api/v1/advice", json={"card": card, "dice": [1, 2, 3, 4, 5], "roll": 1})
    assert_problem(r, 422, "POSITION_NOT_ANALYSABLE")


def test_advice_still_answers_reachable_bonus_checks(client: FlaskClient) -> None:
    card = {"yahtzee": 50, "aces": 5, "sixes": 30, "yahtzee_bonus_checks": 2}
    r = client.post("/api/v1/advice", json={"card": card, "dice": [1, 2, 3, 4, 5], "roll": 1})
    assert r.status_code == 200, r.json


# ---- 10: a made-up token learns nothing and creates nothing weak -----------------------------

def test_a_backup_with_a_made_up_token_is_refused(client: FlaskClient, group: GroupRef) -> None:
    from api.auth import hash_token

    backup = group.get("/backup").json
    backup["group"]["token_hash"] = hash_token("x")
    r = client.post("/api/v1/backups", json=backup, headers={"Authorization": "Bearer x"})
    assert_problem(r, 401, "TOKEN_INVALID")


def test_a_restore_does_not_tell_whether_ids_exist(client: FlaskClient, group: GroupRef) -> None:
    from api.auth import hash_token, new_token

    m = group.post_match({"sheet": sheet(("A", [full_game()]))})
    backup = group.get("/backup").json
    mine = new_token()
    backup["group"]["token_hash"] = hash_token(mine)
    headers = {"Authorization": f"Bearer {mine}"}
    r = client.post("/api/v1/backups", json=backup, headers=headers)  # ids taken by `group`
    assert r.status_code == 201, r.json
    assert r.json["id"] != group.id
    fresh = copy.deepcopy(backup)
    fresh["group"]["id"], fresh["matches"][0]["id"] = uuid.uuid4().hex, uuid.uuid4().hex
    other = new_token()
    fresh["group"]["token_hash"] = hash_token(other)
    r2 = client.post("/api/v1/backups", json=fresh, headers={"Authorization": f"Bearer {other}"})
    assert r2.status_code == 201  # the same answer whether the ids existed or not
    # the group whose ids were named is untouched; the restored copy opens with its token
    assert group.get(f"/matches/{m['id']}").status_code == 200
    assert group.get("/matches").json["total"] == 1
    r = client.get(f"/api/v1/groups/{r.json['id']}/matches", headers=headers)
    assert r.status_code == 200 and r.json["total"] == 1
    # the same backup twice is still a conflict (its token is taken), not a duplicate
    assert_problem(client.post("/api/v1/backups", json=backup, headers=headers), 409)


# ---- 11: one write limit per client, shared across routes, workers and machines --------------

def test_the_write_limit_counts_per_client_across_routes(tmp_path: Path) -> None:
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_WRITE="3 per minute",
                   RATELIMIT_KEY_PREFIX=f"t-{uuid.uuid4().hex}")
    c = app.test_client()
    a = {"REMOTE_ADDR": "10.0.0.1"}
    g = c.post("/api/v1/groups", json={"name": "g"}, environ_base=a).json
    h = {"Authorization": f"Bearer {g['token']}"}
    url = f"/api/v1/groups/{g['id']}/matches"
    body = {"sheet": sheet(("A", [full_game()]))}
    m = c.post(url, json=body, headers=h, environ_base=a)
    assert m.status_code == 201
    assert c.put(f"{url}/{m.json['id']}", json=body, headers=h, environ_base=a).status_code == 200
    r = c.delete(f"{url}/{m.json['id']}", headers=h, environ_base=a)
    assert_problem(r, 429, "RATE_LIMITED")
    assert_problem(c.post("/api/v1/groups", json={"name": "h"}, environ_base=a), 429)
    # another client has its own count
    assert c.post("/api/v1/groups", json={"name": "h"},
                  environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 201


def test_a_group_has_a_write_limit_of_its_own(tmp_path: Path) -> None:
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_WRITE="100 per minute",
                   RATELIMIT_GROUP_WRITE="2 per minute",
                   RATELIMIT_KEY_PREFIX=f"t-{uuid.uuid4().hex}")
    c = app.test_client()
    g = c.post("/api/v1/groups", json={"name": "g"}).json
    h = {"Authorization": f"Bearer {g['token']}"}
    url = f"/api/v1/groups/{g['id']}/matches"
    body = {"sheet": sheet(("A", [full_game()]))}
    codes = [c.post(url, json=body, headers=h, environ_base={"REMOTE_ADDR": f"10.0.1.{i}"}
                    ).status_code for i in range(3)]
    assert codes == [201, 201, 429]


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture()
def two_workers(tmp_path: Path) -> Iterator[str]:
    """gunicorn with 2 workers, the write limit 10 a minute, its counters in Redis."""
    if not _redis_up():
        if os.environ.get("CI") == "true":
            pytest.fail("Redis unreachable at 127.0.0.1:6379 in CI")
        pytest.skip("Redis unreachable at 127.0.0.1:6379")
    port = _free_port()
    env = {**os.environ, "SCOREPAD_DATABASE_URL": f"sqlite:///{tmp_path / 'w.db'}",
           "SCOREPAD_REDIS_URL": REDIS_URL, "SCOREPAD_RATELIMIT_WRITE": "10 per minute",
           "SCOREPAD_RATELIMIT_KEY_PREFIX": f"t-{uuid.uuid4().hex}"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}",
         "api:create_app()"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if requests.get(f"{url}/api/v1/rules", timeout=10).status_code == 200:
                    break
            except (requests.ConnectionError, requests.Timeout):
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "gunicorn did not start"
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(30)


def test_two_workers_share_one_write_limit_in_redis(two_workers: str) -> None:
    codes: list[int] = []
    lock = threading.Lock()

    def write(i: int) -> None:
        # a new connection each: the requests spread over both workers
        r = requests.post(f"{two_workers}/api/v1/groups", json={"name": f"g{i}"}, timeout=30,
                          headers={"Connection": "close"})
        with lock:
            codes.append(r.status_code)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes.count(201) == 10 and codes.count(429) == 20


# ---- 12: body limits over chunked encoding, web forms, /docs headers -------------------------

@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    with serving(make_app(tmp_path)) as url:
        yield url


def test_a_chunked_body_over_the_limit_is_413(server: str) -> None:
    def body() -> Iterator[bytes]:
        yield b'{"players": [{"name": "'
        for _ in range(120):
            yield b"x" * 10_000
        yield b'"}]}'

    r = requests.post(f"{server}/api/v1/verify", data=body(), timeout=30,
                      headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.headers["Content-Type"] == PROBLEM
    assert r.json()["code"] == "PAYLOAD_TOO_LARGE"
    r = requests.post(f"{server}/api/v1/groups", data=body(), timeout=30,
                      headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "PAYLOAD_TOO_LARGE"


def test_a_web_form_over_the_limit_answers_with_a_page(client: FlaskClient) -> None:
    r = client.post("/check", data={"csrf_token": "x", "title": "x" * 1_100_000},
                    headers={"Accept": "text/html"})
    assert r.status_code == 413
    assert r.mimetype == "text/html"
    assert "Content-Security-Policy" in r.headers


def test_docs_have_csp_and_frame_headers(client: FlaskClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    csp = r.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";")[0]
    assert r.headers["X-Frame-Options"] == "DENY"
    html = r.get_data(as_text=True)
    assert "<script>" in html or "<script " in html  # the inline boot script is allowed by hash
