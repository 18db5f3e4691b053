"""Load benchmark: POST /api/v1/verify against POST /api/v1/echo, same app, same gunicorn.

Starts ``gunicorn -w WORKERS 'api:create_app()'`` on loopback with the echo endpoint
enabled, then sends the same two-player, six-game sheet to both endpoints from
CLIENTS keep-alive connections (a bounded number of requests each), and prints
requests/s, p50 and p99 latency, and the verify/echo throughput ratio (target >= 0.5).

    .venv/bin/python benchmarks/api_load.py [--requests 600] [--clients 4] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHEET = ROOT / "sample_pads" / "hasbro_two_players_six_games.json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/api/v1/health")
            if c.getresponse().status == 200:
                c.close()
                return
            c.close()
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not come up")


def run(port: int, path: str, body: bytes, total: int, clients: int) -> tuple[float, list[float]]:
    """Send ``total`` POSTs split over ``clients`` keep-alive connections; (req/s, latencies)."""
    latencies: list[float] = []
    lock = threading.Lock()
    errors: list[str] = []
    per_client = total // clients
    headers = {"Content-Type": "application/json", "Connection": "keep-alive"}

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        try:
            for _ in range(per_client):
                t0 = time.perf_counter()
                conn.request("POST", path, body=body, headers=headers)
                resp = conn.getresponse()
                resp.read()
                mine.append(time.perf_counter() - t0)
                if resp.status != 200:
                    errors.append(f"{path}: HTTP {resp.status}")
                    return
        finally:
            conn.close()
            with lock:
                latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    if errors:
        raise SystemExit(errors[0])
    return len(latencies) / elapsed, latencies


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=600, help="per endpoint (bounded)")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    total = max(args.clients, min(args.requests, 20_000))

    body = SHEET.read_bytes()
    json.loads(body)
    gunicorn = shutil.which("gunicorn") or str(Path(sys.executable).parent / "gunicorn")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="scorepad-bench-") as tmp:
        env = {**os.environ, "SCOREPAD_DATABASE_URL": f"sqlite:///{tmp}/bench.db",
               "SCOREPAD_ENABLE_ECHO": "true", "SCOREPAD_RATELIMIT_ENABLED": "false"}
        proc = subprocess.Popen(
            [gunicorn, "-w", str(args.workers), "-b", f"127.0.0.1:{port}", "--log-level",
             "warning", "api:create_app()"],
            env=env, cwd=ROOT, start_new_session=True)
        try:
            wait_up(port, proc)
            for path in ("/api/v1/echo", "/api/v1/verify"):  # warm-up
                run(port, path, body, 20 * args.clients, args.clients)
            results = {}
            for path in ("/api/v1/echo", "/api/v1/verify"):
                results[path] = run(port, path, body, total, args.clients)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(15)

    print(f"gunicorn -w {args.workers} on 127.0.0.1, {args.clients} keep-alive clients, "
          f"{total} requests per endpoint, body {len(body)} bytes "
          f"({SHEET.name}: 2 players x 6 games)")
    print(f"{'endpoint':<18}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'mean ms':>10}")
    for path, (rps, lat) in results.items():
        print(f"{path:<18}{rps:>10.1f}{pct(lat, 50):>10.2f}{pct(lat, 99):>10.2f}"
              f"{statistics.fmean(lat) * 1000:>10.2f}")
    ratio = results["/api/v1/verify"][0] / results["/api/v1/echo"][0]
    print(f"verify/echo throughput ratio: {ratio:.2f} (target >= 0.50: "
          f"{'met' if ratio >= 0.5 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
