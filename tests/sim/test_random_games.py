"""Random-game test: thousands of legal games from the independent simulator audit clean.

Every simulated sheet (1-4 players, 1-6 games, some in progress, some totals
left blank, PLAYERS' SCORES written correctly) is audited with its turn logs
and without them, and must get no error-severity finding (and none of the
warnings that only a slip can cause).  The test also counts the joker paths
the games took and fails if the simulator stops exercising any of them.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest

from scorepad import audit_sheet
from scorepad.schemas import load_sheet

from .model import STANDARD, Cfg, custom
from .simulator import SimSheet, simulate_sheet

# Games per standard rule set (hasbro, classic, travel); about 4 ms a game,
# both audits included.  Raise locally with SCOREPAD_SIM_GAMES for a longer run.
GAMES_PER_RULE_SET = int(os.environ.get("SCOREPAD_SIM_GAMES", "1500"))
# Games per house-rule variant (options switched away from their defaults).
GAMES_PER_VARIANT = max(1, GAMES_PER_RULE_SET // 12)
SEED = int(os.environ.get("SCOREPAD_SIM_SEED", "20261126"))

# Warnings a correctly written legal sheet must never get.
SLIP_WARNINGS = {"TOTAL_PREMATURE", "GRAND_TOTAL_CHANGES_WINNER"}

# Every path the joker rules open, per rule set (model.py / simulator.classify).
# "_y50": with 50 in the YAHTZEE box (a bonus check); "_y0": with a zero there.
_LOWER = ("3k", "4k", "fh", "ss", "ls", "chance")
REQUIRED_PATHS: dict[str, set[str]] = {
    "hasbro": {
        *(f"forced_upper_{y}" for y in ("y50", "y0")),
        *(f"forced_lower_{b}_y50" for b in _LOWER),
        *(f"forced_lower_{b}_y0" for b in _LOWER),
        "forced_lower_3k_zero_y50",  # joker_zero: a zero instead of the joker value
        "forced_upper_zero_y50", "forced_upper_zero_y0",
    },
    "classic": {
        "priority_upper_y50", "priority_upper_y0",
        "priority_step2_3k_y50", "priority_step2_4k_y50", "priority_step2_3k_y0",
        "priority_step3_chance_y50", "priority_step3_steal_fh_y50",
        "priority_step3_steal_ss_y50", "priority_step3_steal_ls_y50",
        "priority_step3_steal_ls_y0",
        "priority_upper_zero_y50", "priority_upper_zero_y0",
    },
    "travel": {
        "cond_upper_y50", "cond_upper_y0",
        "cond_open_natural_y50", "cond_open_zero_y50",  # upper box still open: no joker
        "cond_joker_fh_y50", "cond_joker_ss_y50", "cond_joker_ls_y50",
        "cond_joker_fh_y0", "cond_joker_ls_y0",
        "cond_joker_total_y50", "cond_joker_zero_y50",
        "cond_upper_zero_lower_full_y50", "cond_upper_zero_lower_full_y0",
    },
}
COMMON_PATHS = {
    "bonus_check", "two_or_more_bonus_checks", "joker_after_yahtzee_zero",
    "five_kind_yahtzee_open", "in_progress_game", "multi_player_sheet", "multi_game_sheet",
    "totals_blank", "totals_some", "players_scores_total_written", "section_total_in_progress",
    "turn_in_progress",
}

VARIANTS: list[tuple[Cfg, dict[str, Any]]] = [
    custom("hasbro", joker_zero=False),
    custom("hasbro", zero_in_chance=False),
    custom("classic", joker_zero=True),
    custom("travel", five_of_a_kind_full_house=True),
    custom("hasbro", yahtzee_bonus=0),
    custom("hasbro", upper_bonus_threshold=50),
]

OTHER = {"hasbro": "travel", "classic": "hasbro", "travel": "classic"}


def _bad_findings(report: Any) -> list[dict[str, Any]]:
    return [
        f.to_dict() for f in report.findings
        if f.severity.value == "error" or f.code.value in SLIP_WARNINGS
    ]


def _describe(sim: SimSheet, sheet: dict[str, Any], bad: list[dict[str, Any]]) -> str:
    out = []
    for f in bad[:3]:
        game = None
        if f["player"] is not None and f["game"] is not None:
            game = sheet["players"][f["player"]]["games"][f["game"] - 1]
        out.append(json.dumps({
            "code": f["code"], "player": f["player"], "game": f["game"], "field": f["field"],
            "written": f["written"], "expected": f["expected"], "rules": sheet["rules"],
            "game_json": game,
        }))
    return "\n".join(out)


def run_games(
    cfg: Cfg, rules_json: Any, n_games: int, seed: int, override: bool = True
) -> tuple[Counter[str], list[str], int]:
    """Simulate sheets until ``n_games`` games; audit each with and without turn logs."""
    rng = random.Random(seed)
    paths: Counter[str] = Counter()
    failures: list[str] = []
    games = 0
    while games < n_games:
        sim = simulate_sheet(rng, cfg, rules_json)
        games += sum(len(r) for r in sim.records)
        paths.update(sim.paths)
        for label, sheet in (("with turns", sim.sheet), ("without turns", sim.without_turns())):
            rules_arg = None
            if override and isinstance(rules_json, str) and rng.random() < 0.2:
                # The sheet names another rule set; ``rules`` must override it.
                sheet = dict(sheet, rules=OTHER[rules_json])
                rules_arg = rules_json
                paths["rules_override"] += 1
            report = audit_sheet(load_sheet(sheet), rules=rules_arg)
            bad = _bad_findings(report)
            if bad or not report.ok:
                failures.append(f"[{label}] {_describe(sim, sheet, bad)}")
            if rng.random() < 0.05:
                json.dumps(report.to_dict())  # the report is JSON-ready
    return paths, failures, games


@pytest.mark.parametrize("name", ["hasbro", "classic", "travel"])
def test_simulated_games_audit_clean(name: str) -> None:
    cfg = STANDARD[name]
    paths, failures, games = run_games(cfg, name, GAMES_PER_RULE_SET, SEED + sorted(STANDARD).index(name))
    assert games >= GAMES_PER_RULE_SET
    print(f"\n{name}: {games} games; paths: {dict(sorted(paths.items()))}")  # shown with -s
    assert not failures, (
        f"{len(failures)} simulated sheet audits under {name} got errors; first ones:\n"
        + "\n".join(failures[:5])
    )
    if GAMES_PER_RULE_SET >= 1000:  # the coverage promise holds for the default game count
        missing = sorted((REQUIRED_PATHS[name] | COMMON_PATHS) - set(paths))
        assert not missing, f"the simulator no longer exercises {missing} under {name}: {paths}"


@pytest.mark.parametrize("variant", VARIANTS, ids=[v[0].name for v in VARIANTS])
def test_simulated_games_audit_clean_under_house_rules(
    variant: tuple[Cfg, dict[str, Any]],
) -> None:
    cfg, rules_json = variant
    _paths, failures, _games = run_games(cfg, rules_json, GAMES_PER_VARIANT, SEED + 7)
    assert not failures, (
        f"{len(failures)} simulated sheet audits under {cfg.name} got errors; first ones:\n"
        + "\n".join(failures[:5])
    )


PLAYERS_SCORE_SLIPS = 60


def test_players_scores_slips_are_found() -> None:
    """One number changed on the PLAYERS' SCORES sheet of a simulated pad: a
    PLAYERS_SCORE_WRONG / PLAYERS_TOTAL_WRONG error for that player, nothing else."""
    rng = random.Random(SEED + 99)
    out = []
    done = 0
    while done < PLAYERS_SCORE_SLIPS:
        sim = simulate_sheet(rng, STANDARD["hasbro"], "hasbro", n_games=rng.choice((2, 3, 6)),
                             in_progress=False)
        sheet = sim.without_turns()
        players = [i for i, p in enumerate(sheet["players"]) if p["players_scores"]]
        if not players:
            continue
        done += 1
        p = rng.choice(players)
        scores = sheet["players"][p]["players_scores"]
        delta = rng.choice([1, -1, 10, -10, 100, 35])
        if rng.random() < 0.5 or scores["total"] is None:
            row = rng.randrange(len(scores["games"]))
            scores["games"][row] += delta
            expected = {"PLAYERS_SCORE_WRONG"}
            # The TOTAL OF ALL GAMES now disagrees with the rows as written too (or not,
            # if the audit checks it against the true totals): either code may follow.
            allowed = {"PLAYERS_SCORE_WRONG", "PLAYERS_TOTAL_WRONG"}
        else:
            scores["total"] += delta
            expected = allowed = {"PLAYERS_TOTAL_WRONG"}
        report = audit_sheet(load_sheet(sheet))
        errs = [f for f in report.findings if f.severity.value == "error"]
        codes = {f.code.value for f in errs}
        if not expected <= codes or not codes <= allowed or any(f.player != p for f in errs):
            out.append(f"player {p}: {scores} -> {[(f.code.value, f.player) for f in errs]}")
    assert not out, "\n".join(out[:10])
