"""The production server of ``scorepad serve``: gunicorn, embedded (no second command line).

Workers: ``--workers``, else ``$WEB_CONCURRENCY``, else gunicorn's advice of 2 x cores + 1,
at most 8 (each may hold a photo being read, a few hundred MB, when there is no queue).
Sync workers, one request at a time each; a request may take ``timeout`` seconds (a table
built in-process takes a few). The master applies the migrations before it forks, so the
workers start without racing on them. gunicorn's own access log is off: the app writes one
JSON line per request (api/metrics.py).
"""

from __future__ import annotations

import os
from typing import Any

from gunicorn.app.base import BaseApplication

MAX_DEFAULT_WORKERS = 8
TIMEOUT = 120  # s


def default_workers() -> int:
    env = os.environ.get("WEB_CONCURRENCY", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return min(2 * (os.cpu_count() or 1) + 1, MAX_DEFAULT_WORKERS)


def web_threads(workers: int, cores: int | None = None) -> int:
    """The threads numpy's BLAS (and OpenMP) may use in each web worker: the machine's cores
    shared among the workers, at least one. Without a queue each worker may read a photo at
    once, and BLAS threads that outnumber the cores wait by spinning: two scans at once
    with two threads each on two cores classified 2.5x slower than with one thread each."""
    return max(1, (cores or os.cpu_count() or 1) // workers)


def _child_exit(server: Any, worker: Any) -> None:
    from . import metrics

    metrics.process_dead(worker.pid)


class Server(BaseApplication):  # type: ignore[misc]
    def __init__(self, host: str, port: int, workers: int) -> None:
        self.options = {
            "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
            "workers": workers, "worker_class": "sync", "timeout": TIMEOUT,
            "graceful_timeout": 20, "keepalive": 5, "accesslog": None,
            "errorlog": "-", "loglevel": "warning", "child_exit": _child_exit,
            "proc_name": "scorepad-web",
        }
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        from . import create_app, metrics

        metrics.log_requests_to_stderr()
        return create_app({"AUTO_MIGRATE": False})  # the master has migrated


def run(host: str, port: int, workers: int) -> None:
    Server(host, port, workers).run()
