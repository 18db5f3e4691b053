"""The on-screen pad: its rows (the 001 pad's order), form fields <-> sheet JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorepad.boxes import LABELS, LOWER, UPPER, TotalField
from scorepad.card import MAX_GAMES

MAX_PLAYERS = 8
MAX_VALUE = 9999


@dataclass(frozen=True)
class Row:
    key: str  # sheet key: a box, a total or "yahtzee_bonus_checks"
    label: str  # as printed on the pad
    hint: str  # the pad's "HOW TO SCORE" column
    kind: str  # box, total, checks
    section: str  # upper, lower


def _box_hint(box_key: str) -> str:
    return {
        "aces": "Count and add only Aces", "twos": "Count and add only Twos",
        "threes": "Count and add only Threes", "fours": "Count and add only Fours",
        "fives": "Count and add only Fives", "sixes": "Count and add only Sixes",
        "three_of_a_kind": "Add total of all dice", "four_of_a_kind": "Add total of all dice",
        "full_house": "Score 25", "small_straight": "Score 30 (sequence of 4)",
        "large_straight": "Score 40 (sequence of 5)", "yahtzee": "Score 50 (5 of a kind)",
        "chance": "Score total of all 5 dice",
    }[box_key]


ROWS: tuple[Row, ...] = (
    *(Row(b.value, LABELS[b], _box_hint(b.value), "box", "upper") for b in UPPER),
    Row(TotalField.UPPER_SUBTOTAL.value, "TOTAL SCORE", "→", "total", "upper"),
    Row(TotalField.UPPER_BONUS.value, "BONUS", "If total score is 63 or over", "total", "upper"),
    Row(TotalField.UPPER_TOTAL.value, "TOTAL", "Of upper section", "total", "upper"),
    *(Row(b.value, LABELS[b], _box_hint(b.value), "box", "lower") for b in LOWER),
    Row("yahtzee_bonus_checks", "YAHTZEE BONUS", "✓ for each bonus", "checks", "lower"),
    Row(TotalField.YAHTZEE_BONUS.value, "BONUS points", "Score 100 per ✓", "total", "lower"),
    Row(TotalField.LOWER_TOTAL.value, "TOTAL", "Of lower section", "total", "lower"),
    Row(TotalField.UPPER_TOTAL_REPEAT.value, "TOTAL", "Of upper section", "total", "lower"),
    Row(TotalField.GRAND_TOTAL.value, "GRAND TOTAL", "→", "total", "lower"),
)
ROW_KEYS = {r.key for r in ROWS}
TOTAL_KEYS = {t.value for t in TotalField}
FIELD_LABELS = {r.key: (TotalField(r.key).label if r.key in TOTAL_KEYS else r.label)
                for r in ROWS}
FIELD_LABELS["yahtzee_bonus_checks"] = "YAHTZEE BONUS checks"


def field_name(player: int, game: int | None, key: str) -> str:
    """The form field of one cell: ``p0.g1.aces``, ``p0.name``, ``p0.ps2``, ``p0.pstotal``."""
    if key == "name":
        return f"p{player}.name"
    if key == "ps_total":
        return f"p{player}.pstotal"
    if key == "ps":
        return f"p{player}.ps{game}"
    return f"p{player}.g{game}.{key}"


class FormError(ValueError):
    def __init__(self, errors: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{f}: {m}" for f, m in errors))
        self.errors = errors


def _int(form: Mapping[str, str], name: str, errors: list[tuple[str, str]]) -> int | None:
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
    if not 0 <= v <= MAX_VALUE:
        errors.append((name, f"must be 0 to {MAX_VALUE}"))
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


def sheet_from_form(form: Mapping[str, str], rules: Any) -> dict[str, Any]:
    """The pad's form fields -> sheet JSON (scorepad/sheet@1); FormError for bad numbers."""
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
            for row in ROWS:
                v = _int(form, field_name(p, g, row.key), errors)
                if v is None:
                    continue
                if row.kind == "box":
                    boxes[row.key] = v
                elif row.kind == "checks":
                    checks = v
                else:
                    totals[row.key] = v
            if boxes or totals or checks:
                games.append({"boxes": boxes, "yahtzee_bonus_checks": checks, "totals": totals})
            else:
                games.append(None)
        while games and games[-1] is None:
            games.pop()
        player: dict[str, Any] = {"name": name, "games": games}
        if with_ps:
            ps = [_int(form, field_name(p, g, "ps"), errors) for g in range(MAX_GAMES)]
            while ps and ps[-1] is None:
                ps.pop()
            total = _int(form, field_name(p, None, "ps_total"), errors)
            if ps or total is not None:
                player["players_scores"] = {"games": ps, "total": total}
        players.append(player)
    if errors:
        raise FormError(errors)
    # Drop players with nothing written at all (unnamed extra columns).
    kept = [pl for i, pl in enumerate(players)
            if pl["games"] or pl.get("players_scores")
            or (form.get(field_name(i, None, "name")) or "").strip()]
    return {"format": "scorepad/sheet@1", "rules": rules, "players": kept or players[:1]}


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
