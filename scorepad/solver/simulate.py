"""Seeded Monte Carlo of optimal play from the table: the score distribution."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..rules import RuleSet
from . import _kernel
from .table import OptimalTable, get_table

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
MAX_GAMES = 1_000_000
# Same table, games and seed: same result, so the statistics page pays once per process.
_MEMO: dict[tuple[str, int, int], SimulationResult] = {}
_MEMO_LOCK = threading.Lock()


@dataclass
class SimulationResult:
    """Scores of ``games`` optimally played games (numba's generator seeded with ``seed``)."""

    rule_set: str
    games: int
    seed: int
    expected: float  # the table's expected score, for comparison with the mean
    scores: npt.NDArray[np.int64]
    upper_bonus: npt.NDArray[np.bool_]
    yahtzee: npt.NDArray[np.bool_]  # 50 in the YAHTZEE box
    bonus_yahtzees: npt.NDArray[np.int64]

    @property
    def mean(self) -> float:
        return float(self.scores.mean())

    @property
    def sd(self) -> float:
        return float(self.scores.std(ddof=1)) if self.games > 1 else 0.0

    def percentiles(self) -> dict[str, float]:
        values = np.percentile(self.scores, PERCENTILES)
        return {f"p{p}": float(v) for p, v in zip(PERCENTILES, values, strict=True)}

    def percentile_of(self, score: float) -> float:
        """The share (0..100) of optimal games scoring strictly less than ``score``."""
        return float(100.0 * np.count_nonzero(self.scores < score) / self.games)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule_set": self.rule_set,
            "games": self.games,
            "seed": self.seed,
            "expected": round(self.expected, 4),
            "mean": round(self.mean, 4),
            "sd": round(self.sd, 4),
            "standard_error": round(self.sd / float(np.sqrt(self.games)), 4),
            "min": int(self.scores.min()),
            "max": int(self.scores.max()),
            "percentiles": self.percentiles(),
            "upper_bonus_rate": round(float(self.upper_bonus.mean()), 6),
            "yahtzee_rate": round(float(self.yahtzee.mean()), 6),
            "bonus_yahtzees_per_game": round(float(self.bonus_yahtzees.mean()), 6),
        }


def simulate(rules: RuleSet | str | dict[str, Any] | None = None, games: int = 10_000,
             seed: int = 1, *, table: OptimalTable | None = None) -> SimulationResult:
    """Play ``games`` games with the optimal strategy; same seed, same games."""
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be 1..{MAX_GAMES}")
    if not 0 <= seed < 2**32:
        raise ValueError("seed must be 0..2**32-1")
    table = table or get_table(rules)
    memo_key = (table.key, games, seed)
    with _MEMO_LOCK:
        hit = _MEMO.get(memo_key)
    if hit is not None:
        return hit
    p = table.placement
    scores = np.zeros(games, dtype=np.int64)
    upper = np.zeros(games, dtype=np.bool_)
    yahtzee = np.zeros(games, dtype=np.bool_)
    bonus = np.zeros(games, dtype=np.int64)
    _kernel.simulate_games(
        games, seed, table.values, table.threshold, table.nu, *p.kernel_arrays,
        p.natural.astype(np.int64), p.joker, p.yahtzee_bonus, table.rules.upper_bonus,
        scores, upper, yahtzee, bonus,
    )
    for arr in (scores, upper, yahtzee, bonus):
        arr.flags.writeable = False  # results are shared through the memo
    result = SimulationResult(table.rules.name, games, seed, table.expected_score, scores, upper,
                              yahtzee, bonus)
    with _MEMO_LOCK:
        _MEMO[memo_key] = result
        while len(_MEMO) > 16:
            _MEMO.pop(next(iter(_MEMO)))
    return result
