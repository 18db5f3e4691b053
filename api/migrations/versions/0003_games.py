"""groups keep SCRABBLE and SORRY! matches: matches.game, stat_matches.game,
stat_board_entries, stat_board_players, stat_board_groups (issue 17)

``matches.game`` (and ``stat_matches.game``, the lists' ``?game=`` filter): the game of
the match's sheets, default ``yahtzee``, back-filled from each match's current sheet.
The new tables keep the statistics of SCRABBLE and SORRY! matches (``api.boardstats``).
Then every statistics row of every group is rebuilt from the stored sheets with the code
that keeps them on every write (the back-fill 0002_stats used to run: it reads these
columns too).

Revision ID: 0003_games
Revises: 0002_stats
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

revision = "0003_games"
down_revision = "0002_stats"
branch_labels = None
depends_on = None

GAMES = ("yahtzee", "scrabble", "sorry")


def _group_fk() -> sa.ForeignKey:
    return sa.ForeignKey("groups.id", ondelete="CASCADE")


def _game_column() -> sa.Column[str]:
    return sa.Column("game", sa.String(16), nullable=False, server_default="yahtzee")


def _back_fill_games() -> None:
    bind = op.get_bind()
    matches = sa.table("matches", sa.column("id", sa.String), sa.column("game", sa.String),
                       sa.column("current_version", sa.Integer))
    versions = sa.table("match_versions", sa.column("match_id", sa.String),
                        sa.column("version", sa.Integer), sa.column("sheet", sa.JSON))
    rows = bind.execute(sa.select(matches.c.id, versions.c.sheet).join(versions, sa.and_(
        versions.c.match_id == matches.c.id,
        versions.c.version == matches.c.current_version))).all()
    for mid, sheet in rows:
        game = sheet.get("game") if isinstance(sheet, dict) else None
        if game in GAMES and game != "yahtzee":
            bind.execute(matches.update().where(matches.c.id == mid).values(game=game))


def upgrade() -> None:
    op.add_column("matches", _game_column())
    op.add_column("stat_matches", _game_column())
    op.create_index("ix_stat_matches_game", "stat_matches", [
        "group_id", "game", sa.text("sort_date DESC"), sa.text("created_at DESC"),
        "match_id"])
    op.create_table(
        "stat_board_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("group_id", sa.String(32), _group_fk(), nullable=False),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        *[sa.Column(c, sa.Integer(), nullable=False) for c in ("version", "game_no", "seat")],
        sa.Column("played_on", sa.Date(), nullable=True),
        sa.Column("sort_date", sa.Date(), nullable=False),
        sa.Column("place", sa.String(200), nullable=True),
        sa.Column("rule_set", sa.String(64), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("player_key", sa.String(), nullable=False),
        sa.Column("player_name", sa.String(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("best_turn", sa.Integer(), nullable=True),
    )
    op.create_index("ix_stat_board_entries_player", "stat_board_entries", [
        "group_id", "game", "player_key", "complete", "sort_date", "match_id", "game_no"])
    op.create_index("ix_stat_board_entries_order", "stat_board_entries", [
        "group_id", "game", "sort_date", "match_id", "game_no", "seat"])
    op.create_index("ix_stat_board_entries_match", "stat_board_entries", ["match_id"])
    op.create_table(
        "stat_board_players",
        sa.Column("group_id", sa.String(32), _group_fk(), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("player_key", sa.String(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("total_sum", sa.BigInteger(), nullable=False),
        sa.Column("best", sa.Integer(), nullable=False),
        sa.Column("best_turn", sa.Integer(), nullable=True),
    )
    op.create_table(
        "stat_board_groups",
        sa.Column("group_id", sa.String(32), _group_fk(), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        *[sa.Column(c, sa.Integer(), nullable=False) for c in (
            "matches", "games", "games_in_progress")],
    )
    _back_fill_games()
    # Every statistics row from the stored sheets, with the code that keeps them.
    from api.aggregates import rebuild_group

    session = Session(bind=op.get_bind())
    for (gid,) in session.execute(sa.text("SELECT id FROM groups ORDER BY id")).all():
        rebuild_group(session, gid)
    session.flush()
    for table in ("stat_games", "stat_entries", "stat_players", "stat_scores", "stat_pairs",
                  "stat_groups", "stat_matches", "stat_board_entries", "stat_board_players",
                  "stat_board_groups"):  # the planner's statistics of the new rows
        op.execute(f"ANALYZE {table}")


def downgrade() -> None:
    """Drops the SCRABBLE and SORRY! statistics and the game columns; SCRABBLE and SORRY!
    matches are deleted (the schema before this revision holds Yahtzee matches only)."""
    for table in ("stat_board_groups", "stat_board_players", "stat_board_entries"):
        op.drop_table(table)
    op.drop_index("ix_stat_matches_game", table_name="stat_matches")
    op.execute("DELETE FROM stat_matches WHERE game <> 'yahtzee'")
    op.execute("DELETE FROM matches WHERE game <> 'yahtzee'")
    op.execute("ALTER TABLE stat_matches DROP COLUMN game")
    op.execute("ALTER TABLE matches DROP COLUMN game")
