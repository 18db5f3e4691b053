"""Alembic environment: run by api.db.upgrade with a connection in config.attributes."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from api.db import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    conn = config.attributes.get("connection")
    if conn is None:  # `alembic` run by hand: take the URL from the config
        url = config.get_main_option("sqlalchemy.url")
        if not url:
            raise SystemExit("set sqlalchemy.url or use `scorepad db upgrade`")
        with create_engine(url).begin() as c:
            _migrate(c)
        return
    _migrate(conn)


def _migrate(conn: object) -> None:
    context.configure(
        connection=conn,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run()
