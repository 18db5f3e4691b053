"""``scorepad solve | analyse | advise | simulate``: the solver's sub-commands.

Imported only when one of these commands runs (``scorepad.cli.COMMANDS``): this package
loads numpy and numba.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..audit import audit_sheet
from ..cliapi import ExitCode, InputError, add_command
from ..inputs import FORMAT, RULES_HELP, add_card_arguments, card_arg, check_card, load, rules_arg
from ..rules import RuleSet, RuleSetError, UnknownRuleSet, get_rules
from .analysis import AnalysisError, GameAnalysis, advice_input, advise, analyse_sheet
from .simulate import MAX_GAMES, simulate
from .table import OptimalTable, SolverError, cache_path, get_table, table_available

BAR = 30  # characters of the progress bar


def _print(doc: Any) -> None:
    print(json.dumps(doc, indent=2))


def prepare_table(rules: RuleSet, use_cache: bool = True) -> OptimalTable:
    """The rule set's table; a build (10-20 s the first time) says so on stderr, with a
    progress bar when stderr is a terminal."""
    if use_cache and table_available(rules):
        return get_table(rules)  # in memory or on disk (a damaged file is rebuilt silently)
    tty = sys.stderr.isatty()
    where = f"cached in {cache_path(rules).parent}" if use_cache else "not cached (--no-cache)"
    print(f"scorepad: building the optimal-play table for {rules.name} (10-20 s; {where})",
          file=sys.stderr, flush=True)
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if tty:
            filled = BAR * done // total
            print(f"\r  [{'#' * filled}{'.' * (BAR - filled)}] {done}/{total} levels",
                  end="", file=sys.stderr, flush=True)

    table = get_table(rules, use_cache=use_cache, progress=progress)
    if tty:
        print("\r" + " " * (BAR + 20) + "\r", end="", file=sys.stderr)
    print(f"scorepad: table for {rules.name} built in {time.perf_counter() - start:.1f} s",
          file=sys.stderr, flush=True)
    return table


# -- commands ---------------------------------------------------------------------------

def cmd_solve(args: argparse.Namespace) -> int:
    rules = rules_arg(args.rules) or get_rules(None)
    table = prepare_table(rules, use_cache=not args.no_cache)
    if args.format == "json":
        _print({"rule_set": rules.name, "expected_score": round(table.expected_score, 6),
                "key": table.key, "cache": None if args.no_cache else str(cache_path(rules)),
                "build_seconds": table.build_seconds})
    else:
        print(f"{rules.name}: expected score of optimal play {table.expected_score:.4f}")
    return ExitCode.OK


def _analysis_lines(a: GameAnalysis, losses_only: bool) -> list[str]:
    lines = [f"{a.player}, game {a.game} ({a.rule_set}): {a.turns} turns, "
             f"{'complete' if a.complete else 'in progress'}"]
    for d in a.decisions:
        lost = d.loss >= 0.005
        if losses_only and not lost:
            continue
        chosen = d.chosen.to_dict()
        verdict = (f"vs best {_choice(d.best.to_dict())} ({d.best.expected:.2f}): -{d.loss:.2f}"
                   if lost else "best")
        lines.append(f"  turn {d.turn} roll {d.roll} {''.join(map(str, d.dice))}: "
                     f"{_choice(chosen)} ({d.chosen.expected:.2f}) {verdict}")
    lost_count = sum(1 for d in a.decisions if d.loss >= 0.005)
    lines.append(f"  {lost_count} of {len(a.decisions)} decisions lost points, "
                 f"{a.total_loss:.2f} in all")
    score = (f"final score {a.score:.2f}" if a.complete else
             f"projected final score {a.score:.2f} (points so far + the expected rest)")
    lines.append(f"  {score} = expected score of optimal play {a.optimal_expected:.2f} "
                 f"- decisions' loss {a.total_loss:.2f} {'+' if a.luck >= 0 else '-'} "
                 f"luck {abs(a.luck):.2f}")
    return lines


def _choice(d: dict[str, Any]) -> str:
    if d["kind"] == "keep":
        return f"keep [{''.join(map(str, d['keep']))}]" if d["keep"] else "reroll all"
    return f"{d['box']} {d['value']}"


def cmd_analyse(args: argparse.Namespace) -> int:
    sheet = load(args.sheet)
    override = rules_arg(args.rules)
    try:
        rules = override or get_rules(sheet.rules)
    except (RuleSetError, UnknownRuleSet) as exc:
        raise InputError(f"{args.sheet}: rules: {exc}") from None
    if not any(g is not None and g.turns for p in sheet.players for g in p.games):
        raise InputError(f"{args.sheet}: no game has a turn log to analyse")
    prepare_table(rules)
    try:
        results = analyse_sheet(sheet, rules)
    except (AnalysisError, SolverError) as exc:
        report = audit_sheet(sheet, rules)
        if not report.ok:  # an illegal turn log is an error of the sheet, as verify says
            print(f"scorepad: {args.sheet}: {exc} (the sheet has errors: scorepad verify "
                  f"{args.sheet})", file=sys.stderr)
            return ExitCode.FINDINGS
        raise InputError(f"{args.sheet}: {exc}") from None
    if args.format == "json":
        _print({"games": [a.to_dict() for a in results]})
    else:
        for a in results:
            print("\n".join(_analysis_lines(a, args.losses)))
    return ExitCode.OK


def cmd_advise(args: argparse.Namespace) -> int:
    rules = rules_arg(args.rules) or get_rules(None)
    boxes = {}
    checks = 0
    if args.card is not None:
        card = card_arg(args.card, args.player, args.game)
        where = "--card" if args.card.lstrip().startswith("{") else args.card
        if code := check_card(card, rules, where):
            return code
        boxes = {b: v for b, v in card.boxes.items() if v is not None}
        checks = card.bonus_checks
    try:
        advice_input(boxes, args.dice, args.roll, checks)  # bad input: no table built for it
        advice = advise(boxes, args.dice, args.roll, rules, bonus_checks=checks,
                        table=prepare_table(rules))
    except (AnalysisError, SolverError) as exc:
        raise InputError(str(exc)) from None
    if args.format == "json":
        _print(advice.to_dict())
        return ExitCode.OK
    best = advice.best.to_dict()
    print(f"{advice.rule_set}, roll {advice.roll}, dice {''.join(map(str, advice.dice))}: "
          f"best {_choice(best)} (expected final score {advice.best.expected:.2f})")
    ru = advice.runner_up
    if ru is not None:
        print(f"runner-up {_choice(ru.to_dict())} ({ru.expected:.2f}, "
              f"{advice.best.expected - ru.expected:.2f} worse)")
    return ExitCode.OK


def cmd_simulate(args: argparse.Namespace) -> int:
    rules = rules_arg(args.rules) or get_rules(None)
    if not 1 <= args.games <= MAX_GAMES:
        raise InputError(f"--games must be 1..{MAX_GAMES}")
    if not 0 <= args.seed < 2**32:
        raise InputError("--seed must be 0..4294967295")
    result = simulate(rules, args.games, args.seed, table=prepare_table(rules))
    d = result.to_dict()
    if args.format == "json":
        _print(d)
        return ExitCode.OK
    pct = ", ".join(f"{k} {v:g}" for k, v in d["percentiles"].items())
    print(f"{d['rule_set']}: {d['games']} games of optimal play, seed {d['seed']}")
    print(f"mean {d['mean']:.2f} (table {d['expected']:.4f}, standard error "
          f"{d['standard_error']:.2f}), SD {d['sd']:.2f}, min {d['min']}, max {d['max']}")
    print(f"percentiles: {pct}")
    print(f"upper bonus {100 * d['upper_bonus_rate']:.1f}%, YAHTZEE 50 "
          f"{100 * d['yahtzee_rate']:.1f}%, bonus Yahtzees per game "
          f"{d['bonus_yahtzees_per_game']:.3f}")
    return ExitCode.OK


def _roll(value: str) -> int:
    if value not in ("1", "2", "3"):
        raise argparse.ArgumentTypeError("the roll number is 1, 2 or 3")
    return int(value)


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None


TABLE_NOTE = """The first use of a rule set builds its table of optimal play (10-20 s, progress
on stderr) and caches it ($SCOREPAD_CACHE_DIR, default ~/.cache/scorepad)."""


def register(sub: Any) -> None:
    default_rules = RULES_HELP + " (default hasbro)"

    p = add_command(sub, "solve", epilog=f"""{TABLE_NOTE}

examples:
  scorepad solve --rules hasbro
  scorepad solve --rules '{{"base": "hasbro", "yahtzee_bonus": 0, "joker": "none"}}'""")
    p.add_argument("--rules", help=default_rules)
    p.add_argument("--no-cache", action="store_true", help="solve afresh; neither read nor "
                   "write the cache ($SCOREPAD_CACHE_DIR, default ~/.cache/scorepad)")
    p.add_argument("--format", **FORMAT)
    p.set_defaults(func=cmd_solve)

    p = add_command(sub, "analyse", epilog=f"""Prints, per game, every decision (each keep and
each box chosen; --losses: only those that lost points) with the expected final score of
the choice made and of the best one, then: score = expected score of optimal play - the
decisions' loss + luck (what the dice gave or took).

exit codes: 0 analysed, 1 a turn log breaks the rules (scorepad verify shows the errors),
2 bad input

{TABLE_NOTE}

examples:
  scorepad analyse sample_pads/turn_log_clean_hasbro.json
  scorepad analyse --losses sheet.json
  scorepad analyse --format json sheet.json""")
    p.add_argument("sheet", help="sheet JSON file with turn logs, or - for standard input")
    p.add_argument("--rules", help=RULES_HELP + " (default: the sheet's rules)")
    p.add_argument("--losses", action="store_true",
                   help="print only the decisions that lost points (text format)")
    p.add_argument("--format", **FORMAT)
    p.set_defaults(func=cmd_analyse)

    p = add_command(sub, "advise", epilog=f"""exit codes: 0 answered, 1 the card has errors
(no legal game gives it), 2 bad input

{TABLE_NOTE}

examples:
  scorepad advise --dice 12346 --roll 2
  scorepad advise --card '{{"aces": 3, "yahtzee": 50}}' --dice 66666 --roll 3
  scorepad advise --card sheet.json --player 2 --game 1 --dice 11223 --roll 1""")
    p.add_argument("--rules", help=default_rules)
    add_card_arguments(p)
    p.add_argument("--dice", required=True, help="the five dice, e.g. 12346")
    p.add_argument("--roll", type=_roll, required=True, help="which roll the dice are (1-3)")
    p.add_argument("--format", **FORMAT)
    p.set_defaults(func=cmd_advise)

    p = add_command(sub, "simulate", epilog=f"""{TABLE_NOTE}

examples:
  scorepad simulate --rules hasbro --games 10000 --seed 1
  scorepad simulate --rules travel --games 1000 --format json""")
    p.add_argument("--rules", help=default_rules)
    p.add_argument("--games", type=_int, default=10_000,
                   help=f"games to play, 1..{MAX_GAMES} (default 10000)")
    p.add_argument("--seed", type=_int, default=1,
                   help="random seed, 0..4294967295 (default 1): same seed, same games")
    p.add_argument("--format", **FORMAT)
    p.set_defaults(func=cmd_simulate)
