"""``scorepad serve`` and ``scorepad db ...``: the service's command-line plugin.

Production: ``gunicorn -w 2 -b 127.0.0.1:8000 'api:create_app()'`` (see docs/api.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scorepad.cli import ExitCode


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser(
        "serve", help="run the HTTP service (development server)",
        description="Run the HTTP service with Flask's development server. For production "
        "use gunicorn: gunicorn -w 2 -b 127.0.0.1:8000 'api:create_app()'.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    serve.add_argument("--debug", action="store_true", help="Flask debug mode (never in "
                       "production)")
    serve.set_defaults(func=_serve)

    dbp = subparsers.add_parser("db", help="database commands (migrations, backups)")
    dsub = dbp.add_subparsers(dest="db_command", metavar="DB_COMMAND")
    up = dsub.add_parser("upgrade", help="apply the migrations (SCOREPAD_DATABASE_URL or the "
                         "SQLite file in the instance folder)")
    up.add_argument("--revision", default="head")
    up.set_defaults(func=_db_upgrade)
    cur = dsub.add_parser("current", help="print the database's migration revision")
    cur.set_defaults(func=_db_current)
    exp = dsub.add_parser("export", help="write a group's JSON backup to stdout")
    exp.add_argument("group_id")
    exp.set_defaults(func=_db_export)
    imp = dsub.add_parser("import", help="restore a group from a JSON backup file")
    imp.add_argument("file", help="backup file ('-' for stdin)")
    imp.set_defaults(func=_db_import)
    dbp.set_defaults(func=lambda args: (dbp.print_help(), ExitCode.BAD_INPUT)[1])


def _app(migrate: bool = True) -> Any:
    from . import create_app

    return create_app({"AUTO_MIGRATE": migrate})


def _fail(msg: str) -> int:
    print(f"scorepad: {msg}", file=sys.stderr)
    return ExitCode.BAD_INPUT


def _serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        return _fail(f"port must be 1-65535, got {args.port}")
    try:
        app = _app()
    except Exception as exc:  # database unreachable, bad configuration, ...
        return _fail(f"cannot start: {type(exc).__name__}: {exc}")
    print(f"scorepad: serving on http://{args.host}:{args.port}/ (docs at /docs, "
          f"database {app.config['DATABASE_URL'].split('@')[-1]})", file=sys.stderr)
    try:
        app.run(host=args.host, port=args.port, debug=args.debug, use_reloader=False)
    except OSError as exc:
        return _fail(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
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

    from .errors import ApiError
    from .schemas import BackupSchema
    from .storage import restore

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        data = BackupSchema().load(json.loads(text))
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, ma.ValidationError):
            return _fail(f"not a backup: {exc.messages}")
        return _fail(f"not JSON: {exc}")
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
