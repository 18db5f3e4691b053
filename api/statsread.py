"""Statistics read from the rows ``api.aggregates`` keeps: every figure of
``scorepad.stats`` (equal to its full recomputation; a test compares them), the pages of
long lists, and the CSV export's rows in order.

Reads cost the number of players, not of matches: the sd comes from the sum of squares,
correctly rounded as ``statistics.stdev`` rounds it; the median from the two middle
totals. Decision loss does not follow from the rows: it needs each logged game's turns
against the optimal-play table, which may be built after the game was stored. It is
computed at read time from just the entries flagged ``has_turns`` (their sheets
loaded), in the order a full recomputation adds them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from scorepad import stats
from scorepad.boxes import ALL_BOXES

from .aggregates import BOX_ATTRS, CHUNK, middle, score_counts
from .db import (
    Match,
    MatchVersion,
    StatEntry,
    StatGroup,
    StatMatch,
    StatPair,
    StatPlayer,
    StatScore,
)

__all__ = ["score_counts"]


def _sqrt_of_frac(n: int, m: int) -> float:
    """sqrt(n/m) as a float, correctly rounded (as ``statistics.stdev`` rounds it)."""
    width = 2 * 53 + 3
    q = (n.bit_length() - m.bit_length() - width) // 2

    def rto(n: int, m: int) -> int:  # isqrt(n/m), rounded to odd
        a = math.isqrt(n // m)
        return a | (a * a * m != n)

    if q >= 0:
        return (rto(n, m << 2 * q) << q) / 1
    return rto(n << -2 * q, m) / (1 << -q)


def spread(n: int, total: int, sumsq: int, low: int, high: int, best: int, worst: int
           ) -> stats.Spread | None:
    """``Spread.of`` of n totals from their sum, sum of squares and middle values."""
    if n == 0:
        return None
    median = float(low) if n % 2 else (low + high) / 2
    sd = None
    if n > 1:
        ss_num = sumsq * n - total * total  # the sum of squared deviations is ss_num / n
        sd = _sqrt_of_frac(ss_num, n * (n - 1)) if ss_num else 0.0
    return stats.Spread(n, float(total) / n, median, best, worst, sd)


def spread_of(hist: dict[int, int]) -> stats.Spread | None:
    """The Spread of the totals a histogram counts, equal to ``Spread.of`` of the list."""
    if not hist:
        return None
    low, high = middle(hist)
    return spread(sum(hist.values()), sum(v * c for v, c in hist.items()),
                  sum(v * v * c for v, c in hist.items()), low, high, max(hist), min(hist))


@dataclasses.dataclass
class PlayerFigures:
    key: str
    counters: stats.PlayerStats  # every counter; no totals list (the row has their figures)
    spread: stats.Spread | None
    main_rule_set: str

    def summary(self) -> dict[str, Any]:
        return stats.summarize(self.counters.name, self.counters, self.spread)


def _figures(p: StatPlayer) -> PlayerFigures:
    ps = stats.PlayerStats(p.name)
    ps.wins, ps.multiplayer_games = p.wins, p.multiplayer_games
    ps.upper_bonuses, ps.yahtzees, ps.bonus_yahtzees = p.upper_bonuses, p.yahtzees, \
        p.bonus_yahtzees
    ps.box_sum = dict(zip(ALL_BOXES, p.box_sums, strict=True))
    ps.box_zero = dict(zip(ALL_BOXES, p.box_zeros, strict=True))
    sp = spread(p.games, p.total_sum, p.total_sumsq, p.middle_low, p.middle_high, p.best,
                p.worst)
    main = min(p.rule_sets.items(), key=lambda kv: (-kv[1], kv[0]))[0] if p.rule_sets else ""
    return PlayerFigures(p.player_key, ps, sp, main)


def players(s: Session, group_id: str, key: str | None = None, *,
            analysis: bool = True) -> dict[str, PlayerFigures]:
    """The figures of every player of a group (or of one), keyed by player key;
    ``analysis``: with decision loss (the leaderboard does not show it)."""
    pq = select(StatPlayer).where(StatPlayer.group_id == group_id)
    if key is not None:
        pq = pq.where(StatPlayer.player_key == key)
    rows = list(s.scalars(pq))
    out = {p.player_key: _figures(p) for p in rows}
    if analysis and any(p.logged for p in rows):
        for k, loss in _decision_losses(s, group_id, key):
            out[k].counters.add_analysis(loss)
    return out


def _decision_losses(s: Session, group_id: str, key: str | None
                     ) -> Iterator[tuple[str, tuple[float, int] | None]]:
    """Each logged finished game's (player key, decision loss), in the games' order."""
    e = StatEntry
    q = select(e.match_id, e.version, e.game_no, e.seat, e.player_key).where(
        e.group_id == group_id, e.complete.is_(True), e.has_turns.is_(True))
    if key is not None:
        q = q.where(e.player_key == key)
    rows = s.execute(q.order_by(e.sort_date, e.match_id, e.game_no, e.seat)).all()
    ids = sorted({r.match_id for r in rows})
    versions: dict[str, MatchVersion] = {}
    for i in range(0, len(ids), CHUNK):
        for v in s.scalars(select(MatchVersion).join(
                Match, and_(MatchVersion.match_id == Match.id,
                            MatchVersion.version == Match.current_version))
                .where(Match.id.in_(ids[i:i + CHUNK]))):
            versions[v.match_id] = v
    loaded: dict[str, list[stats.GameRecord]] = {}
    for r in rows:
        v = versions[r.match_id]
        if r.match_id not in loaded:
            loaded[r.match_id] = stats.games_of(stats.StoredMatch(
                v.match_id, v.version, v.played_on, v.place, v.sheet))
        g = next(g for g in loaded[r.match_id] if g.game_no == r.game_no)
        assert g.rules is not None
        yield r.player_key, stats.decision_loss(g.rules, g.entries[r.seat].game)


def group_summary(s: Session, group_id: str, limit: int | None = None, offset: int = 0,
                  figures: dict[str, PlayerFigures] | None = None) -> dict[str, Any]:
    """``stats.group_summary`` from the rows; ``limit``/``offset``: a page of the players
    (``figures``: the players' figures when the caller has them)."""
    if figures is None:
        figures = players(s, group_id)
    overall = stats.PlayerStats("")
    for f in figures.values():
        c = f.counters
        overall.upper_bonuses += c.upper_bonuses
        overall.yahtzees += c.yahtzees
        overall.bonus_yahtzees += c.bonus_yahtzees
        for b in ALL_BOXES:
            overall.box_sum[b] += c.box_sum[b]
            overall.box_zero[b] += c.box_zero[b]
    hist: dict[int, int] = {int(t): int(c) for t, c in s.execute(
        select(StatScore.total, func.sum(StatScore.games))
        .where(StatScore.group_id == group_id).group_by(StatScore.total))}
    summary = stats.summarize(None, overall, spread_of(hist))
    for k in ("wins", "win_rate", "multiplayer_games"):
        summary.pop(k)
    counts = s.get(StatGroup, group_id) or StatGroup(matches=0, games=0, games_in_progress=0)
    keys = sorted(figures)
    page = keys[offset:offset + limit] if limit is not None else keys[offset:]
    return {
        "games": counts.games, "games_in_progress": counts.games_in_progress,
        "matches": counts.matches, "player_games": sum(hist.values()), "overall": summary,
        "players": [figures[k].summary() for k in page], "players_total": len(keys),
    }


def leaderboard(s: Session, group_id: str, by: str, min_games: int,
                figures: dict[str, PlayerFigures] | None = None) -> list[dict[str, Any]]:
    if figures is None:
        figures = players(s, group_id, analysis=False)
    return stats.rank_players([f.summary() for f in figures.values()], by, min_games)


def player(s: Session, group_id: str, name: str) -> dict[str, Any] | None:
    """One player's summary (None: no finished game of theirs in the group)."""
    key = stats.player_key(name)
    f = players(s, group_id, key).get(key)
    return f.summary() if f else None


def head_to_head(s: Session, group_id: str, a: str | None = None, b: str | None = None
                 ) -> list[dict[str, Any]]:
    """``stats.head_to_head`` from stat_pairs."""
    ka = stats.player_key(a) if a else None
    kb = stats.player_key(b) if b else None
    q = select(StatPair).where(StatPair.group_id == group_id)
    for k in (ka, kb):
        if k is not None:
            q = q.where((StatPair.key_a == k) | (StatPair.key_b == k))
    pairs = {(p.key_a, p.key_b): stats.PairRecord(p.games, p.wins_a, p.wins_b, p.ties, p.margin)
             for p in s.scalars(q)}
    wanted = sorted({k for pair in pairs for k in pair})
    names: dict[str, str] = {}
    for i in range(0, len(wanted), CHUNK):
        names.update(s.execute(select(StatPlayer.player_key, StatPlayer.name).where(
            StatPlayer.group_id == group_id,
            StatPlayer.player_key.in_(wanted[i:i + CHUNK]))).all())
    return stats.pair_rows(pairs, names, a, b)


# ---- pages of long lists --------------------------------------------------------------------

def player_series(s: Session, group_id: str, key: str, limit: int, skip: int
                  ) -> list[tuple[dt.date | None, int]]:
    """(played_on, grand total) of a player's finished games in order: the ``limit``
    before the latest ``skip``."""
    e = StatEntry
    rows = s.execute(select(e.played_on, e.grand_total)
                     .where(e.group_id == group_id, e.player_key == key, e.complete.is_(True))
                     .order_by(e.sort_date.desc(), e.match_id.desc(), e.game_no.desc())
                     .offset(skip).limit(limit)).all()
    return [(d, t) for d, t in reversed(rows)]


def match_page(s: Session, group_id: str, limit: int, offset: int, player: str | None = None,
               game: str | None = None) -> tuple[int, list[Any]]:
    """(how many, a page of (Match, current MatchVersion) rows), newest first (undated
    last; then the latest stored first); ``player``: only the matches whose sheet names
    that player; ``game``: only the matches of that game."""
    order = (StatMatch.sort_date.desc(), StatMatch.created_at.desc(), StatMatch.match_id)
    cur = and_(MatchVersion.match_id == Match.id, MatchVersion.version == Match.current_version)
    where = [StatMatch.group_id == group_id]
    if game is not None:
        where.append(StatMatch.game == game)
    if player is None:
        total = s.scalar(select(func.count()).select_from(StatMatch).where(*where)) or 0
        ids = list(s.scalars(select(StatMatch.match_id).where(*where)
                             .order_by(*order).offset(offset).limit(limit)))
    else:
        want = stats.player_key(player)
        every = [mid for mid, names in s.execute(
            select(StatMatch.match_id, MatchVersion.players)
            .join(Match, Match.id == StatMatch.match_id).join(MatchVersion, cur)
            .where(*where).order_by(*order))
            if want in {stats.player_key(n) for n in names}]
        total, ids = len(every), every[offset:offset + limit]
    if not ids:
        return total, []
    rows = {m.id: (m, v) for m, v in s.execute(
        select(Match, MatchVersion).join(MatchVersion, cur).where(Match.id.in_(ids)))}
    return total, [rows[i] for i in ids]


def csv_entries(s: Session, group_id: str, batch: int = 500) -> Iterator[Sequence[Any]]:
    """The group's entry rows as the export's columns (``api.export.CSV_COLUMNS``), in its
    order (games by date, match, game; players in sheet order), ``batch`` rows at a time."""
    e = StatEntry
    result = s.execute(select(
        e.match_id, e.version, e.played_on, e.place, e.rule_set, e.game_no, e.complete,
        e.player_name, e.grand_total, e.rank, e.won, e.upper_subtotal, e.upper_bonus,
        e.upper_total, e.bonus_checks, e.yahtzee_bonus, e.lower_total, *BOX_ATTRS)
        .where(e.group_id == group_id)
        .order_by(e.sort_date, e.match_id, e.game_no, e.seat)
        .execution_options(yield_per=batch))
    yield from result.partitions(batch)
