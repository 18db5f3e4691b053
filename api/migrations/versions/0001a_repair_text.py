"""repair text stored before the edge refused it (issue 13)

Before issue 13 a request could store text no response can send and PostgreSQL cannot
hold: lone UTF-16 surrogates (every read of the group then failed) and NUL; and a custom
rule set could take a built-in rule set's name. This repairs the stored rows:

* each lone surrogate and each NUL in a group's name, a version's place, note, reason,
  rule-set name, players and sheet (every string, keys too) becomes U+FFFD (the Unicode
  replacement character: the length stays within the limits); players whose names then
  coincide get " (2)", " (3)"... so that the sheet still loads;
* a custom rule set named like a built-in one (``hasbro``, ``official``...) is renamed
  ``custom-NAME`` in the sheet and in the version's ``rule_set``.

It runs before the statistics back-fill (0002_stats), which reads the repaired sheets.
Nothing to undo: the downgrade keeps the repaired text.

Revision ID: 0001a_repair_text
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001a_repair_text"
down_revision = "0001"
branch_labels = None
depends_on = None

_BAD = re.compile("[\x00\ud800-\udfff]")
# The built-in rule sets' names and aliases when this was written (frozen here on purpose).
BUILTIN_NAMES = frozenset({
    "hasbro", "official", "forced", "milton-bradley", "default",
    "classic", "priority", "yahtzee-classic",
    "travel", "conditional", "travel-yahtzee", "yardzee",
})
MAX_NAME = 64


def repair_text(text: str) -> str:
    return _BAD.sub("\ufffd", text)


def repair(value: Any) -> Any:
    """Every string of a JSON value (keys too) repaired; the value itself if nothing changes."""
    if isinstance(value, str):
        return repair_text(value)
    if isinstance(value, list):
        return [repair(v) for v in value]
    if isinstance(value, dict):
        return {repair_text(k) if isinstance(k, str) else k: repair(v) for k, v in value.items()}
    return value


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _distinct(names: list[str]) -> list[str]:
    """Names made distinct again (by player key) after the repair."""
    seen: set[str] = set()
    out = []
    for name in names:
        n, candidate = 1, name
        while _key(candidate) in seen:
            n += 1
            suffix = f" ({n})"
            candidate = name[:MAX_NAME - len(suffix)] + suffix
        seen.add(_key(candidate))
        out.append(candidate)
    return out


def repair_sheet(sheet: Any) -> Any:
    """A stored sheet with its text repaired, its players distinct and no built-in name taken
    by its custom rule set."""
    fixed = repair(sheet)
    if not isinstance(fixed, dict):
        return fixed
    players = fixed.get("players")
    if isinstance(players, list) and all(isinstance(p, dict) and isinstance(p.get("name"), str)
                                         for p in players):
        original = [p["name"] for p in players]
        if len({_key(n) for n in original}) < len(original):
            for p, name in zip(players, _distinct(original), strict=True):
                p["name"] = name
    rules = fixed.get("rules")
    if isinstance(rules, dict) and isinstance(rules.get("name"), str) \
            and rules["name"].strip().lower() in BUILTIN_NAMES:
        rules["name"] = "custom-" + rules["name"].strip().lower()
    return fixed


def upgrade() -> None:
    bind = op.get_bind()
    groups = sa.table("groups", sa.column("id", sa.String), sa.column("name", sa.String))
    versions = sa.table(
        "match_versions", sa.column("id", sa.Integer), sa.column("place", sa.String),
        sa.column("note", sa.Text), sa.column("reason", sa.String),
        sa.column("rule_set", sa.String), sa.column("players", sa.JSON),
        sa.column("sheet", sa.JSON))
    for gid, name in bind.execute(sa.select(groups.c.id, groups.c.name)).all():
        if name is not None and repair_text(name) != name:
            bind.execute(groups.update().where(groups.c.id == gid)
                         .values(name=repair_text(name)))
    rows = bind.execute(sa.select(versions.c.id, versions.c.place, versions.c.note,
                                  versions.c.reason, versions.c.rule_set, versions.c.sheet,
                                  versions.c.players)).all()
    for vid, place, note, reason, rule_set, sheet, players in rows:
        new_sheet = repair_sheet(sheet)
        changes: dict[str, Any] = {}
        for column, value in (("place", place), ("note", note), ("reason", reason),
                              ("rule_set", rule_set)):
            if value is not None and repair_text(value) != value:
                changes[column] = repair_text(value)
        if new_sheet != sheet:
            changes["sheet"] = new_sheet
            if isinstance(new_sheet, dict) and isinstance(new_sheet.get("players"), list):
                changes["players"] = [p.get("name") for p in new_sheet["players"]
                                      if isinstance(p, dict)]
            rules = new_sheet.get("rules") if isinstance(new_sheet, dict) else None
            if isinstance(rules, dict) and isinstance(rules.get("name"), str):
                changes["rule_set"] = rules["name"]
        elif players != repair(players):
            changes["players"] = repair(players)
        if changes:
            bind.execute(versions.update().where(versions.c.id == vid).values(**changes))


def downgrade() -> None:
    pass  # the repaired text stays repaired
