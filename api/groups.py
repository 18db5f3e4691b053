"""Groups, their matches (with correction history), statistics, CSV export and backups.

Thin views: the request is shaped by ``@blp.arguments``, the answer by ``@blp.response``
(``api.schemas``); queries and writes are in ``api.storage``, the CSV in ``api.export``.
"""

# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Response, current_app, stream_with_context
from flask.views import MethodView
from marshmallow import missing
from sqlalchemy.exc import IntegrityError

from scorepad import stats
from scorepad.card import Sheet
from scorepad.games import YAHTZEE
from scorepad.games.dispatch import check_other, game_of
from scorepad.games.groupstats import board_games
from scorepad.rules import get_rules
from scorepad.schemas import dump_sheet

from . import auth, boardstats, domain, export, statsread, storage
from .blueprint import Blueprint
from .db import Group, Match, MatchVersion, writing
from .errors import ApiError, ProblemCode
from .limits import method_write_limited, write_limited
from .schemas import (
    BackupSchema,
    GroupCreatedSchema,
    GroupCreateSchema,
    GroupSchema,
    HistorySchema,
    MatchCorrectionSchema,
    MatchInSchema,
    MatchListQuerySchema,
    MatchListSchema,
    MatchSchema,
)
from .shape import json_text
from .statschemas import (
    BOARD_LEADERBOARD_KEYS,
    GameQuerySchema,
    HeadToHeadQuerySchema,
    HeadToHeadSchema,
    LeaderboardQuerySchema,
    LeaderboardSchema,
    PlayerStatsSchema,
    StatsQuerySchema,
    StatsSchema,
)

blp = Blueprint("groups", __name__, description="Groups, matches, statistics, export")
SECURITY: list[dict[str, list[str]]] = [{"groupToken": []}]


@dataclasses.dataclass
class GroupOut:
    """A group as GroupSchema dumps it (and GroupCreatedSchema, with its token)."""

    group: Group
    matches: int
    token: Any = missing

    def __getattr__(self, name: str) -> Any:
        return getattr(self.group, name)


@dataclasses.dataclass
class MatchOut:
    """A match as MatchSchema dumps it: the fields of its current version, then its own."""

    match: Match
    audit: Any = missing  # the audit Report of the sheet just written

    def __getattr__(self, name: str) -> Any:
        return getattr(self.match.current, name)

    @property
    def id(self) -> str:
        return self.match.id

    @property
    def group_id(self) -> str:
        return self.match.group_id

    @property
    def versions(self) -> int:
        return len(self.match.versions)

    @property
    def first_created_at(self) -> Any:
        return self.match.created_at

    @property
    def games(self) -> list[dict[str, Any]]:
        return _games_summary(self.match, self.match.current)

    @property
    def game(self) -> Any:
        return _game_field(self.match)


def _game_field(m: Match) -> Any:
    """A match's ``game`` in answers: a SCRABBLE or SORRY! match's (a Yahtzee match, as its
    sheet, names none)."""
    return missing if m.game == YAHTZEE else m.game


def _games_summary(m: Match, v: MatchVersion) -> list[dict[str, Any]]:
    if m.game != YAHTZEE:
        return [{
            "game": g.game_no, "complete": g.complete,
            "scores": [{"player": p.name, "score": p.score} for p in g.players],
            "winners": sorted(p.name for p in g.players if p.won),
        } for g in board_games(m.game, v.sheet)]
    games = stats.games_of(stats.StoredMatch(m.id, v.version, v.played_on, v.place, v.sheet))
    return [{
        "game": g.game_no, "complete": g.complete,
        "scores": [{"player": e.name, "grand_total": e.totals.grand_total} for e in g.entries],
        "winners": sorted(e.name for e in g.entries
                          if stats.player_key(e.name) in g.winners()),
    } for g in games]


# ---- groups ---------------------------------------------------------------------------------

@blp.route("/groups", methods=["POST"])
@write_limited
@blp.arguments(GroupCreateSchema)
@blp.response(201, GroupCreatedSchema)
def create_group(body: dict[str, Any]) -> GroupOut:
    """Create a group; its token is in this response and nowhere else, ever."""
    token = auth.new_token()
    with writing() as s:
        g = storage.add_group(s, body["name"], auth.hash_token(token))
    return GroupOut(g, 0, token)


@blp.route("/groups/<string:group_id>", methods=["GET"])
@blp.response(200, GroupSchema)
@blp.doc(security=SECURITY)
def get_group(group_id: str) -> GroupOut:
    """The group the token opens."""
    with auth.opened_group(group_id) as (s, g):
        return GroupOut(g, storage.count_matches(s, g.id))


# ---- matches --------------------------------------------------------------------------------

def _prepare(body: dict[str, Any], reason: str | None = None) -> tuple[storage.VersionData, Any]:
    """Validated body -> (the version to store, the sheet's audit Report)."""
    sheet = body["sheet"]
    if not isinstance(sheet, Sheet):
        return _prepare_other(body, sheet, reason)
    if body.get("rules"):
        sheet.rules = get_rules(body["rules"]).name
    rules = get_rules(sheet.rules)
    report = domain.audit(sheet)
    data = storage.VersionData(
        played_on=body["played_on"], place=body["place"], note=body["note"], reason=reason,
        rule_set=rules.name, players=[p.name for p in sheet.players], sheet=dump_sheet(sheet),
        audit_ok=report.ok)
    return data, report


def _prepare_other(body: dict[str, Any], sheet: Any, reason: str | None
                   ) -> tuple[storage.VersionData, Any]:
    """A SCRABBLE or SORRY! sheet: checked with its game's rules (the sheet's own)."""
    if body.get("rules"):
        raise ApiError(422, ProblemCode.VALIDATION_FAILED, "the request does not validate",
                       errors=[("$.rules", "a SCRABBLE or SORRY! sheet names its own rules "
                                "(its rules field)")])
    report = check_other(sheet)
    dumped = sheet.to_dict()
    names: dict[str, str] = {}
    for g in sheet.games:
        for p in g.players:
            names.setdefault(stats.player_key(p.name), p.name)
    data = storage.VersionData(
        played_on=body["played_on"], place=body["place"], note=body["note"], reason=reason,
        rule_set=report.rule_set.name, players=list(names.values()), sheet=dumped,
        audit_ok=report.ok, game=game_of(dumped))
    audit = {"ok": report.ok, "verdict": report.verdict, "counts": report.counts(),
             "findings": [f.to_dict() for f in report.findings]}
    return data, audit


def _config(name: str) -> int:
    return int(current_app.config[name])


@blp.route("/groups/<string:group_id>/matches")
class Matches(MethodView):
    @method_write_limited
    @blp.arguments(MatchInSchema)
    @blp.response(201, MatchSchema)
    @blp.doc(security=SECURITY)
    def post(self, body: dict[str, Any], group_id: str) -> MatchOut:
        """Store a sheet as a match (it is audited; the verdict is kept with it)."""
        data, report = _prepare(body)
        with auth.opened_group(group_id, write=True) as (s, g):
            m = storage.add_match(s, g, data, _config("MAX_MATCHES_PER_GROUP"))
            return MatchOut(m, report)

    @blp.arguments(MatchListQuerySchema, location="query")
    @blp.response(200, MatchListSchema)
    @blp.doc(security=SECURITY)
    def get(self, query: dict[str, Any], group_id: str) -> dict[str, Any]:
        """The group's matches, newest first (optionally those a player took part in, or
        those of one game)."""
        lim, off = query["limit"], query["offset"]
        with auth.opened_group(group_id) as (s, g):
            total, rows = statsread.match_page(s, g.id, lim, off, query.get("player"),
                                               query.get("game"))
            return {"total": total, "limit": lim, "offset": off,
                    "matches": [MatchSummaryOut(v, m) for m, v in rows]}


@dataclasses.dataclass
class MatchSummaryOut:
    """A match in a list (MatchSummarySchema): its current version, its id and update time."""

    current: MatchVersion
    match: Match

    def __getattr__(self, name: str) -> Any:
        return getattr(self.current, name)

    @property
    def id(self) -> str:
        return self.match.id

    @property
    def updated_at(self) -> Any:
        return self.match.updated_at

    @property
    def game(self) -> Any:
        return _game_field(self.match)


@blp.route("/groups/<string:group_id>/matches/<string:match_id>")
class MatchResource(MethodView):
    @blp.response(200, MatchSchema)
    @blp.doc(security=SECURITY)
    def get(self, group_id: str, match_id: str) -> MatchOut:
        """One match as it stands now (its latest version)."""
        with auth.opened_group(group_id) as (s, g):
            return MatchOut(storage.load_match(s, g, match_id))

    @method_write_limited
    @blp.arguments(MatchCorrectionSchema)
    @blp.response(200, MatchSchema)
    @blp.doc(security=SECURITY)
    def put(self, body: dict[str, Any], group_id: str, match_id: str) -> MatchOut:
        """Correct a match: a new version; the earlier ones stay in its history."""
        data, report = _prepare(body, body.get("reason"))
        with auth.opened_group(group_id, write=True) as (s, g):
            m = storage.load_match(s, g, match_id)
            storage.add_version(s, m, data, _config("MAX_VERSIONS_PER_MATCH"))
            return MatchOut(m, report)

    @method_write_limited
    @blp.response(204)
    @blp.doc(security=SECURITY)
    def delete(self, group_id: str, match_id: str) -> None:
        """Delete a match and its history."""
        with auth.opened_group(group_id, write=True) as (s, g):
            storage.delete_match(s, storage.load_match(s, g, match_id))


@blp.route("/groups/<string:group_id>/matches/<string:match_id>/history", methods=["GET"])
@blp.response(200, HistorySchema)
@blp.doc(security=SECURITY)
def match_history(group_id: str, match_id: str) -> Match:
    """Every version of a match, oldest first, with the reason for each correction."""
    with auth.opened_group(group_id) as (s, g):
        return storage.load_match(s, g, match_id)


# ---- statistics -----------------------------------------------------------------------------

@blp.route("/groups/<string:group_id>/stats", methods=["GET"])
@blp.arguments(StatsQuerySchema, location="query")
@blp.response(200, StatsSchema)
@blp.doc(security=SECURITY)
def group_stats(query: dict[str, Any], group_id: str) -> dict[str, Any]:
    """Statistics of the whole group and of each player (a page of the players, by name),
    from the stored games of one game (``game``, default yahtzee)."""
    lim, off = query["limit"], query["offset"]
    with auth.opened_group(group_id) as (s, g):
        if query["game"] != YAHTZEE:
            summary = boardstats.group_summary(s, g.id, query["game"], lim, off)
        else:
            summary = statsread.group_summary(s, g.id, lim, off)
    return {"group": g.id, **summary, "limit": lim, "offset": off}


@blp.route("/groups/<string:group_id>/players/<string:name>/stats", methods=["GET"])
@blp.arguments(GameQuerySchema, location="query")
@blp.response(200, PlayerStatsSchema)
@blp.doc(security=SECURITY)
def player_stats(query: dict[str, Any], group_id: str, name: str) -> dict[str, Any]:
    """One player's statistics in one game (``game``, default yahtzee; names match
    case-insensitively)."""
    game = query["game"]
    with auth.opened_group(group_id) as (s, g):
        if game != YAHTZEE:
            key = stats.player_key(name)
            board = boardstats.players(s, g.id, game, key).get(key)
            if board is None:
                raise ApiError(404, ProblemCode.UNKNOWN_PLAYER,
                               f"no finished {game} game of this player in the group")
            return {**board, "game": game}
        d = statsread.player(s, g.id, name)
        if d is None:
            raise ApiError(404, ProblemCode.UNKNOWN_PLAYER,
                           "no finished game of this player in the group")
        d["head_to_head"] = statsread.head_to_head(s, g.id, a=name)
    return d


@blp.route("/groups/<string:group_id>/leaderboard", methods=["GET"])
@blp.arguments(LeaderboardQuerySchema, location="query")
@blp.response(200, LeaderboardSchema)
@blp.doc(security=SECURITY)
def leaderboard(query: dict[str, Any], group_id: str) -> dict[str, Any]:
    """Players ranked by wins (or another figure) in one game (``game``, default yahtzee);
    equal values share a rank. A figure the game does not have ranks nobody."""
    game, by = query["game"], query["by"]
    with auth.opened_group(group_id) as (s, g):
        if by not in BOARD_LEADERBOARD_KEYS.get(game, stats.LEADERBOARD_KEYS):
            rows = []  # not a figure of this game: nobody has it
        elif game != YAHTZEE:
            figures = boardstats.players(s, g.id, game).values()
            rows = stats.rank_players(figures, by, query["min_games"])
        else:
            rows = statsread.leaderboard(s, g.id, by, query["min_games"])
    lim, off = query["limit"], query["offset"]
    extra = {"game": game} if game != YAHTZEE else {}
    return {"by": by, **extra, "total": len(rows), "limit": lim, "offset": off,
            "rows": rows[off:off + lim]}


@blp.route("/groups/<string:group_id>/head-to-head", methods=["GET"])
@blp.arguments(HeadToHeadQuerySchema, location="query")
@blp.response(200, HeadToHeadSchema)
@blp.doc(security=SECURITY)
def head_to_head(query: dict[str, Any], group_id: str) -> dict[str, Any]:
    """Pairwise records of players in the games they played together."""
    with auth.opened_group(group_id) as (s, g):
        recs = statsread.head_to_head(s, g.id, query.get("a"), query.get("b"))
    lim, off = query["limit"], query["offset"]
    return {"total": len(recs), "limit": lim, "offset": off, "records": recs[off:off + lim]}


# ---- export, backup, import ---------------------------------------------------------------

@blp.route("/groups/<string:group_id>/export.csv", methods=["GET"])
@blp.arguments(GameQuerySchema, location="query")
@blp.response(200, description="one row per game per player",
              content_type="text/csv")
@blp.doc(security=SECURITY)
def export_csv(query: dict[str, Any], group_id: str) -> Response:
    """The group's games of one game (``game``, default yahtzee) as CSV: one row per game
    per player (streamed)."""
    with auth.opened_group(group_id) as (_, g):
        gid = g.id
    return Response(stream_with_context(export.csv_stream(gid, query["game"])),
                    mimetype="text/csv",
                    headers={"Content-Disposition":
                             f'attachment; filename="scorepad-{group_id}.csv"'})


@blp.route("/groups/<string:group_id>/backup", methods=["GET"])
@blp.response(200, BackupSchema, write=json_text)
@blp.doc(security=SECURITY)
def backup(group_id: str) -> tuple[storage.Backup, dict[str, str]]:
    """Everything about the group, as JSON that POST /api/v1/backups restores."""
    with auth.opened_group(group_id) as (s, g):
        return storage.backup(s, g), {
            "Content-Disposition": f'attachment; filename="scorepad-{group_id}.json"'}


@blp.route("/backups", methods=["POST"])
@write_limited
@blp.arguments(BackupSchema)
@blp.response(201, GroupSchema)
@blp.doc(security=SECURITY)
def import_group(body: dict[str, Any]) -> GroupOut:
    """Restore a group from its backup; the token must be the group's own token.

    The restored group and its matches get new ids (the answer's ``id``; the token stays):
    whether ids exist in the database is never told. Restoring a backup whose token is in use
    is 409. ``scorepad db import`` keeps the backup's ids."""
    token = auth.bearer_token()
    if not auth.is_group_token(token):
        raise ApiError(401, ProblemCode.TOKEN_INVALID, "this is not a group token",
                       headers={"WWW-Authenticate": 'Bearer realm="scorepad", '
                                'error="invalid_token"'})
    if auth.hash_token(token) != body["group"]["token_hash"]:
        raise ApiError(403, ProblemCode.TOKEN_MISMATCH, "the token is not this backup's group token")
    try:
        with writing() as s:
            g = storage.restore(s, body, new_ids=True)
            return GroupOut(g, len(body["matches"]))
    except IntegrityError:
        raise ApiError(409, ProblemCode.CONFLICT, "the backup collides with stored data") from None
