"""Dice multisets ("keeps") as indices, and the maps between them.

A keep is a multiset of 0..5 dice, stored as face counts. All 462 keeps are
numbered by size (0 dice first), so the 252 five-dice rolls are the indices
``ROLL_START..NKEEPS-1``. ``ADD[k, f]`` is the keep with one more die showing
face ``f + 1`` (-1 when ``k`` already has five dice), ``SUB[k, f]`` the keep
with one die of that face less (-1 when there is none).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from math import factorial

import numpy as np
import numpy.typing as npt

Counts = tuple[int, int, int, int, int, int]


def _all_keeps() -> list[Counts]:
    keeps = [c for c in product(range(6), repeat=6) if sum(c) <= 5]
    keeps.sort(key=lambda c: (sum(c), tuple(-x for x in c)))
    return keeps  # type: ignore[return-value]


KEEPS: tuple[Counts, ...] = tuple(_all_keeps())
NKEEPS = len(KEEPS)  # 462
KEEP_INDEX: dict[Counts, int] = {c: i for i, c in enumerate(KEEPS)}
KEEP_SIZE = np.array([sum(c) for c in KEEPS], dtype=np.int64)
ROLL_START = int(np.argmax(KEEP_SIZE == 5))  # 210
NROLLS = NKEEPS - ROLL_START  # 252

ADD = np.full((NKEEPS, 6), -1, dtype=np.int64)
SUB = np.full((NKEEPS, 6), -1, dtype=np.int64)
for _i, _c in enumerate(KEEPS):
    for _f in range(6):
        if sum(_c) < 5:
            _up = list(_c)
            _up[_f] += 1
            ADD[_i, _f] = KEEP_INDEX[tuple(_up)]  # type: ignore[index]
        if _c[_f] > 0:
            _down = list(_c)
            _down[_f] -= 1
            SUB[_i, _f] = KEEP_INDEX[tuple(_down)]  # type: ignore[index]

# Probability of each five-dice roll when all five dice are thrown (0 for smaller keeps).
ROLL_PROB = np.zeros(NKEEPS, dtype=np.float64)
for _i in range(ROLL_START, NKEEPS):
    _ways = factorial(5)
    for _x in KEEPS[_i]:
        _ways //= factorial(_x)
    ROLL_PROB[_i] = _ways / 6**5

# The face of a five-of-a-kind roll (1..6), 0 for every other keep.
YAHTZEE_FACE = np.zeros(NKEEPS, dtype=np.int64)
for _i in range(ROLL_START, NKEEPS):
    if max(KEEPS[_i]) == 5:
        YAHTZEE_FACE[_i] = KEEPS[_i].index(5) + 1

# Every sub-multiset of each keep (itself included), padded with -1.
MAX_SUBKEEPS = 32
SUBKEEPS = np.full((NKEEPS, MAX_SUBKEEPS), -1, dtype=np.int64)
for _i, _c in enumerate(KEEPS):
    _subs = sorted(KEEP_INDEX[s] for s in product(*(range(x + 1) for x in _c)))  # type: ignore[index]
    SUBKEEPS[_i, : len(_subs)] = _subs


def counts_of(dice: Iterable[int]) -> Counts:
    c = [0] * 6
    for d in dice:
        c[d - 1] += 1
    return tuple(c)  # type: ignore[return-value]


def keep_index(dice: Iterable[int]) -> int:
    """The index of the multiset ``dice`` (0..5 dice showing 1..6)."""
    return KEEP_INDEX[counts_of(dice)]


def dice_of(index: int) -> list[int]:
    """The sorted dice of keep ``index``."""
    return [f + 1 for f, n in enumerate(KEEPS[index]) for _ in range(n)]


def is_submultiset(small: Iterable[int], big: Iterable[int]) -> bool:
    a, b = counts_of(small), counts_of(big)
    return all(x <= y for x, y in zip(a, b, strict=True))


def subkeeps(roll: int) -> npt.NDArray[np.int64]:
    row: npt.NDArray[np.int64] = SUBKEEPS[roll]
    return row[row >= 0]
