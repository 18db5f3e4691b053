"""A pad's sums on cell readings: what a reading adds to its sum, what a cell would have to
read for its sum to hold, how far each of its candidates would move the sum, and the copies
of a cell (a sum x + 0 = x)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from scorepad.rules import RuleSet

from .decode import legal_values_of
from .result import BLANK, CONFIDENT, NEEDS_REVIEW, TEXT, CellRead

Relation = tuple[str, list[CellRead], list[CellRead]]  # a sum's name, its parts, its result


def read_as(parts: list[CellRead], result: CellRead, cell: CellRead, value: int
            ) -> tuple[list[CellRead], CellRead]:
    """The sum's parts and result with ``cell`` read as ``value`` (a copy of it; the
    others are the cells themselves)."""
    return read_as_many(parts, result, {id(cell): value})


def read_as_many(parts: list[CellRead], result: CellRead, values: Mapping[int, int | str]
                 ) -> tuple[list[CellRead], CellRead]:
    """``read_as`` for each cell ``values`` names by ``id``, read as its value."""
    def moved(c: CellRead) -> CellRead:
        return replace(c, value=values[id(c)]) if id(c) in values else c

    return [moved(p) for p in parts], moved(result)


def read_through(parts: list[CellRead], result: list[CellRead]) -> bool:
    """Whether the sum says something as read: its result one cell read as a number, not
    blank, and every part read (a number, or blank)."""
    return (len(result) == 1 and result[0].kind != BLANK and result[0].value is not None
            and not any(p.value is None and p.kind != BLANK for p in parts))


def holds(parts: list[CellRead], result: CellRead, rules: RuleSet) -> bool:
    """Whether the sum holds as its cells read (the result read as a number)."""
    return sum(worth(p, rules) for p in parts) == result.value


def moves(r: CellRead, result: CellRead, rules: RuleSet, top: int,
          at_least: float = 0.0) -> dict[int, int]:
    """How far each of the cell's ``top`` candidates (other than its reading) would move
    its sum's parts over its total (a part's change as it is, the total's negated), to the
    likeliest candidate that moves it so; only candidates ``at_least`` this likely."""
    assert isinstance(r.value, int)
    now = points(r.field, r.value, rules)
    sign = -1 if r is result else 1
    legal = legal_values_of(r.field, rules)
    out: dict[int, int] = {}
    for c in r.candidates[:top]:
        # (a value the box cannot hold, a 7 in Fives, is no reading that explains a sum)
        if (isinstance(c.value, int) and c.value != r.value and c.p >= at_least
                and (legal is None or c.value in legal)):
            out.setdefault(sign * (points(r.field, c.value, rules) - now), c.value)
    if r.field == "yahtzee_bonus_checks" and r.status != CONFIDENT:
        # (a mark not sure of may be no mark: a speck, what is left of the printed box)
        out.setdefault(-sign * now, 0)
    return out


def holding(parts: list[CellRead], result: CellRead, r: CellRead, rules: RuleSet) -> int:
    """What cell ``r`` of a sum (one of its parts, or its result) would have to be worth,
    the others as read, for the sum to hold."""
    total = sum(worth(p, rules) for p in parts)
    if r is result:
        return total
    assert isinstance(result.value, int)
    return result.value - total + worth(r, rules)


def worth(r: CellRead, rules: RuleSet) -> int:
    if r.kind == BLANK or not isinstance(r.value, int):
        return 0
    return points(r.field, r.value, rules)


def points(field: str, value: int, rules: RuleSet) -> int:
    """What a reading adds to its sum (a YAHTZEE BONUS reading counts check marks)."""
    return value * rules.yahtzee_bonus if field == "yahtzee_bonus_checks" else value


def copies(relations: list[Relation],
             slipped: dict[int, tuple[CellRead, int]], rules: RuleSet) -> None:
    """A copy of a cell a digit from holding its sum (TOTAL SCORE + a blank BONUS as TOTAL,
    TOTAL repeated below) is a digit from it too: the same written value, perhaps misread
    alike, which the copy's own sum (x + 0 = x) cannot tell."""
    pairs = copy_pairs(relations, rules)
    grown = True
    while grown:
        grown = False
        for a, b in pairs:
            if id(a) in slipped and id(b) not in slipped:
                slipped[id(b)] = (b, slipped[id(a)][1])
                grown = True


def copy_pairs(relations: list[Relation], rules: RuleSet) -> list[tuple[CellRead, CellRead]]:
    """Each cell read as a copy of another (a sum x + 0 = x as read, not of bonus checks),
    with that other, both ways round."""
    out = []
    for _name, parts, result in relations:
        nonzero = [p for p in parts if worth(p, rules) != 0]
        if (len(result) != 1 or len(nonzero) != 1 or result[0].value != nonzero[0].value
                or nonzero[0].field == "yahtzee_bonus_checks"):
            continue
        out += [(nonzero[0], result[0]), (result[0], nonzero[0])]
    return out


def confirmable(r: CellRead, at_least: float, *, inferred: bool = False) -> bool:
    """Whether a reading for review that a sum confirms is confident from ``at_least`` (one
    inferred from the box's legal values only where ``inferred``; never a name or a blank)."""
    return (r.status == NEEDS_REVIEW and (inferred or not r.inferred)
            and r.kind not in (TEXT, BLANK) and r.confidence >= at_least)


def confirm(r: CellRead, at_least: float, *, inferred: bool = False) -> bool:
    """``r`` confident where ``confirmable``; True when it became so."""
    if confirmable(r, at_least, inferred=inferred):
        r.status = CONFIDENT
        return True
    return False
