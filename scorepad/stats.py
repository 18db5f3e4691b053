"""Statistics derived from stored games (never stored themselves, so corrections count).

A *game* is one GAME #n column of a match. It counts once every player who
wrote in that column has filled all thirteen boxes; a column some player left
unfinished is "in progress" and left out. Grand totals are recomputed from the
boxes (``scorepad.card.compute_totals``), not taken from what was written.
Wins: in a game of two or more players, everyone with the top total wins
(ties count for everyone tied).
"""

from __future__ import annotations

import datetime as dt
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import reference
from .boxes import ALL_BOXES, Box
from .card import Game, GameTotals, Sheet, compute_totals
from .rules import RuleSet, UnknownRuleSet, get_rules
from .schemas import load_sheet
from .sheetspec import player_key as player_key  # one identity of a name, for loading too


@dataclass(frozen=True)
class Entry:
    name: str
    totals: GameTotals
    game: Game


@dataclass(frozen=True)
class GameRecord:
    match_id: str
    version: int
    played_on: dt.date | None
    place: str | None
    rule_set: str
    game_no: int  # 1..6
    entries: tuple[Entry, ...]
    complete: bool
    rules: RuleSet | None = None  # the full rule set (a custom one has no registry name)

    @property
    def top(self) -> int:
        return max(e.totals.grand_total for e in self.entries)

    def winners(self) -> set[str]:
        if len(self.entries) < 2:
            return set()
        return {player_key(e.name) for e in self.entries if e.totals.grand_total == self.top}


@dataclass(frozen=True)
class StoredMatch:
    match_id: str
    version: int
    played_on: dt.date | None
    place: str | None
    sheet: dict[str, Any]


def _rules_of(spec: Any) -> RuleSet:
    try:
        return get_rules(spec)
    except UnknownRuleSet:  # a stored rule set that no longer exists: fall back to the default
        return get_rules(None)


def games_of(match: StoredMatch, sheet: Sheet | None = None) -> list[GameRecord]:
    """The games of a stored match (``sheet``: its sheet already loaded, else loaded here)."""
    sheet = sheet if sheet is not None else load_sheet(match.sheet)
    rules = _rules_of(sheet.rules)
    n_games = max((len(p.games) for p in sheet.players), default=0)
    out = []
    for gi in range(n_games):
        entries = []
        complete = True
        for p in sheet.players:
            g = p.games[gi] if gi < len(p.games) else None
            if g is None or g.blank:
                continue
            if not g.complete:
                complete = False
            entries.append(Entry(p.name, compute_totals(g, rules), g))
        if entries:
            out.append(GameRecord(match.match_id, match.version, match.played_on, match.place,
                                  rules.name, gi + 1, tuple(entries), complete, rules))
    return out


def all_games(matches: Iterable[StoredMatch]) -> list[GameRecord]:
    games = [g for m in matches for g in games_of(m)]
    games.sort(key=lambda g: (g.played_on or dt.date.min, g.match_id, g.game_no))
    return games


@dataclass
class PlayerStats:
    name: str
    totals: list[int] = field(default_factory=list)
    wins: int = 0
    multiplayer_games: int = 0
    upper_bonuses: int = 0
    yahtzees: int = 0
    bonus_yahtzees: int = 0
    box_sum: dict[Box, int] = field(default_factory=lambda: dict.fromkeys(ALL_BOXES, 0))
    box_zero: dict[Box, int] = field(default_factory=lambda: dict.fromkeys(ALL_BOXES, 0))
    analysed_games: int = 0
    decisions: int = 0
    decision_loss: float = 0.0

    def add_analysis(self, loss: tuple[float, int] | None) -> None:
        if loss is not None:
            self.analysed_games += 1
            self.decision_loss += loss[0]
            self.decisions += loss[1]

    def add(self, e: Entry, won: bool, multiplayer: bool) -> None:
        self.totals.append(e.totals.grand_total)
        self.wins += int(won)
        self.multiplayer_games += int(multiplayer)
        self.upper_bonuses += int(e.totals.upper_bonus > 0)
        self.yahtzees += int(e.game.boxes.get(Box.YAHTZEE) == 50)
        self.bonus_yahtzees += e.game.bonus_checks
        for b in ALL_BOXES:
            v = e.game.boxes.get(b) or 0
            self.box_sum[b] += v
            self.box_zero[b] += int(v == 0)

    def to_dict(self) -> dict[str, Any]:
        return summarize(self.name, self)


def _r(x: float) -> float:
    return round(x, 2)


@dataclass(frozen=True)
class Spread:
    """The figures of a player's grand totals that need more than counters: what
    ``summarize`` reports as average, median, best, worst and sd."""

    n: int
    mean: float
    median: float
    best: int
    worst: int
    sd: float | None

    @classmethod
    def of(cls, totals: Sequence[int]) -> Spread | None:
        if not totals:
            return None
        n = len(totals)
        return cls(n, statistics.fmean(totals), float(statistics.median(totals)), max(totals),
                   min(totals), statistics.stdev(totals) if n > 1 else None)


def summarize(name: str | None, s: PlayerStats, spread: Spread | None = None) -> dict[str, Any]:
    """A player's figures (``name`` None: the group's). ``spread``: the figures of the
    totals when ``s.totals`` is not kept (the service's stored aggregates)."""
    if spread is None:
        spread = Spread.of(s.totals)
    n = spread.n if spread else 0
    d: dict[str, Any] = {"games": n}
    if name is not None:
        d = {"player": name, **d}
    d["wins"] = s.wins
    d["multiplayer_games"] = s.multiplayer_games
    d["decision_loss"] = {
        "games_analysed": s.analysed_games,
        "decisions": s.decisions,
        "total_loss": _r(s.decision_loss),
        "mean_loss_per_decision": _r(s.decision_loss / s.decisions) if s.decisions else None,
    }
    d["win_rate"] = _r(s.wins / s.multiplayer_games) if s.multiplayer_games else None
    if spread is None:
        d.update({"average": None, "median": None, "best": None, "worst": None, "sd": None,
                  "upper_bonus_rate": None, "yahtzees_per_game": None,
                  "bonus_yahtzees_per_game": None, "box_average": None, "box_zero_rate": None,
                  "reference": reference_comparison(s, spread)})
        return d
    d.update({
        "average": _r(spread.mean),
        "median": _r(spread.median),
        "best": spread.best,
        "worst": spread.worst,
        "sd": _r(spread.sd) if spread.sd is not None else None,
        "upper_bonus_rate": _r(s.upper_bonuses / n),
        "yahtzees_per_game": _r(s.yahtzees / n),
        "bonus_yahtzees_per_game": _r(s.bonus_yahtzees / n),
        "box_average": {b.value: _r(s.box_sum[b] / n) for b in ALL_BOXES},
        "box_zero_rate": {b.value: _r(s.box_zero[b] / n) for b in ALL_BOXES},
        "reference": reference_comparison(s, spread),
    })
    return d


def reference_comparison(s: PlayerStats, spread: Spread | None = None) -> dict[str, Any]:
    """How these games compare with optimal solitaire play (see api.reference)."""
    if spread is None:
        spread = Spread.of(s.totals)
    ref = reference.as_dict()
    cmp: dict[str, Any] = {"reference": ref}
    if spread is None:
        return cmp
    n, mean = spread.n, spread.mean
    cmp["average_minus_reference"] = _r(mean - reference.MEAN)
    # z of the sample mean against optimal play's distribution of game scores
    cmp["z_score"] = _r((mean - reference.MEAN) / (reference.SD / math.sqrt(n)))
    cmp["upper_bonus_rate_minus_reference"] = _r(s.upper_bonuses / n - reference.UPPER_BONUS_RATE)
    cmp["box_average_minus_reference"] = {
        b.value: _r(s.box_sum[b] / n - reference.BOX_MEANS[b]) for b in ALL_BOXES
    }
    return cmp


def decision_loss(rules: RuleSet, game: Game) -> tuple[float, int] | None:
    """(total loss, decisions) of a game's turn log against optimal play (issue 5).

    Only when the optimal-play table of the rule set is already built (in memory or in
    the disk cache; ``scorepad solve --rules NAME`` builds it): a statistics request
    never starts a table build. Illegal or unanalysable logs count as not analysed.
    """
    from .solver import AnalysisError, analyse_game, get_table  # numpy/numba: on first use
    from .solver.table import table_available
    if not table_available(rules):
        return None
    try:
        analysis = analyse_game(game, rules, table=get_table(rules))
    except (AnalysisError, ValueError):
        return None
    return analysis.total_loss, len(analysis.decisions)


def per_player(games: Sequence[GameRecord]) -> dict[str, PlayerStats]:
    stats: dict[str, PlayerStats] = {}
    for g in games:
        if not g.complete:
            continue
        winners = g.winners()
        multi = len(g.entries) > 1
        for e in g.entries:
            k = player_key(e.name)
            ps = stats.setdefault(k, PlayerStats(e.name))
            ps.name = e.name  # the latest spelling
            ps.add(e, k in winners, multi)
            if e.game.turns:
                ps.add_analysis(decision_loss(g.rules or _rules_of(g.rule_set), e.game))
    return stats


def group_summary(games: Sequence[GameRecord]) -> dict[str, Any]:
    players = per_player(games)
    overall = PlayerStats("")
    for g in games:
        if g.complete:
            winners = g.winners()
            for e in g.entries:
                overall.add(e, player_key(e.name) in winners, len(g.entries) > 1)
    summary = summarize(None, overall)
    summary.pop("wins")
    summary.pop("win_rate")
    summary.pop("multiplayer_games")
    return {
        "games": len([g for g in games if g.complete]),
        "games_in_progress": len([g for g in games if not g.complete]),
        "matches": len({g.match_id for g in games}),
        "player_games": len(overall.totals),
        "overall": summary,
        "players": sorted((p.to_dict() for p in players.values()),
                          key=lambda d: player_key(d["player"])),
    }


LEADERBOARD_KEYS = ("wins", "win_rate", "average", "median", "best", "games",
                    "upper_bonus_rate", "yahtzees_per_game")


def leaderboard(games: Sequence[GameRecord], by: str = "wins", min_games: int = 1
                ) -> list[dict[str, Any]]:
    return rank_players([p.to_dict() for p in per_player(games).values()], by, min_games)


def rank_players(players: Iterable[dict[str, Any]], by: str = "wins", min_games: int = 1
                 ) -> list[dict[str, Any]]:
    """Leaderboard rows of players' ``summarize`` dicts: equal values share a rank."""
    rows = [r for r in players if r["games"] >= min_games and r.get(by) is not None]
    rows.sort(key=lambda r: (-r[by], -(r["average"] or 0), player_key(r["player"])))
    out = []
    rank = 0
    prev: Any = object()
    for i, r in enumerate(rows, 1):
        if r[by] != prev:
            rank, prev = i, r[by]
        out.append({"rank": rank, "player": r["player"], "value": r[by], "games": r["games"],
                    "wins": r["wins"], "average": r["average"], "best": r["best"]})
    return out


def head_to_head(games: Sequence[GameRecord], a: str | None = None, b: str | None = None
                 ) -> list[dict[str, Any]]:
    """Pairwise records: in each finished game both played, who scored more."""
    pairs: dict[tuple[str, str], PairRecord] = {}
    names: dict[str, str] = {}
    for g in games:
        if not g.complete:
            continue
        for e in g.entries:
            names[player_key(e.name)] = e.name
        for i, x in enumerate(g.entries):
            for y in g.entries[i + 1:]:
                kx, ky = player_key(x.name), player_key(y.name)
                if kx > ky:
                    kx, ky, x2, y2 = ky, kx, y, x
                else:
                    x2, y2 = x, y
                pairs.setdefault((kx, ky), PairRecord()).add(
                    x2.totals.grand_total - y2.totals.grand_total)
    return pair_rows(pairs, names, a, b)


@dataclass
class PairRecord:
    """Two players' record in the games they both finished; ``wins_a``/``margin`` are the
    first key's (the keys of a pair in ``head_to_head`` are in order)."""

    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    ties: int = 0
    margin: int = 0

    def add(self, diff: int, games: int = 1, wins_a: int | None = None, wins_b: int = 0,
            ties: int = 0) -> None:
        """One game won by ``diff`` points; or (``wins_a`` given) a sum of games."""
        if wins_a is None:
            wins_a, wins_b, ties = int(diff > 0), int(diff < 0), int(diff == 0)
        self.games += games
        self.wins_a += wins_a
        self.wins_b += wins_b
        self.ties += ties
        self.margin += diff


def pair_rows(pairs: dict[tuple[str, str], PairRecord], names: dict[str, str],
              a: str | None = None, b: str | None = None) -> list[dict[str, Any]]:
    """The head-to-head rows of pair records keyed by (key, key) in order; ``a``/``b``
    keep the pairs with those players, ``a`` first."""
    out = []
    ka = player_key(a) if a else None
    kb = player_key(b) if b else None
    for (kx, ky), rec in sorted(pairs.items()):
        if ka and ka not in (kx, ky):
            continue
        if kb and kb not in (kx, ky):
            continue
        swap = ka is not None and ka == ky
        first, second = (ky, kx) if swap else (kx, ky)
        wins_first, wins_second = (rec.wins_b, rec.wins_a) if swap else (rec.wins_a, rec.wins_b)
        margin = -rec.margin if swap else rec.margin
        out.append({
            "player_a": names[first], "player_b": names[second], "games": rec.games,
            "wins_a": wins_first, "wins_b": wins_second, "ties": rec.ties,
            "average_margin": _r(margin / rec.games),
        })
    return out
