"""``scorepad serve`` and ``scorepad db ...``: the service's command-line plugin.

``scorepad serve`` runs gunicorn (api/server.py), the development server only with
``--debug``; ``scorepad worker`` runs a job worker on Redis (api/jobs.py).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from pathlib import Path
from typing import Any

from scorepad.cliapi import ExitCode, add_command, error


def register(subparsers: Any) -> None:
    serve = add_command(
        subparsers, "serve",
        description="Run the HTTP service with gunicorn (several worker processes); --debug "
        "runs Flask's development server instead.",
        epilog="""The database is $SCOREPAD_DATABASE_URL, else a SQLite file scorepad.db in the
app's instance folder (the start-up line names it). With $SCOREPAD_REDIS_URL set, photo
scans and table builds are jobs for `scorepad worker` processes; without it they run in
the web workers.

examples:
  scorepad serve                     http://127.0.0.1:5000/ (API under /api/v1, docs at /docs)
  scorepad serve --host 0.0.0.0 --port 8080 --workers 4
  scorepad serve --debug             Flask's development server, one process""")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on "
                       "(default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    serve.add_argument("--workers", type=int, default=None, help="web worker processes "
                       "(default $WEB_CONCURRENCY, else 2 x cores + 1, at most 8)")
    serve.add_argument("--debug", action="store_true", help="Flask's development server in "
                       "debug mode, one process (never in production)")
    serve.set_defaults(func=_serve)

    worker = add_command(
        subparsers, "worker",
        description="Run a job worker: photo scans and optimal-play table builds queued by the "
        "web processes on Redis ($SCOREPAD_REDIS_URL or --redis-url). Run as many as the "
        "machines have cores to spare, on any machine that reaches the Redis.",
        epilog="""examples:
  SCOREPAD_REDIS_URL=redis://127.0.0.1:6379/0 scorepad worker
  scorepad worker --redis-url redis://queue.example:6379/0 --metrics-port 9101
  scorepad worker --nice 0           on a machine of its own: no lower priority
  scorepad worker --burst            run the queued jobs, then stop""")
    worker.add_argument("--redis-url", default=None, help="the Redis of the queue (default "
                        "$SCOREPAD_REDIS_URL)")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    worker.add_argument("--name", default=None, help="the worker's name (default: random)")
    worker.add_argument("--metrics-port", type=int, default=None, help="serve Prometheus "
                        "metrics (job durations) on this port")
    worker.add_argument("--nice", type=int, default=None, help="lower the worker's CPU priority "
                        "by this much (0-19), so that web processes on the same machine "
                        "answer first (default $SCOREPAD_WORKER_NICE, else 10)")
    worker.add_argument("--threads", type=int, default=None, help="threads a job may use "
                        "(OpenCV, BLAS, OpenMP; 0: no limit; default $SCOREPAD_WORKER_THREADS, "
                        "else 1: a scan keeps to one core)")
    worker.add_argument("--idle", action=argparse.BooleanOptionalAction, default=None,
                        help="with a lowered priority, also run in Linux's idle scheduling "
                        "class: a core only when no other process wants it (default "
                        "$SCOREPAD_WORKER_IDLE, 1 or 0, else on)")
    worker.set_defaults(func=_worker)

    dbp = add_command(subparsers, "db", epilog="""examples:
  scorepad db upgrade
  scorepad db export GROUP_ID > group.json
  scorepad db import group.json""")
    dsub = dbp.add_subparsers(dest="db_command", metavar="DB_COMMAND",
                              help="upgrade, current, export or import")
    up = dsub.add_parser("upgrade", help="apply the migrations (SCOREPAD_DATABASE_URL or the "
                         "SQLite file in the instance folder)")
    up.add_argument("--revision", default="head", help="the revision to reach (default head)")
    up.set_defaults(func=_db_upgrade)
    cur = dsub.add_parser("current", help="print the database's migration revision")
    cur.set_defaults(func=_db_current)
    exp = dsub.add_parser("export", help="write a group's JSON backup to stdout")
    exp.add_argument("group_id", help="the group's id (from the API)")
    exp.set_defaults(func=_db_export)
    imp = dsub.add_parser("import", help="restore a group from a JSON backup file")
    imp.add_argument("file", help="backup file ('-' for stdin)")
    imp.set_defaults(func=_db_import)

    def db_help(args: argparse.Namespace) -> int:
        dbp.print_help(sys.stderr)
        return ExitCode.BAD_INPUT

    dbp.set_defaults(func=db_help)


def _app(migrate: bool = True) -> Any:
    from . import create_app

    return create_app({"AUTO_MIGRATE": migrate})


def _fail(msg: str) -> int:
    return error(msg)


def _port_free(host: str, port: int) -> str | None:
    """None when ``host:port`` can be listened on, else why not (checked before start-up)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        return f"unknown host {host!r}: {exc}"
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        # as the server binds (gunicorn sets it too): the connections of a server just
        # stopped, waiting out TIME_WAIT, do not keep it from starting again
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def _serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        return _fail(f"port must be 1-65535, got {args.port}")
    busy = _port_free(args.host, args.port)
    if busy is not None:
        return _fail(f"cannot listen on {args.host}:{args.port}: {busy}")
    from . import server

    workers = args.workers or server.default_workers()
    if not args.debug:
        from . import jobs, metrics

        metrics.fresh_multiproc_dir()  # gunicorn's workers' counts add up in /metrics
        # before the app loads numpy; the workers are forks and inherit it
        jobs.limit_threads(server.web_threads(workers), keep_set=True)
    try:
        app = _app()
    except Exception as exc:  # database unreachable, bad configuration, ...
        return _fail(f"cannot start: {type(exc).__name__}: {exc}")
    runs_jobs = "a queue on Redis" if app.config.get("REDIS_URL") else "in-process"
    if args.debug:
        print(f"scorepad: development server on http://{args.host}:{args.port}/ (docs at "
              f"/docs, database {app.config['DATABASE_URL'].split('@')[-1]}, jobs {runs_jobs})",
              file=sys.stderr)
        try:
            app.run(host=args.host, port=args.port, debug=True, use_reloader=False)
        except OSError as exc:
            return _fail(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
        return ExitCode.OK
    print(f"scorepad: serving on http://{args.host}:{args.port}/ with {workers} workers (docs "
          f"at /docs, database {app.config['DATABASE_URL'].split('@')[-1]}, jobs {runs_jobs})",
          file=sys.stderr)
    server.run(args.host, args.port, workers)
    return ExitCode.OK


def _worker(args: argparse.Namespace) -> int:
    import os

    url = args.redis_url or os.environ.get("SCOREPAD_REDIS_URL")
    if not url:
        return _fail("no Redis: set SCOREPAD_REDIS_URL or give --redis-url")
    if args.metrics_port is not None and not 0 < args.metrics_port < 65536:
        return _fail(f"port must be 1-65535, got {args.metrics_port}")
    from . import jobs, metrics

    try:
        nice = jobs.worker_setting(args.nice, "SCOREPAD_WORKER_NICE", jobs.WORKER_NICE)
        threads = jobs.worker_setting(args.threads, "SCOREPAD_WORKER_THREADS",
                                      jobs.WORKER_THREADS)
        idle = jobs.worker_setting(None if args.idle is None else int(args.idle),
                                   "SCOREPAD_WORKER_IDLE", jobs.WORKER_IDLE)
    except ValueError as exc:
        return _fail("SCOREPAD_WORKER_NICE, SCOREPAD_WORKER_THREADS and SCOREPAD_WORKER_IDLE "
                     f"are integers: {exc}")
    if not 0 <= nice <= 19:
        return _fail(f"--nice must be 0-19, got {nice}")
    if threads < 0:
        return _fail(f"--threads must be 0 or more, got {threads}")
    if threads:
        jobs.limit_threads(threads)  # before numpy is loaded; the work-horses inherit it
    if nice:
        jobs.lower_priority(nice, idle=bool(idle))  # the work-horses inherit it
    try:
        jobs.connection(url).ping()
    except Exception as exc:
        return _fail(f"cannot reach Redis at {url.split('@')[-1]}: {type(exc).__name__}: {exc}")
    if args.metrics_port is not None:
        metrics.fresh_multiproc_dir()  # the work-horses' job durations add up
        from prometheus_client import CollectorRegistry, multiprocess, start_http_server

        reg = CollectorRegistry()
        multiprocess.MultiProcessCollector(reg)  # type: ignore[no-untyped-call]
        start_http_server(args.metrics_port, registry=reg)
    print(f"scorepad: worker on {url.split('@')[-1]}, queue {jobs.QUEUE_NAME}", file=sys.stderr)
    jobs.run_worker(url, burst=args.burst, name=args.name, threads=threads or None)
    return ExitCode.OK


def _db_upgrade(args: argparse.Namespace) -> int:
    from . import db

    try:
        app = _app(migrate=False)
        db.upgrade(app.extensions["scorepad.engine"], args.revision)
        rev = db.current_revision(app.extensions["scorepad.engine"])
    except Exception as exc:
        return _fail(f"upgrade failed: {type(exc).__name__}: {exc}")
    print(f"database at revision {rev}")
    return ExitCode.OK


def _db_current(args: argparse.Namespace) -> int:
    from . import db

    try:
        app = _app(migrate=False)
        print(db.current_revision(app.extensions["scorepad.engine"]) or "(empty)")
    except Exception as exc:
        return _fail(f"{type(exc).__name__}: {exc}")
    return ExitCode.OK


def _db_export(args: argparse.Namespace) -> int:
    from .db import Group
    from .storage import backup_of

    app = _app()
    with app.app_context():
        from .db import reading

        with reading() as s:
            g = s.get(Group, args.group_id)
            if g is None:
                return _fail(f"no group {args.group_id!r}")
            data = backup_of(s, g)
    json.dump(data, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return ExitCode.OK


def _db_import(args: argparse.Namespace) -> int:
    import marshmallow as ma

    from scorepad.cliapi import InputError
    from scorepad.inputs import parse_json
    from scorepad.schemas import _flatten

    try:  # a backup may be far larger than a sheet: no size limit here
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    except ValueError:  # UnicodeDecodeError, or a NUL in the path
        raise InputError(f"{args.file}: not UTF-8 text") from None
    raw = parse_json(text, args.file)  # InputError: one line, exit 2

    from .errors import ApiError
    from .schemas import BackupSchema
    from .storage import restore

    try:
        data = BackupSchema().load(raw)
    except ma.ValidationError as exc:  # marshmallow 4's is not a ValueError
        errors = _flatten(exc.messages)
        where, msg = errors[0] if errors else ("$", "not a backup")
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return _fail(f"{args.file}: not a backup: {where}: {msg}{more}")
    app = _app()
    with app.app_context():
        from .db import writing

        try:
            with writing() as s:
                g = restore(s, data)
        except ApiError as exc:
            return _fail(f"{exc.problem_code}: {exc.description}")
    print(f"restored group {g.id} ({len(data['matches'])} matches)")
    return ExitCode.OK
