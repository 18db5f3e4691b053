"""Real worker processes and waiting for states, for the tests that use the real Redis
(tests/jobs, tests/web/test_scan_job.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis import Redis

ROOT = Path(__file__).resolve().parents[2]
SCOREPAD = str(Path(sys.executable).parent / "scorepad")


def wait_for(check: Callable[[], Any], what: str, limit: float = 180) -> Any:
    """``check()``'s first true value, asked every 0.1 s (a test fails after ``limit`` s)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"never reached: {what}")


def empty_redis(url: str) -> Redis:
    """A connection to the test's Redis database, emptied (the suite's services: see
    scripts/wait-for-redis.sh)."""
    conn = Redis.from_url(url)
    try:
        conn.ping()
    except Exception as exc:
        pytest.fail(f"Redis at {url} does not answer: {exc}")
    conn.flushdb()
    return conn


def redis_db(url: str) -> Iterator[str]:
    """A fixture's body: the test's Redis database, empty before and after the test."""
    conn = empty_redis(url)
    yield url
    conn.flushdb()
    conn.close()


def process_env(redis_url: str, tmp: Path) -> dict[str, str]:
    """The environment of ``scorepad`` processes: this Redis, a temporary SQLite file, no
    rate limits, and this repository importable (tests/jobs/jobfuncs.py)."""
    e = {k: v for k, v in os.environ.items()
         if not k.startswith("SCOREPAD_") and k != "PROMETHEUS_MULTIPROC_DIR"}
    e.update(SCOREPAD_REDIS_URL=redis_url, PYTHONPATH=str(ROOT),
             SCOREPAD_DATABASE_URL=f"sqlite:///{tmp / 'jobs.db'}",
             SCOREPAD_RATELIMIT_ENABLED="false", SCOREPAD_CACHE_DIR=str(tmp / "cache"))
    return e


class Processes:
    """``scorepad`` processes started by a test, each in its own process group."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        p = subprocess.Popen([SCOREPAD, *args], env=self.env, cwd=ROOT, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(p)
        return p

    def kill(self, p: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, sig)  # the worker and its work-horse
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()

    def stop_all(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                self.kill(p, signal.SIGTERM)
