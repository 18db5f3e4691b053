"""The on-screen pad: its rows (the 001 pad's order), form fields <-> sheet JSON."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scorepad.boxes import TotalField
from scorepad.padrows import PadRow, pad_rows
from scorepad.sheetspec import (
    CHECKS_KEY,
    FORMAT,
    MAX_GAMES,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_TITLE,
    MAX_VALUE,
    MIN_VALUE,
)

# The form takes what the sheet format takes (scorepad.sheetspec): the templates get these.
LIMITS = {"max_players": MAX_PLAYERS, "min_value": MIN_VALUE, "max_value": MAX_VALUE, "max_name": MAX_NAME,
          "max_title": MAX_TITLE, "value_chars": len(str(MIN_VALUE))}

Row = PadRow
ROWS: tuple[Row, ...] = pad_rows()  # under the default rules; rows(rules) for a rule set's hints


def rows(rules: Any = None) -> tuple[Row, ...]:
    """The pad's rows with the rule set's numbers in the hints (the default rules if unknown)."""
    try:
        return pad_rows(rules)
    except (KeyError, ValueError):  # an unknown or malformed rule set: the default's hints
        return ROWS


ROW_KEYS = {r.key for r in ROWS}
TOTAL_KEYS = {t.value for t in TotalField}
FIELD_LABELS = {r.key: (TotalField(r.key).label if r.key in TOTAL_KEYS else r.label)
                for r in ROWS}
FIELD_LABELS[CHECKS_KEY] = "YAHTZEE BONUS checks"


def title_from_form(form: Mapping[str, str]) -> str | None:
    """The sheet's title (None: none); FormError when it is longer than the format allows."""
    title = (form.get("title") or "").strip()
    if len(title) > MAX_TITLE:
        raise FormError([("title", f"a title has at most {MAX_TITLE} characters "
                                   f"(this one has {len(title)})")])
    return title or None


def field_name(player: int, game: int | None, key: str) -> str:
    """The form field of one cell: ``p0.g1.aces``, ``p0.name``, ``p0.ps2``, ``p0.pstotal``."""
    if key == "name":
        return f"p{player}.name"
    if key == "ps_total":
        return f"p{player}.pstotal"
    if key == "ps":
        return f"p{player}.ps{game}"
    return f"p{player}.g{game}.{key}"


def finding_field(player: int | None, game: int | None, field: Any) -> str | None:
    """The form field of the cell a finding (or a doubt's cell) names: its 0-based player,
    its GAME #n (1-based) and its sheet field; None when it is on no single cell."""
    if player is None or not isinstance(field, str):
        return None
    if field == "players_scores.total":
        return field_name(player, None, "ps_total")
    if field.startswith("players_scores.games["):
        try:
            return field_name(player, int(field.split("[")[1].rstrip("]")), "ps")
        except ValueError:
            return None
    if game is not None and field in ROW_KEYS:
        return field_name(player, game - 1, field)
    return None


class FormError(ValueError):
    def __init__(self, errors: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{f}: {m}" for f, m in errors))
        self.errors = errors


def form_int(form: Mapping[str, str], name: str, errors: list[tuple[str, str]]) -> int | None:
    """The number in one field (None: blank; a scratch mark is 0); bad ones go to ``errors``."""
    raw = (form.get(name) or "").strip()
    if raw == "":
        return None
    if raw in ("-", "–", "—", "x", "X", "/"):  # a scratched box is a zero
        return 0
    try:
        v = int(raw)
    except ValueError:
        errors.append((name, "not a whole number"))
        return None
    if not MIN_VALUE <= v <= MAX_VALUE:
        errors.append((name, f"must be {MIN_VALUE:,} to {MAX_VALUE:,}"))
        return None
    return v


def _count(form: Mapping[str, str], name: str, default: int, hi: int) -> int:
    try:
        v = int(form.get(name, default))
    except (TypeError, ValueError):
        v = default
    return max(1, min(hi, v))


def shape_of(form: Mapping[str, str]) -> tuple[int, int, bool]:
    """(players, game columns, whether the PLAYERS' SCORES part is shown)."""
    return (_count(form, "players", 2, MAX_PLAYERS), _count(form, "games", 1, MAX_GAMES),
            form.get("players_scores") == "1")


def sheet_from_form(form: Mapping[str, str], rules: Any,
                    readings: Mapping[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The pad's form fields -> sheet JSON (scorepad/sheet@1); FormError for bad numbers.

    ``readings`` (a reviewed photo): how each cell was read, by its form field, as the
    sheet format's reading objects; they go with their game or PLAYERS' SCORES column.
    """
    readings = readings or {}
    players_n, games_n, with_ps = shape_of(form)
    errors: list[tuple[str, str]] = []
    players = []
    for p in range(players_n):
        name = (form.get(field_name(p, None, "name")) or "").strip() or f"Player {p + 1}"
        games: list[dict[str, Any] | None] = []
        for g in range(games_n):
            boxes: dict[str, int] = {}
            totals: dict[str, int] = {}
            checks = 0
            read: dict[str, dict[str, Any]] = {}
            for row in ROWS:
                if field_name(p, g, row.key) in readings:
                    read[row.key] = readings[field_name(p, g, row.key)]
                v = form_int(form, field_name(p, g, row.key), errors)
                if v is None:
                    continue
                if row.kind == "box":
                    boxes[row.key] = v
                elif row.kind == "checks":
                    checks = v
                else:
                    totals[row.key] = v
            if boxes or totals or checks:
                game: dict[str, Any] = {"boxes": boxes, "yahtzee_bonus_checks": checks,
                                        "totals": totals}
                if read:
                    game["readings"] = read
                games.append(game)
            else:
                games.append(None)
        while games and games[-1] is None:
            games.pop()
        player: dict[str, Any] = {"name": name, "games": games}
        if with_ps:
            ps = [form_int(form, field_name(p, g, "ps"), errors) for g in range(MAX_GAMES)]
            while ps and ps[-1] is None:
                ps.pop()
            total = form_int(form, field_name(p, None, "ps_total"), errors)
            if ps or total is not None:
                player["players_scores"] = {"games": ps, "total": total}
                ps_read = {f"games[{g}]": readings[field_name(p, g, "ps")]
                           for g in range(MAX_GAMES) if field_name(p, g, "ps") in readings}
                if field_name(p, None, "ps_total") in readings:
                    ps_read["total"] = readings[field_name(p, None, "ps_total")]
                if ps_read:
                    player["players_scores"]["readings"] = ps_read
        players.append(player)
    if errors:
        raise FormError(errors)
    # Drop players with nothing written at all (unnamed extra columns).
    kept = [pl for i, pl in enumerate(players)
            if pl["games"] or pl.get("players_scores")
            or (form.get(field_name(i, None, "name")) or "").strip()]
    return {"format": FORMAT, "rules": rules, "players": kept or players[:1]}


def without(values: Mapping[str, Any], player: int | None = None,
            game: int | None = None) -> dict[str, Any]:
    """The pad's form values with one player (``p2.*``) or one game column (``p*.g2.*``)
    taken out, the later ones moved up one."""
    out: dict[str, Any] = {}
    for k, v in values.items():
        m = re.fullmatch(r"p(\d+)\.(?:g(\d+)\.)?(.+)", k)
        if not m:
            out[k] = v
            continue
        p, g, rest = int(m.group(1)), m.group(2), m.group(3)
        if player is not None:
            if p == player:
                continue
            p -= p > player
        if g is not None and game is not None:
            gi = int(g)
            if gi == game:
                continue
            g = str(gi - (gi > game))
        out[f"p{p}." + (f"g{g}." if g is not None else "") + rest] = v
    return out


def values_from_sheet(sheet: Mapping[str, Any]) -> tuple[dict[str, Any], int, int, bool]:
    """Sheet JSON -> (form values by field name, players, game columns, has PLAYERS' SCORES)."""
    values: dict[str, Any] = {}
    players = sheet.get("players") or []
    games_n = 1
    with_ps = False
    for p, pl in enumerate(players):
        values[field_name(p, None, "name")] = pl.get("name", "")
        games = pl.get("games") or []
        games_n = max(games_n, len(games))
        for g, game in enumerate(games):
            if not game:
                continue
            for k, v in (game.get("boxes") or {}).items():
                values[field_name(p, g, k)] = v
            for k, v in (game.get("totals") or {}).items():
                values[field_name(p, g, k)] = v
            checks = game.get("yahtzee_bonus_checks")
            if checks:
                values[field_name(p, g, "yahtzee_bonus_checks")] = checks
        ps = pl.get("players_scores")
        if ps:
            with_ps = True
            for g, v in enumerate(ps.get("games") or []):
                values[field_name(p, g, "ps")] = v
            values[field_name(p, None, "ps_total")] = ps.get("total")
    return ({k: v for k, v in values.items() if v is not None}, max(1, len(players)),
            min(games_n, MAX_GAMES), with_ps)
