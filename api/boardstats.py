"""Statistics of a group's SCRABBLE and SORRY! matches, per game, kept up to date on every
write as ``api.aggregates`` keeps Yahtzee's.

Rows (``api.db``): ``stat_board_entries`` (one per player per game of a match's current
version, from the game as checked: the correct final score or points, not a slip; the
winners as the book decides them), and per game of a group ``stat_board_players`` (sums
over the finished games: games, wins, the scores' sum; best score and best turn read
back from the entries) and ``stat_board_groups`` (matches, finished games, games in
progress). ``sync_match`` adds what a match's new version brings less what its old one
brought; ``rebuild_group`` builds the rows from the sheets (restore, migration 0003).

Figures: games, wins, win rate (wins / games), average and best score; SCRABBLE also the
best turn. ``scorepad.games.groupstats`` is the same from the sheets alone (a test
compares them).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from scorepad.games import SCRABBLE, YAHTZEE
from scorepad.games.groupstats import board_games, player_figures
from scorepad.sheetspec import player_key

from .db import Match, MatchVersion, StatBoardEntry, StatBoardGroup, StatBoardPlayer

E = StatBoardEntry


def match_rows(group_id: str, match_id: str, game: str, v: MatchVersion | Any
               ) -> list[dict[str, Any]]:
    """The stat_board_entries rows of a match's version ``v`` of ``game``."""
    rows: list[dict[str, Any]] = []
    for g in board_games(game, v.sheet):
        for seat, p in enumerate(g.players):
            rows.append({
                "group_id": group_id, "match_id": match_id, "game": game,
                "version": v.version, "game_no": g.game_no, "seat": seat,
                "played_on": v.played_on, "sort_date": v.played_on or dt.date.min,
                "place": v.place, "rule_set": g.rule_set, "complete": g.complete,
                "player_key": player_key(p.name), "player_name": p.name, "score": p.score,
                "rank": p.rank, "won": p.won, "best_turn": p.best_turn})
    return rows


Key = tuple[str, str]  # (game, player key)


def _deltas(out: dict[Key, list[int]], entries: Iterable[Mapping[str, Any]], sign: int
            ) -> None:
    for e in entries:
        d = out.setdefault((e["game"], e["player_key"]), [0, 0, 0])  # every key: name
        if e["complete"]:
            d[0] += sign
            d[1] += sign * int(e["won"])
            d[2] += sign * (e["score"] or 0)


def _games(entries: Iterable[Mapping[str, Any]]) -> dict[str, dict[int, bool]]:
    """game -> game number -> complete, of one match's entries."""
    out: dict[str, dict[int, bool]] = {}
    for e in entries:
        out.setdefault(e["game"], {})[e["game_no"]] = bool(e["complete"])
    return out


def sync_match(s: Session, group_id: str, match_id: str, m: Match | None) -> None:
    """After a write (the group is locked by ``aggregates.sync_match``): the entries of
    ``match_id`` from its current version (None: deleted), the player and group rows."""
    old = [dict(r) for r in s.execute(
        select(E.game, E.game_no, E.complete, E.player_key, E.won, E.score)
        .where(E.match_id == match_id)).mappings()]
    s.execute(delete(E).where(E.match_id == match_id))
    new: list[dict[str, Any]] = []
    if m is not None and m.game != YAHTZEE:
        new = match_rows(group_id, match_id, m.game, m.current)
        if new:
            s.execute(insert(E), new)
    players: dict[Key, list[int]] = {}
    _deltas(players, old, -1)
    _deltas(players, new, 1)
    for (game, key), d in sorted(players.items()):
        p = s.get(StatBoardPlayer, (group_id, game, key))
        if p is None:
            if d[0] <= 0:
                continue
            p = StatBoardPlayer(group_id=group_id, game=game, player_key=key, name=key,
                                games=0, wins=0, total_sum=0, best=0)
            s.add(p)
        p.games += d[0]
        p.wins += d[1]
        p.total_sum += d[2]
        s.flush()
        if p.games <= 0:
            s.delete(p)
        else:
            _refresh(s, p)
    old_games, new_games = _games(old), _games(new)
    for game in sorted(set(old_games) | set(new_games)):
        _count(s, group_id, game, old_games.get(game, {}), new_games.get(game, {}))
    s.flush()


def _refresh(s: Session, p: StatBoardPlayer) -> None:
    """The figures that are no sums: best score, best turn, the latest spelling."""
    where = (E.group_id == p.group_id, E.game == p.game, E.player_key == p.player_key,
             E.complete.is_(True))
    best, best_turn = s.execute(select(func.max(E.score), func.max(E.best_turn))
                                .where(*where)).one()
    p.best, p.best_turn = int(best or 0), best_turn
    p.name = s.scalar(select(E.player_name).where(*where).order_by(
        E.sort_date.desc(), E.match_id.desc(), E.game_no.desc(), E.seat.desc()).limit(1)
    ) or p.name


def _count(s: Session, group_id: str, game: str, old: dict[int, bool], new: dict[int, bool]
           ) -> None:
    d_matches = int(bool(new)) - int(bool(old))
    d_games = sum(new.values()) - sum(old.values())
    d_open = (len(new) - sum(new.values())) - (len(old) - sum(old.values()))
    if not (d_matches or d_games or d_open):
        return
    row = s.get(StatBoardGroup, (group_id, game))
    if row is None:
        row = StatBoardGroup(group_id=group_id, game=game, matches=0, games=0,
                             games_in_progress=0)
        s.add(row)
    row.matches += d_matches
    row.games += d_games
    row.games_in_progress += d_open
    s.flush()
    if row.matches == 0:
        s.delete(row)


def rebuild_group(s: Session, group_id: str) -> None:
    """Every SCRABBLE and SORRY! row of a group from its stored sheets."""
    for table in (StatBoardEntry, StatBoardPlayer, StatBoardGroup):
        s.execute(delete(table).where(table.group_id == group_id))
    rows = s.execute(
        select(Match.id, Match.game, MatchVersion)
        .join(MatchVersion, (MatchVersion.match_id == Match.id)
              & (MatchVersion.version == Match.current_version))
        .where(Match.group_id == group_id, Match.game != YAHTZEE)).all()
    entries: list[dict[str, Any]] = []
    counts: dict[str, list[int]] = {}
    for mid, game, v in rows:
        new = match_rows(group_id, mid, game, v)
        entries += new
        for g, nums in _games(new).items():
            c = counts.setdefault(g, [0, 0, 0])
            c[0] += 1
            c[1] += sum(nums.values())
            c[2] += len(nums) - sum(nums.values())
    if not entries:
        return
    s.execute(insert(E), entries)
    players: dict[Key, list[int]] = {}
    _deltas(players, entries, 1)
    for (game, key), d in sorted(players.items()):
        if d[0] > 0:
            p = StatBoardPlayer(group_id=group_id, game=game, player_key=key, name=key,
                                games=d[0], wins=d[1], total_sum=d[2], best=0)
            s.add(p)
            s.flush()
            _refresh(s, p)
    for game, (m, n, k) in sorted(counts.items()):
        s.add(StatBoardGroup(group_id=group_id, game=game, matches=m, games=n,
                             games_in_progress=k))
    s.flush()


# ---- reads ----------------------------------------------------------------------------------

def _summary(game: str, p: StatBoardPlayer) -> dict[str, Any]:
    return player_figures(game, p.name, p.games, p.wins, p.total_sum, p.best, p.best_turn)


def players(s: Session, group_id: str, game: str, key: str | None = None
            ) -> dict[str, dict[str, Any]]:
    """Each player's figures in ``game`` (or one player's), keyed by player key."""
    q = select(StatBoardPlayer).where(StatBoardPlayer.group_id == group_id,
                                      StatBoardPlayer.game == game)
    if key is not None:
        q = q.where(StatBoardPlayer.player_key == key)
    return {p.player_key: _summary(game, p) for p in s.scalars(q)}


def group_summary(s: Session, group_id: str, game: str, limit: int | None = None,
                  offset: int = 0) -> dict[str, Any]:
    """The group's figures in ``game`` and a page of its players (by player key)."""
    figures = players(s, group_id, game)
    rows = list(s.scalars(select(StatBoardPlayer).where(
        StatBoardPlayer.group_id == group_id, StatBoardPlayer.game == game)))
    n = sum(p.games for p in rows)
    overall: dict[str, Any] = {
        "games": n, "average": round(sum(p.total_sum for p in rows) / n, 2) if n else None,
        "best": max((p.best for p in rows), default=None)}
    if game == SCRABBLE:
        overall["best_turn"] = max((p.best_turn for p in rows if p.best_turn is not None),
                                   default=None)
    counts = s.get(StatBoardGroup, (group_id, game))
    keys = sorted(figures)
    page = keys[offset:offset + limit] if limit is not None else keys[offset:]
    return {"game": game, "games": counts.games if counts else 0,
            "games_in_progress": counts.games_in_progress if counts else 0,
            "matches": counts.matches if counts else 0, "player_games": n,
            "overall": overall, "players": [figures[k] for k in page],
            "players_total": len(keys)}


CSV_COLUMNS = ["match_id", "version", "played_on", "place", "rule_set", "game", "complete",
               "player", "score", "rank", "won", "best_turn"]


def csv_entries(s: Session, group_id: str, game: str, batch: int = 500) -> Any:
    """The group's ``game`` entries as ``CSV_COLUMNS``, games by date, match, game."""
    result = s.execute(select(
        E.match_id, E.version, E.played_on, E.place, E.rule_set, E.game_no, E.complete,
        E.player_name, E.score, E.rank, E.won, E.best_turn)
        .where(E.group_id == group_id, E.game == game)
        .order_by(E.sort_date, E.match_id, E.game_no, E.seat)
        .execution_options(yield_per=batch))
    yield from result.partitions(batch)
