"""Check a SORRY! play-for-points sheet: one call reports every finding, under a named rule
set, and tallies the evening (000:124-143)."""

from __future__ import annotations

from typing import Any

from ..games import SORRY
from ..games.common import GameFinding, GameReport
from ..sheetspec import player_key
from .messages import render
from .rules import PAWNS, TOPIC, SorryCode, SorryRules, get_rules, points
from .sheet import SorryGame, SorrySheet

C = SorryCode


class _Collector:
    def __init__(self, rules: SorryRules, findings: list[GameFinding]) -> None:
        self.rules, self.findings = rules, findings

    def add(self, code: SorryCode, *, game: int | None = None, player: int | None = None,
            player_name: str | None = None, field: str | None = None, written: Any = None,
            expected: Any = None, **details: Any) -> None:
        f = GameFinding(code=code, rule_set=self.rules.name, game=game, player=player,
                        player_name=player_name, field=field, written=written,
                        expected=expected, rules=self.rules.cite(TOPIC[code]), details=details)
        f.message = render(f)
        self.findings.append(f)


def check_sheet(sheet: SorrySheet, rules: Any = None) -> GameReport:
    """Every finding on ``sheet`` under ``rules`` (a name, SorryRules or house-rule object;
    None: the sheet's own, else the book's)."""
    rs = get_rules(rules if rules is not None else sheet.rules)
    report = GameReport(SORRY, rs)
    out = _Collector(rs, report.findings)
    for gi, game in enumerate(sheet.games, 1):
        report.games.append(_check_game(game, gi, rs, out))
    report.tally = _tally(sheet, report.games, out)
    return report


def _check_game(game: SorryGame, gi: int, rs: SorryRules, out: _Collector) -> dict[str, Any]:
    players = game.players
    if not 2 <= len(players) <= 4:
        out.add(C.PLAYER_COUNT, game=gi, field="players", written=len(players),
                expected=[2, 4])
    homes = [p.home for p in players]
    bad = [i for i, h in enumerate(homes) if not 0 <= h <= PAWNS]
    for i in bad:
        out.add(C.PAWNS_IMPOSSIBLE, game=gi, player=i, player_name=players[i].name,
                field=f"players[{i}].home", written=homes[i], expected=[0, PAWNS])
    winners = [i for i, h in enumerate(homes) if h == PAWNS]
    written = any(p.points is not None for p in players)
    complete = len(winners) == 1
    if len(winners) > 1:
        out.add(C.TWO_WINNERS, game=gi, field="players",
                written=[players[i].name for i in winners])
    elif not winners and written:
        out.add(C.NO_WINNER, game=gi, field="players")
    elif not winners:
        out.add(C.GAME_IN_PROGRESS, game=gi)
    summary: dict[str, Any] = {"game": gi, "complete": complete, "scored": written,
                               "winners": [players[i].name for i in winners], "players": []}
    for i, p in enumerate(players):
        right = None if bad else points(homes, i, rs)
        if right is not None and p.points is not None and p.points != right["total"]:
            out.add(C.POINTS_WRONG, game=gi, player=i, player_name=p.name,
                    field=f"players[{i}].points", written=p.points, expected=right["total"],
                    home=p.home, breakdown=right)
        summary["players"].append({
            "name": p.name, "home": p.home, "written_points": p.points,
            "points": None if right is None else right["total"]})
    return summary


def _tally(sheet: SorrySheet, games: list[dict[str, Any]], out: _Collector) -> dict[str, Any]:
    rows: dict[str, dict[str, Any]] = {}
    written_sum: dict[str, int] = {}
    for g in games:
        for p in g["players"]:
            key = player_key(p["name"])
            row = rows.setdefault(key, {"player": p["name"], "games": 0, "wins": 0,
                                        "total": 0, "average": None})
            written_sum.setdefault(key, 0)
            if not g["scored"]:  # in progress: no points yet
                continue
            row["games"] += 1
            if p["name"] in g["winners"] and g["complete"]:
                row["wins"] += 1
            right = p["points"] if p["points"] is not None else p["written_points"] or 0
            row["total"] += right
            row["average"] = round(row["total"] / row["games"], 2)
            written_sum[key] += p["written_points"] or 0
    shown = dict(written_sum)
    for i, t in enumerate(sheet.totals or []):
        key = player_key(t.name)
        if key not in rows:
            out.add(C.TOTAL_UNKNOWN_PLAYER, field=f"totals[{i}].name", written=t.name)
            continue
        if t.total is not None:
            shown[key] = t.total
            if t.total != written_sum[key]:
                out.add(C.TOTAL_WRONG, player_name=t.name, field=f"totals[{i}].total",
                        written=t.total, expected=written_sum[key])
    right_lead = _leaders({k: r["total"] for k, r in rows.items()})
    shown_lead = _leaders(shown)
    if rows and right_lead != shown_lead:
        out.add(C.SLIP_CHANGES_LEADER, field="totals",
                written=[rows[k]["player"] for k in shown_lead],
                expected=[rows[k]["player"] for k in right_lead])
    standings = sorted(rows.values(), key=lambda r: (-r["total"], -r["wins"],
                                                     player_key(r["player"])))
    return {"game": SORRY, "games": len(games),
            "complete": sum(1 for g in games if g["complete"]),
            "winners": [g["winners"] if g["complete"] else [] for g in games],
            "players": [{"rank": i, **r} for i, r in enumerate(standings, 1)],
            "leaders": [rows[k]["player"] for k in right_lead]}


def _leaders(totals: dict[str, int]) -> list[str]:
    best = max(totals.values(), default=None)
    return sorted(k for k, v in totals.items() if v == best)
