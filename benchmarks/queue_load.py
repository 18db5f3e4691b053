"""Verify latency while photos are scanned: scans inside the web workers vs on the RQ queue.

Starts ``scorepad serve --workers WEB`` (gunicorn) on loopback, then for DURATION seconds
sends a stream of ``POST /api/v1/verify`` (one keep-alive client, one request after
another) while SCANNERS clients upload a pad photo again and again. Four runs (six with
``--compare``), each against a fresh server:

* ``baseline``: verify alone, no scans (the reference of the same run);
* ``in-process``: no Redis, each scan is read inside a web worker (as before issue 16);
* ``queue, 1 worker`` and ``queue, 2 workers``: ``SCOREPAD_REDIS_URL`` set, scans answered
  202 and read by 1 or 2 ``scorepad worker`` processes with their default settings (CPU
  priority lowered by 10 and the idle scheduling class, one thread a scan); a scan client
  (the scan clients are threads of a process of their own) polls its job until it ends
  (every ``Retry-After`` second, or ``--poll``), then uploads the next photo; with
  ``--compare`` also with ``scorepad worker --nice 0 --threads 0`` (the workers before
  those defaults: the web's priority, OpenCV and BLAS on every core; the reader is
  loaded before the first job either way).

Prints verify's p50/p99 (and p99 over the baseline's), the scans finished per minute, and
the machine's 1-minute load average at the end of each run (the benchmark's own processes
included: other work on a shared machine shows as a load above the run's own).
Target: with the queue, verify's p99 within 2x the baseline's, and scan throughput growing
with the workers (the machine's cores permitting: it prints how many there are).

With ``--verify-rate R`` the verify stream sends R requests a second on a fixed schedule
(each request's time counted from when it was due) instead of back to back, which on two
cores leaves the queue workers the second core.

With ``--repeat N`` the runs are made N times in turn, each round against its own
baseline, and the medians of the rounds are printed too (one round's p99 is its 20th
slowest of 2,000 requests, and moves by half from one round to the next).

    .venv/bin/python benchmarks/queue_load.py [--duration 20] [--scanners 8] [--web 2]
        [--verify-rate 100] [--repeat 5]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHEET = ROOT / "sample_pads" / "hasbro_two_players_six_games.json"
PHOTO = ROOT / "sample_pads" / "photos" / "pad-01000-front.jpg"
SCOREPAD = str(Path(sys.executable).parent / "scorepad")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"scorepad serve exited with {proc.returncode}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/api/v1/health")
            ok = c.getresponse().status == 200
            c.close()
            if ok:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("scorepad serve did not come up")


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] * 1000 if s else float("nan")


class Run:
    def __init__(self, port: int, stop_at: float, poll: float = 0, rate: float = 0) -> None:
        self.port = port
        self.poll = poll  # seconds between a job's polls; 0: the server's Retry-After
        self.rate = rate  # verify requests a second on a fixed schedule; 0: back to back
        self.stop_at = stop_at
        self.verify: list[float] = []
        self.scans = 0
        self.errors: list[str] = []
        self.lock = threading.Lock()

    def conn(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)

    def verifier(self) -> None:
        body = SHEET.read_bytes()
        c = self.conn()
        due = time.perf_counter()
        while time.monotonic() < self.stop_at:
            if self.rate:
                # a fixed schedule: each request's time counts from when it was due, so a
                # late answer delays the next one's count too (no coordinated omission)
                due += 1 / self.rate
                time.sleep(max(0.0, due - time.perf_counter()))
                t0 = due
            else:
                t0 = time.perf_counter()
            c.request("POST", "/api/v1/verify", body=body,
                      headers={"Content-Type": "application/json"})
            r = c.getresponse()
            r.read()
            self.verify.append(time.perf_counter() - t0)
            if r.status != 200:
                self.errors.append(f"verify: HTTP {r.status}")
                return
        c.close()

    def scanner(self) -> None:
        photo = PHOTO.read_bytes()
        c = self.conn()
        while time.monotonic() < self.stop_at:
            c.request("POST", "/api/v1/scan", body=photo, headers={"Content-Type": "image/jpeg"})
            r = c.getresponse()
            data = r.read()
            if r.status == 202:
                if not self.follow(c, json.loads(data)["id"]):
                    return
            elif r.status != 200:
                self.errors.append(f"scan: HTTP {r.status}")
                return
            if time.monotonic() < self.stop_at:
                with self.lock:
                    self.scans += 1
        c.close()

    def follow(self, c: http.client.HTTPConnection, job_id: str) -> bool:
        while time.monotonic() < self.stop_at + 120:
            c.request("GET", f"/api/v1/jobs/{job_id}")
            r = c.getresponse()
            job: dict[str, Any] = json.loads(r.read())
            if job.get("status") == "finished":
                return True
            if job.get("status") == "failed" or r.status != 200:
                self.errors.append(f"scan job: {job}")
                return False
            time.sleep(self.poll or float(r.getheader("Retry-After") or 1))
        return False


def scan_clients(run: Run, scanners: int, results: Any) -> None:
    """``scanners`` clients uploading photos until the run ends (in a process of its own)."""
    threads = [threading.Thread(target=run.scanner) for _ in range(scanners)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put((run.scans, run.errors))


def scenario(name: str, duration: float, scanners: int, web: int, workers: int | None,
             worker_args: list[str], poll: float, redis_url: str, tmp: str,
             rate: float = 0, tag: str = "") -> dict[str, Any]:
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SCOREPAD_") and k != "PROMETHEUS_MULTIPROC_DIR"}
    env.update(SCOREPAD_DATABASE_URL=f"sqlite:///{tmp}/{tag}{name.replace(' ', '_')}.db",
               SCOREPAD_RATELIMIT_ENABLED="false")
    if workers is not None:
        env["SCOREPAD_REDIS_URL"] = redis_url
        from redis import Redis

        Redis.from_url(redis_url).flushdb()
    procs = [subprocess.Popen([SCOREPAD, "serve", "--port", str(port), "--workers", str(web)],
                              env=env, cwd=tmp, start_new_session=True,
                              stderr=subprocess.DEVNULL)]
    procs += [subprocess.Popen([SCOREPAD, "worker", *worker_args], env=env, cwd=tmp,
                               start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL) for _ in range(workers or 0)]
    try:
        wait_up(port, procs[0])
        warm = Run(port, time.monotonic() + 2)  # warm-up: each web worker's first requests
        warm.verifier()
        time.sleep(3 if workers else 0)  # the workers import the reader
        run = Run(port, time.monotonic() + duration, poll, rate)
        # the photo uploaders are other clients: their own process, so that the verify
        # stream's latency holds no waits for this process's interpreter lock
        results: multiprocessing.Queue[tuple[int, list[str]]] = multiprocessing.Queue()
        uploaders = multiprocessing.get_context("fork").Process(
            target=scan_clients, args=(run, scanners, results))
        uploaders.start()
        run.verifier()
        run.scans, errors = results.get(timeout=duration + 180)  # as long as follow() waits
        run.errors += errors
        uploaders.join()
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                # a worker's warm shutdown finishes its job first, and at the idle priority
                # that job yields the cores to whatever else is still busy: the next run
                # must not start beside it
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    if run.errors:
        raise SystemExit(f"{name}: {run.errors[0]}")
    return {"name": name, "n": len(run.verify), "p50": pct(run.verify, 50),
            "p99": pct(run.verify, 99), "scans_per_min": run.scans * 60 / duration,
            "load": os.getloadavg()[0]}


def print_rows(rows: list[dict[str, Any]], title: str) -> None:
    base = rows[0]["p99"]
    print(f"{'run' + title:<22}{'verifies':>9}{'p50 ms':>9}{'p99 ms':>9}{'p99/base':>9}"
          f"{'scans/min':>10}{'load':>6}")
    for r in rows:
        print(f"{r['name']:<22}{r['n']:>9}{r['p50']:>9.1f}{r['p99']:>9.1f}"
              f"{r['p99'] / base:>9.2f}{r['scans_per_min']:>10.1f}{r['load']:>6.1f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--duration", type=float, default=20, help="seconds per run")
    ap.add_argument("--scanners", type=int, default=8, help="clients uploading photos")
    ap.add_argument("--web", type=int, default=2, help="gunicorn workers")
    ap.add_argument("--poll", type=float, default=0, help="seconds between a scan job's "
                    "polls (default: the server's Retry-After, 1 s)")
    ap.add_argument("--verify-rate", type=float, default=0, help="verify requests a second "
                    "on a fixed schedule, latency counted from when each was due (default: "
                    "back to back, which keeps a core busy with the stream itself)")
    ap.add_argument("--compare", action="store_true", help="also run the workers with "
                    "--nice 0 --threads 0 (full priority, every core)")
    ap.add_argument("--repeat", type=int, default=1, help="rounds of every run, in turn; "
                    "with more than one, also the median of the rounds")
    ap.add_argument("--redis-url", default="redis://127.0.0.1:6379/12",
                    help="an empty Redis database for the queue runs (flushed)")
    args = ap.parse_args()
    full = ["--nice", "0", "--threads", "0"]
    plan: list[tuple[str, int, int | None, list[str]]] = [
        ("baseline (no scans)", 0, None, []), ("in-process scans", args.scanners, None, []),
        ("queue, 1 worker", args.scanners, 1, []), ("queue, 2 workers", args.scanners, 2, []),
        *([("queue, 1 worker full", args.scanners, 1, full),
           ("queue, 2 workers full", args.scanners, 2, full)] if args.compare else [])]
    head = (f"{args.web} gunicorn workers, {args.scanners} scan clients ({PHOTO.name}), "
            f"1 verify stream ({f'{args.verify_rate:g} a second' if args.verify_rate else 'back to back'}), "
            f"{args.duration:g} s per run, {os.cpu_count()} cores, job polls "
            f"every {args.poll or 'Retry-After'} s")
    rounds: list[list[dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="scorepad-qbench-") as tmp:
        for i in range(args.repeat):  # each round against its own baseline
            rows = [scenario(n, args.duration, s, args.web, w, wargs, args.poll, args.redis_url,
                             tmp, args.verify_rate, f"r{i}") for n, s, w, wargs in plan]
            rounds.append(rows)
            print(head if i == 0 else "", flush=True)
            print_rows(rows, f" (round {i + 1} of {args.repeat})" if args.repeat > 1 else "")
    if args.repeat > 1:
        print(f"\nmedian of {args.repeat} rounds (p99/base: each round's p99 over that round's "
              "baseline)")
        print(f"{'run':<22}{'p99 ms':>9}{'p99/base':>9}{'scans/min':>10}")
        for j, (name, *_rest) in enumerate(plan):
            p99 = statistics.median(r[j]["p99"] for r in rounds)
            ratio = statistics.median(r[j]["p99"] / r[0]["p99"] for r in rounds)
            scans = statistics.median(r[j]["scans_per_min"] for r in rounds)
            print(f"{name:<22}{p99:>9.1f}{ratio:>9.2f}{scans:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
