"""statistics aggregates: stat_games, stat_entries, stat_players, stat_scores, stat_pairs,
stat_groups, stat_matches

Creates the tables ``api.aggregates`` keeps up to date on every write; 0003_games
back-fills them from the stored sheets (the current version of every match), group by
group.

Revision ID: 0002_stats
Revises: 0001a_repair_text
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_stats"
down_revision = "0001a_repair_text"  # after the text repair: the back-fill reads repaired sheets
branch_labels = None
depends_on = None

BOXES = ("aces", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
         "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance")


def _group_fk() -> sa.ForeignKey:
    return sa.ForeignKey("groups.id", ondelete="CASCADE")


def _match_fk() -> sa.ForeignKey:
    return sa.ForeignKey("matches.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "stat_games",
        sa.Column("match_id", sa.String(32), _match_fk(), primary_key=True),
        sa.Column("game_no", sa.Integer(), primary_key=True),
        sa.Column("group_id", sa.String(32), _group_fk(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("entries", sa.Integer(), nullable=False),
    )
    op.create_index("ix_stat_games_group", "stat_games", ["group_id", "complete"])
    ints = ["grand_total", "rank"]
    op.create_table(
        "stat_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("group_id", sa.String(32), _group_fk(), nullable=False),
        sa.Column("match_id", sa.String(32), _match_fk(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=True),
        sa.Column("sort_date", sa.Date(), nullable=False),
        sa.Column("place", sa.String(200), nullable=True),
        sa.Column("rule_set", sa.String(64), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("multiplayer", sa.Boolean(), nullable=False),
        sa.Column("player_key", sa.String(), nullable=False),
        sa.Column("player_name", sa.String(), nullable=False),
        *[sa.Column(c, sa.Integer(), nullable=False) for c in ints],
        sa.Column("won", sa.Boolean(), nullable=False),
        *[sa.Column(c, sa.Integer(), nullable=False) for c in (
            "upper_subtotal", "upper_bonus", "upper_total", "bonus_checks", "yahtzee_bonus",
            "lower_total")],
        sa.Column("has_turns", sa.Boolean(), nullable=False),
        *[sa.Column(b, sa.Integer(), nullable=True) for b in BOXES],
    )
    op.create_index("ix_stat_entries_player", "stat_entries",
                    ["group_id", "player_key", "complete", "sort_date", "match_id", "game_no"])
    op.create_index("ix_stat_entries_order", "stat_entries",
                    ["group_id", "sort_date", "match_id", "game_no", "seat"])
    op.create_index("ix_stat_entries_game", "stat_entries", ["match_id", "game_no"])
    op.create_table(
        "stat_players",
        sa.Column("group_id", sa.String(32), _group_fk(), primary_key=True),
        sa.Column("player_key", sa.String(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        *[sa.Column(c, sa.Integer(), nullable=False) for c in (
            "games", "wins", "multiplayer_games", "upper_bonuses", "yahtzees", "bonus_yahtzees",
            "logged")],
        sa.Column("box_sums", sa.JSON(), nullable=False),
        sa.Column("box_zeros", sa.JSON(), nullable=False),
        sa.Column("total_sum", sa.BigInteger(), nullable=False),
        sa.Column("total_sumsq", sa.BigInteger(), nullable=False),
        *[sa.Column(c, sa.Integer(), nullable=False) for c in (
            "middle_low", "middle_high", "best", "worst")],
        sa.Column("rule_sets", sa.JSON(), nullable=False),
    )
    op.create_table(
        "stat_scores",
        sa.Column("group_id", sa.String(32), _group_fk(), primary_key=True),
        sa.Column("player_key", sa.String(), primary_key=True),
        sa.Column("total", sa.Integer(), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    op.create_table(
        "stat_matches",
        sa.Column("match_id", sa.String(32), _match_fk(), primary_key=True),
        sa.Column("group_id", sa.String(32), _group_fk(), nullable=False),
        sa.Column("sort_date", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_stat_matches_order", "stat_matches", [
        "group_id", sa.text("sort_date DESC"), sa.text("created_at DESC"), "match_id"])
    op.create_table(
        "stat_groups",
        sa.Column("group_id", sa.String(32), _group_fk(), primary_key=True),
        *[sa.Column(c, sa.Integer(), nullable=False) for c in (
            "matches", "games", "games_in_progress")],
    )
    op.create_table(
        "stat_pairs",
        sa.Column("group_id", sa.String(32), _group_fk(), primary_key=True),
        sa.Column("key_a", sa.String(), primary_key=True),
        sa.Column("key_b", sa.String(), primary_key=True),
        *[sa.Column(c, sa.Integer(), nullable=False) for c in (
            "games", "wins_a", "wins_b", "ties", "margin")],
    )
    # The back-fill from the stored sheets runs in 0003_games, with the code that keeps
    # the rows on every write (that code reads the columns 0003 adds).


def downgrade() -> None:
    for table in ("stat_matches", "stat_groups", "stat_pairs", "stat_scores", "stat_players",
                  "stat_entries", "stat_games"):
        op.drop_table(table)
