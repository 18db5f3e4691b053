"""Turn-log audit against an independent replay (tests/sim/turnlog.py).

Simulated games with their turn logs, each changed in one place (a value, a
box, the final dice, the check marks, a fourth roll, kept dice, the card):
the audit must find an error exactly when the replay finds the log illegal,
and among its codes one that names the kind of problem.
"""

from __future__ import annotations

import random

import pytest

from scorepad import audit_sheet
from scorepad.schemas import load_sheet

from .model import STANDARD
from .simulator import game_json, play_game
from .turnlog import PROBLEM_CODES, mutate_turns, replay

TURN_LOG_MUTATIONS_PER_RULE_SET = 250
SEED = 977


@pytest.mark.parametrize("name", ["hasbro", "classic", "travel"])
def test_turn_log_mutations(name: str) -> None:
    cfg = STANDARD[name]
    rng = random.Random(SEED + len(name))
    out = []
    for _ in range(TURN_LOG_MUTATIONS_PER_RULE_SET):
        rec = play_game(rng, cfg, rng.choice([13, rng.randint(1, 13)]))
        game = game_json(rng, rec, cfg, "blank", with_turns=True)
        assert not replay(cfg, game)
        mutated, what = mutate_turns(rng, game)
        problems = replay(cfg, mutated)
        sheet = {"rules": name, "players": [{"name": "A", "games": [mutated]}]}
        report = audit_sheet(load_sheet(sheet))
        errs = {f.code.value for f in report.findings if f.severity.value == "error"}
        missing = [p for p in problems if not errs & PROBLEM_CODES[p.split(":")[0]]]
        if bool(problems) != bool(errs) or missing:
            out.append(f"{name}: [{what}] replay {problems} / audit {sorted(errs)}; "
                       f"unnamed: {missing}; turns {mutated['turns']}")
    assert not out, f"{len(out)} disagreements:\n" + "\n".join(out[:10])
