"""Totals written early: the final totals of a legal game lie within what the audit allows
at every earlier point of that game (TOTAL_BELOW_FILLED / TOTAL_ABOVE_REACHABLE are never
raised against them), and a total just past either bound is always accused."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorepad import audit_sheet
from scorepad.schemas import load_sheet

from .model import KEYS, STANDARD, Cfg, custom
from .simulator import STRATEGIES, GameRecord, play_turn, written_totals

GAMES = 300
CASES: list[tuple[Cfg, Any]] = [
    *((STANDARD[n], n) for n in sorted(STANDARD)),
    custom("hasbro", yahtzee_bonus=0),
    custom("hasbro", upper_bonus_threshold=50),
]


def _card(rec_boxes: dict[int, int], checks: int, totals: dict[str, Any]) -> dict[str, Any]:
    return {"boxes": {k: rec_boxes.get(i) for i, k in enumerate(KEYS)},
            "yahtzee_bonus_checks": checks, "totals": totals}


def _codes(rules: Any, game: dict[str, Any]) -> list[str]:
    report = audit_sheet(load_sheet({"rules": rules, "players": [{"name": "A", "games": [game]}]}))
    return [f"{f.code.value}@{f.field}" for f in report.findings if f.severity.value == "error"]


@pytest.mark.parametrize(("cfg", "rules"), CASES, ids=[c[0].name for c in CASES])
def test_a_legal_games_final_totals_are_never_accused_early(cfg: Cfg, rules: Any) -> None:
    rng = random.Random(20261126)
    failures = []
    for _ in range(GAMES):
        rec, strategy = GameRecord(), rng.choice(STRATEGIES)
        p_load = rng.choice((0.05, 0.2, 0.4, 0.6))
        k = rng.randrange(1, 13)
        for _ in range(k):
            play_turn(rng, cfg, rec, strategy, p_load)
        boxes, checks = dict(rec.boxes), rec.checks
        for _ in range(13 - k):
            play_turn(rng, cfg, rec, strategy, p_load)
        final = written_totals(rng, rec, cfg, "full")
        final["yahtzee_bonus"] = None  # points for the check marks, which the card has not yet
        if all(b in boxes for b in range(6, 13)):
            # a finished lower section's TOTAL is checked exactly, against the checks so far
            final["lower_total"] = None
        # the card after k turns, with the totals the game will end with already written
        bad = _codes(rules, _card(boxes, checks, final))
        if bad:
            failures.append((k, boxes, checks, final, bad))
    assert not failures, failures[:3]


def test_a_total_past_either_bound_is_accused() -> None:
    # Upper 1+2+3+4+5 with Sixes open: TOTAL SCORE 15..45; lower 150 with YAHTZEE 50 and
    # three turns left (Sixes, Lg. Straight, Chance): lower TOTAL 150..520.
    boxes = {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 6: 20, 7: 25, 8: 25, 9: 30, 11: 50}
    ok = {"upper_total_score": 45, "lower_total": 520, "grand_total": 565}
    assert _codes("hasbro", _card(boxes, 0, ok)) == []
    assert _codes("hasbro", _card(boxes, 0, {"upper_total_score": 14, "lower_total": 149})) == [
        "TOTAL_BELOW_FILLED@upper_total_score", "TOTAL_BELOW_FILLED@lower_total"]
    high = {"upper_total_score": 46, "lower_total": 521, "grand_total": 566}
    assert _codes("hasbro", _card(boxes, 0, high)) == [
        "TOTAL_ABOVE_REACHABLE@upper_total_score", "TOTAL_ABOVE_REACHABLE@lower_total",
        "TOTAL_ABOVE_REACHABLE@grand_total"]
