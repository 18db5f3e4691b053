"""Jobs on the real Redis with real worker processes (api/jobs.py, ``scorepad worker``).

A scan sent over HTTP to ``scorepad serve`` (gunicorn) is read by a worker in another
process; a worker whose work-horse or whole process is killed mid-job leaves the job
retried, then failed with a clear state, never stuck. The tests wait for states (with a
generous limit against a hang), never for durations.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from redis import Redis

from api import create_app, jobs

from .jobfuncs import stubborn
from .procs import ROOT, SCOREPAD, Processes, process_env, redis_db, wait_for

REDIS = os.environ.get("SCOREPAD_TEST_REDIS_URL", "redis://127.0.0.1:6379/11")
PHOTO = ROOT / "sample_pads" / "photos" / "pad-01000-front.jpg"


@pytest.fixture()
def redis_url() -> Iterator[str]:
    yield from redis_db(REDIS)


@pytest.fixture()
def env(redis_url: str, tmp_path: Path) -> dict[str, str]:
    return process_env(redis_url, tmp_path)


@pytest.fixture()
def procs(env: dict[str, str]) -> Iterator[Processes]:
    ps = Processes(env)
    yield ps
    ps.stop_all()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_scan_over_http_is_read_by_a_worker_process(procs: Processes, redis_url: str) -> None:
    port = _free_port()
    web = procs.start("serve", "--port", str(port), "--workers", "1")
    procs.start("worker", "--name", "scan-worker")
    wait_for(lambda: _port_open(port) or web.poll() is not None, "the server listens")
    assert web.poll() is None
    base = f"http://127.0.0.1:{port}"

    r = requests.post(f"{base}/api/v1/scan", data=PHOTO.read_bytes(),
                      headers={"Content-Type": "image/jpeg"}, timeout=60)
    assert r.status_code == 202
    job = r.json()
    assert job["kind"] == "scan" and job["status"] in ("queued", "started")
    assert r.headers["Location"] == f"/api/v1/jobs/{job['id']}"

    def done() -> dict[str, Any] | None:
        body: dict[str, Any] = requests.get(base + r.headers["Location"], timeout=30).json()
        return body if body["status"] in ("finished", "failed") else None

    body = wait_for(done, "the scan job ends")
    assert body["status"] == "finished", body
    assert body["result"]["sheet"]["players"]
    from rq.job import Job

    assert Job.fetch(job["id"], connection=Redis.from_url(redis_url)).worker_name == "scan-worker"

    # a custom rule set's table build is a job too (this sheet has no turn logs to analyse)
    body = json.loads((ROOT / "sample_pads" / "hasbro_two_players_six_games.json").read_text())
    body["rules"] = {"name": "jobprobe", "yahtzee_bonus": 123}
    r = requests.post(f"{base}/api/v1/analyse", json=body, timeout=60)
    assert r.status_code == 202 and r.json()["kind"] == "analyse"
    analysed = wait_for(done, "the analysis job ends")
    assert analysed["status"] == "finished" and analysed["result"] == {"games": []}

    ready = requests.get(f"{base}/api/v1/ready", timeout=30).json()
    assert ready["jobs"] == "queue" and ready["checks"]["redis"]["ok"]
    assert ready["checks"]["redis"]["workers"] >= 1
    metrics = requests.get(f"{base}/metrics", timeout=30).text
    assert "scorepad_queue_length 0.0" in metrics
    assert 'endpoint="service.scan",method="POST",status="202"' in metrics


@pytest.fixture()
def app(redis_url: str, tmp_path: Path) -> Iterator[Any]:
    a = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'app.db'}", "REDIS_URL": redis_url,
                    "RATELIMIT_ENABLED": False, "TESTING": True})
    yield a
    a.extensions["scorepad.engine"].dispose()


def _submit(app: Any, marker: Path, killed_runs: int) -> str:
    with app.test_request_context("/api/v1/scan", method="POST"):
        resp = jobs.submit("test", stubborn, str(marker), killed_runs)
    assert resp.status_code == 202  # type: ignore[union-attr]
    return str(resp.headers["Location"])  # type: ignore[union-attr]


def _pids(marker: Path) -> list[int]:
    return [int(x) for x in marker.read_text().split()] if marker.exists() else []


def test_killed_work_horse_is_retried_then_failed(app: Any, procs: Processes,
                                                  tmp_path: Path) -> None:
    marker = tmp_path / "runs"
    location = _submit(app, marker, killed_runs=5)  # every run gets killed
    procs.start("worker")
    client = app.test_client()
    first = wait_for(lambda: _pids(marker), "the job starts")[0]
    assert client.get(location).json["status"] == "started"
    os.kill(first, signal.SIGKILL)  # the work-horse only: out of memory, say
    second = wait_for(lambda: _pids(marker)[1:], "the job is retried")[0]
    assert second != first
    os.kill(second, signal.SIGKILL)  # retries spent (JOB_RETRIES = 1)
    body = wait_for(lambda: (b := client.get(location).json)["status"] == "failed" and b,
                    "the job fails")
    assert body["problem"]["code"] == "JOB_FAILED"
    assert body["retries_left"] == 0
    assert len(_pids(marker)) == 2  # not run a third time


def test_dead_worker_job_is_retried_by_another_worker(app: Any, procs: Processes,
                                                      tmp_path: Path, redis_url: str) -> None:
    marker = tmp_path / "runs"
    location = _submit(app, marker, killed_runs=1)
    client = app.test_client()
    first = procs.start("worker")
    wait_for(lambda: _pids(marker), "the job starts")
    procs.kill(first)  # the whole worker, with no goodbye ...
    with contextlib.suppress(ProcessLookupError):  # ... and its work-horse (its own group)
        os.kill(_pids(marker)[0], signal.SIGKILL)
    assert client.get(location).json["status"] == "started"  # until its heartbeat expires
    from rq.registry import StartedJobRegistry

    # what RQ's maintenance does once the dead worker's heartbeat is over a minute old
    StartedJobRegistry(queue=jobs.queue(redis_url)).cleanup(timestamp=time.time() + 3600)
    assert client.get(location).json["status"] == "queued"
    procs.start("worker")
    body = wait_for(lambda: (b := client.get(location).json)["status"] in ("finished", "failed")
                    and b, "the job ends")
    assert body["status"] == "finished" and body["result"] == {"runs": 2}


def test_without_redis_no_jobs(tmp_path: Path) -> None:
    a = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"})
    client = a.test_client()
    assert client.get("/api/v1/jobs/abc").status_code == 404
    ready = client.get("/api/v1/ready").json
    assert ready["jobs"] == "in-process" and ready["checks"]["redis"] == {"ok": True,
                                                                         "configured": False}
    assert b"scorepad_requests_total" in client.get("/metrics").data
    a.extensions["scorepad.engine"].dispose()


def test_worker_needs_redis(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    r = subprocess.run([SCOREPAD, "worker"], env=env, cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.startswith("scorepad: no Redis")
    r = subprocess.run([SCOREPAD, "worker", "--redis-url", "redis://127.0.0.1:1/0"], env=env,
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.startswith("scorepad: cannot reach Redis")


def _nice(pid: int) -> tuple[int, str]:
    """A process's nice value and its autogroup's (Linux)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    nice = int(stat.rsplit(")", 1)[1].split()[16])
    group = Path(f"/proc/{pid}/autogroup")
    return nice, group.read_text().split()[-1] if group.exists() else ""


def test_worker_yields_the_cpu_by_default(procs: Processes, env: dict[str, str]) -> None:
    worker = procs.start("worker")  # its own session, as under systemd or a process manager
    assert wait_for(lambda: _nice(worker.pid)[0] == 10 or worker.poll() is not None,
                    "the worker lowers its priority")
    assert worker.poll() is None
    if Path("/proc/self/autogroup").exists():  # autogroups on: the session's priority too
        assert _nice(worker.pid)[1] == "10"
    assert wait_for(lambda: os.sched_getscheduler(worker.pid) == os.SCHED_IDLE,
                    "the worker takes a core only when no other process wants it")
    procs.kill(worker, signal.SIGTERM)

    plain = procs.start("worker", "--no-idle")
    assert wait_for(lambda: _nice(plain.pid)[0] == 10 or plain.poll() is not None,
                    "the worker lowers its priority")
    assert os.sched_getscheduler(plain.pid) == os.SCHED_OTHER
    procs.kill(plain, signal.SIGTERM)

    procs.env = {**env, "SCOREPAD_WORKER_NICE": "5"}  # the setting, when no --nice is given
    other = procs.start("worker")
    assert wait_for(lambda: _nice(other.pid)[0] == 5 or other.poll() is not None,
                    "the worker takes the setting")
    assert other.poll() is None
    for bad in (["--nice", "20"], ["--threads", "-1"]):
        r = subprocess.run([SCOREPAD, "worker", *bad], env=env, cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 2 and "must be" in r.stderr
    for var, bad in (("SCOREPAD_WORKER_THREADS", "two"), ("SCOREPAD_WORKER_IDLE", "off")):
        r = subprocess.run([SCOREPAD, "worker"], env={**env, var: bad},
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and "integers" in r.stderr and var in r.stderr
