"""One digit misread as another: where it sits in a number, and the same misreading made
in two cells of one sum (one hand's confusion twice), which that sum cannot tell from a
true reading."""

from __future__ import annotations

from collections.abc import Sequence

from scorepad.readings import digit_other
from scorepad.rules import RuleSet

from .decode import legal_values_of
from .result import BLANK, CellRead

Swap = tuple[str, str, int]  # one numeral's digit, the other's there, its place from the right


def swapped_digit(a: object, b: int) -> Swap | None:
    """The one digit a's numeral has other than b's: (a's digit, b's digit, its place
    counted from the right), or None."""
    if not isinstance(a, int) or not digit_other(a, b):
        return None
    x, y = str(a), str(b)
    k = next(i for i in range(len(x)) if x[i] != y[i])
    return x[k], y[k], len(x) - 1 - k


def apply_swap(value: int, swap: Swap) -> int | None:
    """``value`` with the digit at the swap's place changed the same way, if it is there."""
    old, new, place = swap
    s = str(value)
    k = len(s) - 1 - place
    if k < 0 or s[k] != old or (k == 0 and new == "0" and len(s) > 1):
        return None
    return int(s[:k] + new + s[k + 1:])


def misread_alike(cell: CellRead, swap: Swap, rules: RuleSet) -> int | None:
    """What ``cell`` reads with the same digit at the same place misread the same way, where
    that is a number its box can hold; None where it is not (or the digit is not there, or
    the cell is blank or holds check marks, a count rather than digits)."""
    if (cell.kind == BLANK or not isinstance(cell.value, int)
            or cell.field == "yahtzee_bonus_checks"):
        return None
    other = apply_swap(cell.value, swap)
    legal = legal_values_of(cell.field, rules)
    return other if other is not None and (legal is None or other in legal) else None


def twins_by_swap(cells: Sequence[CellRead], result: CellRead, rules: RuleSet,
                  top: int, at_least: float = 0.0) -> set[int]:
    """The cells (by ``id``) of a sum that holds, one of which has a candidate (among its
    ``top``) that is its reading with one digit other, where the same digit at the same
    place of another cell, misread the same way, would hold the sum as well: 419 and 475
    read 119 and 175, the total's candidates having 475 and the part's not 419.  Only
    candidates ``at_least`` this likely count."""
    numbers = [r for r in cells if r.kind != BLANK and isinstance(r.value, int)
               and r.field != "yahtzee_bonus_checks"]
    out: set[int] = set()
    for x in numbers:
        assert isinstance(x.value, int)
        for c in x.candidates[:top]:
            if c.p < at_least:
                continue
            swap = swapped_digit(x.value, c.value) if isinstance(c.value, int) else None
            if swap is None:
                continue
            step = (int(c.value) - x.value) * (-1 if x is result else 1)
            for y in numbers:
                assert isinstance(y.value, int)
                other = misread_alike(y, swap, rules) if y is not x else None
                if other is None:
                    continue
                if step + (other - y.value) * (-1 if y is result else 1) == 0:
                    out.update((id(x), id(y)))
    return out
