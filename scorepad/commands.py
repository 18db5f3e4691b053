"""The core sub-commands: verify, options, tally, rules (their input helpers, shared with
the plugins, are in ``inputs``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cliapi import ExitCode, InputError, add_command
from .inputs import (
    FORMAT,
    RULES_HELP,
    add_card_arguments,
    card_arg,
    check_card,
    load,
    parse_json,
    read_text,
    rules_arg,
)
from .rules import OPTION_NOTES, REGISTRY, RULE_FIELDS, get_rules

if TYPE_CHECKING:
    from .audit import Report
    from .games.common import GameReport
    from .placement import Options
    from .tally import Tally

# The audit, marshmallow (sheet loading) and the rest of the domain are imported inside the
# commands that use them: ``scorepad rules`` and every --help start without them.

__all__ = ["InputError", "card_arg", "check_card", "load", "parse_json", "read_text",
           "rules_arg"]


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


SIDECARS = (".expect.json", ".meta.json")  # beside sheets in sample_pads/: not sheets


def _expand(paths: list[str]) -> list[tuple[str, InputError | None]]:
    """Each input with the error that stops it before loading (None: load it). A directory
    stands for the ``*.json`` sheets in it (``NAME.truth.json`` too, not the ``*.expect.json``
    and ``*.meta.json`` files beside them); an empty one is an input that fails."""
    out: list[tuple[str, InputError | None]] = []
    for path in paths:
        p = Path(path)
        if path != "-" and p.is_dir():
            found = sorted(str(f) for f in p.glob("*.json")
                           if not f.name.endswith(SIDECARS) and not f.is_dir())
            out += [(f, None) for f in found]
            if not found:
                out.append((path, InputError(f"{path}: no sheets (*.json) in this directory",
                                             "no_sheets")))
        else:
            out.append((path, None))
    return out


def _summary_line(report: Report | GameReport, path: str) -> str:
    c = report.counts()
    codes = sorted({f.code.value for f in report.findings if f.severity.value != "notice"})
    verdict = {"correct": "clean", "unsure": f"{c['doubt']} doubt(s)",
               "errors": f"{c['error']} error(s)"}[report.verdict]
    extra = f" ({', '.join(codes)})" if codes else ""
    return f"{verdict:>12}  {path} [{report.rule_set.name}]{extra}"


_EXIT_RANK = (ExitCode.OK, ExitCode.DOUBTS, ExitCode.FINDINGS, ExitCode.BAD_INPUT)
_VERDICT_EXIT = {"correct": ExitCode.OK, "unsure": ExitCode.DOUBTS, "errors": ExitCode.FINDINGS}

VERIFY_EPILOG = """A directory stands for the sheets in it (*.json, not the *.expect.json and
*.meta.json files beside them); - reads a sheet from standard input.

--format json prints one JSON array, always, with an entry per sheet in order:
the report ({"source": ..., "rule_set", "ok", "verdict", "counts", "findings",
"games", "tally"}) or, for a sheet that cannot be read, {"source": ..., "error":
{"code", "message", "errors"}}. JSON Schema: scorepad/jsonschema/verify.schema.json.

exit codes (the worst sheet decides: 2, then 1, then 3):
  0  every sheet is correct
  1  a sheet has errors
  2  a sheet cannot be read (not JSON, not a sheet, no such file, unknown rule set)
  3  no errors, but doubts: a scanned sheet has errors that a misread cell explains
     (DOUBT lines name the cells and their crop boxes: check them on the photo)

examples:
  scorepad verify sample_pads/upper_bonus_missing.json
  scorepad verify --summary sample_pads/
  scorepad verify --rules classic --format json sheet.json
  scorepad verify --rules '{"base": "hasbro", "yahtzee_bonus": 0}' sheet.json
  scorepad scan photo.jpg | scorepad verify -"""


def _error_entry(path: str, exc: InputError) -> dict[str, Any]:
    return {"source": path, "error": {
        "code": exc.code, "message": str(exc).splitlines()[0],
        "errors": [{"path": w, "message": m} for w, m in exc.errors]}}


def cmd_verify(args: argparse.Namespace) -> int:
    from .gamecli import RulesOption, render_game_report, verify_path
    from .games.common import GameReport

    rules = RulesOption(args.rules)  # a Yahtzee, SCRABBLE or SORRY! rule set
    entries: list[dict[str, Any]] = []
    worst = ExitCode.OK  # the worst sheet: bad input, then errors, then doubts
    for path, failed in _expand(args.sheets):
        try:
            if failed is not None:
                raise failed
            report = verify_path(path, rules)  # dispatched on the sheet's game
        except InputError as exc:
            print(f"scorepad: {exc}", file=sys.stderr)
            worst = ExitCode.BAD_INPUT
            entries.append(_error_entry(path, exc))
            continue
        code = _VERDICT_EXIT[report.verdict]
        worst = max(worst, code, key=_EXIT_RANK.index)
        if args.format == "json":
            entries.append({"source": path, **report.to_dict()})
        elif args.summary:
            print(_summary_line(report, path))
        else:
            print(render_game_report(report, path) if isinstance(report, GameReport)
                  else render_report(report, path))
    if args.format == "json":
        print(json.dumps(entries, indent=2))
    return worst


# ----------------------------------------------------------------------------- options

def options_dict(opts: Options) -> dict[str, Any]:
    """The JSON of ``options`` (the API's ``POST /api/v1/options`` answer, key for key)."""
    return {
        "rule_set": opts.rules.name,
        "dice": list(opts.dice),
        "joker": opts.joker,
        "bonus": opts.bonus,
        "options": [o.to_dict() for o in opts.options],
        "legal": [{"box": b.value, "value": v} for b, v in opts.legal()],
    }


def cmd_options(args: argparse.Namespace) -> int:
    from . import messages
    from .card import Game
    from .placement import legal_options
    from .scoring import DiceError, parse_dice

    rules = rules_arg(args.rules) or get_rules(None)
    try:
        dice = parse_dice(args.dice)
    except DiceError as exc:
        raise InputError(f"--dice: {exc}") from None
    card = card_arg(args.card, args.player, args.game) if args.card else Game()
    if args.card and (code := check_card(card, rules, args.card)):
        return code
    opts = legal_options(rules, card.boxes, dice)
    if args.format == "json":
        print(json.dumps(options_dict(opts), indent=2))
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
    from .audit import audit_sheet
    from .card import Sheet
    from .gamecli import RulesOption, load_any, tally_game
    from .tally import tally_sheet

    game, any_sheet = load_any(args.sheet)
    if not isinstance(any_sheet, Sheet):  # a SCRABBLE or SORRY! sheet
        return tally_game(args.sheet, any_sheet, RulesOption(args.rules), args.format, game)
    sheet = any_sheet
    rules = rules_arg(args.rules)
    report = audit_sheet(sheet, rules)
    t = report.tally or tally_sheet(sheet, rules)
    if args.format == "json":
        print(json.dumps({"verdict": report.verdict, **t.to_dict()}, indent=2))
    else:
        print(render_tally(t))
    if report.verdict != "correct":
        c = report.counts()
        print(f"scorepad: {args.sheet}: the sheet has {c['error']} error(s) and {c['doubt']} "
              "doubt(s); the totals above are the boxes' sums, not what was written (scorepad "
              "verify shows where)", file=sys.stderr)
    return _VERDICT_EXIT[report.verdict]


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

def register(sub: Any) -> None:
    p = add_command(sub, "verify", description="Audit score sheets: every finding, with the "
                    "rule set and book lines behind it.", epilog=VERIFY_EPILOG)
    p.add_argument("sheets", nargs="+", metavar="SHEET",
                   help="sheet JSON file, a directory of sheets, or - for standard input")
    p.add_argument("--rules", help=RULES_HELP + " (overrides each sheet's rules)")
    p.add_argument("--format", **FORMAT)
    p.add_argument("--summary", action="store_true", help="one line per sheet (text format)")
    p.set_defaults(func=cmd_verify)

    p = add_command(sub, "options", epilog="""exit codes: 0 answered, 1 the card has errors
(no legal game gives it), 2 bad input

examples:
  scorepad options --dice 66666
  scorepad options --rules classic --dice 66666 --card '{"sixes": 18, "yahtzee": 50}'
  scorepad options --dice 12345 --card sheet.json --player 2 --game 3 --format json""")
    p.add_argument("--dice", required=True, help="the five dice, e.g. 66666")
    add_card_arguments(p)
    p.add_argument("--rules", help=RULES_HELP + " (default hasbro)")
    p.add_argument("--format", **FORMAT)
    p.set_defaults(func=cmd_options)

    p = add_command(sub, "tally", epilog="""The totals are the boxes' sums under the rules;
a sheet with errors is still tallied, with a line on stderr and its exit code.

exit codes: 0 the sheet is correct, 1 it has errors, 2 bad input, 3 doubts

examples:
  scorepad tally sample_pads/hasbro_two_players_six_games.json
  scorepad tally --format json sheet.json""")
    p.add_argument("sheet", metavar="SHEET", help="sheet JSON file, or - for standard input")
    p.add_argument("--rules", help=RULES_HELP + " (overrides the sheet's rules)")
    p.add_argument("--format", **FORMAT)
    p.set_defaults(func=cmd_tally)

    p = add_command(sub, "rules", epilog="""examples:
  scorepad rules
  scorepad rules --format json""")
    p.add_argument("--format", **FORMAT)
    p.set_defaults(func=cmd_rules)
