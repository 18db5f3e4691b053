"""A column's doubtful cells read together (``crosscheck``'s last stage, after
``taken.take_implied``): where sums still fail as read, the doubtful cells may take the
candidates that together make every one of them hold.

``take_implied`` takes a candidate only where one doubtful cell's one candidate is a
failed sum's only explanation. Where two doubtful cells could each explain it, or one
misreading fails two sums (a TOTAL misread breaks its own sum and the GRAND TOTAL's), the
sums of the column together often leave one reading: the joint reading, of at most
``MAX_CHANGED`` doubtful cells (each with its copies), under which every sum holds, far
likelier than any other such reading and than the player's slip. Each cell so taken stays
for a person to check, with what its ink read kept (``CellRead.ink``): the audit tries
that reading, so a card right only as the reader took it is a doubt (the player's slip is
not hidden). No confidence changes here: the stage makes more cells exact, never one
surely wrong.
A cell and its copies (TOTAL SCORE, TOTAL and its repeat below, read alike) are one
written value in one hand: they change together, as one misreading. A digit the reader
lost (41 read 4, the 1 touching the 4) is often among no candidate of the ink; the reading
with that digit a failed sum suggests is tried too, where it must make another sum hold as
well to win (a suggestion costs about a slip, ``crosscheck.SLIP_P``).
Its settings were chosen on the independent development photos (300000-300089: 96.65% ->
97.09% of cells exact, none read wrong that was right); ocr/README.md has the other sets.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from scorepad.rules import RuleSet

from . import sumread as sr
from .decode import legal_values_of
from .result import BLANK, MARKS, NEEDS_REVIEW, NUMBER, Candidate, CellRead
from .sumread import Relation
from .taken import take

OPTIONS = 6  # a doubtful cell's candidates tried (its reading first)
OPTION_MIN = 0.001  # ... each at least this likely
MAX_CHANGED = 3  # units (a cell, with its copies) one joint reading may change
MAX_TRIES = 20_000  # joint readings in a column at most (more: none is tried)
SLIP_P = 0.02  # the likelihood of a failed sum as the player's own slip
MARGIN = 3.0  # the joint reading taken is this many times likelier than the next


def take_joint(relations: Sequence[Relation], rules: RuleSet) -> None:
    """Where sums of the column fail as read, take the one joint reading of its doubtful
    cells under which every sum holds (see the module's docstring)."""
    sums = [(parts, result[0]) for _n, parts, result in relations if has_evidence(parts, result)]
    failing = [(parts, res) for parts, res in sums if not sr.holds(parts, res, rules)]
    if not failing:
        return
    movable: list[CellRead] = []
    for parts, res in failing:
        for c in [*parts, res]:
            if _doubtful(c) and all(c is not m for m in movable):
                movable.append(c)
    pairs = sr.copy_pairs(list(relations), rules)
    grown = True
    while grown:  # (a copy held by its own sum x + 0 = x changes with the cell it copies)
        grown = False
        for a, b in pairs:
            if (any(a is m for m in movable) and _doubtful(b)
                    and all(b is not m for m in movable)):
                movable.append(b)
                grown = True
    units = copy_units(movable, pairs)
    options = [_unit_options(u, rules) for u in units]
    if _joint_readings([len(o) for o in options]) > MAX_TRIES:
        return  # (too many doubtful cells to tell one joint reading: a person reads them)
    # each joint reading scored as its cells' likelihood over their readings, and each sum
    # still failing as the player's slip; reading nothing other is one of them
    as_read = math.log(SLIP_P) * len(failing)
    found: list[tuple[float, dict[int, Candidate]]] = [(as_read, {})]
    for n in range(1, MAX_CHANGED + 1):
        for which in itertools.combinations(range(len(units)), n):
            for picks in itertools.product(*(options[i] for i in which)):
                values = {id(c): k for i, pick in zip(which, picks, strict=True)
                          for c, k in zip(units[i], pick, strict=True)}
                still = _failing_with(sums, values, rules)
                if still is not None:
                    found.append((sum(_likelihood(units[i], pick)
                                      for i, pick in zip(which, picks, strict=True))
                                  + math.log(SLIP_P) * still, values))
    found.sort(key=lambda f: -f[0])
    best, values = found[0]
    if not values or (len(found) > 1 and best - found[1][0] < math.log(MARGIN)):
        return
    for c in movable:
        if id(c) in values:
            take(c, values[id(c)])


def copy_units(movable: list[CellRead],
               pairs: Sequence[tuple[CellRead, CellRead]]) -> list[list[CellRead]]:
    """The doubtful cells in units that change together: a cell and its copies read as it
    (TOTAL SCORE + a blank BONUS as TOTAL, TOTAL repeated below), one written value in one
    hand, misread alike or not at all; every other cell a unit of its own."""
    units = [[c] for c in movable]
    for a, b in pairs:
        ua = next((u for u in units if any(a is c for c in u)), None)
        ub = next((u for u in units if any(b is c for c in u)), None)
        if ua is not None and ub is not None and ua is not ub:
            ua += ub
            units = [u for u in units if u is not ub]
    return units


def _unit_options(unit: list[CellRead], rules: RuleSet) -> list[list[Candidate]]:
    """The readings a unit may take together: a value among every one of its cells'
    options, as each cell's own candidate."""
    per_cell = [{k.value: k for k in _options(c, rules)} for c in unit]
    return [[opts[v] for opts in per_cell] for v in per_cell[0]
            if all(v in opts for opts in per_cell[1:])]


def _joint_readings(sizes: Sequence[int]) -> int:
    """How many joint readings changing 1 to MAX_CHANGED units with ``sizes`` options each
    there are (the elementary symmetric sums of the sizes)."""
    e = [1] + [0] * MAX_CHANGED
    for n in sizes:
        for k in range(MAX_CHANGED, 0, -1):
            e[k] += e[k - 1] * n
    return sum(e[1:])


def has_evidence(parts: list[CellRead], result: list[CellRead]) -> bool:
    """A sum that says something as read (``sumread.read_through``), a part of it written."""
    return (sr.read_through(parts, result) and isinstance(result[0].value, int)
            and any(p.kind != BLANK for p in parts))


def _doubtful(c: CellRead) -> bool:
    return (c.status == NEEDS_REVIEW and c.kind in (NUMBER, MARKS) and not c.inferred
            and isinstance(c.value, int) and c.ink is None)


def _options(c: CellRead, rules: RuleSet) -> list[Candidate]:
    """The cell's other readings worth trying, likely enough, legal in its box: the ink's,
    and of those a failed sum suggested only a digit lost (one suggested at SLIP_P costs
    what the slip it mends saves, so it is taken only where another sum holds with it too:
    never its own sum's evidence alone)."""
    legal = legal_values_of(c.field, rules)
    out: list[Candidate] = []
    for k in c.candidates[:OPTIONS]:
        if (isinstance(k.value, int) and k.value != c.value and k.p >= OPTION_MIN
                and (not k.suggested or _digit_lost(c.value, k.value))
                and (legal is None or k.value in legal)
                and all(k.value != o.value for o in out)):
            out.append(k)
    return out


def _digit_lost(read: int | str | None, value: int) -> bool:
    """Whether ``value`` is ``read`` with one digit more (41 read 4, 153 read 53): a digit
    the reader lost, touching or at the cell's edge, where the player seldom leaves one out
    (a digit other, 47 for 48, is as often the player's own slip: not tried)."""
    a, b = str(read), str(value)
    return len(b) == len(a) + 1 and any(b[:i] + b[i + 1:] == a for i in range(len(b)))


def _failing_with(sums: Sequence[tuple[list[CellRead], CellRead]],
                  values: dict[int, Candidate], rules: RuleSet) -> int | None:
    """How many sums of the column fail with the cells ``values`` names read so; None where
    a sum one of them is in fails (a reading that does not make its sums hold)."""
    failing = 0
    for parts, res in sums:
        total = 0
        touched = id(res) in values
        for c in parts:
            if id(c) in values:
                touched = True
                v = values[id(c)].value
                assert isinstance(v, int)
                total += sr.points(c.field, v, rules)
            else:
                total += sr.worth(c, rules)
        held = total == (values[id(res)].value if id(res) in values else res.value)
        if touched and not held:
            return None
        failing += not held
    return failing


def _likelihood(unit: list[CellRead], picks: Sequence[Candidate]) -> float:
    """The log likelihood of a unit's cells read as ``picks`` over their readings: copies
    written by one hand are one misreading, not several, so a unit weighs as the mean of
    its cells (their geometric mean odds)."""
    out = 0.0
    for c, pick in zip(unit, picks, strict=True):
        out += math.log(max(pick.p, 1e-6)) - math.log(max(c.confidence, 1e-6))
    return out / len(unit)
