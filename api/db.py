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
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Engine,
    ForeignKey,
    Index,
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
    # the sheets' game (scorepad.games.GAMES); a correction keeps it
    game: Mapped[str] = mapped_column(String(16), default="yahtzee", server_default="yahtzee")

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


# ---- statistics aggregates (kept by api.aggregates as matches are written) ----------------

BOX_COLUMNS = ("aces", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
               "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
               "chance")  # scorepad.boxes.ALL_BOXES values, in order (a test checks)


class StatGame(Base):
    """One game (GAME #n column) of a match's current version."""

    __tablename__ = "stat_games"
    __table_args__ = (Index("ix_stat_games_group", "group_id", "complete"),)

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    complete: Mapped[bool] = mapped_column(Boolean)
    entries: Mapped[int] = mapped_column(Integer)


class StatEntry(Base):
    """One player's column of one game of a match's current version: its totals as
    recomputed from the boxes, its rank and win, and the boxes (the CSV export's rows)."""

    __tablename__ = "stat_entries"
    __table_args__ = (
        Index("ix_stat_entries_player", "group_id", "player_key", "complete", "sort_date",
              "match_id", "game_no"),
        Index("ix_stat_entries_order", "group_id", "sort_date", "match_id", "game_no", "seat"),
        Index("ix_stat_entries_game", "match_id", "game_no"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    game_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)  # the entry's order in the game (sheet order)
    played_on: Mapped[dt.date | None] = mapped_column(Date, nullable=True)
    sort_date: Mapped[dt.date] = mapped_column(Date)  # played_on, or date.min when undated
    place: Mapped[str | None] = mapped_column(String(200), nullable=True)
    rule_set: Mapped[str] = mapped_column(String(64))
    complete: Mapped[bool] = mapped_column(Boolean)
    multiplayer: Mapped[bool] = mapped_column(Boolean)
    player_key: Mapped[str] = mapped_column(String)
    player_name: Mapped[str] = mapped_column(String)
    grand_total: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)  # complete, two or more players, top total
    upper_subtotal: Mapped[int] = mapped_column(Integer)
    upper_bonus: Mapped[int] = mapped_column(Integer)
    upper_total: Mapped[int] = mapped_column(Integer)
    bonus_checks: Mapped[int] = mapped_column(Integer)
    yahtzee_bonus: Mapped[int] = mapped_column(Integer)
    lower_total: Mapped[int] = mapped_column(Integer)
    has_turns: Mapped[bool] = mapped_column(Boolean)  # a turn log (decision loss, read time)
    aces: Mapped[int | None] = mapped_column(Integer, nullable=True)
    twos: Mapped[int | None] = mapped_column(Integer, nullable=True)
    threes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    fours: Mapped[int | None] = mapped_column(Integer, nullable=True)
    fives: Mapped[int | None] = mapped_column(Integer, nullable=True)
    sixes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    three_of_a_kind: Mapped[int | None] = mapped_column(Integer, nullable=True)
    four_of_a_kind: Mapped[int | None] = mapped_column(Integer, nullable=True)
    full_house: Mapped[int | None] = mapped_column(Integer, nullable=True)
    small_straight: Mapped[int | None] = mapped_column(Integer, nullable=True)
    large_straight: Mapped[int | None] = mapped_column(Integer, nullable=True)
    yahtzee: Mapped[int | None] = mapped_column(Integer, nullable=True)
    chance: Mapped[int | None] = mapped_column(Integer, nullable=True)


class StatPlayer(Base):
    """A player's sums over the finished games of a group: a write adds the entries of the
    new version and takes away those of the old (``api.aggregates``)."""

    __tablename__ = "stat_players"

    group_id: Mapped[str] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    player_key: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)  # the spelling of the latest finished game
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    multiplayer_games: Mapped[int] = mapped_column(Integer)
    upper_bonuses: Mapped[int] = mapped_column(Integer)
    yahtzees: Mapped[int] = mapped_column(Integer)
    bonus_yahtzees: Mapped[int] = mapped_column(Integer)
    logged: Mapped[int] = mapped_column(Integer)  # games with a turn log
    box_sums: Mapped[list[int]] = mapped_column(JSON)  # per box, BOX_COLUMNS order
    box_zeros: Mapped[list[int]] = mapped_column(JSON)
    # the grand totals, exactly: sum, sum of squares, the two middle values (equal when
    # the number of games is odd), best and worst (stat_scores has each total's count)
    total_sum: Mapped[int] = mapped_column(BigInteger)
    total_sumsq: Mapped[int] = mapped_column(BigInteger)
    middle_low: Mapped[int] = mapped_column(Integer)
    middle_high: Mapped[int] = mapped_column(Integer)
    best: Mapped[int] = mapped_column(Integer)
    worst: Mapped[int] = mapped_column(Integer)
    rule_sets: Mapped[dict[str, int]] = mapped_column(JSON)  # games per rule set


class StatScore(Base):
    """How many finished games a player of a group ended with each grand total."""

    __tablename__ = "stat_scores"

    group_id: Mapped[str] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    player_key: Mapped[str] = mapped_column(String, primary_key=True)
    total: Mapped[int] = mapped_column(Integer, primary_key=True)
    games: Mapped[int] = mapped_column(Integer)


class StatMatch(Base):
    """A match's place in its group's list: newest first (undated last), by the index."""

    __tablename__ = "stat_matches"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    sort_date: Mapped[dt.date] = mapped_column(Date)  # played_on, or date.min when undated
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
    game: Mapped[str] = mapped_column(String(16), default="yahtzee", server_default="yahtzee")


Index("ix_stat_matches_order", StatMatch.group_id, StatMatch.sort_date.desc(),
      StatMatch.created_at.desc(), StatMatch.match_id)
Index("ix_stat_matches_game", StatMatch.group_id, StatMatch.game, StatMatch.sort_date.desc(),
      StatMatch.created_at.desc(), StatMatch.match_id)


class StatGroup(Base):
    """A group's counts of games (kept with its stat_games rows)."""

    __tablename__ = "stat_groups"

    group_id: Mapped[str] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    matches: Mapped[int] = mapped_column(Integer)  # matches with at least one game
    games: Mapped[int] = mapped_column(Integer)  # finished games
    games_in_progress: Mapped[int] = mapped_column(Integer)


class StatPair(Base):
    """Two players' record in the finished games they both played (``key_a`` < ``key_b``;
    wins_a and margin are key_a's): kept by adding and taking away a match's pairs."""

    __tablename__ = "stat_pairs"

    group_id: Mapped[str] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    key_a: Mapped[str] = mapped_column(String, primary_key=True)
    key_b: Mapped[str] = mapped_column(String, primary_key=True)
    games: Mapped[int] = mapped_column(Integer)
    wins_a: Mapped[int] = mapped_column(Integer)
    wins_b: Mapped[int] = mapped_column(Integer)
    ties: Mapped[int] = mapped_column(Integer)
    margin: Mapped[int] = mapped_column(Integer)


class StatBoardEntry(Base):
    """One player's line of one game of a SCRABBLE or SORRY! match's current version (the
    game as checked: correct scores, not the slips; ``api.boardstats``)."""

    __tablename__ = "stat_board_entries"
    __table_args__ = (
        Index("ix_stat_board_entries_player", "group_id", "game", "player_key", "complete",
              "sort_date", "match_id", "game_no"),
        Index("ix_stat_board_entries_order", "group_id", "game", "sort_date", "match_id",
              "game_no", "seat"),
        Index("ix_stat_board_entries_match", "match_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer)
    game_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    played_on: Mapped[dt.date | None] = mapped_column(Date, nullable=True)
    sort_date: Mapped[dt.date] = mapped_column(Date)
    place: Mapped[str | None] = mapped_column(String(200), nullable=True)
    rule_set: Mapped[str] = mapped_column(String(64))
    complete: Mapped[bool] = mapped_column(Boolean)
    player_key: Mapped[str] = mapped_column(String)
    player_name: Mapped[str] = mapped_column(String)
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)  # final score, points
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    won: Mapped[bool] = mapped_column(Boolean)  # complete and among the game's winners
    best_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)  # SCRABBLE


class StatBoardPlayer(Base):
    """A player's sums over the finished SCRABBLE or SORRY! games of a group (per game);
    best and best_turn read back from the entries after each write."""

    __tablename__ = "stat_board_players"

    group_id: Mapped[str] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_key: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)  # the spelling of the latest finished game
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    total_sum: Mapped[int] = mapped_column(BigInteger)
    best: Mapped[int] = mapped_column(Integer)
    best_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)


class StatBoardGroup(Base):
    """A group's counts of SCRABBLE or SORRY! matches and games (per game)."""

    __tablename__ = "stat_board_groups"

    group_id: Mapped[str] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    matches: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    games_in_progress: Mapped[int] = mapped_column(Integer)


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
