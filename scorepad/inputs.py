"""What every command reads: files and standard input, JSON, ``--rules``, ``--card``,
numbers from 1 (the helpers the core commands and the plugins share)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cliapi import ExitCode, InputError
from .rules import REGISTRY, RuleSet, RuleSetError, UnknownRuleSet, get_rules
from .sheetspec import MAX_GAMES, MAX_JSON_BYTES

if TYPE_CHECKING:
    from .card import Game, Sheet

# The audit and marshmallow (sheet loading) are imported inside the functions that use
# them: ``scorepad rules`` and every --help start without them.

__all__ = ["CARD_HELP", "FORMAT", "RULES_HELP", "InputError", "add_card_arguments", "card_arg",
           "check_card", "game_number", "load", "parse_json", "positive", "read_text",
           "rules_arg"]


def read_text(path: str) -> str:
    """A file's (or stdin's, for ``-``) text, within the sheet size limit; InputError if not."""
    try:
        if path == "-":
            text = sys.stdin.read(MAX_JSON_BYTES + 1)
        else:
            p = Path(path)
            if p.is_dir():
                raise InputError(f"{path}: a directory, not a file", "unreadable")
            if p.stat().st_size > MAX_JSON_BYTES:
                raise InputError(f"{path}: larger than {MAX_JSON_BYTES} bytes", "too_large")
            text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror or exc}", "unreadable") from None
    except (UnicodeDecodeError, ValueError):  # ValueError: a NUL in the path
        raise InputError(f"{path}: not UTF-8 text", "not_text") from None
    if len(text) > MAX_JSON_BYTES:
        raise InputError(f"{path}: larger than {MAX_JSON_BYTES} bytes", "too_large")
    return text


def parse_json(text: str, where: str) -> Any:
    """JSON text -> value; InputError naming ``where`` and the line and column if not."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not valid JSON (line {exc.lineno} column {exc.colno}: "
                         f"{exc.msg})", "not_json") from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested too deeply", "not_json") from None


def _read_json(path: str) -> Any:
    return parse_json(read_text(path), path)


def _json_arg(value: str, option: str) -> tuple[Any, str]:
    """An option's value: inline JSON (``{...}``) or a JSON file; (data, where) for messages."""
    if value.lstrip().startswith("{"):
        return parse_json(value, option), option
    return _read_json(value), value


def rules_arg(value: str | None) -> RuleSet | None:
    """``--rules`` everywhere: a rule-set name or alias, an inline JSON object, or a JSON file
    holding a custom rule set. None when not given (the sheet's own rules, else hasbro)."""
    if value is None:
        return None
    if value in REGISTRY:
        return get_rules(value)
    if not (value.lstrip().startswith("{") or value.endswith(".json") or Path(value).is_file()):
        raise InputError(f"--rules: {UnknownRuleSet(value)}", "unknown_rules")
    data, where = _json_arg(value, "--rules")
    if not isinstance(data, Mapping):
        raise InputError(f"{where}: not a rule set: a custom rule set is a JSON object "
                         f"({{\"base\": \"hasbro\", ...}}), not {type(data).__name__}",
                         "bad_rules")
    try:
        return get_rules(data)
    except (RuleSetError, UnknownRuleSet) as exc:
        raise InputError(f"{where}: not a rule set: {exc}", "bad_rules") from None


def load(path: str) -> Sheet:
    from .fastsheet import fast_load

    data = _read_json(path)
    sheet = fast_load(data)  # a plain sheet without marshmallow (start-up time)
    if sheet is not None:
        return sheet
    from .schemas import SheetFormatError, load_sheet

    try:
        return load_sheet(data)
    except SheetFormatError as exc:
        lines = [f"{path}: not a valid sheet:"] + [f"  {w}: {m}" for w, m in exc.errors]
        raise InputError("\n".join(lines), "not_a_sheet", exc.errors) from None


def card_arg(value: str, player: int = 1, game: int = 1) -> Game:
    """``--card``: inline JSON or a JSON file holding a game object (``{"boxes": {...},
    "yahtzee_bonus_checks": n}``), the boxes alone (``{"aces": 3, ...}``, optionally with
    ``yahtzee_bonus_checks``) or a whole sheet (then ``--player`` and ``--game``, from 1)."""
    from marshmallow import ValidationError

    from .card import Game
    from .schemas import GameSchema, SheetFormatError, _flatten, load_sheet

    data, where = _json_arg(value, "--card")
    if isinstance(data, Mapping) and "players" in data:
        try:
            sheet = load_sheet(data)
        except SheetFormatError as exc:
            lines = [f"{where}: not a valid sheet:"] + [f"  {w}: {m}" for w, m in exc.errors]
            raise InputError("\n".join(lines), "not_a_sheet", exc.errors) from None
        if player > len(sheet.players):
            raise InputError(f"--player {player}: the sheet has {len(sheet.players)} "
                             "player(s)", "bad_option")
        games = sheet.players[player - 1].games
        chosen = games[game - 1] if game <= len(games) else None
        return chosen or Game()
    if isinstance(data, Mapping) and not ({"boxes", "totals", "turns"} & set(data)):
        data = {"boxes": {k: v for k, v in data.items() if k != "yahtzee_bonus_checks"},
                **({"yahtzee_bonus_checks": data["yahtzee_bonus_checks"]}
                   if "yahtzee_bonus_checks" in data else {})}
    try:
        card: Game = GameSchema().load(data)
    except ValidationError as exc:
        errors = _flatten(exc.messages)
        lines = [f"{where}: not a valid card:"] + [f"  {w}: {m}" for w, m in errors]
        raise InputError("\n".join(lines), "not_a_card", errors) from None
    return card


def check_card(card: Game, rules: RuleSet | None, where: str) -> int:
    """ExitCode.OK when no legal game rules out this card, else FINDINGS after one line naming
    the errors (``scorepad verify`` of the card tells the whole story)."""
    from .audit import audit_game

    report = audit_game(card, rules)
    errors = sorted({f"{f.code.value}@{f.field}" for f in report.findings
                     if f.severity.value == "error"})
    if not errors:
        return ExitCode.OK
    print(f"scorepad: {where}: no legal game gives this card under {report.rule_set.name}: "
          f"{', '.join(errors)}", file=sys.stderr)
    return ExitCode.FINDINGS


def positive(value: str) -> int:
    """argparse type: a number from 1 (players and games are numbered as on the pad)."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"numbers start at 1, not {n}")
    return n


def game_number(value: str) -> int:
    n = positive(value)
    if n > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"a pad has games 1 to {MAX_GAMES}, not {n}")
    return n



FORMAT: dict[str, Any] = {"choices": ("text", "json"), "default": "text",
                          "help": "output format (default text)"}
RULES_HELP = ("rule set: a name or alias (scorepad rules lists them), a JSON object or a JSON "
              "file with a custom rule set")
CARD_HELP = ("the card so far, inline JSON or a JSON file: a game object ({\"boxes\": {...}, "
             "\"yahtzee_bonus_checks\": n}), the boxes alone ({\"aces\": 3, ...}) or a sheet "
             "(with --player and --game); default an empty card")


def add_card_arguments(p: argparse.ArgumentParser) -> None:
    """--card, --player, --game (options and advise take the same card)."""
    p.add_argument("--card", help=CARD_HELP)
    p.add_argument("--player", type=positive, default=1,
                   help="player on a sheet, from 1 (default 1)")
    p.add_argument("--game", type=game_number, default=1,
                   help=f"game on a sheet, 1 to {MAX_GAMES} (default 1)")
