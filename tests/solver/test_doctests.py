"""The solver's docstring example runs (in the session's private table cache)."""

from __future__ import annotations

import doctest

import scorepad.solver


def test_solver_docstring_example() -> None:
    result = doctest.testmod(scorepad.solver, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 3
