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
from functools import cached_property

import numpy as np
import numpy.typing as npt

from ..boxes import ALL_BOXES, Box
from ..placement import allowed_values, legal_options
from ..rules import RuleSet
from ._dice import NKEEPS, ROLL_START, YAHTZEE_FACE, dice_of, keep_index

NBOXES = len(ALL_BOXES)
FULL_MASK = (1 << NBOXES) - 1
YAHTZEE_BIT = ALL_BOXES.index(Box.YAHTZEE)
_INDEX = {b: i for i, b in enumerate(ALL_BOXES)}


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

    @cached_property
    def kernel_arrays(
        self,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """``natural`` in the kernel's layout: (natf, ucnt, y50), see ``_kernel.fill_e3``."""
        nat = self.natural.T.astype(np.int64)  # (13, NKEEPS)
        natf = np.where(nat >= 0, nat, 0).astype(np.float64)
        natf[nat < 0] = -1.0e18
        faces = np.arange(1, 7, dtype=np.int64)[:, None]
        ucnt = np.ascontiguousarray(np.where(nat[:6] >= 0, nat[:6], 0) // faces)
        y50 = (nat[YAHTZEE_BIT] == 50).astype(np.float64)
        return np.ascontiguousarray(natf), ucnt, y50


def build_placement_tables(rules: RuleSet) -> PlacementTables:
    natural = np.full((NKEEPS, NBOXES), -1, dtype=np.int16)
    everything = frozenset(ALL_BOXES)
    for k in range(ROLL_START, NKEEPS):
        allowed = allowed_values(rules, everything, None, dice_of(k))
        for i, box in enumerate(ALL_BOXES):
            natural[k, i] = _best(allowed[box][0])
    joker = np.full((2, 6, FULL_MASK + 1, NBOXES), -1, dtype=np.int16)
    masks = [m for m in range(FULL_MASK + 1) if m >> YAHTZEE_BIT & 1 and m != FULL_MASK]
    opens = [open_boxes(m) for m in masks]
    for y, yahtzee_value in enumerate((0, 50)):
        for face in range(1, 7):
            dice = [face] * 5
            rows = []
            for boxes in opens:
                row = [-1] * NBOXES
                for box, (values, _) in allowed_values(rules, boxes, yahtzee_value,
                                                       dice).items():
                    if values:
                        row[_INDEX[box]] = max(values)
                rows.append(row)
            joker[y, face - 1, masks] = rows
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


def best_values(
    tables: PlacementTables, mask: int, yahtzee_value: int | None, dice: list[int]
) -> list[int]:
    """The table's answer for one card and roll: best allowed value per box, -1 forbidden."""

    k = keep_index(dice)
    face = int(YAHTZEE_FACE[k])
    if face and mask >> YAHTZEE_BIT & 1 and yahtzee_value is not None:
        row = tables.joker[1 if yahtzee_value == 50 else 0, face - 1, mask]
    else:
        row = tables.natural[k]
    return [int(row[i]) if not mask >> i & 1 else -1 for i in range(NBOXES)]
