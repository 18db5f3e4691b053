"""Storage: SQLAlchemy 2 models, the engine per app, sessions, Alembic upgrades.

SQLite (the default, in the Flask instance folder) runs with WAL, foreign keys
on and ``synchronous=FULL``; write transactions start with ``BEGIN IMMEDIATE``
so that concurrent writers queue on the busy timeout instead of failing.
PostgreSQL is selected by pointing ``SCOREPAD_DATABASE_URL`` at it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from sqlalchemy import (
    JSON,
    Date,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

MIGRATIONS = Path(__file__).parent / "migrations"


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0, tzinfo=None)


class Base(DeclarativeBase):
    pass


class Group(Base):
    __tablename__ = "groups"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)

    matches: Mapped[list[Match]] = relationship(
        back_populates="group", cascade="all, delete-orphan", passive_deletes=True
    )


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    group_id: Mapped[str] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), index=True
    )
    current_version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime)

    group: Mapped[Group] = relationship(back_populates="matches")
    versions: Mapped[list[MatchVersion]] = relationship(
        back_populates="match", cascade="all, delete-orphan", passive_deletes=True,
        order_by="MatchVersion.version",
    )

    @property
    def current(self) -> MatchVersion:
        return next(v for v in self.versions if v.version == self.current_version)


class MatchVersion(Base):
    """One version of a match; a correction adds a version and never edits one."""

    __tablename__ = "match_versions"
    __table_args__ = (UniqueConstraint("match_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), index=True
    )
    version: Mapped[int] = mapped_column(Integer)
    played_on: Mapped[dt.date | None] = mapped_column(Date, nullable=True)
    place: Mapped[str | None] = mapped_column(String(200), nullable=True)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    reason: Mapped[str | None] = mapped_column(String(500), nullable=True)
    rule_set: Mapped[str] = mapped_column(String(64))
    players: Mapped[list[str]] = mapped_column(JSON)
    sheet: Mapped[dict[str, Any]] = mapped_column(JSON)
    audit_ok: Mapped[bool | None] = mapped_column(nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)

    match: Mapped[Match] = relationship(back_populates="versions")


def _sqlite_url(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(url: str) -> Engine:
    if _sqlite_url(url):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _rec: Any) -> None:
            # Let SQLAlchemy's "begin" event below own transaction start.
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Any) -> None:
            immediate = conn.get_execution_options().get("sqlite_immediate", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

        return engine
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return create_engine(url, pool_pre_ping=True)


def default_url(app: Flask) -> str:
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    return "sqlite:///" + str(Path(app.instance_path) / "scorepad.db")


def init_app(app: Flask) -> None:
    url = app.config.get("DATABASE_URL") or default_url(app)
    app.config["DATABASE_URL"] = url
    engine = make_engine(url)
    app.extensions["scorepad.engine"] = engine
    if app.config.get("AUTO_MIGRATE", True):
        upgrade(engine)


def engine() -> Engine:
    e: Engine = current_app.extensions["scorepad.engine"]
    return e


@contextlib.contextmanager
def reading() -> Iterator[Session]:
    """A read-only session (a plain deferred transaction, rolled back at the end)."""
    with Session(engine(), expire_on_commit=False) as s:
        yield s


@contextlib.contextmanager
def writing() -> Iterator[Session]:
    """A write transaction: commits when the block ends, rolls back on any error."""
    e = engine()
    if e.dialect.name == "sqlite":
        e = e.execution_options(sqlite_immediate=True)
    with Session(e, expire_on_commit=False) as s, s.begin():
        yield s


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the Alembic migrations, serialised across processes by a database lock."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    eng = engine.execution_options(sqlite_immediate=True) \
        if engine.dialect.name == "sqlite" else engine
    with eng.connect() as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(7270522)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def current_revision(engine: Engine) -> str | None:
    from alembic.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
