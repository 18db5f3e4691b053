"""Prometheus metrics (``GET /metrics``) and structured request logs (one JSON line each).

* ``scorepad_requests_total{method,endpoint,status}`` and
  ``scorepad_request_seconds{method,endpoint}`` (a histogram): every request, by Flask
  endpoint (``service.verify``, ``jobs.job``...; ``none`` for 404s), so a path's ids never
  become labels.
* ``scorepad_queue_length`` (read from Redis at scrape time: shared, the same in every
  web process) when ``REDIS_URL`` is set.
* ``scorepad_job_seconds{kind,outcome}``: job durations where they run: in the web
  processes for in-process jobs, in the worker for queued ones (``scorepad worker
  --metrics-port``).

Several processes (gunicorn's workers, a worker's work-horses) each count their own
requests and jobs; ``scorepad serve`` and ``scorepad worker`` set
``PROMETHEUS_MULTIPROC_DIR`` (a fresh directory, unless it is set) so that
prometheus_client's multiprocess mode adds them up in every scrape. Without it (an app made
by ``create_app`` in another server) the numbers are the answering process's own.

Each request is logged on the ``scorepad.request`` logger as one JSON object: ``ts``,
``method``, ``path``, ``endpoint``, ``status``, ``ms``, ``remote``, ``length``.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response, g, request

log = logging.getLogger("scorepad.request")

_metrics: dict[str, Any] = {}


def _m() -> dict[str, Any]:
    """The metric objects, made on first use (after PROMETHEUS_MULTIPROC_DIR is set)."""
    if not _metrics:
        from prometheus_client import Counter, Histogram

        _metrics["requests"] = Counter("scorepad_requests", "HTTP requests answered",
                                       ["method", "endpoint", "status"])
        _metrics["latency"] = Histogram(
            "scorepad_request_seconds", "time to answer an HTTP request", ["method", "endpoint"],
            buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10))
        _metrics["jobs"] = Histogram(
            "scorepad_job_seconds", "time a job (photo scan, table build) ran",
            ["kind", "outcome"], buckets=(.05, .1, .25, .5, 1, 2, 4, 8, 15, 30, 60, 120, 300))
    return _metrics


def observe_job(kind: str, outcome: str, seconds: float) -> None:
    _m()["jobs"].labels(kind, outcome).observe(seconds)


def _registry() -> Any:
    from prometheus_client import REGISTRY, CollectorRegistry, multiprocess

    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    reg = CollectorRegistry()
    multiprocess.MultiProcessCollector(reg)  # type: ignore[no-untyped-call]
    return reg


class _QueueCollector:
    def __init__(self, length: Callable[[], int]) -> None:
        self.length = length

    def collect(self) -> Any:
        from prometheus_client.core import GaugeMetricFamily

        g = GaugeMetricFamily("scorepad_queue_length", "jobs waiting on the queue")
        try:
            g.add_metric([], self.length())
        except Exception:  # Redis away: no sample rather than a failed scrape
            return
        yield g


def exposition(queue_length: Callable[[], int] | None) -> tuple[bytes, str]:
    from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

    _m()
    body = generate_latest(_registry())
    if queue_length is not None:
        reg = CollectorRegistry()
        reg.register(_QueueCollector(queue_length))
        body += generate_latest(reg)
    return body, CONTENT_TYPE_LATEST


def init_app(app: Flask, queue_length: Callable[[str], int]) -> None:
    """Time and log every request; ``/metrics``, with ``queue_length(REDIS_URL)`` when set."""
    @app.before_request
    def _start() -> None:
        g.scorepad_t0 = time.perf_counter()

    @app.after_request
    def _record(resp: Response) -> Response:
        t0 = g.pop("scorepad_t0", None)
        if t0 is None:
            return resp
        seconds = time.perf_counter() - t0
        endpoint = request.endpoint or "none"
        m = _m()
        m["requests"].labels(request.method, endpoint, str(resp.status_code)).inc()
        m["latency"].labels(request.method, endpoint).observe(seconds)
        if log.isEnabledFor(logging.INFO):
            log.info(json.dumps({
                "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "method": request.method, "path": request.path, "endpoint": endpoint,
                "status": resp.status_code, "ms": round(seconds * 1000, 2),
                "remote": request.remote_addr, "length": resp.calculate_content_length()}))
        return resp

    @app.route("/metrics")
    def metrics() -> Response:
        url = app.config.get("REDIS_URL")
        body, ctype = exposition(None if not url else lambda: queue_length(str(url)))
        return Response(body, mimetype=None, content_type=ctype)


def log_requests_to_stderr() -> None:
    """The servers' request log: the JSON lines alone, on stderr."""
    if not log.handlers:
        h = logging.StreamHandler()
        h.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(h)
    log.setLevel(logging.INFO)
    log.propagate = False


def fresh_multiproc_dir() -> None:
    """Point prometheus_client at a fresh directory for this server's processes (unless the
    environment names one). Call before anything imports prometheus_client."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        import atexit
        import shutil
        import tempfile

        path = tempfile.mkdtemp(prefix="scorepad-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
        owner = os.getpid()  # forked processes (gunicorn's workers) must not remove it

        def remove() -> None:
            if os.getpid() == owner:
                shutil.rmtree(path, ignore_errors=True)

        atexit.register(remove)


def process_dead(pid: int) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
