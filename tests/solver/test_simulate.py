"""Monte Carlo of optimal play."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import scorepad.solver.simulate  # noqa: F401
from scorepad.solver import get_table, simulate

sim_module = sys.modules["scorepad.solver.simulate"]


def test_same_seed_same_games() -> None:
    a = simulate("hasbro", 300, seed=7)
    assert simulate("hasbro", 300, seed=7) is a  # memoised
    sim_module._MEMO.clear()
    b = simulate("hasbro", 300, seed=7)  # played again
    assert b is not a
    c = simulate("hasbro", 300, seed=8)
    np.testing.assert_array_equal(a.scores, b.scores)
    assert not np.array_equal(a.scores, c.scores)


def test_mean_matches_the_table() -> None:
    result = simulate("hasbro", 3000, seed=1)
    se = result.sd / np.sqrt(result.games)
    assert abs(result.mean - get_table("hasbro").expected_score) < 4 * se
    d = result.to_dict()
    assert 0.5 < d["upper_bonus_rate"] < 0.85 and 0.2 < d["yahtzee_rate"] < 0.5
    p = d["percentiles"]
    assert d["min"] <= p["p5"] <= p["p50"] <= p["p95"] <= d["max"]
    assert result.percentile_of(d["min"]) == 0.0 and result.percentile_of(10_000) == 100.0


def test_scores_respect_rules() -> None:
    result = simulate({"base": "hasbro", "yahtzee_bonus": 0, "joker": "none"}, 500, seed=2)
    assert result.scores.max() <= 375  # without bonuses the best game is 375 (004)
    assert result.bonus_yahtzees.sum() == 0


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        simulate("hasbro", 0)
    with pytest.raises(ValueError):
        simulate("hasbro", 10, seed=-1)
