"""Tallies: per-game totals, the six-game sheet, PLAYERS' SCORES, winners and standings.

Scores are the arithmetic of the boxes as written (``card.compute_totals``), not
the totals the players wrote. Three ways to decide a match are offered:
total of all games (001, 004 line 11), games won, and 004's "winner earns the
difference" (defined below for any number of players).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .card import MAX_GAMES, GameTotals, Sheet, compute_totals
from .rules import RuleSet, get_rules


@dataclass(frozen=True)
class GameResult:
    """One game number across the players who played it."""

    game: int
    scores: dict[str, int]  # complete games only
    in_progress: list[str]  # players whose column is not finished
    winners: list[str]  # empty while any column is unfinished

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1


def winners_of(scores: dict[str, int]) -> list[str]:
    if not scores:
        return []
    top = max(scores.values())
    return [name for name, s in scores.items() if s == top]


def difference_points(scores: dict[str, int]) -> dict[str, Fraction]:
    """004 line 11, "the player who wins earns the difference between his or her score and
    that of his or her opponents'", made precise for any number of players: the winner earns
    the sum over every other player of (winner's score - that player's score); players tied
    for the win share the sum over the non-winners equally; everyone else earns 0.
    """
    winners = winners_of(scores)
    earned = {name: Fraction(0) for name in scores}
    if not winners:
        return earned
    top = scores[winners[0]]
    pot = Fraction(sum(top - s for n, s in scores.items() if n not in winners))
    for name in winners:
        earned[name] = pot / len(winners)
    return earned


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 2)


@dataclass
class Tally:
    rule_set: str
    players: list[str]
    totals: dict[str, list[GameTotals | None]]  # per player, GAME #1..#6
    games: list[GameResult]
    total_of_all_games: dict[str, int]
    games_won: dict[str, int]
    difference: dict[str, Fraction]
    standings: list[dict[str, Any]] = field(default_factory=list)
    # game numbers whose score came from the PLAYERS' SCORES sheet (no card on the sheet)
    from_players_scores: dict[str, list[int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule_set": self.rule_set,
            "players": self.players,
            "six_game_sheet": {
                p: [None if t is None else t.to_dict() for t in self.totals[p]]
                for p in self.players
            },
            "players_scores": {
                "games": [
                    {"game": n + 1,
                     "scores": {p: (t.grand_total if (t := self.totals[p][n]) else None)
                                for p in self.players}}
                    for n in range(MAX_GAMES)
                    if any(self.totals[p][n] is not None for p in self.players)
                ],
                "total_of_all_games": self.total_of_all_games,
            },
            "games": [
                {"game": g.game, "scores": g.scores, "in_progress": g.in_progress,
                 "winners": g.winners, "tie": g.tie}
                for g in self.games
            ],
            "games_won": self.games_won,
            "from_players_scores": self.from_players_scores,
            "difference_points": {p: _number(v) for p, v in self.difference.items()},
            "standings": self.standings,
            "winners": self.standings and [
                s["player"] for s in self.standings if s["rank"] == 1
            ] or [],
        }


def _rank(values: dict[str, int]) -> dict[str, int]:
    """Competition ranking (1, 1, 3): ties share a rank."""
    ordered = sorted(values.values(), reverse=True)
    return {p: ordered.index(v) + 1 for p, v in values.items()}


def tally_sheet(sheet: Sheet, rules: str | RuleSet | dict[str, Any] | None = None, *,
                known: dict[tuple[int, int], GameTotals] | None = None) -> Tally:
    """Tally a sheet; ``known`` holds totals already computed, by (player index, game index)."""
    rs = get_rules(rules if rules is not None else sheet.rules)
    names = [p.name for p in sheet.players]
    totals: dict[str, list[GameTotals | None]] = {}
    known = known or {}
    for pi, player in enumerate(sheet.players):
        column: list[GameTotals | None] = []
        for n in range(MAX_GAMES):
            g = player.games[n] if n < len(player.games) else None
            if g is None or g.blank:
                column.append(None)
            else:
                column.append(known.get((pi, n)) or compute_totals(g, rs))
        totals[player.name] = column

    # A game's score is its card's grand total; where the sheet has no card for that game
    # (only the PLAYERS' SCORES side was given), the number written there stands in.
    written_rows = {
        p.name: (p.players_scores.games if p.players_scores else []) for p in sheet.players
    }
    from_back: dict[str, list[int]] = {p: [] for p in names}
    results: list[GameResult] = []
    games_won = {n: 0 for n in names}
    difference = {n: Fraction(0) for n in names}
    for n in range(MAX_GAMES):
        scores: dict[str, int] = {}
        unfinished: list[str] = []
        for p in names:
            t = totals[p][n]
            row = written_rows[p][n] if n < len(written_rows[p]) else None
            if t is not None:
                if t.complete:
                    scores[p] = t.grand_total
                else:
                    unfinished.append(p)
            elif row is not None:
                scores[p] = row
                from_back[p].append(n + 1)
        if not scores and not unfinished:
            continue
        winners = [] if unfinished else winners_of(scores)
        results.append(GameResult(n + 1, scores, unfinished, winners))
        for w in winners:
            games_won[w] += 1  # a tie is a win for everyone tied
        if not unfinished:
            for p, pts in difference_points(scores).items():
                difference[p] += pts

    total_all = {p: sum(g.scores.get(p, 0) for g in results) for p in names}
    rank = _rank(dict(total_all))
    standings = sorted(
        ({"player": p, "rank": rank[p], "total_of_all_games": total_all[p],
          "games_won": games_won[p], "difference_points": _number(difference[p])}
         for p in names),
        key=lambda s: (s["rank"], names.index(s["player"])),  # type: ignore[arg-type]
    )
    return Tally(rs.name, names, totals, results, total_all, games_won, difference, standings,
                 from_players_scores=from_back)

