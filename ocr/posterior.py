"""Readings the column's sums vouch for together (``crosscheck``'s last stage, after the
cells taken for failed sums): a doubtful reading that every likely way of reading its
column keeps is confident.

A sum that holds only through a cell taken for it (``taken``, ``jointread``) vouches for
none of its readings by itself (``taken.confirm_through_taken``: the taken value was chosen
to make it hold), and a sum that fails, as the player's slip or a misreading, for none at
all. Yet the column as a whole may leave one reading of a cell: every other way of reading
the column needs a misreading of that cell *and* another that cancels it, or a slip
besides. Each way of reading the column that changes at most ``MAX_CHANGED`` units (a cell
with its copies) is weighed: a unit read as one of its candidates by that candidate's
likelihood over the reading (a failed sum's suggestion too: a sure reading may be the
misread one), or as a number none of them is (which holds any sum) by the candidates'
missing probability, ``OTHER_SHARE`` of it on the one value a sum needs (a count of check
marks lists no other count: its doubt is all such); each sum still failing by
``jointread.SLIP_P``. A number that the ways keeping it outweigh the rest ``POST_MIN`` to
one minus it, its own likelihood at least ``AT_LEAST``, is confident. Readings confident
below ``SURE`` may be misread too. One hand's digit misread alike in two numbers (12 and
110 for 42 and 140) weighs as one misreading, not two.
A reading in a failed sum is looked at only where one unit's candidate makes every failed
sum of the column hold (a misread lower TOTAL failing its own sum and GRAND TOTAL's): where
two misreadings apart fail two sums, the ways that mend both use every change a way may
make, and none is left for the reading's own misreading and the one cancelling it (a
3 OF A KIND 28 read 21 was confirmed so in a holdout); with no candidate mending it (an
unfamiliar hand's several misreadings, or the player's slip) ``crosscheck`` doubts every
reading of it not quite sure, and so it stays. And never so that every reading of a
failed sum is confident: a failure rests on a cell a person looks at. Taken cells stay
for review with their ink; nothing changes value.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from scorepad.rules import RuleSet

from . import sumread as sr
from .decode import legal_values_of
from .jointread import SLIP_P, copy_units, has_evidence
from .misread import swapped_digit
from .result import BLANK, CONFIDENT, MARKS, NEEDS_REVIEW, NUMBER, CellRead
from .sumread import Relation

# Chosen on the independent development photos (300000-300089, 330000-330079,
# 420000-420059, 440000-440059) and own 90000-90059: not one silent error more (ocr/README.md)
POST_MIN = 0.99  # the share of the column's likely ways of reading that keep a reading
AT_LEAST = 0.2  # ... whose own likelihood is at least this (crosscheck.CROSS_MIN)
SURE = 0.99  # confident readings less sure than this are weighed as misread too
OPTION_MIN = 0.001  # a candidate this likely is a way of reading a cell
OTHER_MIN = 0.01  # the least probability left to readings none of the candidates is
OTHER_SHARE = 0.05  # ... of which this much on the one value a sum needs
MAX_CHANGED = 2  # units one way of reading the column changes
MAX_TRIES = 20_000  # ways of reading a column at most (more: nothing is confirmed)
OTHER = None  # a unit read as a number none of its candidates is

Sum = tuple[list[CellRead], CellRead]
# a sum, its cells' ids, what its parts add up to as read, and whether it fails so
Checked = tuple[set[int], list[CellRead], CellRead, int, bool]
Option = tuple[int | None, float]  # a unit's value and its log likelihood over the reading


def confirm_joint(relations: Sequence[Relation], rules: RuleSet) -> None:
    """Confident: the doubtful readings of a column with cells taken or a sum failing that
    the column's likely ways of reading keep (see the module's docstring)."""
    sums = [(parts, result[0]) for _n, parts, result in relations
            if has_evidence(parts, result)]
    cells: list[CellRead] = []
    for parts, res in sums:
        cells += [c for c in [*parts, res] if all(c is not x for x in cells)]
    movable = [c for c in cells if c.kind in (NUMBER, MARKS) and isinstance(c.value, int)
               and (c.status == NEEDS_REVIEW or c.confidence < SURE)]
    failing = [(parts, res) for parts, res in sums if not sr.holds(parts, res, rules)]
    in_failed = {id(c) for parts, res in failing for c in [*parts, res]}
    units = copy_units(movable, sr.copy_pairs(list(relations), rules))
    options = [_options(u, rules) for u in units]
    targets = [c for c in movable if c.status == NEEDS_REVIEW and c.kind == NUMBER
               and c.ink is None and not c.inferred and c.confidence >= AT_LEAST
               and (id(c) not in in_failed or _mended(failing, units, options, rules))]
    if not targets or not (failing or any(c.ink is not None for c in movable)):
        return  # (every sum holds as read: crosscheck has weighed those)
    most = max(len(o) for o in options)
    if sum(math.comb(len(units), k) * most ** k for k in range(1, MAX_CHANGED + 1)) > MAX_TRIES:
        return
    checked = _checked(sums, rules)
    ways: list[tuple[float, set[int]]] = [(math.log(SLIP_P) * len(failing), set())]
    for n in range(1, MAX_CHANGED + 1):
        for which in itertools.combinations(range(len(units)), n):
            for picks in itertools.product(*(options[i] for i in which)):
                values = {id(c): v for i, (v, _lw) in zip(which, picks, strict=True)
                          for c in units[i]}
                weight = _weight([units[i][0] for i in which], picks)
                ways.append((weight + math.log(SLIP_P) * _failing(checked, values, rules),
                             set(values)))
    top = max(w for w, _ in ways)
    total = 0.0
    moving: dict[int, float] = {}  # the weight of the ways that change a cell
    for w, moved in ways:
        total += math.exp(w - top)
        for k in moved:
            moving[k] = moving.get(k, 0.0) + math.exp(w - top)
    kept = [c for c in targets if total - moving.get(id(c), 0.0) >= POST_MIN * total]
    for parts, res in failing:  # (a failure rests on a cell a person looks at)
        written = [c for c in [*parts, res] if c.kind != BLANK]
        if all(c.status == CONFIDENT or any(c is k for k in kept) for c in written):
            kept = [k for k in kept if all(k is not c for c in written)]
    for c in kept:
        c.status = CONFIDENT
        c.checks.append("joint")


def _mended(failing: list[Sum], units: list[list[CellRead]], options: list[list[Option]],
            rules: RuleSet) -> bool:
    """Whether one unit read as one of its candidates makes every failed sum hold: a likely
    misreading for the failures to rest on, one change of the two a way may make.  Where
    none does (an unfamiliar hand's several misreadings, the player's slip, or failures
    apart), ``crosscheck`` doubts every reading of those sums not quite sure, and none is
    confirmed here."""
    checked = _checked(failing, rules)
    return any(_failing(checked, {id(c): v for c in unit}, rules) == 0
               for unit, opts in zip(units, options, strict=True)
               for v, _lw in opts if v is not OTHER)


def _options(unit: list[CellRead], rules: RuleSet) -> list[Option]:
    """The unit's other readings (its first cell's candidates, likely enough, legal in its
    box, among them a failed sum's suggestion: a sure reading may be the misread one) and
    OTHER."""
    first = unit[0]
    legal = legal_values_of(first.field, rules)
    as_read = math.log(max(first.confidence, 1e-6))
    out: list[Option] = []
    for k in first.candidates:
        if (isinstance(k.value, int) and k.value != first.value and k.p >= OPTION_MIN
                and (legal is None or k.value in legal)
                and all(k.value != v for v, _ in out)):
            out.append((k.value, math.log(k.p) - as_read))
    # (a count of check marks lists no other count: its doubt, a speck read as a check or a
    # check missed, is all a reading none of its candidates is)
    listed = first.confidence if first.kind == MARKS else sum(k.p for k in first.candidates)
    missing = max(1.0 - listed, OTHER_MIN)
    out.append((OTHER, math.log(missing * OTHER_SHARE) - as_read))
    return out


def _weight(firsts: list[CellRead], picks: Sequence[Option]) -> float:
    """The log likelihood of the units read as ``picks``: the sum of theirs, but one
    misreading where two numbers have the same digit at the same place misread the same
    way (12 and 110 read for 42 and 140)."""
    if len(picks) == 2:
        (va, la), (vb, lb) = picks
        a, b = firsts
        if va is not None and vb is not None:
            swap = swapped_digit(a.value, va)
            if swap is not None and swap == swapped_digit(b.value, vb):
                return max(la, lb)
    return sum(lw for _v, lw in picks)


def _checked(sums: Sequence[Sum], rules: RuleSet) -> list[Checked]:
    """Each sum with its cells' ids, what its parts add up to as read, and whether it fails."""
    out: list[Checked] = []
    for parts, res in sums:
        total = sum(sr.worth(c, rules) for c in parts)
        out.append(({id(c) for c in [*parts, res]}, parts, res, total, total != res.value))
    return out


def _failing(sums: Sequence[Checked], values: dict[int, int | None], rules: RuleSet) -> int:
    """How many sums fail with the cells ``values`` names read so (OTHER holds any sum)."""
    failing = 0
    for ids, parts, res, total, fails in sums:
        if ids.isdisjoint(values):
            failing += fails
            continue
        if any(values[k] is OTHER for k in ids & values.keys()):
            continue
        for c in parts:
            v = values.get(id(c))
            if v is not None:
                total += sr.points(c.field, v, rules) - sr.worth(c, rules)
        want = values.get(id(res))
        failing += total != (res.value if want is None else want)
    return failing
