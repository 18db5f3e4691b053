"""The web pages (issue 6): photograph or type a pad, check what was read, see the verdict,
ask what the dice may score, keep the games in a group.

Server-rendered Jinja (autoescaped) with a little JavaScript from ``static/``; no
asset from anywhere else. Every state-changing form post carries the session's
CSRF token; the group pages call the JSON API (or the HTML fragments below) with
the group token kept in the browser's localStorage.

Register with ``app.register_blueprint(api.web.bp)`` (``create_app`` does it).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from flask import abort, render_template, request, url_for

from scorepad import audit_sheet
from scorepad.boxes import ALL_BOXES, LABELS
from scorepad.rules import DEFAULT_RULES, OPTION_NOTES, RuleSet
from scorepad.schemas import SheetFormatError, load_sheet
from scorepad.sheetspec import MAX_GAMES, MAX_PLAYERS

from ..scanning import ScanFailed
from . import charts, groupviews, pad, scans, scanviews, share  # share: a verdict's link
from . import gamepads as gamepads  # the SCRABBLE and SORRY! pads (routes on bp)
from . import printable as printable  # the blank pad to print (routes on bp)
from . import restore as restore  # a group from its backup, on "My groups"
from .common import bp, csrf_token, pad_page_response, rule_choices, rules_data, rules_name
from .marks import group_slips as _group_slips
from .marks import marks as _marks
from .marks import severity as _severity
from .scanviews import confirmed_cells, review_cells, review_page, reviewed_readings

# ---- home and the on-screen pad -------------------------------------------------------------

@bp.get("/")
def home() -> str:
    return render_template("web/home.html", rules=rule_choices(), default=DEFAULT_RULES,
                           notes=OPTION_NOTES)


@bp.get("/dice")
def dice_page() -> str:
    """What the dice may score, asked without a card (every box open)."""
    return render_template("web/dice.html", rule_list=rule_choices(), rules_data=rules_data(),
                           rules=rules_name(request.args.get("rules")))


@bp.get("/pad")
def pad_page() -> tuple[str, int]:
    players, games, with_ps = pad.shape_of(request.args)
    return pad_page_response({}, players, games, with_ps, rules_name(request.args.get("rules")))


@bp.post("/pad")
def pad_post() -> tuple[str, int]:
    """Re-draw the pad: add a player or a game column, or open a sheet to edit it."""
    rules = rules_name(request.form.get("rules"))
    correct = request.form.get("correct") or None
    if request.form.get("sheet_json"):
        try:
            data = json.loads(request.form["sheet_json"])
            sheet = load_sheet(data)
        except (ValueError, SheetFormatError):
            abort(400)
        values, players, games, with_ps = pad.values_from_sheet(data)
        rules = rules_name(request.form.get("rules") or _rule_name_of(sheet.rules))
        return pad_page_response(values, players, games, with_ps, rules, title=data.get("title"),
                         correct=correct, correct_label=request.form.get("correct_label"))
    players, games, with_ps = pad.shape_of(request.form)
    action = request.form.get("action")
    if action == "add_player":
        players = min(MAX_PLAYERS, players + 1)
    elif action == "add_game":
        games = min(MAX_GAMES, games + 1)
    elif action == "add_scores":
        with_ps = True
    values = {k: v for k, v in request.form.items() if k.startswith("p")}
    kind, _, which = (action or "").partition(":")
    if kind == "remove_player" and players > 1 and which.isdigit() and int(which) < players:
        values, players = pad.without(values, player=int(which)), players - 1
    elif kind == "remove_game" and games > 1 and which.isdigit() and int(which) < games:
        values, games = pad.without(values, game=int(which)), games - 1
    return pad_page_response(values, players, games, with_ps, rules, title=request.form.get("title"),
                     correct=correct, correct_label=request.form.get("correct_label"))


def _rule_name_of(spec: Any) -> str | None:
    if isinstance(spec, str):
        return spec
    if isinstance(spec, RuleSet):
        return spec.name
    return None

# ---- the verdict ----------------------------------------------------------------------------

def _field_label(field: str, game: int | None) -> str:
    if field == "players_scores.total":
        return "PLAYERS' SCORES, TOTAL OF ALL GAMES"
    if field.startswith("players_scores."):
        return f"PLAYERS' SCORES, GAME #{game}"
    return pad.FIELD_LABELS.get(field, field)


def _doubts(findings: list[dict[str, Any]], sid: str | None,
            cells: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The doubts (numbered findings), each with the cells to check on the photo: the pad form
    field, what was read, its crop (a reviewed scan's) and the readings that make it right."""
    out = []
    for f in findings:
        if f.get("severity") != "doubt":
            continue
        d = (f.get("details") or {}).get("doubt") or {}
        right = d.get("would_be_right_if") or []
        shown = []
        for c in d.get("cells") or []:
            name = pad.finding_field(f.get("player"), c.get("game"), c.get("field"))
            scan_cell = cells.get(name or "")
            shown.append({
                **c, "name": name, "label": _field_label(str(c.get("field")), c.get("game")),
                "crop": (url_for("web.scan_crop", sid=sid, index=scan_cell["index"])
                         if sid and scan_cell else None),
                "right_if": [w.get("value") for w in right
                             if w.get("field") == c.get("field")
                             and w.get("game") == c.get("game")],
            })
        out.append({**f, "reason": d.get("reason"), "cells": shown})
    return out


def _wins(tally: dict[str, Any] | None) -> dict[str, int]:
    """Games won as the group's leaderboard and CSV count them (``scorepad.stats``): the top
    grand total of a finished game of two or more players' cards; a tie wins for each."""
    if not tally:
        return {}
    back = {n for ns in (tally.get("from_players_scores") or {}).values() for n in ns}
    wins = dict.fromkeys(tally.get("players") or [], 0)
    for g in tally.get("games") or []:
        if g.get("in_progress") or len(g.get("scores") or {}) < 2 or g.get("game") in back:
            continue
        for w in g.get("winners") or []:
            wins[w] = wins.get(w, 0) + 1
    return wins


@bp.post("/check")
def check() -> tuple[str, int]:
    rules = rules_name(request.form.get("rules"))
    sid = request.form.get("scan_id") or None
    correct = request.form.get("correct") or None
    players, games, with_ps = pad.shape_of(request.form)
    values = {k: v for k, v in request.form.items() if k.startswith("p") and "." in k}
    confirmed = confirmed_cells(request.form)
    recheck = {n for n in request.form.getlist("recheck") if n}

    def again(errors: list[tuple[str, str]], status: int = 422) -> tuple[str, int]:
        if sid:
            return review_page(sid, values, confirmed, errors, status, recheck=recheck)
        return pad_page_response(values, players, games, with_ps, rules, errors, status,
                         title=request.form.get("title"), correct=correct,
                         correct_label=request.form.get("correct_label"))

    readings = None
    cells: dict[str, dict[str, Any]] = {}
    if sid:
        data = scans.load(sid)
        if data is None or data.get("result") is None:
            return review_page(sid)
        cells = review_cells(data["result"])
        missing = [n for n, c in cells.items() if (c["flagged"] or n in recheck)
                   and n not in confirmed]
        if missing:
            return again([(n, "check this box against the photo") for n in missing])
        # the audited sheet carries how each cell was read: a misreading is a doubt
        readings = reviewed_readings(data["result"], request.form, confirmed)
    try:
        sheet_json = pad.sheet_from_form(request.form, rules, readings)
        title = pad.title_from_form(request.form)  # refused when too long, never cut
        if title:
            sheet_json["title"] = title
        sheet = load_sheet(sheet_json)
    except pad.FormError as exc:
        return again(exc.errors)
    except SheetFormatError as exc:
        return again([(path, msg) for path, msg in exc.errors])
    return verdict_page(sheet_json, sheet, rules, correct=correct, sid=sid, cells=cells,
                        values=values, confirmed=confirmed, recheck=recheck)


@bp.get("/v")
def shared_verdict() -> tuple[str, int]:
    """A verdict's link (api.web.share): the card is in the address, nothing is stored."""
    try:
        data = share.decode(request.args.get("s", ""))
        sheet = load_sheet(data)
    except (ValueError, SheetFormatError):
        abort(400)
    return verdict_page(data, sheet, rules_name(_rule_name_of(sheet.rules)))


def verdict_page(sheet_json: dict[str, Any], sheet: Any, rules: str, *, correct: str | None = None,
                 sid: str | None = None, cells: dict[str, dict[str, Any]] | None = None,
                 values: dict[str, str] | None = None, confirmed: set[str] | None = None,
                 recheck: set[str] | None = None) -> tuple[str, int]:
    """The verdict of an audited sheet (a checked form, or a shared link: api.web.share)."""
    cells, confirmed, recheck = cells or {}, confirmed or set(), recheck or set()
    report = audit_sheet(sheet).to_dict()
    on_cell, general = _marks(report)
    numbered = sorted([*(f for fs in on_cell.values() for f in fs), *general],
                      key=lambda f: f["n"])
    doubts = _doubts(numbered, sid, cells)
    slips = _group_slips(numbered)
    corrected = {}
    for g in report.get("games") or []:
        for k, v in (g.get("totals") or {}).items():
            corrected[pad.field_name(g["player"], g["game"] - 1, k)] = v
    v2, players, games, with_ps = pad.values_from_sheet(sheet_json)
    return render_template(
        "web/verdict.html", report=report, sheet_json=sheet_json, rows=pad.rows(rules), values=v2,
        players=players, games=games, with_ps=with_ps, rules=rules, field=pad.field_name,
        on_cell=on_cell, general=general, severity=_severity, corrected=corrected,
        labels=pad.FIELD_LABELS, rule_list=rule_choices(), rules_data=rules_data(),
        box_labels={b.value: LABELS[b] for b in ALL_BOXES}, correct=correct,
        today=dt.date.today().isoformat(), numbered=numbered, doubts=doubts, slips=slips,
        wins=_wins(report.get("tally")),
        correct_label=(request.form.get("correct_label") or "")[:200] if correct else "",
        doubt_cells=len({(d["player"], c["field"], c["game"]) for d in doubts
                         for c in d["cells"]}),
        sid=sid, review_values=values or {}, review_confirmed=sorted(confirmed),
        review_recheck=sorted(recheck), share_url=share.share_url(sheet_json),
    ), 200


# ---- groups ---------------------------------------------------------------------------------

@bp.get("/groups")
def my_groups() -> str:
    return render_template("web/groups.html")


@bp.get("/g/<gid>")
def group_page(gid: str) -> str:
    return render_template("web/group_shell.html", gid=gid, part="overview",
                           part_url=url_for("web.part_overview", gid=gid,
                                            page=request.args.get("page", type=int),
                                            game=request.args.get("game")),
                           heading="Group")


@bp.get("/g/<gid>/players/<path:name>")
def player_page(gid: str, name: str) -> str:
    return render_template("web/group_shell.html", gid=gid, part="player",
                           part_url=url_for("web.part_player", gid=gid, name=name,
                                            page=request.args.get("page", type=int),
                                            game=request.args.get("game")),
                           heading=name)


@bp.get("/g/<gid>/m/<mid>")
def match_page(gid: str, mid: str) -> str:
    return render_template("web/group_shell.html", gid=gid, part="match",
                           part_url=url_for("web.part_match", gid=gid, mid=mid),
                           heading="Match")


bp.add_url_rule("/g/<gid>/part/overview", view_func=groupviews.overview,
                endpoint="part_overview")
bp.add_url_rule("/g/<gid>/part/players/<path:name>", view_func=groupviews.player,
                endpoint="part_player")
bp.add_url_rule("/g/<gid>/part/m/<mid>", view_func=groupviews.match, endpoint="part_match")

__all__ = ["ScanFailed", "bp", "charts", "csrf_token", "scanviews"]
