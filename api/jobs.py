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

# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import marshmallow as ma
from flask import Response, current_app, jsonify, url_for

from .blueprint import Blueprint
from .errors import ApiError, ProblemCode
from .scanning import ScanFailed, scan

QUEUE_NAME = "scorepad"
JOB_TIMEOUT = 300  # s: a job running longer is killed, then retried or failed
JOB_RESULT_TTL = 3600  # s: how long a finished or failed job can be read
JOB_RETRIES = 1
STATUSES = ("queued", "started", "finished", "failed")

NOT_FOUND_HINT = ("; mark the pad's four corners and send the photo again with "
                  "?corners=x1,y1,x2,y2,x3,y3,x4,y4 (pixels of the photo turned upright)")

blp = Blueprint("jobs", __name__, description="Scans and table builds queued on Redis")


class JobSchema(ma.Schema):
    """A job (``GET /api/v1/jobs/{id}``, and the 202 answer that queued it)."""

    id = ma.fields.String(required=True)
    kind = ma.fields.String(allow_none=True, metadata={"description": "scan or analyse"})
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(
        ("queued", "started", "finished", "failed")))
    created_at = ma.fields.String(allow_none=True, metadata={"description": "ISO 8601, UTC"})
    started_at = ma.fields.String(allow_none=True)
    ended_at = ma.fields.String(allow_none=True)
    retries_left = ma.fields.Integer(allow_none=True)
    position = ma.fields.Integer(allow_none=True, metadata={
        "description": "while queued: the jobs before it on the queue (0: next)"})
    result = ma.fields.Dict(metadata={"description": "when finished: what the route answers "
                                      "without a queue (a scan's ScanResult, an analysis)"})
    problem = ma.fields.Dict(metadata={"description": "when failed: status, code, detail "
                                       "(and errors), as the route's problem would say"})


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


def new_id() -> str:
    """An id for a job about to be queued (known before, to be kept with what waits for it)."""
    return str(uuid.uuid4())


BLOB_MIN = 16_384  # bytes: a larger bytes argument (a photo) is kept beside the job
BLOB_KEY = "scorepad:blob:"


@dataclass(frozen=True)
class Blob:
    """A bytes argument kept in Redis under ``key`` rather than in the job itself: RQ
    compresses a job's arguments and reads them back whenever the job is looked at, so a
    photo in them would be compressed at every upload and decompressed at every poll."""

    key: str


def call(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """Run by the worker: ``fn`` with its ``Blob`` arguments read back; when it returns (a
    result or a problem: no retry will need them) they are removed."""
    from rq import get_current_job

    job = get_current_job()
    conn = job.connection if job is not None else None
    blobs = [a.key for a in args if isinstance(a, Blob)]
    values = [conn.get(a.key) if isinstance(a, Blob) and conn is not None else a for a in args]
    if any(v is None for a, v in zip(args, values, strict=True) if isinstance(a, Blob)):
        return {"problem": problem_of(500, ProblemCode.JOB_FAILED.value,
                                      "the job's data was no longer kept")}
    out = fn(*values)
    if blobs and conn is not None:
        conn.delete(*blobs)
    return out


def enqueue(url: str, kind: str, fn: Callable[..., dict[str, Any]], *args: Any,
            job_id: str | None = None, meta: dict[str, Any] | None = None) -> Any:
    """Put ``fn(*args)`` on the queue (with the app's timeout and retries): the RQ job. A
    large bytes argument travels as a ``Blob``, kept as long as the job may be run."""
    from rq import Retry

    cfg = current_app.config
    conn = connection(url)
    sent: list[Any] = []
    for a in args:
        if isinstance(a, bytes) and len(a) >= BLOB_MIN:
            blob = Blob(BLOB_KEY + new_id())
            conn.set(blob.key, a, ex=3 * JOB_RESULT_TTL)  # queued, run, retried: kept long enough
            a = blob
        sent.append(a)
    return queue(url).enqueue(  # a description of its own: RQ's would repr the arguments
        call, fn, *sent, job_id=job_id, description=f"{kind} ({fn.__module__}.{fn.__name__})",
        job_timeout=int(cfg.get("JOB_TIMEOUT", JOB_TIMEOUT)),
        result_ttl=JOB_RESULT_TTL, failure_ttl=JOB_RESULT_TTL, ttl=JOB_RESULT_TTL,
        retry=Retry(max=int(cfg.get("JOB_RETRIES", JOB_RETRIES))),
        meta={**(meta or {}), "kind": kind})


def fetch(url: str, job_id: str) -> Any:
    """The job ``job_id`` (a job whose worker died retried or failed first), or None."""
    if not job_id or len(job_id) > 64:
        return None
    from rq.exceptions import NoSuchJobError
    from rq.job import Job

    recover_abandoned(url)
    try:
        return Job.fetch(job_id, connection=connection(url))
    except NoSuchJobError:
        return None


def submit(kind: str, fn: Callable[..., dict[str, Any]], *args: Any) -> Response | dict[str, Any]:
    """Run ``fn(*args)``: on the queue (a 202 response with the job) when Redis is configured,
    else here (its result, or its problem raised)."""
    url = redis_url()
    if url is None:
        return raiseproblem_of(fn(*args))
    job = enqueue(url, kind, fn, *args)
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


@blp.route("/jobs/<string:job_id>", methods=["GET"])
@blp.response(200, JobSchema, description="the job; poll again (Retry-After) while it is "
              "queued or started")
@blp.alt_response(404, response="NOT_FOUND", description="no such job: none with this id, "
                  "gone (jobs are kept an hour after their end), or no queue configured")
def job(job_id: str) -> Response:
    """A queued job's state: ``queued`` (with its position), ``started``, then ``finished``
    with its ``result`` or ``failed`` with its ``problem``."""
    url = redis_url()
    found = None if url is None else fetch(url, job_id)
    if found is None:
        raise ApiError(404, ProblemCode.NOT_FOUND, "no such job (jobs are kept an hour)")
    body = describe(found)
    resp = jsonify(body)
    if body["status"] in ("queued", "started"):
        resp.headers["Retry-After"] = "1"
    return resp


WORKER_NICE = 10  # default of SCOREPAD_WORKER_NICE: web processes on the machine answer first
WORKER_THREADS = 1  # default of SCOREPAD_WORKER_THREADS: the threads a scan may use
WORKER_IDLE = 1  # default of SCOREPAD_WORKER_IDLE: a lowered worker in the idle class too
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "NUMEXPR_NUM_THREADS", "OMP_THREAD_LIMIT")


def worker_setting(value: int | None, env: str, default: int) -> int:
    """A worker setting: the command line's, else ``$env`` (an integer), else ``default``."""
    import os

    if value is not None:
        return value
    raw = os.environ.get(env, "").strip()
    return int(raw) if raw else default


def lower_priority(nice: int, idle: bool = False) -> bool:
    """Lower this process's CPU priority (and its work-horses') by ``nice``; with ``idle``
    also put it in Linux's idle scheduling class (SCHED_IDLE), where it runs only when no
    other process wants the core, so that a request is never kept waiting behind a scan by
    the scheduler (a nice value alone still gives it a share and a time slice). On Linux with
    autogroups (``/proc/sys/kernel/sched_autogroup_enabled``) a process's nice value only
    counts against the processes of its own session, so a worker that leads its own session
    (started by systemd, setsid, a process manager) lowers its session's autogroup too;
    otherwise web processes in another session would not answer first. True when it did."""
    import os

    os.nice(nice)
    if idle and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):  # not permitted (a container's seccomp): nice only
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    if os.getsid(0) != os.getpid():  # a shell's session: lowering it would lower the shell's
        return False
    try:
        with open("/proc/self/autogroup", "w") as fh:
            fh.write(str(nice))
    except OSError:  # no autogroups (not Linux, or the kernel's option off)
        return False
    return True


def limit_threads(threads: int, keep_set: bool = False) -> None:
    """At most ``threads`` threads for numpy's BLAS, OpenMP, tesseract and OpenCV in this
    process and its work-horses: one scan keeps to one core, and the machine's other cores
    stay free for the web processes. Call before numpy is imported (the BLAS reads its
    variables once); OpenCV's own pool is set again when the reader is loaded.
    ``keep_set``: a variable already set (by whoever runs the service) is left as it is."""
    import os

    for var in THREAD_VARS:
        if keep_set:
            os.environ.setdefault(var, str(threads))
        else:
            os.environ[var] = str(threads)


def warm_up(threads: int | None = None) -> None:
    """Load what the reader loads on first use (its digit network, the blank cards' line
    templates, the font index) once, in the worker: each work-horse is a fork and starts
    with them, instead of loading them again for every job."""
    import contextlib
    import importlib
    import io

    if threads:
        importlib.import_module("cv2").setNumThreads(threads)
    ocr = importlib.import_module("ocr")
    importlib.import_module("scorepad.solver")
    with contextlib.suppress(Exception):  # a warm-up only: a missing part fails the job later
        importlib.import_module("ocr.cnn").load()
    with contextlib.suppress(Exception):
        printed = importlib.import_module("ocr.printed")
        card = printed.blank_card(importlib.import_module("ocr.layout").Side.FRONT)
        out = io.BytesIO()
        card.convert("RGB").save(out, "JPEG", quality=85)
        ocr.scan_image(out.getvalue())  # an empty pad: refused, after the reader's set-up


def run_worker(url: str, burst: bool = False, name: str | None = None,
               threads: int | None = None) -> None:
    """A worker on the queue (``scorepad worker``): each job in a forked work-horse, so one
    that crashes or is killed fails alone. The reader and the solver are loaded first
    (``warm_up``), so that each work-horse starts with them loaded."""
    from rq import Worker

    warm_up(threads)
    worker = Worker([queue(url)], connection=connection(url), name=name)
    worker.work(burst=burst, with_scheduler=True)
