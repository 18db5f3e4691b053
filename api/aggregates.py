"""Statistics at scale: what the statistics need, kept up to date as matches are written.

Rows (``api.db``): ``stat_games`` (one per game of a match's current version),
``stat_entries`` (one per player per game: the totals recomputed from the boxes, rank,
win, the boxes; also the CSV export's rows, streamed in order by an index), and per
player of a group ``stat_players`` (sums over the finished games, the two middle totals,
best, worst, games per rule set), ``stat_scores`` (finished games per grand total) and
``stat_pairs`` (two players' record in the finished games both played).

Writes: ``sync_match``, in the transaction that stores, corrects or deletes a match,
replaces that match's game and entry rows, and adds to the player and pair rows what
the new version's entries bring less what the old version's brought: a write costs the
size of one match, not of the group. The figures that are not sums (middle values,
best, worst, the latest spelling of a name) are then read back from the player's
stat_scores rows and one indexed entry. ``rebuild_group`` builds every row of a group
from its sheets, aggregated in SQL (restore, the migration's back-fill); a test checks
that random writes leave exactly the rows a rebuild gives. On PostgreSQL the group's
row is locked first, so that concurrent writes to one group queue.

These rows are a group's Yahtzee matches (a SCRABBLE or SORRY! match has only its
``stat_matches`` row here); ``api.boardstats`` keeps the other games' rows, called from
``sync_match`` and ``rebuild_group`` in the same transaction.

Reads: ``api.statsread``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from sqlalchemy import and_, case, delete, distinct, func, insert, select
from sqlalchemy.orm import Session, aliased

from scorepad import stats
from scorepad.boxes import ALL_BOXES
from scorepad.games import YAHTZEE

from . import boardstats, fastsheet
from .db import (
    BOX_COLUMNS,
    Group,
    Match,
    MatchVersion,
    StatEntry,
    StatGame,
    StatGroup,
    StatMatch,
    StatPair,
    StatPlayer,
    StatScore,
)

BOX_ATTRS = [getattr(StatEntry, c) for c in BOX_COLUMNS]
CHUNK = 400  # ids or keys per IN (...) list


# ---- rows of a match ------------------------------------------------------------------------

def match_rows(group_id: str, match_id: str, v: MatchVersion | Any
               ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(stat_games rows, stat_entries rows) of a match's version ``v`` (anything with
    version, played_on, place and sheet)."""
    stored = stats.StoredMatch(match_id, v.version, v.played_on, v.place, v.sheet)
    games = stats.games_of(stored, fastsheet.load(v.sheet))
    game_rows: list[dict[str, Any]] = []
    entry_rows: list[dict[str, Any]] = []
    for g in games:
        game_rows.append({"match_id": match_id, "game_no": g.game_no, "group_id": group_id,
                          "complete": g.complete, "entries": len(g.entries)})
        ranked = sorted({e.totals.grand_total for e in g.entries}, reverse=True)
        winners = g.winners()
        for seat, e in enumerate(g.entries):
            t = e.totals
            key = stats.player_key(e.name)
            row = {
                "group_id": group_id, "match_id": match_id, "version": g.version,
                "game_no": g.game_no, "seat": seat, "played_on": g.played_on,
                "sort_date": g.played_on or dt.date.min, "place": g.place,
                "rule_set": g.rule_set, "complete": g.complete,
                "multiplayer": len(g.entries) > 1, "player_key": key, "player_name": e.name,
                "grand_total": t.grand_total, "rank": ranked.index(t.grand_total) + 1,
                "won": g.complete and key in winners, "upper_subtotal": t.upper_subtotal,
                "upper_bonus": t.upper_bonus, "upper_total": t.upper_total,
                "bonus_checks": e.game.bonus_checks, "yahtzee_bonus": t.yahtzee_bonus,
                "lower_total": t.lower_total, "has_turns": bool(e.game.turns),
            }
            for b in ALL_BOXES:
                row[b.value] = e.game.boxes.get(b)
            entry_rows.append(row)
    return game_rows, entry_rows


def _lock_group(s: Session, group_id: str) -> None:
    """Concurrent writes to one group queue here (SQLite: writes are serial already)."""
    if s.get_bind().dialect.name == "postgresql":
        s.execute(select(Group.id).where(Group.id == group_id).with_for_update())


def insert_rows(s: Session, games: list[dict[str, Any]], entries: list[dict[str, Any]]) -> None:
    if games:
        s.execute(insert(StatGame), games)
    if entries:
        s.execute(insert(StatEntry), entries)


PairDeltas = dict[tuple[str, str], list[int]]  # (key_a, key_b) -> games, wins_a, wins_b, ties, margin


def _add_pairs(out: PairDeltas, entries: Iterable[tuple[int, int, str, int, bool]],
               sign: int) -> None:
    """Add (sign 1) or take away (-1) the pairs of the finished games of one match's
    entries (game_no, seat, player key, grand total, complete)."""
    games: dict[int, list[tuple[int, str, int]]] = {}
    for game_no, seat, key, total, complete in entries:
        if complete:
            games.setdefault(game_no, []).append((seat, key, total))
    for rows in games.values():
        rows.sort()
        for i, (_, kx, tx) in enumerate(rows):
            for _, ky, ty in rows[i + 1:]:
                pair, diff = ((kx, ky), tx - ty) if kx <= ky else ((ky, kx), ty - tx)
                rec = out.setdefault(pair, [0, 0, 0, 0, 0])
                for j, v in enumerate((1, int(diff > 0), int(diff < 0), int(diff == 0), diff)):
                    rec[j] += sign * v


def _pair_rows(entries: Iterable[Mapping[str, Any]]
               ) -> Iterator[tuple[int, int, str, int, bool]]:
    for x in entries:
        yield x["game_no"], x["seat"], x["player_key"], x["grand_total"], x["complete"]


def _apply_pairs(s: Session, group_id: str, deltas: PairDeltas) -> None:
    for (ka, kb), d in sorted(deltas.items()):
        if not any(d):
            continue
        row = s.get(StatPair, (group_id, ka, kb))
        if row is None:
            row = StatPair(group_id=group_id, key_a=ka, key_b=kb, games=0, wins_a=0, wins_b=0,
                           ties=0, margin=0)
            s.add(row)
        row.games += d[0]
        row.wins_a += d[1]
        row.wins_b += d[2]
        row.ties += d[3]
        row.margin += d[4]
        if row.games == 0:
            s.delete(row)
    s.flush()


def sync_match(s: Session, group_id: str, match_id: str, m: Match | None) -> None:
    """After a write: the rows of ``match_id`` from its current version (``m`` None: the
    match was deleted); then the player rows and pair records, less what the old version's
    entries added and plus the new one's (a test compares them with a rebuild)."""
    _lock_group(s, group_id)
    s.flush()
    e = StatEntry
    old = [dict(r) for r in s.execute(
        select(StatEntry.__table__).where(e.match_id == match_id)).mappings()]
    old_games = list(s.scalars(select(StatGame.complete).where(StatGame.match_id == match_id)))
    new_games: list[bool] = []
    pairs: PairDeltas = {}
    players: dict[str, _PlayerDelta] = {}
    _add_pairs(pairs, _pair_rows(old), -1)
    _add_players(players, old, -1)
    s.execute(delete(StatEntry).where(StatEntry.match_id == match_id))
    s.execute(delete(StatGame).where(StatGame.match_id == match_id))
    s.execute(delete(StatMatch).where(StatMatch.match_id == match_id))
    if m is not None:
        s.add(_list_row(m.id, m.group_id, m.created_at, m.game, m.current.played_on))
    if m is not None and m.game == YAHTZEE:
        games, entries = match_rows(group_id, match_id, m.current)
        insert_rows(s, games, entries)
        new_games = [g["complete"] for g in games]
        _add_pairs(pairs, _pair_rows(entries), 1)
        _add_players(players, entries, 1)
    _apply_players(s, group_id, players)
    _apply_pairs(s, group_id, pairs)
    _count_games(s, group_id, old_games, new_games)
    boardstats.sync_match(s, group_id, match_id, m)


def _list_row(match_id: str, group_id: str, created_at: dt.datetime, game: str,
              played_on: dt.date | None) -> StatMatch:
    return StatMatch(match_id=match_id, group_id=group_id, game=game,
                     sort_date=played_on or dt.date.min, created_at=created_at)


def _count_games(s: Session, group_id: str, old: list[bool], new: list[bool]) -> None:
    """The group's counts, less a match's old games (complete or not) plus its new ones."""
    d_matches = int(bool(new)) - int(bool(old))
    d_games = sum(new) - sum(old)
    d_open = (len(new) - sum(new)) - (len(old) - sum(old))
    if not (d_matches or d_games or d_open):
        return
    row = s.get(StatGroup, group_id)
    if row is None:
        row = StatGroup(group_id=group_id, matches=0, games=0, games_in_progress=0)
        s.add(row)
    row.matches += d_matches
    row.games += d_games
    row.games_in_progress += d_open
    if row.matches == 0:
        s.delete(row)
    s.flush()


def rebuild_group(s: Session, group_id: str) -> None:
    """Every row of a group from its stored sheets (restore; the migration's back-fill)."""
    _lock_group(s, group_id)
    s.flush()
    for table in (StatEntry, StatGame, StatPlayer, StatScore, StatPair, StatGroup, StatMatch):
        s.execute(delete(table).where(table.group_id == group_id))
    rows = s.execute(
        select(Match.id, Match.created_at, Match.game, MatchVersion)
        .join(MatchVersion, (MatchVersion.match_id == Match.id)
              & (MatchVersion.version == Match.current_version))
        .where(Match.group_id == group_id)).all()
    games: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []
    for mid, created_at, game, v in rows:
        s.add(_list_row(mid, group_id, created_at, game, v.played_on))
        if game == YAHTZEE:
            g, e = match_rows(group_id, v.match_id, v)
            games += g
            entries += e
    insert_rows(s, games, entries)
    rebuild_from_entries(s, group_id)
    boardstats.rebuild_group(s, group_id)


def rebuild_pairs(s: Session, group_id: str) -> None:
    """stat_pairs of a group from stat_entries (a self-join: each pair of one game once)."""
    s.execute(delete(StatPair).where(StatPair.group_id == group_id))
    x, y = aliased(StatEntry), aliased(StatEntry)
    diff = x.grand_total - y.grand_total
    q = (select(x.player_key, y.player_key, func.count(), count_if(diff > 0), count_if(diff < 0),
                count_if(diff == 0), func.sum(diff))
         .join(y, and_(y.match_id == x.match_id, y.game_no == x.game_no, y.seat > x.seat))
         .where(x.group_id == group_id, x.complete.is_(True))
         .group_by(x.player_key, y.player_key))
    pairs: PairDeltas = {}
    for k1, k2, games, w1, w2, ties, margin in s.execute(q):
        if k1 > k2:
            k1, k2, w1, w2, margin = k2, k1, w2, w1, -margin
        rec = pairs.setdefault((k1, k2), [0, 0, 0, 0, 0])
        for j, v in enumerate((games, w1, w2, ties, margin)):
            rec[j] += int(v)
    if pairs:
        s.execute(insert(StatPair), [
            {"group_id": group_id, "key_a": a, "key_b": b, "games": d[0], "wins_a": d[1],
             "wins_b": d[2], "ties": d[3], "margin": d[4]} for (a, b), d in pairs.items()])


def rebuild_from_entries(s: Session, group_id: str) -> None:
    """stat_players, stat_scores and stat_pairs of a group, aggregated in SQL from its
    stat_entries (after a bulk insert of entry rows; ``rebuild_group`` ends with it)."""
    for table in (StatPlayer, StatScore, StatGroup):
        s.execute(delete(table).where(table.group_id == group_id))
    _build_players(s, group_id)
    counts = {bool(c): n for c, n in s.execute(
        select(StatGame.complete, func.count()).where(StatGame.group_id == group_id)
        .group_by(StatGame.complete))}
    matches = s.scalar(select(func.count(distinct(StatGame.match_id)))
                       .where(StatGame.group_id == group_id)) or 0
    if matches:
        s.add(StatGroup(group_id=group_id, matches=matches, games=counts.get(True, 0),
                        games_in_progress=counts.get(False, 0)))
        s.flush()
    rebuild_pairs(s, group_id)


def count_if(cond: Any) -> Any:
    return func.sum(case((cond, 1), else_=0))


def middle(hist: dict[int, int]) -> tuple[int, int]:
    """The two middle values of the totals a histogram counts (equal when n is odd)."""
    n = sum(hist.values())
    want = {(n - 1) // 2, n // 2}
    found: dict[int, int] = {}
    seen = 0
    for v in sorted(hist):
        for i in want:
            if seen <= i < seen + hist[v]:
                found[i] = v
        seen += hist[v]
    return found[(n - 1) // 2], found[n // 2]


def _latest_name(s: Session, group_id: str, key: str) -> str | None:
    """The spelling of a player's name in their latest finished game."""
    e = StatEntry
    return s.scalar(select(e.player_name)
                    .where(e.group_id == group_id, e.player_key == key, e.complete.is_(True))
                    .order_by(e.sort_date.desc(), e.match_id.desc(), e.game_no.desc())
                    .limit(1))


_COUNTERS = ("games", "wins", "multiplayer_games", "upper_bonuses", "yahtzees",
             "bonus_yahtzees", "logged", "total_sum", "total_sumsq")


@dataclasses.dataclass
class _PlayerDelta:
    """What a match's finished entries add to (or take from) one player's rows."""

    counters: dict[str, int] = dataclasses.field(
        default_factory=lambda: dict.fromkeys(_COUNTERS, 0))
    box_sums: list[int] = dataclasses.field(default_factory=lambda: [0] * len(BOX_COLUMNS))
    box_zeros: list[int] = dataclasses.field(default_factory=lambda: [0] * len(BOX_COLUMNS))
    scores: dict[int, int] = dataclasses.field(default_factory=dict)
    rule_sets: dict[str, int] = dataclasses.field(default_factory=dict)


def _add_players(out: dict[str, _PlayerDelta], entries: Iterable[Mapping[str, Any]],
                 sign: int) -> None:
    for e in entries:
        d = out.setdefault(e["player_key"], _PlayerDelta())  # every key: its name may change
        if not e["complete"]:
            continue
        t = e["grand_total"]
        for name, v in (("games", 1), ("wins", int(e["won"])),
                        ("multiplayer_games", int(e["multiplayer"])),
                        ("upper_bonuses", int(e["upper_bonus"] > 0)),
                        ("yahtzees", int((e["yahtzee"] or 0) == 50)),
                        ("bonus_yahtzees", e["bonus_checks"]), ("logged", int(e["has_turns"])),
                        ("total_sum", t), ("total_sumsq", t * t)):
            d.counters[name] += sign * v
        for i, col in enumerate(BOX_COLUMNS):
            v = e[col] or 0
            d.box_sums[i] += sign * v
            d.box_zeros[i] += sign * int(v == 0)
        d.scores[t] = d.scores.get(t, 0) + sign
        d.rule_sets[e["rule_set"]] = d.rule_sets.get(e["rule_set"], 0) + sign


def _apply_players(s: Session, group_id: str, deltas: dict[str, _PlayerDelta]) -> None:
    """Add the deltas to stat_players and stat_scores; then the figures that are no sums
    (middle values, best, worst, the latest spelling) from the player's rows."""
    for key, d in sorted(deltas.items()):
        p = s.get(StatPlayer, (group_id, key))
        if p is None:
            if d.counters["games"] <= 0:
                continue
            p = StatPlayer(group_id=group_id, player_key=key, name=key,
                           box_sums=[0] * len(BOX_COLUMNS), box_zeros=[0] * len(BOX_COLUMNS),
                           rule_sets={}, middle_low=0, middle_high=0, best=0, worst=0,
                           **dict.fromkeys(_COUNTERS, 0))
            s.add(p)
        for name, v in d.counters.items():
            setattr(p, name, getattr(p, name) + v)
        p.box_sums = [a + b for a, b in zip(p.box_sums, d.box_sums, strict=True)]
        p.box_zeros = [a + b for a, b in zip(p.box_zeros, d.box_zeros, strict=True)]
        rule_sets = dict(p.rule_sets)
        for r, v in d.rule_sets.items():
            rule_sets[r] = rule_sets.get(r, 0) + v
        p.rule_sets = {r: v for r, v in sorted(rule_sets.items()) if v}
        for total, v in sorted(d.scores.items()):
            if not v:
                continue
            row = s.get(StatScore, (group_id, key, total))
            if row is None:
                row = StatScore(group_id=group_id, player_key=key, total=total, games=0)
                s.add(row)
            row.games += v
            if row.games == 0:
                s.delete(row)
        s.flush()
        if p.games == 0:
            s.delete(p)
            continue
        hist = score_counts(s, group_id, key)
        p.middle_low, p.middle_high = middle(hist)
        p.best, p.worst = max(hist), min(hist)
        p.name = _latest_name(s, group_id, key) or p.name
    s.flush()


def _build_players(s: Session, group_id: str) -> None:
    e = StatEntry
    where = [e.group_id == group_id, e.complete.is_(True)]
    boxes = [func.coalesce(c, 0) for c in BOX_ATTRS]
    agg = s.execute(
        select(e.player_key, func.count(), count_if(e.won.is_(True)),
               count_if(e.multiplayer.is_(True)), count_if(e.upper_bonus > 0),
               count_if(func.coalesce(e.yahtzee, 0) == 50), func.sum(e.bonus_checks),
               count_if(e.has_turns.is_(True)),
               *[func.sum(b) for b in boxes], *[count_if(b == 0) for b in boxes])
        .where(*where).group_by(e.player_key)).all()
    if not agg:
        return
    hists: dict[str, dict[int, int]] = {}
    for k, total, c in s.execute(select(e.player_key, e.grand_total, func.count())
                                 .where(*where).group_by(e.player_key, e.grand_total)):
        hists.setdefault(k, {})[total] = c
    rule_sets: dict[str, dict[str, int]] = {}
    for k, rule_set, c in s.execute(select(e.player_key, e.rule_set, func.count())
                                    .where(*where).group_by(e.player_key, e.rule_set)):
        rule_sets.setdefault(k, {})[rule_set] = c
    nb = len(BOX_COLUMNS)
    rows = []
    for r in agg:
        key = r[0]
        hist = hists[key]
        name = _latest_name(s, group_id, key)
        low, high = middle(hist)
        rows.append({"group_id": group_id, "player_key": key, "name": name,
                     "games": r[1], "wins": int(r[2]), "multiplayer_games": int(r[3]),
                     "upper_bonuses": int(r[4]), "yahtzees": int(r[5]),
                     "bonus_yahtzees": int(r[6]), "logged": int(r[7]),
                     "box_sums": [int(x) for x in r[8:8 + nb]],
                     "box_zeros": [int(x) for x in r[8 + nb:8 + 2 * nb]],
                     "total_sum": sum(v * c for v, c in hist.items()),
                     "total_sumsq": sum(v * v * c for v, c in hist.items()),
                     "middle_low": low, "middle_high": high, "best": max(hist),
                     "worst": min(hist), "rule_sets": rule_sets[key]})
    s.execute(insert(StatPlayer), rows)
    s.execute(insert(StatScore), [{"group_id": group_id, "player_key": k, "total": t,
                                   "games": c} for k, h in hists.items() for t, c in h.items()])


def score_counts(s: Session, group_id: str, key: str) -> dict[int, int]:
    """How many of a player's finished games ended with each grand total."""
    return dict(s.execute(select(StatScore.total, StatScore.games).where(
        StatScore.group_id == group_id, StatScore.player_key == key)).all())
