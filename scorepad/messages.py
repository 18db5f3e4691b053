"""The wording of findings, kept apart from the logic (tests assert codes, not prose)."""

from __future__ import annotations

from typing import Any

from .boxes import Box, TotalField
from .findings import Code, Finding, Severity

TEMPLATES: dict[Code, str] = {
    Code.BOX_VALUE_IMPOSSIBLE: "{where}: {written} cannot be scored in {field_label} "
    "(allowed: {expected_text})",
    Code.BONUS_CHECKS_WITHOUT_YAHTZEE_50: "{where}: {written} Yahtzee bonus check(s) but the "
    "YAHTZEE box holds {yahtzee}; a bonus needs 50 there",
    Code.BONUS_CHECKS_NOT_IN_RULES: "{where}: {written} Yahtzee bonus check(s) but rule set "
    "{rule_set} has no Yahtzee bonus",
    Code.BONUS_CHECKS_UNSUPPORTED: "{where}: {written} Yahtzee bonus check(s), but no legal "
    "order of turns fills boxes this way; at most {expected} fit this card",
    Code.TOTAL_ARITHMETIC: "{where}: {field_label} written as {written}, the boxes add up to "
    "{expected}",
    Code.UPPER_BONUS_WRONG: "{where}: BONUS written as {written}, should be {expected} "
    "(upper boxes total {upper})",
    Code.YAHTZEE_BONUS_POINTS_WRONG: "{where}: YAHTZEE BONUS points written as {written}, "
    "should be {expected} ({checks} check(s))",
    Code.LOWER_TOTAL_EXCLUDES_BONUS: "{where}: lower TOTAL {written} leaves out the Yahtzee "
    "bonus points; counted in the GRAND TOTAL instead",
    Code.TOTAL_PREMATURE: "{where}: {field_label} written as {written} before its boxes were "
    "all filled (so far {expected})",
    Code.TOTAL_BELOW_FILLED: "{where}: {field_label} written as {written}, but the boxes "
    "filled so far already make {expected}; filling the rest cannot lower it",
    Code.TOTAL_ABOVE_REACHABLE: "{where}: {field_label} written as {written}, but even the "
    "best rolls in the boxes still open make it at most {expected}",
    Code.TOTAL_BLANK: "{where}: {field_label} left blank (it would be {expected})",
    Code.GAME_IN_PROGRESS: "{where}: game in progress, {filled} of 13 boxes filled; audited as "
    "far as it goes",
    Code.GRAND_TOTAL_CHANGES_WINNER: "{where}: the written totals make {written_names} the "
    "winner, the correct totals make {expected_names} the winner",
    Code.PLAYERS_SCORE_WRONG: "{where}: PLAYERS' SCORES shows {written}, the game's grand total "
    "is {expected}",
    Code.PLAYERS_TOTAL_WRONG: "{where}: TOTAL OF ALL GAMES shows {written}, the games add up "
    "to {expected}",
    Code.TURN_LOG_TOO_LONG: "{where}: {written} turns logged; a game has 13",
    Code.TURN_TOO_MANY_ROLLS: "{where}: {written} rolls; a turn has at most 3",
    Code.TURN_KEPT_MISMATCH: "{where}: kept dice {written} are not in {expected_text}",
    Code.TURN_KEPT_COUNT: "{where}: {written} kept-dice lists for {rolls} roll(s); expected "
    "{expected}",
    Code.TURN_NO_BOX: "{where}: the turn names no box",
    Code.TURN_BOX_REUSED: "{where}: {field_label} was already filled on an earlier turn",
    Code.TURN_PLACEMENT_ILLEGAL: "{where}: dice {dice} may not go in {field_label} now; "
    "allowed: {expected_text}",
    Code.TURN_VALUE_WRONG: "{where}: dice {dice} score {expected_text} in {field_label}, "
    "not {written}",
    Code.TURN_CARD_MISMATCH: "{where}: the card shows {written} in {field_label}, the turn "
    "log {expected}",
    Code.TURN_BONUS_COUNT: "{where}: {written} bonus check(s) on the card, {expected} bonus "
    "Yahtzee(s) in the turn log",
}


def _label(field: str | None) -> str:
    if field is None:
        return "this entry"
    return _LABELS.get(field, field)


_LABELS: dict[str, str] = {
    **{b.value: b.label for b in Box},
    **{t.value: t.label for t in TotalField},
}


def _where(f: Finding) -> str:
    parts = []
    if f.player_name is not None:
        parts.append(f.player_name)
    if f.game is not None:
        parts.append(f"game {f.game}")
    turn = f.details.get("turn")
    if turn is not None:
        parts.append(f"turn {turn}")
    return ", ".join(parts) or "sheet"


def _text(value: Any) -> str:
    if isinstance(value, list):
        if len(value) > 8 and all(isinstance(v, int) for v in value):
            return _ranges(value)
        return ", ".join(str(v) for v in value) or "nothing"
    return str(value)


def _ranges(values: list[int]) -> str:
    out: list[str] = []
    start = prev = values[0]
    for v in [*values[1:], None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if v is not None:
            start = prev = v
    return ", ".join(out)


def render(f: Finding) -> str:
    text = _render_code(f)
    doubt = f.details.get("doubt")
    if f.severity is Severity.DOUBT and isinstance(doubt, dict):
        return _render_doubt(f, text, doubt)
    return text


def _render_code(f: Finding) -> str:
    template = TEMPLATES[f.code]
    values = {
        "where": _where(f),
        "written": f.written,
        "expected": f.expected,
        "expected_text": _text(f.expected),
        "field_label": _label(f.field),
        "rule_set": f.rule_set,
        "written_names": _text(f.written),
        "expected_names": _text(f.expected),
        **{k: _text(v) for k, v in f.details.items()},
    }
    text = template.format(**values)
    delta = f.details.get("grand_total_delta")
    if delta and f.field != "grand_total":
        text += f"; the written GRAND TOTAL is {delta:+d} off"
    if f.details.get("carried"):
        text += " (carried from an earlier slip)"
    return text


_READ_STATUS = {"needs_review": "unsure", "unreadable": "unreadable", "confident": "sure",
                "confirmed": "confirmed"}


def _cell_label(cell: dict[str, Any], game: int | None) -> str:
    field = str(cell.get("field"))
    if field == "players_scores.total":
        return "TOTAL OF ALL GAMES (PLAYERS' SCORES)"
    if field.startswith("players_scores.games["):
        return f"PLAYERS' SCORES GAME #{cell.get('game')}"
    label = _label(field)
    return label if cell.get("game") == game else f"{label} of game {cell.get('game')}"


def _reading_text(value: Any) -> str:
    return "blank" if value is None else str(value)


def _cell_text(cell: dict[str, Any], game: int | None) -> str:
    parts = [f"read as {_reading_text(cell.get('read'))}",
             _READ_STATUS.get(str(cell.get("status")), str(cell.get("status")))]
    if cell.get("confidence") is not None:
        parts.append(f"confidence {cell['confidence']:.2f}")
    box = cell.get("box")
    if box:
        where = f"crop {box[0]},{box[1]}-{box[2]},{box[3]}"
        if cell.get("photo") is not None:
            where += f" of photo {cell['photo'] + 1}"
        parts.append(where)
    return f"{_cell_label(cell, game)} ({', '.join(parts)})"


def _other_readings(readings: list[dict[str, Any]], game: int | None) -> str:
    return " or ".join(f"{_cell_label(r, game)} reads {_reading_text(r.get('value'))}"
                       for r in readings)


def _render_doubt(f: Finding, text: str, doubt: dict[str, Any]) -> str:
    """A doubt: which cells to check on the photo, what was read, which reading makes the
    card right, then the finding as read."""
    where = _where(f)
    cells = "; ".join(_cell_text(c, f.game) for c in doubt.get("cells") or [])
    right = doubt.get("would_be_right_if") or []
    if doubt.get("reason") == "hidden":
        wrong = _other_readings(doubt.get("would_be_wrong_if") or [], f.game)
        return (f"{where}: check {cells or 'the cells'} on the photo: the card is right as "
                f"read, but not if {wrong}: {text.removeprefix(where + ': ')}")
    if right:
        fix = "the card is right there if " + _other_readings(right, f.game)
    elif doubt.get("reason") == "not_checked":
        fix = "a misreading was not ruled out"
    else:
        fix = "the reader was unsure of " + ("them" if len(doubt.get("cells") or []) > 1 else "it")
    return (f"{where}: check {cells or 'the cells'} on the photo: {fix}. As read: "
            f"{text.removeprefix(where + ': ')}")


OPTION_REASONS: dict[str, str] = {
    "NATURAL": "what these dice score here",
    "ZERO": "a zero (the dice do not qualify, or by choice)",
    "JOKER": "joker value for a Yahtzee",
    "JOKER_UPPER": "a Yahtzee must go in its own upper box while it is open",
    "JOKER_UPPER_ZERO": "upper box and lower section full: a zero in an upper box",
    "BOX_FILLED": "already filled",
    "FORBIDDEN_UPPER_FIRST": "not allowed: the Yahtzee's own upper box is still open",
    "FORBIDDEN_PRIORITY": "not allowed yet: an earlier joker step still has an open box",
    "FORBIDDEN_LOWER_OPEN": "not allowed: a lower box is still open",
    "ZERO_NOT_ALLOWED": "not allowed: a zero may not be written here under these rules",
}
