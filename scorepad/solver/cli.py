"""``scorepad solve | analyse | advise | simulate``: the solver's sub-commands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..boxes import Box
from ..cli import ExitCode
from ..commands import InputError, parse_json, read_text
from ..rules import RuleSet, RuleSetError, UnknownRuleSet, get_rules
from ..schemas import SheetFormatError, loads_sheet
from .analysis import AnalysisError, GameAnalysis, advise, analyse_sheet, parse_card
from .simulate import MAX_GAMES, simulate
from .table import SolverError, cache_path, get_table


def _rules(value: str | None) -> RuleSet | None:
    """A rule-set name, a JSON object, or a JSON file holding a custom rule set."""
    if value is None:
        return None
    try:
        if value.lstrip().startswith("{"):
            return get_rules(parse_json(value, "--rules"))
        if value.endswith(".json") or Path(value).is_file():
            return get_rules(parse_json(read_text(value), value))
        return get_rules(value)
    except (RuleSetError, UnknownRuleSet) as exc:
        raise InputError(f"--rules: {exc}") from None


def _print(doc: Any) -> None:
    print(json.dumps(doc, indent=2))


# -- commands ---------------------------------------------------------------------------

def cmd_solve(args: argparse.Namespace) -> int:
    rules = _rules(args.rules) or get_rules(None)
    table = get_table(rules, use_cache=not args.no_cache)
    path = cache_path(rules)
    if args.format == "json":
        _print({"rule_set": rules.name, "expected_score": round(table.expected_score, 6),
                "key": table.key, "cache": None if args.no_cache else str(path),
                "build_seconds": table.build_seconds})
    else:
        print(f"{rules.name}: expected score of optimal play {table.expected_score:.4f}")
    return ExitCode.OK


def _analysis_lines(a: GameAnalysis) -> list[str]:
    lines = [f"{a.player}, game {a.game} ({a.rule_set}): {a.turns} turns, "
             f"{'complete' if a.complete else 'in progress'}"]
    for d in a.decisions:
        if d.loss < 0.005:
            continue
        chosen = d.chosen.to_dict()
        best = d.best.to_dict()
        lines.append(
            f"  turn {d.turn} roll {d.roll} {''.join(map(str, d.dice))}: "
            f"{_choice(chosen)} ({d.chosen.expected:.2f}) vs best {_choice(best)} "
            f"({d.best.expected:.2f}): -{d.loss:.2f}"
        )
    lines.append(f"  total loss {a.total_loss:.2f} over {len(a.decisions)} decisions; "
                 f"optimal expectation {a.optimal_expected:.2f}, given these decisions "
                 f"{a.expected_given_decisions:.2f}; score {a.score:.2f}; luck {a.luck:+.2f}")
    return lines


def _choice(d: dict[str, Any]) -> str:
    if d["kind"] == "keep":
        return f"keep [{''.join(map(str, d['keep']))}]" if d["keep"] else "reroll all"
    return f"{d['box']} {d['value']}"


def cmd_analyse(args: argparse.Namespace) -> int:
    text = read_text(args.sheet)
    try:
        sheet = loads_sheet(text)
    except SheetFormatError as exc:
        first = exc.errors[0] if exc.errors else ("$", "not a sheet")
        more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
        raise InputError(f"{args.sheet}: not a valid sheet: {first[0]}: {first[1]}{more}") from None
    rules = _rules(args.rules)
    try:
        results = analyse_sheet(sheet, rules)
    except (AnalysisError, SolverError) as exc:
        raise InputError(f"{args.sheet}: {exc}") from None
    except (RuleSetError, UnknownRuleSet) as exc:
        raise InputError(f"{args.sheet}: rules: {exc}") from None
    if not results:
        raise InputError(f"{args.sheet}: no game has a turn log to analyse")
    if args.format == "json":
        _print({"games": [a.to_dict() for a in results]})
    else:
        for a in results:
            print("\n".join(_analysis_lines(a)))
    return ExitCode.OK


def cmd_advise(args: argparse.Namespace) -> int:
    rules = _rules(args.rules)
    boxes: dict[Box, int] = {}
    checks = 0
    if args.card is None:
        pass
    else:
        raw = args.card
        data = parse_json(raw, "--card") if raw.lstrip().startswith("{") else parse_json(
            read_text(raw), raw)
        try:
            boxes, checks = parse_card(data)
        except AnalysisError as exc:
            raise InputError(f"{raw}: {exc}") from None
    try:
        advice = advise(boxes, args.dice, args.roll, rules, bonus_checks=checks)
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
    rules = _rules(args.rules) or get_rules(None)
    if not 1 <= args.games <= MAX_GAMES:
        raise InputError(f"--games must be 1..{MAX_GAMES}")
    if not 0 <= args.seed < 2**32:
        raise InputError("--seed must be 0..4294967295")
    result = simulate(rules, args.games, args.seed)
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


def _guard(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except InputError as exc:
            print(f"scorepad {args.command}: {exc}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    return run


def _roll(value: str) -> int:
    if value not in ("1", "2", "3"):
        raise argparse.ArgumentTypeError("the roll number is 1, 2 or 3")
    return int(value)


def register(sub: Any) -> None:
    fmt: dict[str, Any] = {"choices": ("text", "json"), "default": "text",
                           "help": "output format"}
    rules_help = "rule set: a name, a JSON object or a JSON file (default hasbro)"

    p = sub.add_parser("solve", help="solve (or load) the optimal-play table of a rule set")
    p.add_argument("--rules", help=rules_help)
    p.add_argument("--no-cache", action="store_true", help="solve afresh; neither read nor "
                   "write the cache ($SCOREPAD_CACHE_DIR, default ~/.cache/scorepad)")
    p.add_argument("--format", **fmt)
    p.set_defaults(func=_guard(cmd_solve))

    p = sub.add_parser("analyse", aliases=["analyze"],
                       help="what each decision of the logged games cost against optimal play")
    p.add_argument("sheet", help="sheet JSON file with turn logs ('-' for stdin)")
    p.add_argument("--rules", help="override the sheet's rule set; " + rules_help)
    p.add_argument("--format", **fmt)
    p.set_defaults(func=_guard(cmd_analyse))

    p = sub.add_parser("advise", help="best keep or box for a position, and the runner-up")
    p.add_argument("--rules", help=rules_help)
    p.add_argument("--card", help="card in progress: JSON file or object of box values "
                   "(default: empty card)")
    p.add_argument("--dice", required=True, help="the five dice, e.g. 12346")
    p.add_argument("--roll", type=_roll, required=True, help="which roll the dice are (1-3)")
    p.add_argument("--format", **fmt)
    p.set_defaults(func=_guard(cmd_advise))

    p = sub.add_parser("simulate", help="score distribution of optimal play (seeded)")
    p.add_argument("--rules", help=rules_help)
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--format", **fmt)
    p.set_defaults(func=_guard(cmd_simulate))
