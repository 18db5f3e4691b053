"""The core sub-commands: verify, options, tally, rules."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from marshmallow import ValidationError

from . import messages
from .audit import Report, audit_sheet
from .card import Game
from .cli import ExitCode
from .placement import legal_options
from .rules import (
    OPTION_NOTES,
    REGISTRY,
    RULE_FIELDS,
    RuleSet,
    RuleSetError,
    UnknownRuleSet,
    get_rules,
)
from .schemas import MAX_JSON_BYTES, GameSchema, SheetFormatError, _flatten, load_sheet
from .scoring import DiceError, parse_dice
from .tally import Tally, tally_sheet


class InputError(Exception):
    """Bad input: one line for the user, exit code 2."""


def read_text(path: str) -> str:
    """A file's (or stdin's, for ``-``) text, within the sheet size limit; InputError if not."""
    try:
        if path == "-":
            text = sys.stdin.read(MAX_JSON_BYTES + 1)
        else:
            p = Path(path)
            if p.stat().st_size > MAX_JSON_BYTES:
                raise InputError(f"{path}: larger than {MAX_JSON_BYTES} bytes")
            text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    if len(text) > MAX_JSON_BYTES:
        raise InputError(f"{path}: larger than {MAX_JSON_BYTES} bytes")
    return text


def parse_json(text: str, where: str) -> Any:
    """JSON text -> value; InputError naming ``where`` and the line and column if not."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not valid JSON (line {exc.lineno} column {exc.colno}: "
                         f"{exc.msg})") from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested too deeply") from None


def _read_json(path: str) -> Any:
    return parse_json(read_text(path), path)


def _format_error(path: str, exc: SheetFormatError) -> str:
    lines = [f"{path}: not a valid sheet:"]
    lines += [f"  {where}: {msg}" for where, msg in exc.errors]
    return "\n".join(lines)


def _rules_arg(value: str | None) -> RuleSet | None:
    """--rules takes a rule-set name or a JSON file with a custom rule set."""
    if value is None:
        return None
    if value in REGISTRY:
        return get_rules(value)
    if value.endswith(".json") or Path(value).is_file():
        data = _read_json(value)
        try:
            return get_rules(data)
        except (RuleSetError, UnknownRuleSet, AttributeError) as exc:
            raise InputError(f"{value}: {exc}") from None
    raise InputError(str(UnknownRuleSet(value)))


def _load(path: str) -> Any:
    data = _read_json(path)
    try:
        return load_sheet(data)
    except SheetFormatError as exc:
        raise InputError(_format_error(path, exc)) from None


# ----------------------------------------------------------------------------- verify

_SEVERITY_LABEL = {"error": "ERROR  ", "warning": "WARNING", "notice": "notice ",
                   "doubt": "DOUBT  "}


def render_report(report: Report, source: str) -> str:
    rs = report.rule_set
    out = [f"{source}: rule set {rs.name} ({rs.title})"]
    by_game: dict[tuple[int | None, int | None], list[Any]] = {}
    for f in report.findings:
        by_game.setdefault((f.player, f.game), []).append(f)
    for g in report.games:
        t = g.totals
        state = "complete" if g.complete else "in progress"
        out.append(f"  {g.player_name}, game {g.game} ({state}): upper {t.upper_subtotal}"
                   f" + bonus {t.upper_bonus}, lower {t.lower_subtotal} + Yahtzee bonus "
                   f"{t.yahtzee_bonus} = {t.grand_total}")
        for f in by_game.pop((g.player, g.game), []):
            out.append(_finding_line(f))
        if g.witness:
            order = ", ".join(f"{w['box']}{'*' if w['bonus'] else ''}" for w in g.witness)
            out.append(f"      one legal order of turns (* = bonus Yahtzee): {order}")
    for f in (f for fs in by_game.values() for f in fs):
        out.append(_finding_line(f))
    counts = report.counts()
    doubts = f"{counts['doubt']} doubt(s), " if counts["doubt"] else ""
    verdict = {"correct": f"the sheet is correct under {rs.name}",
               "unsure": f"the sheet is unsure under {rs.name}: check the cells named on the "
                         "photo",
               "errors": f"the sheet has errors under {rs.name}"}[report.verdict]
    if report.verdict == "errors" and doubts:
        verdict += " (and check the cells of the doubts on the photo)"
    out.append(f"  result: {counts['error']} error(s), {doubts}{counts['warning']} warning(s), "
               f"{counts['notice']} notice(s): {verdict}")
    if report.tally and report.tally.standings:
        out.append("  " + _standings_line(report.tally))
    return "\n".join(out)


def _finding_line(f: Any) -> str:
    rules = f" [{', '.join(f.rules)}]" if f.rules else ""
    return f"    {_SEVERITY_LABEL[f.severity.value]} {f.code.value}: {f.message}{rules}"


def _standings_line(t: Tally) -> str:
    parts = [f"{s['rank']}. {s['player']} {s['total_of_all_games']}" for s in t.standings]
    return "standings (total of all games): " + ", ".join(parts)


def _expand(paths: list[str]) -> list[str]:
    """Directories stand for the sheets in them (not the *.expect.json / *.truth.json files)."""
    out: list[str] = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            out += sorted(str(f) for f in p.glob("*.json")
                          if not f.name.endswith((".expect.json", ".truth.json")))
        else:
            out.append(path)
    return out


def _summary_line(report: Report, path: str) -> str:
    c = report.counts()
    codes = sorted({f.code.value for f in report.findings if f.severity.value != "notice"})
    verdict = {"correct": "clean", "unsure": f"{c['doubt']} doubt(s)",
               "errors": f"{c['error']} error(s)"}[report.verdict]
    extra = f" ({', '.join(codes)})" if codes else ""
    return f"{verdict:>12}  {path} [{report.rule_set.name}]{extra}"


_EXIT_RANK = (ExitCode.OK, ExitCode.DOUBTS, ExitCode.FINDINGS, ExitCode.BAD_INPUT)
_VERDICT_EXIT = {"correct": ExitCode.OK, "unsure": ExitCode.DOUBTS, "errors": ExitCode.FINDINGS}

VERIFY_EXIT_CODES = """exit codes:
  0  every sheet is correct
  1  a sheet has errors
  2  a sheet cannot be read (not JSON, not a sheet, no such file, unknown rule set)
  3  no errors, but doubts: a scanned sheet has errors that a misread cell explains
     (DOUBT lines name the cells and their crop boxes: check them on the photo)"""


def cmd_verify(args: argparse.Namespace) -> int:
    rules = _rules_arg(args.rules)
    results = []
    worst = ExitCode.OK  # the worst sheet: bad input, then errors, then doubts
    paths = _expand(args.sheets)
    if not paths:
        raise InputError("no sheets found")
    for path in paths:
        try:
            sheet = _load(path)
            report = audit_sheet(sheet, rules)
        except InputError as exc:
            print(f"scorepad: {exc}", file=sys.stderr)
            worst = ExitCode.BAD_INPUT
            continue
        code = _VERDICT_EXIT[report.verdict]
        worst = max(worst, code, key=_EXIT_RANK.index)
        if args.format == "json":
            results.append({"source": path, **report.to_dict()})
        elif args.summary:
            print(_summary_line(report, path))
        else:
            print(render_report(report, path))
    if args.format == "json":
        doc: Any = results[0] if len(results) == 1 and len(paths) == 1 else results
        print(json.dumps(doc, indent=2))
    return worst


# ----------------------------------------------------------------------------- options

def _load_card(path: str, player: int, game: int) -> Game:
    data = _read_json(path)
    if isinstance(data, dict) and "players" in data:
        sheet = _load(path)
        try:
            g = sheet.players[player - 1].games[game - 1]
        except IndexError:
            raise InputError(f"{path}: no player {player} game {game} on this sheet") from None
        return g or Game()
    try:
        card: Game = GameSchema().load(data)
    except ValidationError as exc:
        lines = [f"{path}: not a valid card:"]
        lines += [f"  {w}: {m}" for w, m in _flatten(exc.messages)]
        raise InputError("\n".join(lines)) from None
    return card


def cmd_options(args: argparse.Namespace) -> int:
    rules = _rules_arg(args.rules) or get_rules(None)
    try:
        dice = parse_dice(args.dice)
    except DiceError as exc:
        raise InputError(f"--dice: {exc}") from None
    card = _load_card(args.card, args.player, args.game) if args.card else Game()
    opts = legal_options(rules, card.boxes, dice)
    if args.format == "json":
        print(json.dumps({
            "rule_set": rules.name,
            "dice": list(opts.dice),
            "joker": opts.joker,
            "yahtzee_bonus": opts.bonus,
            "options": [o.to_dict() for o in opts.options],
        }, indent=2))
        return ExitCode.OK
    head = f"dice {' '.join(map(str, opts.dice))} under {rules.name} ({rules.title})"
    if opts.bonus:
        head += f": a Yahtzee bonus, +{rules.yahtzee_bonus} and a check mark"
    elif opts.joker:
        head += ": a Yahtzee with the YAHTZEE box filled, so the joker rules apply"
    print(head)
    for o in opts.options:
        value = "/".join(map(str, o.values)) if o.allowed else "-"
        mark = "yes" if o.allowed else "no "
        rule = f" [{', '.join(map(str, o.citations))}]" if o.citations and o.reason not in (
            "NATURAL", "BOX_FILLED") else ""
        print(f"  {mark} {o.box.label:<13} {value:>6}  {messages.OPTION_REASONS[o.reason]}{rule}")
    return ExitCode.OK


# ----------------------------------------------------------------------------- tally

def render_tally(t: Tally) -> str:
    names = t.players
    width = max(8, *(len(n) for n in names)) + 2
    out = [f"rule set {t.rule_set}", "PLAYERS' SCORES".ljust(20) + "".join(n.rjust(width) for n in names)]
    for g in t.games:
        row = []
        for n in names:
            if n in g.scores:
                row.append(str(g.scores[n]) + ("*" if n in g.winners else " "))
            elif n in g.in_progress:
                row.append("(playing)")
            else:
                row.append("")
        note = " tie" if g.tie else ""
        out.append(f"GAME #{g.game}".ljust(20) + "".join(c.rjust(width) for c in row) + note)
    out.append("TOTAL OF ALL GAMES".ljust(20)
               + "".join(f"{t.total_of_all_games[n]} ".rjust(width) for n in names))
    out.append("games won".ljust(20) + "".join(f"{t.games_won[n]} ".rjust(width) for n in names))
    d = t.to_dict()["difference_points"]
    out.append("difference points".ljust(20) + "".join(f"{d[n]} ".rjust(width) for n in names))
    out.append("(* won that game; a tie is a win for everyone tied)")
    out.append(_standings_line(t))
    return "\n".join(out)


def cmd_tally(args: argparse.Namespace) -> int:
    sheet = _load(args.sheet)
    t = tally_sheet(sheet, _rules_arg(args.rules))
    if args.format == "json":
        print(json.dumps(t.to_dict(), indent=2))
    else:
        print(render_tally(t))
    return ExitCode.OK


# ----------------------------------------------------------------------------- rules




def cmd_rules(args: argparse.Namespace) -> int:
    sets = REGISTRY.all()
    if args.format == "json":
        print(json.dumps({"default": get_rules(None).name,
                          "rule_sets": [r.to_dict() for r in sets],
                          "options": OPTION_NOTES}, indent=2))
        return ExitCode.OK
    default = get_rules(None).name
    for r in sets:
        tag = " (default)" if r.name == default else ""
        print(f"{r.name}{tag}: {r.title}")
        print(f"  {r.summary}")
        if r.aliases:
            print(f"  aliases: {', '.join(r.aliases)}")
        print(f"  joker rule from: {', '.join(str(c) for c in r.cite('joker'))}")
    print()
    width = max(len(f) for f in RULE_FIELDS) + 2
    print("".ljust(width) + "".join(r.name.rjust(13) for r in sets))
    for f in RULE_FIELDS:
        vals = [str(r.to_dict()[f]).lower() for r in sets]
        mark = "  <- differs" if len(set(vals)) > 1 else ""
        print(f.ljust(width) + "".join(v.rjust(13) for v in vals) + mark)
    print()
    for key, note in OPTION_NOTES.items():
        print(f"{key}: {note}")
    return ExitCode.OK


# ----------------------------------------------------------------------------- wiring

def _guard(func: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return int(func(args))
        except InputError as exc:
            print(f"scorepad: {exc}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    return run


def register(sub: Any) -> None:
    fmt = {"choices": ("text", "json"), "default": "text", "help": "output format"}
    p = sub.add_parser("verify", help="audit score sheets (exit 0 correct, 1 errors, 2 bad input, "
                       "3 doubts)", description="Audit score sheets: every finding, with the "
                       "rule set and book lines behind it.", epilog=VERIFY_EXIT_CODES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sheets", nargs="+", metavar="SHEET", help="sheet JSON file(s), - for stdin")
    p.add_argument("--rules", help="rule set name or custom rule-set JSON file (overrides the sheet)")
    p.add_argument("--format", **fmt)
    p.add_argument("--summary", action="store_true", help="one line per sheet")
    p.set_defaults(func=_guard(cmd_verify))

    p = sub.add_parser("options", help="where may these dice go on this card?")
    p.add_argument("--dice", required=True, help="five dice, e.g. 66666")
    p.add_argument("--card", help="card JSON (a game object or a sheet); default empty card")
    p.add_argument("--player", type=int, default=1, help="player number on a sheet (default 1)")
    p.add_argument("--game", type=int, default=1, help="game number on a sheet (default 1)")
    p.add_argument("--rules", help="rule set name or custom rule-set JSON file")
    p.add_argument("--format", **fmt)
    p.set_defaults(func=_guard(cmd_options))

    p = sub.add_parser("tally", help="totals, PLAYERS' SCORES, winners and standings")
    p.add_argument("sheet", metavar="SHEET")
    p.add_argument("--rules", help="rule set name or custom rule-set JSON file")
    p.add_argument("--format", **fmt)
    p.set_defaults(func=_guard(cmd_tally))

    p = sub.add_parser("rules", help="the rule sets and how they differ")
    p.add_argument("--format", **fmt)
    p.set_defaults(func=_guard(cmd_rules))
