"""Jobs: photo scans and optimal-play table builds, on RQ when ``REDIS_URL`` is set.

A photo scan (0.5-3.7 s of CPU, a few hundred MB) or a custom rule set's table build
(1.5-3 s) inside a web worker stops every other request that worker would answer. With
``SCOREPAD_REDIS_URL`` set, ``POST /api/v1/scan`` and the table-building
``POST /api/v1/analyse`` put a job on the RQ queue ``scorepad`` and answer ``202 Accepted``
with the job resource (``GET /api/v1/jobs/{id}``, also in ``Location``), which the client
polls until ``status`` is ``finished`` (``result``) or ``failed`` (``problem``). A
``scorepad worker`` process, on this machine or another with the same Redis, runs them.

Without Redis the same job functions run in-process and the routes answer as they always
have (200 with the result, or the problem).

A job that raises, outlives ``JOB_TIMEOUT`` or whose work-horse is killed (out of memory,
``kill -9``) is retried ``JOB_RETRIES`` times, then failed (RQ's failed-job registry); a
job whose whole worker died is found by RQ's heartbeat (about a minute) and retried or
failed in the same way: a job is never left ``started`` for ever.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, url_for

from .errors import ApiError, ProblemCode
from .scanning import ScanFailed, scan

QUEUE_NAME = "scorepad"
JOB_TIMEOUT = 300  # s: a job running longer is killed, then retried or failed
JOB_RESULT_TTL = 3600  # s: how long a finished or failed job can be read
JOB_RETRIES = 1
STATUSES = ("queued", "started", "finished", "failed")

NOT_FOUND_HINT = ("; mark the pad's four corners and send the photo again with "
                  "?corners=x1,y1,x2,y2,x3,y3,x4,y4 (pixels of the photo turned upright)")

bp = Blueprint("jobs", __name__)


# ---- the job functions: run by a worker (any process) or in-process, with no app context


def problem_of(status: int, code: str, detail: str,
             errors: list[tuple[str, str]] | None = None) -> dict[str, Any]:
    p: dict[str, Any] = {"status": status, "code": code, "detail": detail}
    if errors:
        p["errors"] = [list(e) for e in errors]
    return p


def timed(kind: str, fn: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    from . import metrics

    start = time.perf_counter()
    outcome = "error"
    try:
        out = fn()
        outcome = "problem" if "problem" in out else "ok"
        return out
    finally:
        metrics.observe_job(kind, outcome, time.perf_counter() - start)


def scan_job(data: bytes, rules: Any, corners: list[tuple[float, float]] | None,
             corners_at: str = "query.corners") -> dict[str, Any]:
    """Read a photo: ``{"result": ScanResult.to_dict()}`` or ``{"problem": ...}``."""

    def run() -> dict[str, Any]:
        try:
            return {"result": scan(data, rules, corners)}
        except ScanFailed as exc:
            message = exc.message
            if exc.code == "bad_corners":
                return {"problem": problem_of(422, exc.api_code, message, [(corners_at, message)])}
            if exc.code == "not_a_pad":
                message += ("; check the corners given" if corners else NOT_FOUND_HINT)
            return {"problem": problem_of(exc.status, exc.api_code, message)}

    return timed("scan", run)


def raiseproblem_of(out: dict[str, Any]) -> dict[str, Any]:
    """An in-process job's answer: its result, or its problem raised as the ApiError."""
    if "problem" in out:
        p = out["problem"]
        errors = [tuple(e) for e in p.get("errors", [])] or None
        raise ApiError(p["status"], p["code"], p["detail"], errors=errors)
    result: dict[str, Any] = out["result"]
    return result


# ---- the queue


def redis_url() -> str | None:
    url = current_app.config.get("REDIS_URL")
    return str(url) if url else None


@lru_cache(maxsize=8)
def connection(url: str) -> Any:
    from redis import Redis

    return Redis.from_url(url)


def queue(url: str) -> Any:
    from rq import Queue

    return Queue(QUEUE_NAME, connection=connection(url))


def submit(kind: str, fn: Callable[..., dict[str, Any]], *args: Any) -> Response | dict[str, Any]:
    """Run ``fn(*args)``: on the queue (a 202 response with the job) when Redis is configured,
    else here (its result, or its problem raised)."""
    url = redis_url()
    if url is None:
        return raiseproblem_of(fn(*args))
    from rq import Retry

    cfg = current_app.config
    job = queue(url).enqueue(
        fn, *args, job_timeout=int(cfg.get("JOB_TIMEOUT", JOB_TIMEOUT)),
        result_ttl=JOB_RESULT_TTL, failure_ttl=JOB_RESULT_TTL, ttl=JOB_RESULT_TTL,
        retry=Retry(max=int(cfg.get("JOB_RETRIES", JOB_RETRIES))), meta={"kind": kind})
    resp = jsonify(describe(job))
    resp.status_code = 202
    resp.headers["Location"] = url_for("jobs.job", job_id=job.id)
    resp.headers["Retry-After"] = "1"
    return resp


def _iso(t: Any) -> str | None:
    return None if t is None else str(t.isoformat())


def describe(job: Any) -> dict[str, Any]:
    """The job resource: id, kind, status (queued/started/finished/failed), result or problem."""
    got = job.get_status(refresh=True)
    rq_status = str(getattr(got, "value", got) or "queued")  # a JobStatus (a str Enum)
    status = {"scheduled": "queued", "deferred": "queued", "stopped": "failed",
              "canceled": "failed"}.get(rq_status, rq_status)
    body: dict[str, Any] = {"id": job.id, "kind": job.meta.get("kind"), "status": status,
                            "created_at": _iso(job.created_at),
                            "started_at": _iso(job.started_at), "ended_at": _iso(job.ended_at),
                            "retries_left": job.retries_left}
    if status == "queued":
        pos = job.get_position()
        body["position"] = pos
    elif status == "finished":
        out = job.return_value() or {}
        if "problem" in out:
            body["status"] = "failed"
            body["problem"] = out["problem"]
        else:
            body["result"] = out.get("result")
    elif status == "failed":
        body["problem"] = problem_of(500, ProblemCode.JOB_FAILED.value, _failure(job))
    return body


def _failure(job: Any) -> str:
    """Why a job failed, in one line (the last line of the traceback RQ kept)."""
    text = ""
    try:
        result = job.latest_result()
        text = (getattr(result, "exc_string", None) or "") if result is not None else ""
    except Exception:  # an old or foreign result record
        text = ""
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    last = lines[-1].strip() if lines else ""
    if not last or "AbandonedJobError" in last:
        return "the worker running the job stopped before it finished (retries spent)"
    if "JobTimeoutException" in last:
        return "the job took longer than its time limit"
    if "Work-horse" in last or "terminated unexpectedly" in last:
        return "the worker's process running the job was killed (retries spent)"
    return f"the job failed: {last}"


def queue_length(url: str) -> int:
    return int(queue(url).count)


def recover_abandoned(url: str) -> None:
    """Retry or fail the jobs whose worker stopped sending heartbeats (RQ's cleanup)."""
    from rq.registry import StartedJobRegistry

    StartedJobRegistry(queue=queue(url)).cleanup()


@bp.route("/api/v1/jobs/<string:job_id>", methods=["GET"])
def job(job_id: str) -> Response:
    """A job's state; 404 when there is no such job (or it expired, an hour after its end)."""
    url = redis_url()
    if url is None or len(job_id) > 64:
        raise ApiError(404, ProblemCode.NOT_FOUND, "no such job")
    from rq.exceptions import NoSuchJobError
    from rq.job import Job

    recover_abandoned(url)
    try:
        found = Job.fetch(job_id, connection=connection(url))
    except NoSuchJobError:
        raise ApiError(404, ProblemCode.NOT_FOUND, "no such job (jobs are kept an hour)") from None
    body = describe(found)
    resp = jsonify(body)
    if body["status"] in ("queued", "started"):
        resp.headers["Retry-After"] = "1"
    return resp


def run_worker(url: str, burst: bool = False, name: str | None = None) -> None:
    """A worker on the queue (``scorepad worker``): each job in a forked work-horse, so one
    that crashes or is killed fails alone. The reader and the solver are imported first, so
    that each work-horse starts with them loaded."""
    import importlib

    from rq import Worker

    importlib.import_module("ocr")
    importlib.import_module("scorepad.solver")
    worker = Worker([queue(url)], connection=connection(url), name=name)
    worker.work(burst=burst, with_scheduler=True)
