"""``scorepad verify`` and ``scorepad tally`` for a sheet of any game: the sheet's ``game``
field picks the loader, the check and the output (``commands`` calls these). A Yahtzee sheet
is read as ``inputs.load`` reads it; a SCRABBLE or SORRY! sheet by its own schema."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cliapi import ExitCode, InputError
from .games import YAHTZEE
from .games.common import GameReport
from .inputs import _json_arg, _read_json, rules_arg

if TYPE_CHECKING:
    from .audit import Report
    from .card import Sheet
    from .games.dispatch import OtherSheet
    from .rules import RuleSet


class RulesOption:
    """``--rules`` for sheets of any game: a Yahtzee rule set as before, or a SCRABBLE or
    SORRY! one (a name, inline JSON or a JSON file), resolved for each sheet's game."""

    def __init__(self, value: str | None) -> None:
        self.value, self.error = value, None
        self.yahtzee: RuleSet | None = None
        try:
            self.yahtzee = rules_arg(value)
        except InputError as exc:
            if not any(self._other(g) is not None for g in ("scrabble", "sorry")):
                raise
            self.error = exc

    def _other(self, game: str) -> Any:
        from .games.dispatch import resolve_rules
        from .rules import RuleSetError, UnknownRuleSet

        if self.value is None:
            return None
        spec: Any = self.value
        if self.value.lstrip().startswith("{") or Path(self.value).is_file():
            try:
                spec, _ = _json_arg(self.value, "--rules")
            except InputError:
                return None
        try:
            return resolve_rules(game, spec) if isinstance(spec, str | Mapping) else None
        except (RuleSetError, UnknownRuleSet):
            return None

    def for_yahtzee(self) -> RuleSet | None:
        if self.error is not None:
            raise self.error
        return self.yahtzee

    def for_game(self, game: str) -> Any:
        if self.value is None:
            return None
        rules = self._other(game)
        if rules is None:
            raise InputError(f"--rules: {self.value!r} is not a {game} rule set (see scorepad "
                             f"rules; {game} rule sets: {', '.join(_names(game))})",
                             "unknown_rules")
        return rules


def _names(game: str) -> list[str]:
    from .games.dispatch import registry

    return registry(game).names()


def load_any(path: str) -> tuple[str, Sheet | OtherSheet]:
    """The sheet at ``path`` (``-``: standard input) with its game; InputError if unreadable
    or not a sheet."""
    from .fastsheet import fast_load
    from .games.dispatch import UnknownGame, game_of, load_other, without_game

    data = _read_json(path)
    try:
        game = game_of(data)
    except UnknownGame as exc:
        raise _not_a_sheet(path, exc.errors) from None
    if game == YAHTZEE:
        data = without_game(data)
        sheet = fast_load(data)  # as inputs.load: a plain sheet without marshmallow
        if sheet is not None:
            return game, sheet
    from .schemas import SheetFormatError, load_sheet  # marshmallow: what fast_load leaves

    try:
        return game, load_sheet(data) if game == YAHTZEE else load_other(game, data)
    except SheetFormatError as exc:
        raise _not_a_sheet(path, exc.errors) from None


def _not_a_sheet(path: str, errors: list[tuple[str, str]]) -> InputError:
    lines = [f"{path}: not a valid sheet:"] + [f"  {w}: {m}" for w, m in errors]
    return InputError("\n".join(lines), "not_a_sheet", errors)


def verify_path(path: str, rules: RulesOption) -> Report | GameReport:
    """The report on the sheet at ``path``, of whichever game it is."""
    from .games.dispatch import check_other

    game, sheet = load_any(path)
    if game == YAHTZEE:
        from .audit import audit_sheet

        return audit_sheet(sheet, rules.for_yahtzee())  # type: ignore[arg-type]
    return check_other(sheet, rules.for_game(game))  # type: ignore[arg-type]


_LABEL = {"error": "ERROR  ", "warning": "WARNING", "notice": "notice "}


def render_game_report(report: GameReport, source: str) -> str:
    rs = report.rule_set.to_dict()
    out = [f"{source}: {report.game}, rule set {rs['name']} ({rs['title']})"]
    by_game: dict[int | None, list[Any]] = {}
    for f in report.findings:
        by_game.setdefault(f.game, []).append(f)
    for g in report.games:
        state = "complete" if g["complete"] else "in progress"
        scores = ", ".join(_player_score(report.game, p) for p in g["players"])
        won = f"; won by {', '.join(g['winners'])}" if g["winners"] and g["complete"] else ""
        out.append(f"  game {g['game']} ({state}): {scores}{won}")
        out += [_line(f) for f in by_game.pop(g["game"], [])]
    out += [_line(f) for fs in by_game.values() for f in fs]
    c = report.counts()
    verdict = (f"the sheet is correct under {rs['name']}" if report.ok
               else f"the sheet has errors under {rs['name']}")
    out.append(f"  result: {c['error']} error(s), {c['warning']} warning(s), {c['notice']} "
               f"notice(s): {verdict}")
    return "\n".join(out)


def _player_score(game: str, p: dict[str, Any]) -> str:
    if game == "sorry":
        return f"{p['name']} {p['home']} HOME {p['points'] if p['points'] is not None else '-'}"
    score = p["final"] if p["final"] is not None else p["before_adjustments"]
    return f"{p['name']} {score}"


def _line(f: Any) -> str:
    rules = f" [{', '.join(f.rules)}]" if f.rules else ""
    return f"    {_LABEL[f.severity.value]} {f.code.value}: {f.message}{rules}"


def render_game_tally(t: dict[str, Any]) -> str:
    out = [f"{t['game']}: {t['games']} game(s), {t['complete']} complete"]
    for n, w in enumerate(t["winners"], 1):
        out.append(f"  game {n}: {', '.join(w) if w else '(no winner yet)'}")
    for r in t["players"]:
        extra = ""
        if t["game"] == "scrabble":
            best = r["best_turn"]
            extra = (f", shared {r['shared_wins']}, average {r['average']}"
                     + (f", best turn {best['score']} (game {best['game']} turn {best['turn']})"
                        if best else ""))
        out.append(f"  {r['rank']}. {r['player']}: {r['games']} game(s), {r['wins']} win(s), "
                   f"total {r['total']}{extra}")
    if t.get("best_turn"):
        b = t["best_turn"]
        out.append(f"  best turn of the evening: {b['player']} {b['score']} (game {b['game']} "
                   f"turn {b['turn']})")
    return "\n".join(out)


def tally_game(path: str, sheet: OtherSheet, rules: RulesOption, fmt: str, game: str) -> int:
    """``scorepad tally`` for a SCRABBLE or SORRY! sheet."""
    from .games.dispatch import check_other

    report = check_other(sheet, rules.for_game(game))
    t = report.tally or {}
    if fmt == "json":
        print(json.dumps({"verdict": report.verdict, "rule_set": report.rule_set.name, **t},
                         indent=2))
    else:
        print(render_game_tally(t))
    if not report.ok:
        print(f"scorepad: {path}: the sheet has {report.counts()['error']} error(s); the "
              "tally above counts the correct scores (scorepad verify shows where)",
              file=sys.stderr)
        return ExitCode.FINDINGS
    return ExitCode.OK
