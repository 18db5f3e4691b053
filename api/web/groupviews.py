"""HTML fragments of a group's pages, opened with the group token (``Authorization: Bearer``).

The group pages are shells; their script fetches these fragments with the token kept
in localStorage and puts them in place. The token never appears in a URL the
server sees, and a fragment without a valid token is the API's 401/404 problem.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from flask import current_app, render_template, request
from sqlalchemy.orm import selectinload

from scorepad import reference, stats
from scorepad.boxes import ALL_BOXES, LABELS, Box
from scorepad.games import GAMES, YAHTZEE
from scorepad.games.groupstats import board_games
from scorepad.rules import DEFAULT_RULES

from .. import auth, boardstats, statsread
from ..db import Match
from ..errors import ApiError, ProblemCode
from . import charts


def _fragment(template: str, **ctx: Any) -> Any:
    resp = current_app.make_response(render_template(template, **ctx))
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Vary"] = "Authorization"
    return resp


MATCHES_PER_PAGE = 25  # the overview's list of matches, newest first
BOARD_ROWS = 50  # the overview's leaderboard shows the top rows
GAMES_PER_PAGE = 100  # a player's "score over time": the latest games, then earlier pages
MAX_PAGE = 10_000


def _page() -> int:
    """The ``page`` query parameter (1 = the first), bounded."""
    return min(max(request.args.get("page", 1, type=int) or 1, 1), MAX_PAGE)


def _pager(page: int, total: int, per_page: int) -> dict[str, int]:
    pages = max(1, -(-total // per_page))
    return {"page": page, "pages": pages, "total": total, "first": (page - 1) * per_page + 1,
            "last": min(total, page * per_page)}


def _game() -> str:
    """The ``game`` query parameter: the game whose matches and statistics are shown."""
    game = request.args.get("game", YAHTZEE)
    return game if game in GAMES else YAHTZEE


def overview(gid: str) -> Any:
    page = _page()
    game = _game()
    with auth.opened_group(gid) as (s, g):
        total, rows = statsread.match_page(s, g.id, MATCHES_PER_PAGE,
                                            (page - 1) * MATCHES_PER_PAGE, game=game)
        matches = [{"id": m.id, "played_on": v.played_on, "place": v.place, "note": v.note,
                    "players": list(v.players), "audit_ok": v.audit_ok,
                    "versions": m.current_version, "rule_set": v.rule_set} for m, v in rows]
        if game == YAHTZEE:
            figures = statsread.players(s, g.id, analysis=False)  # no decision loss shown
            summary = statsread.group_summary(s, g.id, limit=0, figures=figures)
            board = statsread.leaderboard(s, g.id, "wins", 1, figures=figures)
        else:
            summary = boardstats.group_summary(s, g.id, game, limit=0)
            board = stats.rank_players(boardstats.players(s, g.id, game).values(), "wins")
        name = g.name
    return _fragment("web/part_overview.html", gid=gid, name=name, matches=matches,
                     summary=summary, board=board[:BOARD_ROWS], board_total=len(board),
                     pager=_pager(page, total, MATCHES_PER_PAGE), game=game, games=GAMES)


def _board_player(gid: str, name: str, game: str) -> Any:
    """A player's SCRABBLE or SORRY! figures (no charts: those compare Yahtzee play)."""
    key = stats.player_key(name)
    with auth.opened_group(gid) as (s, g):
        d = boardstats.players(s, g.id, game, key).get(key)
    if d is None:
        raise ApiError(404, ProblemCode.UNKNOWN_PLAYER,
                       f"no finished {game} game of this player in the group")
    return _fragment("web/part_player.html", gid=gid, stats=d, figures=[], games=d["games"],
                     optimal_source="", head_to_head=[], pager=_pager(1, 0, GAMES_PER_PAGE),
                     name=name, game=game)


def player(gid: str, name: str) -> Any:
    if _game() != YAHTZEE:
        return _board_player(gid, name, _game())
    page = _page()
    key = stats.player_key(name)
    with auth.opened_group(gid) as (s, g):
        fig = statsread.players(s, g.id, key).get(key)
        if fig is None:
            raise ApiError(404, ProblemCode.UNKNOWN_PLAYER,
                           "no finished game of this player in the group")
        d = fig.summary()
        n = d["games"]
        skip = (page - 1) * GAMES_PER_PAGE
        rows = statsread.player_series(s, g.id, key, GAMES_PER_PAGE, skip)
        score_counts = statsread.score_counts(s, g.id, key)
        main_rules = fig.main_rule_set or DEFAULT_RULES
        head_to_head = statsread.head_to_head(s, g.id, a=name)
    first = n - skip - len(rows)  # games before this page
    series = [(played_on.strftime("%d %b") if played_on else f"#{first + i + 1}", total)
              for i, (played_on, total) in enumerate(rows)]
    optimal, optimal_source = charts.optimal_scores(
        main_rules, str(current_app.config.get("WEB_OPTIMAL", "auto")))
    scores = [float(v) for _, v in series]
    yahtzee_rate = (d["yahtzees_per_game"] or 0.0)
    figures = [
        charts.line_chart("Score over time", [lab for lab, _ in series], scores,
                          reference=reference.MEAN, reference_label="optimal play average"),
        charts.histogram("Score distribution", [
            (d["player"], "s1", score_counts), ("optimal play", "s2", optimal)]),
        charts.hbars("Average per box", [LABELS[b] for b in ALL_BOXES], [
            (d["player"], "s1", [d["box_average"][b.value] for b in ALL_BOXES]),
            ("optimal play", "s2", [reference.BOX_MEANS[b] for b in ALL_BOXES])]),
        charts.hbars("Bonus rates", ["Upper bonus", "YAHTZEE (50)", "Bonus Yahtzees"], [
            (d["player"], "s1", [100 * (d["upper_bonus_rate"] or 0), 100 * yahtzee_rate,
                                 100 * (d["bonus_yahtzees_per_game"] or 0)]),
            ("optimal play", "s2", [100 * reference.UPPER_BONUS_RATE,
                                    100 * reference.BOX_MEANS[Box.YAHTZEE] / 50,
                                    100 * reference.EXPECTED_YAHTZEE_BONUS_POINTS / 100])],
            unit="%", max_value=100),
    ]
    return _fragment("web/part_player.html", gid=gid, stats=d, figures=figures, games=n,
                     optimal_source=optimal_source, head_to_head=head_to_head,
                     pager=_pager(page, n, GAMES_PER_PAGE), name=name)


def match(gid: str, mid: str) -> Any:
    with auth.opened_group(gid) as (s, g):
        m = s.get(Match, mid, options=[selectinload(Match.versions)]) if len(mid) <= 64 \
            else None
        if m is None or m.group_id != g.id:
            raise ApiError(404, ProblemCode.NOT_FOUND, "no such match in this group")
        versions: list[dict[str, Any]] = [{"version": v.version, "played_on": v.played_on, "place": v.place,
                     "note": v.note, "reason": v.reason, "rule_set": v.rule_set,
                     "players": list(v.players), "audit_ok": v.audit_ok,
                     "created_at": v.created_at, "sheet": v.sheet}
                    for v in sorted(m.versions, key=lambda v: v.version)]
        current, game = m.current_version, m.game
    for before, after in zip(versions, versions[1:], strict=False):
        after["changes"] = changes(before["sheet"], after["sheet"])
    cur = next(v for v in versions if v["version"] == current)
    if game != YAHTZEE:
        return _fragment("web/part_match.html", gid=gid, mid=mid, versions=versions,
                         current=cur, games=_board_rows(game, cur["sheet"]),
                         winners=lambda gr: gr.winners(), key=stats.player_key)
    games = stats.games_of(stats.StoredMatch(mid, current, cur["played_on"], cur["place"],
                                             cur["sheet"]))
    return _fragment("web/part_match.html", gid=gid, mid=mid, versions=versions, current=cur,
                     games=games, winners=lambda gr: gr.winners(), key=stats.player_key,
                     card=_card(cur["sheet"]))


def _card(sheet: dict[str, Any]) -> dict[str, Any]:
    """A saved Yahtzee card as the verdict draws it: its boxes with the findings marked."""
    from scorepad import audit_sheet, load_sheet

    from . import pad
    from .marks import marks, severity

    report = audit_sheet(load_sheet(sheet)).to_dict()
    on_cell, general = marks(report)
    values, players, games, with_ps = pad.values_from_sheet(sheet)
    return {"report": report, "rows": pad.rows(sheet.get("rules")), "values": values,
            "players": players, "games": games, "with_ps": with_ps, "field": pad.field_name,
            "labels": pad.FIELD_LABELS,
            "ctx": {"on_cell": on_cell, "severity": severity, "corrected": {},
                    "front": any(p.get("games") for p in sheet.get("players") or [])},
            "findings": sorted([*(f for fs in on_cell.values() for f in fs), *general],
                               key=lambda f: f["n"])}


def _board_rows(game: str, sheet: dict[str, Any]) -> list[Any]:
    """A SCRABBLE or SORRY! match's games as the match page's table reads them: each
    player's correct final score or points in place of a Yahtzee grand total."""
    return [SimpleNamespace(
        game_no=g.game_no, complete=g.complete,
        entries=[SimpleNamespace(name=p.name, totals=SimpleNamespace(grand_total=p.score))
                 for p in g.players],
        winners=lambda g=g: {stats.player_key(p.name) for p in g.players if p.won})
        for g in board_games(game, sheet)]


def _flat(sheet: dict[str, Any]) -> dict[tuple[str, int | None, str], Any]:
    out: dict[tuple[str, int | None, str], Any] = {}
    for pl in sheet.get("players") or []:
        name = str(pl.get("name", ""))
        for gi, g in enumerate(pl.get("games") or []):
            for k, v in ((g or {}).get("boxes") or {}).items():
                out[(name, gi + 1, k)] = v
            for k, v in ((g or {}).get("totals") or {}).items():
                out[(name, gi + 1, k)] = v
            if g and g.get("yahtzee_bonus_checks"):
                out[(name, gi + 1, "yahtzee_bonus_checks")] = g["yahtzee_bonus_checks"]
        ps = pl.get("players_scores") or {}
        for gi, v in enumerate(ps.get("games") or []):
            out[(name, gi + 1, "players_scores")] = v
        if ps.get("total") is not None:
            out[(name, None, "players_scores_total")] = ps["total"]
    return out


def changes(before: dict[str, Any], after: dict[str, Any], limit: int = 20) -> list[str]:
    """What a correction changed, box by box: "Ann, game 1, Aces: 7 → 3"."""
    from .pad import FIELD_LABELS
    a, b = _flat(before), _flat(after)
    out = []
    for key in sorted(set(a) | set(b), key=lambda k: (k[0], k[1] or 0, k[2])):
        if a.get(key) != b.get(key):
            name, game, field = key
            label = FIELD_LABELS.get(field, field.replace("_", " "))
            where = f"{name}, game {game}, {label}" if game else f"{name}, {label}"
            old = "blank" if a.get(key) is None else a[key]
            new = "blank" if b.get(key) is None else b[key]
            out.append(f"{where}: {old} → {new}")
    names_a = [p.get("name") for p in before.get("players") or []]
    names_b = [p.get("name") for p in after.get("players") or []]
    if names_a != names_b:
        out.insert(0, f"players: {', '.join(map(str, names_a))} → {', '.join(map(str, names_b))}")
    return out[:limit] + ([f"and {len(out) - limit} more"] if len(out) > limit else [])
