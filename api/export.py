"""A group's games as CSV: one row per game per player (``GET .../export.csv``).

``csv_stream`` writes it from the stored entry rows (``api.aggregates``), a batch at a
time; ``csv_text`` writes the same CSV from games recomputed from the sheets. A SCRABBLE
or SORRY! export (``game``) has its own columns (``boardstats.CSV_COLUMNS``: each
player's correct final score or points, rank, win and, for SCRABBLE, best turn).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Iterator
from typing import Any

from scorepad import stats
from scorepad.boxes import ALL_BOXES
from scorepad.games import YAHTZEE

from . import boardstats, db, statsread

CSV_COLUMNS = (["match_id", "version", "played_on", "place", "rule_set", "game", "complete",
                "player", "grand_total", "rank", "won"]
               + ["upper_subtotal", "upper_bonus", "upper_total", "yahtzee_bonus_checks",
                  "yahtzee_bonus", "lower_total"]
               + [b.value for b in ALL_BOXES])


def cell(value: Any) -> Any:
    """Keep spreadsheet programs from running text as a formula (CSV injection)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value


def csv_text(games: Iterable[stats.GameRecord]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for g in games:
        ranked = sorted({e.totals.grand_total for e in g.entries}, reverse=True)
        winners = g.winners()
        for e in g.entries:
            t = e.totals
            row = [g.match_id, g.version, g.played_on.isoformat() if g.played_on else "",
                   g.place, g.rule_set, g.game_no, int(g.complete), e.name, t.grand_total,
                   ranked.index(t.grand_total) + 1,
                   int(g.complete and stats.player_key(e.name) in winners),
                   t.upper_subtotal, t.upper_bonus, t.upper_total, e.game.bonus_checks,
                   t.yahtzee_bonus, t.lower_total]
            row += [e.game.boxes.get(b) for b in ALL_BOXES]
            w.writerow([cell(c) for c in row])
    return out.getvalue()


def _stored(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def csv_stream(group_id: str, game: str = YAHTZEE) -> Iterator[str]:
    """The CSV in pieces: the header with the first batch of rows, then a batch at a time."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS if game == YAHTZEE else boardstats.CSV_COLUMNS)
    with db.reading() as s:
        batches = statsread.csv_entries(s, group_id) if game == YAHTZEE \
            else boardstats.csv_entries(s, group_id, game)
        for batch in batches:
            w.writerows([cell(_stored(c)) for c in row] for row in batch)
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    if out.tell():
        yield out.getvalue()
