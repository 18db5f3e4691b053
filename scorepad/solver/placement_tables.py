"""Per-roll placement tables, derived from ``scorepad.placement.allowed_values``.

The solver never decides for itself what a roll may score where: it asks
``allowed_values`` (the one source of truth the validator uses) and stores the
answers as arrays.

* ``natural[k, b]``: for every five-dice roll ``k`` that is not a joker, the best
  value box ``b`` may take (-1 when the box is forbidden). Without a joker the
  answer for one box does not depend on the other boxes, so one call per roll
  covers every card (``tests/solver`` cross-checks this on random cards).
* ``joker[y, f, mask, b]``: for a five-of-a-kind of face ``f + 1`` rolled while the
  YAHTZEE box is filled (``y`` = 0: it holds 0, 1: it holds 50) on a card whose
  filled boxes are ``mask``: the best value box ``b`` may take, -1 when forbidden.
* ``yahtzee_bonus``: the points a five-of-a-kind earns while the YAHTZEE box
  holds 50 (from ``legal_options(...).bonus``).

Only the highest allowed value of a box is kept: a higher value in a box never
leads to a lower final score (more upper points never hurt, and 50 in the
YAHTZEE box allows everything 0 does plus the bonus), so the other allowed
values (the zeros) can never be the optimal choice. The analysis of a played
game still values a zero the player actually wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..boxes import ALL_BOXES, Box
from ..placement import allowed_values, legal_options
from ..rules import RuleSet
from ._dice import KEEPS, NKEEPS, ROLL_START, dice_of

NBOXES = len(ALL_BOXES)
FULL_MASK = (1 << NBOXES) - 1
YAHTZEE_BIT = ALL_BOXES.index(Box.YAHTZEE)


def open_boxes(mask: int) -> frozenset[Box]:
    """The boxes not in the filled-box bit mask."""
    return frozenset(b for i, b in enumerate(ALL_BOXES) if not mask >> i & 1)


def _best(values: tuple[int, ...]) -> int:
    return max(values) if values else -1


@dataclass(frozen=True)
class PlacementTables:
    natural: npt.NDArray[np.int16]  # (NKEEPS, 13); rows below ROLL_START unused
    joker: npt.NDArray[np.int16]  # (2, 6, 8192, 13)
    yahtzee_bonus: int


def build_placement_tables(rules: RuleSet) -> PlacementTables:
    natural = np.full((NKEEPS, NBOXES), -1, dtype=np.int16)
    everything = frozenset(ALL_BOXES)
    for k in range(ROLL_START, NKEEPS):
        allowed = allowed_values(rules, everything, None, dice_of(k))
        for i, box in enumerate(ALL_BOXES):
            natural[k, i] = _best(allowed[box][0])
    joker = np.full((2, 6, FULL_MASK + 1, NBOXES), -1, dtype=np.int16)
    masks = [m for m in range(FULL_MASK + 1) if m >> YAHTZEE_BIT & 1 and m != FULL_MASK]
    for y, yahtzee_value in enumerate((0, 50)):
        for face in range(1, 7):
            dice = [face] * 5
            for mask in masks:
                allowed = allowed_values(rules, open_boxes(mask), yahtzee_value, dice)
                row = joker[y, face - 1, mask]
                for i, box in enumerate(ALL_BOXES):
                    if box in allowed:
                        row[i] = _best(allowed[box][0])
    bonus = rules.yahtzee_bonus if legal_options(rules, {Box.YAHTZEE: 50}, [6] * 5).bonus else 0
    _check(natural, joker)
    return PlacementTables(natural=natural, joker=joker, yahtzee_bonus=bonus)


def _check(natural: npt.NDArray[np.int16], joker: npt.NDArray[np.int16]) -> None:
    """The kernel indexes upper successors by value // face: values must be multiples."""
    for face in range(1, 7):
        col = face - 1
        for arr in (natural[ROLL_START:, col], joker[..., col]):
            vals = arr[arr >= 0]
            if np.any(vals % face) or np.any(vals > 5 * face):
                raise ValueError(f"upper box {face}: a value that is not a count of {face}s")
    del KEEPS  # noqa: F821 - keep the import list honest for linters


def best_values(
    tables: PlacementTables, mask: int, yahtzee_value: int | None, dice: list[int]
) -> list[int]:
    """The table's answer for one card and roll: best allowed value per box, -1 forbidden."""
    from ._dice import YAHTZEE_FACE, keep_index

    k = keep_index(dice)
    face = int(YAHTZEE_FACE[k])
    if face and mask >> YAHTZEE_BIT & 1 and yahtzee_value is not None:
        row = tables.joker[1 if yahtzee_value == 50 else 0, face - 1, mask]
    else:
        row = tables.natural[k]
    return [int(row[i]) if not mask >> i & 1 else -1 for i in range(NBOXES)]
