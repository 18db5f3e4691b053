"""Storage: every query and write of groups, matches and their versions (SQLAlchemy).

The views (``api.groups``, the web pages in ``api.web``) and the CLI (``scorepad db
export/import``) read and write through these functions; none of them builds SQL.
Each function takes the session the caller opened (``auth.opened_group``,
``db.reading``/``db.writing``), so a request is still one transaction.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from scorepad import stats
from scorepad.games import YAHTZEE
from scorepad.games.dispatch import UnknownGame, game_of, load_other
from scorepad.schemas import SheetFormatError, load_sheet

from . import aggregates
from .db import Group, Match, MatchVersion, utcnow
from .errors import ApiError, ProblemCode
from .schemas import BACKUP_FORMAT, BackupSchema


def new_id() -> str:
    return uuid.uuid4().hex


def iso(d: dt.datetime) -> str:
    """Naive UTC from the database -> RFC 3339 with its offset."""
    return d.replace(microsecond=0, tzinfo=dt.UTC).isoformat()


def naive(d: dt.datetime) -> dt.datetime:
    """An aware date-time -> naive UTC, as the database keeps it."""
    if d.tzinfo is not None:
        d = d.astimezone(dt.UTC).replace(tzinfo=None)
    return d.replace(microsecond=0)


# ---- groups ---------------------------------------------------------------------------------

def add_group(s: Session, name: str, token_hash: str) -> Group:
    g = Group(id=new_id(), name=name, token_hash=token_hash, created_at=utcnow())
    s.add(g)
    return g


def count_matches(s: Session, group_id: str) -> int:
    return s.scalar(select(func.count()).select_from(Match)
                    .where(Match.group_id == group_id)) or 0


# ---- matches --------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class VersionData:
    """What a new version of a match stores (the sheet as validated and dumped)."""

    played_on: dt.date | None
    place: str | None
    note: str | None
    reason: str | None
    rule_set: str
    players: list[str]
    sheet: dict[str, Any]
    audit_ok: bool
    game: str = YAHTZEE  # the sheet's game (scorepad.games.GAMES)

    def row(self, version: int, now: dt.datetime) -> MatchVersion:
        return MatchVersion(
            version=version, played_on=self.played_on, place=self.place, note=self.note,
            reason=self.reason, rule_set=self.rule_set, players=self.players, sheet=self.sheet,
            audit_ok=self.audit_ok, created_at=now)


def add_match(s: Session, g: Group, data: VersionData, max_matches: int) -> Match:
    """A new match (version 1) in the group; 409 GROUP_FULL at ``max_matches``."""
    if count_matches(s, g.id) >= max_matches:
        raise ApiError(409, ProblemCode.GROUP_FULL, "this group holds the maximum number of matches")
    now = utcnow()
    m = Match(id=new_id(), group_id=g.id, current_version=1, created_at=now, updated_at=now,
              game=data.game)
    m.versions.append(data.row(1, now))
    s.add(m)
    s.flush()
    aggregates.sync_match(s, g.id, m.id, m)
    return m


def add_version(s: Session, m: Match, data: VersionData, max_versions: int) -> Match:
    """A correction: a new current version (the earlier ones stay); 409 at ``max_versions``;
    422 when the sheet is of another game than the match's."""
    if data.game != m.game:
        raise ApiError(422, ProblemCode.VALIDATION_FAILED, "the request does not validate",
                       errors=[("$.sheet.game", f"a correction keeps the match's game: {m.game}")])
    if len(m.versions) >= max_versions:
        raise ApiError(409, ProblemCode.TOO_MANY_VERSIONS, "this match has the maximum number of "
                       "versions")
    now = utcnow()
    new = m.current_version + 1
    m.versions.append(data.row(new, now))
    m.current_version = new
    m.updated_at = now
    s.flush()
    aggregates.sync_match(s, m.group_id, m.id, m)
    return m


def load_match(s: Session, group: Group, match_id: str) -> Match:
    """A match of the group, with its versions; 404 if the group has no such match."""
    m = s.get(Match, match_id, options=[selectinload(Match.versions)]) \
        if len(match_id) <= 64 else None
    if m is None or m.group_id != group.id:
        raise ApiError(404, ProblemCode.NOT_FOUND, "no such match in this group")
    return m


def delete_match(s: Session, m: Match) -> None:
    aggregates.sync_match(s, m.group_id, m.id, None)
    s.delete(m)


def sheet_errors(sheet: Any) -> tuple[str, list[tuple[str, str]]]:
    """(the game a stored sheet names, its format errors: JSON paths from the sheet)."""
    try:
        game = game_of(sheet)
        if game == YAHTZEE:
            load_sheet(sheet)
        else:
            load_other(game, sheet)
    except UnknownGame as exc:
        return YAHTZEE, exc.errors
    except SheetFormatError as exc:
        return game, exc.errors
    return game, []


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
    """The current version of every Yahtzee match of a group, as the statistics read it."""
    rows = s.execute(
        select(MatchVersion)
        .join(Match, (MatchVersion.match_id == Match.id)
              & (MatchVersion.version == Match.current_version))
        .where(Match.group_id == group_id, Match.game == YAHTZEE)
    ).scalars()
    return [stats.StoredMatch(v.match_id, v.version, v.played_on, v.place, v.sheet)
            for v in rows]


# ---- backup and restore ---------------------------------------------------------------------

@dataclasses.dataclass
class Backup:
    """Everything about a group, as ``BackupSchema`` dumps it (``restore`` reads it back)."""

    group: Group
    matches: list[Match]
    exported_at: dt.datetime = dataclasses.field(default_factory=utcnow)
    format: str = BACKUP_FORMAT


def backup(s: Session, g: Group) -> Backup:
    """The group and its matches, each with every version, oldest match first."""
    matches = s.execute(
        select(Match).where(Match.group_id == g.id).options(selectinload(Match.versions))
        .order_by(Match.created_at, Match.id)
    ).scalars().all()
    return Backup(g, list(matches))


def backup_of(s: Session, g: Group) -> dict[str, Any]:
    """The group's backup as JSON-ready data (``scorepad db export``)."""
    data: dict[str, Any] = BackupSchema().dump(backup(s, g))
    return data


def restore(s: Session, data: dict[str, Any], *, new_ids: bool = False) -> Group:
    """Insert a validated backup (BackupSchema.load output); 409 if the group exists.

    ``new_ids`` (the API): the group and its matches get new ids (the matches' in the same
    order), so that the answer never depends on whether some other group's ids exist; only
    the group's token, unique, makes restoring the same backup twice a conflict."""
    gd = data["group"]
    ids = {md["id"]: md["id"] for md in data["matches"]}
    if new_ids:
        ids = dict(zip(sorted(ids), sorted(new_id() for _ in ids), strict=True))
        gd = {**gd, "id": new_id()}
    elif s.get(Group, gd["id"]) is not None:
        raise ApiError(409, ProblemCode.GROUP_EXISTS, "this group is already in the database")
    g = Group(id=gd["id"], name=gd["name"], token_hash=gd["token_hash"],
              created_at=naive(gd["created_at"]))
    s.add(g)
    errors: list[tuple[str, str]] = []
    for i, md in enumerate(data["matches"]):
        versions = sorted(md["versions"], key=lambda v: v["version"])
        numbers = [v["version"] for v in versions]
        if len(set(numbers)) != len(numbers) or md["current_version"] not in numbers:
            errors.append((f"$.matches[{i}].versions", "versions must be distinct and include "
                           "current_version"))
            continue
        m = Match(id=ids[md["id"]], group_id=g.id, current_version=md["current_version"],
                  created_at=naive(md["created_at"]), updated_at=naive(md["updated_at"]))
        games: set[str] = set()
        for j, vd in enumerate(versions):
            game, bad = sheet_errors(vd["sheet"])
            if bad:
                errors += [(f"$.matches[{i}].versions[{j}].sheet{p[1:]}", msg)
                           for p, msg in bad]
                continue
            games.add(game)
            m.game = game
            m.versions.append(MatchVersion(
                version=vd["version"], played_on=vd["played_on"], place=vd["place"],
                note=vd["note"], reason=vd["reason"], rule_set=vd["rule_set"],
                players=list(vd["players"]), sheet=vd["sheet"], audit_ok=vd["audit_ok"],
                created_at=naive(vd["created_at"])))
        if len(games) > 1:
            errors.append((f"$.matches[{i}].versions", "every version of a match is of one "
                           "game"))
        s.add(m)
    if errors:
        raise ApiError(422, ProblemCode.VALIDATION_FAILED, "the backup does not validate", errors=errors)
    s.flush()
    aggregates.rebuild_group(s, g.id)
    return g
