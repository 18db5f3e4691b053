"""Optimal solitaire play: the expected-score table, game analysis, advice, simulation.

    >>> from scorepad.solver import get_table, simulate
    >>> round(get_table("hasbro").expected_score, 4)   # builds (or loads) the table
    254.5877
    >>> simulate("hasbro", games=100, seed=1).games
    100

Also ``analyse_game(game, "hasbro").to_dict()`` (each decision's loss, total loss, luck)
and ``advise({Box.ACES: 3}, "12346", roll=2, rules="hasbro").to_dict()``.
(tests/solver/test_doctests.py runs the example.)
"""

from __future__ import annotations

from .analysis import (
    Advice,
    AnalysisError,
    Choice,
    Decision,
    GameAnalysis,
    advise,
    analyse_game,
    analyse_sheet,
    parse_card,
)
from .simulate import SimulationResult, simulate
from .table import (
    ALGORITHM_VERSION,
    OptimalTable,
    SolverError,
    build_table,
    cache_dir,
    cache_path,
    get_table,
    table_key,
)

__all__ = [
    "ALGORITHM_VERSION",
    "Advice",
    "AnalysisError",
    "Choice",
    "Decision",
    "GameAnalysis",
    "OptimalTable",
    "SimulationResult",
    "SolverError",
    "advise",
    "analyse_game",
    "analyse_sheet",
    "build_table",
    "cache_dir",
    "cache_path",
    "get_table",
    "parse_card",
    "simulate",
    "table_key",
]
