"""``scorepad serve`` and ``scorepad db ...``: the service's command-line plugin.

Production: ``gunicorn -w 2 -b 127.0.0.1:8000 'api:create_app()'`` (see docs/api.md).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from pathlib import Path
from typing import Any

from scorepad.cli import ExitCode, add_command, error


def register(subparsers: Any) -> None:
    serve = add_command(
        subparsers, "serve",
        description="Run the HTTP service with Flask's development server. For production "
        "use gunicorn: gunicorn -w 2 -b 127.0.0.1:8000 'api:create_app()'.",
        epilog="""The database is $SCOREPAD_DATABASE_URL, else a SQLite file scorepad.db in the
app's instance folder (the start-up line names it).

examples:
  scorepad serve                     http://127.0.0.1:5000/ (API under /api/v1, docs at /docs)
  scorepad serve --host 0.0.0.0 --port 8080""")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on "
                       "(default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    serve.add_argument("--debug", action="store_true", help="Flask debug mode (never in "
                       "production)")
    serve.set_defaults(func=_serve)

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

    from scorepad.cli import InputError
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
