"""Crash test: SIGKILL gunicorn during a burst of match writes, restart, check the database.

Every match whose 201 reached a client must be there after the restart, with all
of its rows (no half-written match), and ``PRAGMA integrity_check`` must say ok.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from .conftest import full_game, sheet
from .test_real_server import free_port, wait_up

GUNICORN = shutil.which("gunicorn") or str(Path(sys.executable).parent / "gunicorn")


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SCOREPAD_DATABASE_URL": f"sqlite:///{db}",
           "SCOREPAD_RATELIMIT_ENABLED": "false"}
    return subprocess.Popen(
        [GUNICORN, "-w", "2", "-b", f"127.0.0.1:{port}", "--graceful-timeout", "1",
         "api:create_app()"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def kill_all(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the master and its workers at once (no graceful shutdown)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


@pytest.mark.slow
def test_kill_during_write_burst_loses_nothing_acknowledged(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}/api/v1"
    proc = start(db, port)
    try:
        wait_up(f"{base}/health", proc)
        g = requests.post(f"{base}/groups", json={"name": "crash"}, timeout=10).json()
        headers = {"Authorization": f"Bearer {g['token']}"}
        body = {"place": "x" * 150, "note": "n" * 1500,
                "sheet": sheet(("Ann", [full_game()] * 6), ("Bob", [full_game(yahtzee=50)] * 6))}
        acked: list[str] = []
        lock = threading.Lock()
        stop = threading.Event()

        def writer() -> None:
            with requests.Session() as s:
                for _ in range(200):  # bounded
                    if stop.is_set():
                        return
                    try:
                        r = s.post(f"{base}/groups/{g['id']}/matches", json=body,
                                   headers=headers, timeout=10)
                    except requests.RequestException:
                        return
                    if r.status_code == 201:
                        with lock:
                            acked.append(r.json()["id"])

        threads = [threading.Thread(target=writer) for _ in range(4)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 20
        while len(acked) < 15 and time.monotonic() < deadline:
            time.sleep(0.02)
        kill_all(proc)  # mid-burst
        stop.set()
        for t in threads:
            t.join(15)
        assert len(acked) >= 15, "the burst did not get going"
    finally:
        if proc.poll() is None:
            kill_all(proc)

    # The database file is intact before any restart touches it.
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()

    proc = start(db, port)
    try:
        wait_up(f"{base}/health", proc)
        r = requests.get(f"{base}/groups/{g['id']}/matches?limit=500", headers=headers,
                         timeout=10)
        stored = {m["id"] for m in r.json()["matches"]}
        assert set(acked) <= stored
        for mid in acked[:5] + acked[-5:]:
            m = requests.get(f"{base}/groups/{g['id']}/matches/{mid}", headers=headers,
                             timeout=10).json()
            assert m["players"] == ["Ann", "Bob"] and len(m["games"]) == 6
    finally:
        kill_all(proc)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        # no match without its version, no version without its match
        orphans = conn.execute(
            "SELECT COUNT(*) FROM matches m LEFT JOIN match_versions v ON v.match_id = m.id "
            "AND v.version = m.current_version WHERE v.id IS NULL").fetchone()
        assert orphans == (0,)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()
