"""The one value the pad's sums may change (``crosscheck``): a doubtful cell whose own
candidate is a failed sum's only explanation reads as that candidate, with what its ink
read kept (``CellRead.ink``) for the audit to try; and, last, the readings that sums
through such taken cells confirm (``confirm_through_taken``)."""

from __future__ import annotations

from collections import Counter

from scorepad.rules import RuleSet

from . import sumread as sr
from .result import BLANK, CONFIDENT, NEEDS_REVIEW, Candidate, CellRead
from .sumread import Relation

THROUGH_MIN = 0.4  # a reading this likely that two sums through a taken cell confirm is confident


def take_implied(relations: list[Relation], implied: dict[int, tuple[CellRead, int]],
                 contested: set[int], rules: RuleSet) -> None:
    """A doubtful cell that one of its own candidates is a failed sum's only explanation
    for reads as that candidate, and so do its copies read as it was (TOTAL SCORE + a
    blank BONUS as TOTAL, TOTAL repeated below: one hand's 4 read as a 1 in all three),
    where no sum that holds as read fails with them (one more sum then holds; a misreading
    is far likelier than the player's slip: on the development photos the reading taken
    was the written one nine times in ten).  Each stays for a person to check, with what
    the ink read first among its candidates and kept as ``ink``: the audit tries that
    reading, so a card right only as the reader took it is a doubt, never "correct" (the
    slip is not hidden)."""
    for key, (r, value) in implied.items():
        if key in contested or r.value == value:
            continue
        group = {key: (r, value)}
        sr.copies(relations, group, rules)
        takes = []
        for c, v in group.values():
            taken = next((k for k in c.candidates if k.value == v), None)
            if (taken is None or c.status != NEEDS_REVIEW or c.inferred or id(c) in contested
                    or not isinstance(c.value, int) or c.value != r.value):
                break
            takes.append((c, taken))
        else:
            if not _breaks_a_held_sum(relations, {id(c): t.value for c, t in takes}, rules):
                for c, taken in takes:
                    take(c, taken)


def take(r: CellRead, taken: Candidate) -> None:
    """``r`` reads as ``taken``, stays for a person to check, and keeps what its ink read
    first among its candidates and as ``ink``."""
    ink = r.value
    assert isinstance(ink, int)
    r.ink = ink
    r.candidates = [taken, Candidate(ink, r.confidence),
                    *(c for c in r.candidates if c.value not in (taken.value, r.value))]
    r.value, r.confidence = taken.value, taken.p
    r.checks.append("implied")


def _breaks_a_held_sum(relations: list[Relation], values: dict[int, int | str],
                       rules: RuleSet) -> bool:
    """Whether a sum that holds as read fails with the cells ``values`` names (by ``id``)
    read so (two readings misread alike hold it: the lower TOTAL 153 read 133 and the
    GRAND TOTAL 189 read 169)."""
    for _name, parts, result in relations:
        if (len(result) != 1 or not isinstance(result[0].value, int)
                or all(id(c) not in values for c in [*parts, *result])
                or not sr.holds(parts, result[0], rules)):
            continue
        if not sr.holds(*sr.read_as_many(parts, result[0], values), rules):
            return True
    return False


def confirm_through_taken(relations: list[Relation], rules: RuleSet) -> None:
    """Readings sums confirm through cells taken for their ink (``take``). A taken cell
    found in one sum only is what that sum made it and says nothing; where sums that hold
    share taken cells, more sums than taken cells leave a sum of readings as their ink
    read them that holds once the taken cells drop out (the upper boxes add up to the TOTAL
    below TOTAL SCORE, whose ink read 19 for 49): as good a check as a sum that holds as
    read, where it has three numbers at least and each of its readings is sure or likely
    (THROUGH_MIN; not a legal value put for an illegal reading: the sums may hold through
    those, a digit misread alike in a TOTAL and the GRAND TOTAL). Its readings are then
    confident, the taken cells stay for a person to check with their ink. Nothing where a
    sum through a taken cell fails, nor for a cell in a sum that fails."""
    taken = {id(c) for _n, parts, result in relations for c in [*parts, *result]
             if c.ink is not None}
    if not taken:
        return
    live: list[dict[int, CellRead]] = []
    failing: set[int] = set()
    for _n, parts, result in relations:
        if not sr.read_through(parts, result):
            continue
        cells = {id(c): c for c in [*parts, result[0]]}
        if not sr.holds(parts, result[0], rules):
            failing |= cells.keys()
        elif taken & cells.keys():
            live.append(cells)
    live = [cells for cells in live if not failing & taken & cells.keys()]
    while True:  # (a taken cell in one sum only: that sum made it, and says nothing)
        shared = Counter(k for cells in live for k in cells if k in taken)
        kept = [cells for cells in live if all(shared[k] >= 2 for k in cells if k in taken)]
        if len(kept) == len(live):
            break
        live = kept
    for group in _linked(live, taken):
        held = {k: c for cells in group for k, c in cells.items()}
        read = [c for k, c in held.items() if k not in taken]
        if (len(group) > len(taken & held.keys())
                and sum(sr.worth(c, rules) != 0 for c in read) >= 3  # (not x = y)
                and not failing & held.keys()
                and all(c.kind == BLANK or c.status == CONFIDENT or _confirmable(c)
                        for c in read)):
            for c in read:
                _confirm_through(c)
    _confirm_copies(relations, failing, rules)


def _linked(sums: list[dict[int, CellRead]], taken: set[int]) -> list[list[dict[int, CellRead]]]:
    """The sums in groups that share taken cells."""
    groups: list[tuple[set[int], list[dict[int, CellRead]]]] = []
    for cells in sums:
        keys = taken & cells.keys()
        joined = [g for g in groups if g[0] & keys]
        merged = (keys.union(*(g[0] for g in joined)), [cells, *(s for g in joined for s in g[1])])
        groups = [g for g in groups if not any(g is j for j in joined)] + [merged]
    return [g[1] for g in groups]


def _confirmable(c: CellRead) -> bool:
    return c.ink is None and sr.confirmable(c, THROUGH_MIN)  # (never a taken cell)


def _confirm_through(c: CellRead) -> bool:
    if c.ink is None and sr.confirm(c, THROUGH_MIN):
        c.checks.append("through_taken")
        return True
    return False


def _confirm_copies(relations: list[Relation], failing: set[int], rules: RuleSet) -> None:
    """A copy read as the same number as a reading so confirmed (TOTAL, and its repeat
    below) is confident from THROUGH_MIN too, and vouches for its own copy in turn; not
    one in a sum that fails."""
    pairs = sr.copy_pairs(relations, rules)
    grown = True
    while grown:
        grown = False
        for a, b in pairs:
            if ("through_taken" in a.checks and a.status == CONFIDENT
                    and id(b) not in failing and _confirm_through(b)):
                grown = True
