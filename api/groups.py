"""Groups, their matches (with correction history), statistics, CSV export and backups."""

# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

import csv
import datetime as dt
import io
import uuid
from typing import Any

from flask import Response, current_app
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from scorepad import stats
from scorepad.boxes import ALL_BOXES
from scorepad.card import Sheet
from scorepad.rules import get_rules
from scorepad.schemas import SheetFormatError, dump_sheet, load_sheet

from . import auth, domain
from .blueprint import Blueprint
from .db import Group, Match, MatchVersion, utcnow, writing
from .errors import ApiError, ProblemCode
from .limits import write_limited
from .schemas import (
    BACKUP_FORMAT,
    BackupSchema,
    GroupCreatedSchema,
    GroupCreateSchema,
    GroupSchema,
    HeadToHeadQuerySchema,
    HeadToHeadSchema,
    HistorySchema,
    LeaderboardQuerySchema,
    LeaderboardSchema,
    MatchCorrectionSchema,
    MatchInSchema,
    MatchListQuerySchema,
    MatchListSchema,
    MatchSchema,
    StatsSchema,
)

blp = Blueprint("groups", __name__, description="Groups, matches, statistics, export")
SECURITY: list[dict[str, list[str]]] = [{"groupToken": []}]


def _new_id() -> str:
    return uuid.uuid4().hex


def _iso(d: dt.datetime) -> str:
    """Naive UTC from the database -> RFC 3339 with its offset."""
    return d.replace(microsecond=0, tzinfo=dt.UTC).isoformat()


# ---- groups ---------------------------------------------------------------------------------

@blp.route("/groups", methods=["POST"])
@write_limited
@blp.arguments(GroupCreateSchema)
@blp.response(201, GroupCreatedSchema)
def create_group(body: dict[str, Any]) -> dict[str, Any]:
    """Create a group; its token is in this response and nowhere else, ever."""
    token = auth.new_token()
    with writing() as s:
        g = Group(id=_new_id(), name=body["name"], token_hash=auth.hash_token(token),
                  created_at=utcnow())
        s.add(g)
    return {"id": g.id, "name": g.name, "created_at": g.created_at, "matches": 0,
            "token": token}


@blp.route("/groups/<string:group_id>", methods=["GET"])
@blp.response(200, GroupSchema)
@blp.doc(security=SECURITY)
def get_group(group_id: str) -> dict[str, Any]:
    """The group the token opens."""
    with auth.opened_group(group_id) as (s, g):
        n = s.scalar(select(func.count()).select_from(Match).where(Match.group_id == g.id))
        return {"id": g.id, "name": g.name, "created_at": g.created_at, "matches": n}


# ---- matches --------------------------------------------------------------------------------

def _prepare(body: dict[str, Any]) -> tuple[dict[str, Any], str, list[str], dict[str, Any]]:
    """Validated body -> (stored sheet JSON, rule-set name, players, audit report)."""
    sheet: Sheet = body["sheet"]
    if body.get("rules"):
        sheet.rules = get_rules(body["rules"]).name
    rules = get_rules(sheet.rules)
    report = domain.audit(sheet)
    return dump_sheet(sheet), rules.name, [p.name for p in sheet.players], report


def _version_dict(v: MatchVersion, with_sheet: bool = True) -> dict[str, Any]:
    d: dict[str, Any] = {
        "version": v.version, "played_on": v.played_on, "place": v.place, "note": v.note,
        "reason": v.reason, "rule_set": v.rule_set, "players": list(v.players),
        "audit_ok": v.audit_ok, "created_at": v.created_at,
    }
    if with_sheet:
        d["sheet"] = v.sheet
    return d


def _games_summary(m: Match, v: MatchVersion) -> list[dict[str, Any]]:
    games = stats.games_of(stats.StoredMatch(m.id, v.version, v.played_on, v.place, v.sheet))
    return [{
        "game": g.game_no, "complete": g.complete,
        "scores": [{"player": e.name, "grand_total": e.totals.grand_total} for e in g.entries],
        "winners": sorted(e.name for e in g.entries
                          if stats.player_key(e.name) in g.winners()),
    } for g in games]


def _match_dict(m: Match, audit: dict[str, Any] | None = None) -> dict[str, Any]:
    v = m.current
    d = {"id": m.id, "group_id": m.group_id, **_version_dict(v), "versions": len(m.versions),
         "first_created_at": m.created_at, "games": _games_summary(m, v)}
    if audit is not None:
        d["audit"] = {"ok": audit.get("ok"), "verdict": audit.get("verdict"),
                      "counts": audit.get("counts"),
                      "findings": audit.get("findings")}
    return d


def _load_match(s: Session, group: Group, match_id: str) -> Match:
    m = s.get(Match, match_id, options=[selectinload(Match.versions)]) \
        if len(match_id) <= 64 else None
    if m is None or m.group_id != group.id:
        raise ApiError(404, ProblemCode.NOT_FOUND, "no such match in this group")
    return m


@blp.route("/groups/<string:group_id>/matches", methods=["POST"])
@write_limited
@blp.arguments(MatchInSchema)
@blp.response(201, MatchSchema)
@blp.doc(security=SECURITY)
def create_match(body: dict[str, Any], group_id: str) -> dict[str, Any]:
    """Store a sheet as a match (it is audited; the verdict is kept with it)."""
    stored, rule_set, players, report = _prepare(body)
    ok = bool(report.get("ok"))
    now = utcnow()
    with auth.opened_group(group_id, write=True) as (s, g):
        n = s.scalar(select(func.count()).select_from(Match).where(Match.group_id == g.id)) or 0
        if n >= int(current_app.config["MAX_MATCHES_PER_GROUP"]):
            raise ApiError(409, ProblemCode.GROUP_FULL, "this group holds the maximum number of matches")
        m = Match(id=_new_id(), group_id=g.id, current_version=1, created_at=now, updated_at=now)
        m.versions.append(MatchVersion(
            version=1, played_on=body["played_on"], place=body["place"], note=body["note"],
            reason=None, rule_set=rule_set, players=players, sheet=stored, audit_ok=ok,
            created_at=now))
        s.add(m)
        s.flush()
        return _match_dict(m, report)


@blp.route("/groups/<string:group_id>/matches", methods=["GET"])
@blp.arguments(MatchListQuerySchema, location="query")
@blp.response(200, MatchListSchema)
@blp.doc(security=SECURITY)
def list_matches(query: dict[str, Any], group_id: str) -> dict[str, Any]:
    """The group's matches, newest first (optionally those a player took part in)."""
    with auth.opened_group(group_id) as (s, g):
        rows = current_matches(s, g.id)
        items = []
        want = stats.player_key(query["player"]) if query.get("player") else None
        for m, v in rows:
            if want and want not in {stats.player_key(p) for p in v.players}:
                continue
            items.append({"id": m.id, "version": v.version, "played_on": v.played_on,
                          "place": v.place, "rule_set": v.rule_set, "players": list(v.players),
                          "audit_ok": v.audit_ok, "updated_at": m.updated_at})
        lim, off = query["limit"], query["offset"]
        return {"total": len(items), "limit": lim, "offset": off,
                "matches": items[off:off + lim]}


@blp.route("/groups/<string:group_id>/matches/<string:match_id>", methods=["GET"])
@blp.response(200, MatchSchema)
@blp.doc(security=SECURITY)
def get_match(group_id: str, match_id: str) -> dict[str, Any]:
    """One match as it stands now (its latest version)."""
    with auth.opened_group(group_id) as (s, g):
        return _match_dict(_load_match(s, g, match_id))


@blp.route("/groups/<string:group_id>/matches/<string:match_id>", methods=["PUT"])
@write_limited
@blp.arguments(MatchCorrectionSchema)
@blp.response(200, MatchSchema)
@blp.doc(security=SECURITY)
def correct_match(body: dict[str, Any], group_id: str, match_id: str) -> dict[str, Any]:
    """Correct a match: a new version; the earlier ones stay in its history."""
    stored, rule_set, players, report = _prepare(body)
    ok = bool(report.get("ok"))
    now = utcnow()
    with auth.opened_group(group_id, write=True) as (s, g):
        m = _load_match(s, g, match_id)
        if len(m.versions) >= int(current_app.config["MAX_VERSIONS_PER_MATCH"]):
            raise ApiError(409, ProblemCode.TOO_MANY_VERSIONS, "this match has the maximum number of "
                           "versions")
        new = m.current_version + 1
        m.versions.append(MatchVersion(
            version=new, played_on=body["played_on"], place=body["place"], note=body["note"],
            reason=body.get("reason"), rule_set=rule_set, players=players, sheet=stored,
            audit_ok=ok, created_at=now))
        m.current_version = new
        m.updated_at = now
        s.flush()
        return _match_dict(m, report)


@blp.route("/groups/<string:group_id>/matches/<string:match_id>", methods=["DELETE"])
@write_limited
@blp.response(204)
@blp.doc(security=SECURITY)
def delete_match(group_id: str, match_id: str) -> None:
    """Delete a match and its history."""
    with auth.opened_group(group_id, write=True) as (s, g):
        m = _load_match(s, g, match_id)
        s.delete(m)


@blp.route("/groups/<string:group_id>/matches/<string:match_id>/history", methods=["GET"])
@blp.response(200, HistorySchema)
@blp.doc(security=SECURITY)
def match_history(group_id: str, match_id: str) -> dict[str, Any]:
    """Every version of a match, oldest first, with the reason for each correction."""
    with auth.opened_group(group_id) as (s, g):
        m = _load_match(s, g, match_id)
        return {"id": m.id, "current_version": m.current_version,
                "versions": [_version_dict(v) for v in m.versions]}


# ---- statistics -----------------------------------------------------------------------------

def current_matches(s: Session, group_id: str) -> list[Any]:
    """(Match, its current MatchVersion) rows of a group, newest first."""
    return list(s.execute(
        select(Match, MatchVersion)
        .join(MatchVersion, (MatchVersion.match_id == Match.id)
              & (MatchVersion.version == Match.current_version))
        .where(Match.group_id == group_id)
        .order_by(MatchVersion.played_on.desc(), Match.created_at.desc(), Match.id)
    ).all())


def stored_matches(s: Session, group_id: str) -> list[stats.StoredMatch]:
    """The current version of every match of a group, as the statistics read it."""
    rows = s.execute(
        select(MatchVersion)
        .join(Match, (MatchVersion.match_id == Match.id)
              & (MatchVersion.version == Match.current_version))
        .where(Match.group_id == group_id)
    ).scalars()
    return [stats.StoredMatch(v.match_id, v.version, v.played_on, v.place, v.sheet)
            for v in rows]


def _games(group_id: str) -> tuple[Group, list[stats.GameRecord]]:
    with auth.opened_group(group_id) as (s, g):
        stored = stored_matches(s, g.id)
    try:
        return g, stats.all_games(stored)
    except SheetFormatError:  # pragma: no cover - stored sheets were validated
        raise ApiError(500, ProblemCode.INTERNAL_ERROR, "a stored sheet no longer loads") from None


@blp.route("/groups/<string:group_id>/stats", methods=["GET"])
@blp.response(200, StatsSchema)
@blp.doc(security=SECURITY)
def group_stats(group_id: str) -> dict[str, Any]:
    """Statistics of the whole group and of each player, from the stored games."""
    g, games = _games(group_id)
    return {"group": g.id, **stats.group_summary(games)}


@blp.route("/groups/<string:group_id>/players/<string:name>/stats", methods=["GET"])
@blp.response(200, StatsSchema)
@blp.doc(security=SECURITY)
def player_stats(group_id: str, name: str) -> dict[str, Any]:
    """One player's statistics (names match case-insensitively)."""
    g, games = _games(group_id)
    players = stats.per_player(games)
    ps = players.get(stats.player_key(name))
    if ps is None:
        raise ApiError(404, ProblemCode.UNKNOWN_PLAYER, "no finished game of this player in the group")
    d = ps.to_dict()
    d["head_to_head"] = stats.head_to_head(games, a=name)
    return d


@blp.route("/groups/<string:group_id>/leaderboard", methods=["GET"])
@blp.arguments(LeaderboardQuerySchema, location="query")
@blp.response(200, LeaderboardSchema)
@blp.doc(security=SECURITY)
def leaderboard(query: dict[str, Any], group_id: str) -> dict[str, Any]:
    """Players ranked by wins (or another figure); equal values share a rank."""
    _, games = _games(group_id)
    return {"by": query["by"],
            "rows": stats.leaderboard(games, query["by"], query["min_games"])}


@blp.route("/groups/<string:group_id>/head-to-head", methods=["GET"])
@blp.arguments(HeadToHeadQuerySchema, location="query")
@blp.response(200, HeadToHeadSchema)
@blp.doc(security=SECURITY)
def head_to_head(query: dict[str, Any], group_id: str) -> dict[str, Any]:
    """Pairwise records of players in the games they played together."""
    _, games = _games(group_id)
    return {"records": stats.head_to_head(games, query.get("a"), query.get("b"))}


# ---- export, backup, import ---------------------------------------------------------------

CSV_COLUMNS = (["match_id", "version", "played_on", "place", "rule_set", "game", "complete",
                "player", "grand_total", "rank", "won"]
               + ["upper_subtotal", "upper_bonus", "upper_total", "yahtzee_bonus_checks",
                  "yahtzee_bonus", "lower_total"]
               + [b.value for b in ALL_BOXES])


def _cell(value: Any) -> Any:
    """Keep spreadsheet programs from running text as a formula (CSV injection)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value


@blp.route("/groups/<string:group_id>/export.csv", methods=["GET"])
@blp.response(200, description="one row per game per player",
              content_type="text/csv")
@blp.doc(security=SECURITY)
def export_csv(group_id: str) -> Response:
    """The group's games as CSV: one row per game per player."""
    _, games = _games(group_id)
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
            w.writerow([_cell(c) for c in row])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition":
                             f'attachment; filename="scorepad-{group_id}.csv"'})


def backup_of(s: Session, g: Group) -> dict[str, Any]:
    matches = s.execute(
        select(Match).where(Match.group_id == g.id).options(selectinload(Match.versions))
        .order_by(Match.created_at, Match.id)
    ).scalars().all()
    return {
        "format": BACKUP_FORMAT,
        "exported_at": _iso(utcnow()),
        "group": {"id": g.id, "name": g.name, "token_hash": g.token_hash,
                  "created_at": _iso(g.created_at)},
        "matches": [{
            "id": m.id, "current_version": m.current_version,
            "created_at": _iso(m.created_at), "updated_at": _iso(m.updated_at),
            "versions": [{
                "version": v.version,
                "played_on": v.played_on.isoformat() if v.played_on else None,
                "place": v.place, "note": v.note, "reason": v.reason, "rule_set": v.rule_set,
                "players": list(v.players), "audit_ok": v.audit_ok,
                "created_at": _iso(v.created_at), "sheet": v.sheet,
            } for v in m.versions],
        } for m in matches],
    }


@blp.route("/groups/<string:group_id>/backup", methods=["GET"])
@blp.response(200, BackupSchema)
@blp.doc(security=SECURITY)
def backup(group_id: str) -> Any:
    """Everything about the group, as JSON that POST /api/v1/backups restores."""
    with auth.opened_group(group_id) as (s, g):
        data = backup_of(s, g)
    return current_app.response_class(
        current_app.json.dumps(data), mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="scorepad-{group_id}.json"'})


def restore(s: Session, data: dict[str, Any]) -> Group:
    """Insert a validated backup (BackupSchema.load output); 409 if the group exists."""
    gd = data["group"]
    if s.get(Group, gd["id"]) is not None:
        raise ApiError(409, ProblemCode.GROUP_EXISTS, "this group is already in the database")
    g = Group(id=gd["id"], name=gd["name"], token_hash=gd["token_hash"],
              created_at=_naive(gd["created_at"]))
    s.add(g)
    errors: list[tuple[str, str]] = []
    for i, md in enumerate(data["matches"]):
        versions = sorted(md["versions"], key=lambda v: v["version"])
        numbers = [v["version"] for v in versions]
        if len(set(numbers)) != len(numbers) or md["current_version"] not in numbers:
            errors.append((f"$.matches[{i}].versions", "versions must be distinct and include "
                           "current_version"))
            continue
        m = Match(id=md["id"], group_id=g.id, current_version=md["current_version"],
                  created_at=_naive(md["created_at"]), updated_at=_naive(md["updated_at"]))
        for j, vd in enumerate(versions):
            try:
                load_sheet(vd["sheet"])
            except SheetFormatError as exc:
                errors += [(f"$.matches[{i}].versions[{j}].sheet{p[1:]}", msg)
                           for p, msg in exc.errors]
                continue
            m.versions.append(MatchVersion(
                version=vd["version"], played_on=vd["played_on"], place=vd["place"],
                note=vd["note"], reason=vd["reason"], rule_set=vd["rule_set"],
                players=list(vd["players"]), sheet=vd["sheet"], audit_ok=vd["audit_ok"],
                created_at=_naive(vd["created_at"])))
        s.add(m)
    if errors:
        raise ApiError(422, ProblemCode.VALIDATION_FAILED, "the backup does not validate", errors=errors)
    return g


def _naive(d: dt.datetime) -> dt.datetime:
    if d.tzinfo is not None:
        d = d.astimezone(dt.UTC).replace(tzinfo=None)
    return d.replace(microsecond=0)


@blp.route("/backups", methods=["POST"])
@write_limited
@blp.arguments(BackupSchema)
@blp.response(201, GroupSchema)
@blp.doc(security=SECURITY)
def import_group(body: dict[str, Any]) -> dict[str, Any]:
    """Restore a group from its backup; the token must be the group's own token."""
    token = auth.bearer_token()
    if auth.hash_token(token) != body["group"]["token_hash"]:
        raise ApiError(403, ProblemCode.TOKEN_MISMATCH, "the token is not this backup's group token")
    try:
        with writing() as s:
            g = restore(s, body)
            return {"id": g.id, "name": g.name, "created_at": g.created_at,
                    "matches": len(body["matches"])}
    except IntegrityError:
        raise ApiError(409, ProblemCode.CONFLICT, "the backup collides with stored data") from None
