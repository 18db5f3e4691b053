"""The one value the pad's sums may change (``crosscheck``'s last stage): a doubtful cell
whose own candidate is a failed sum's only explanation reads as that candidate, with what
its ink read kept (``CellRead.ink``) for the audit to try."""

from __future__ import annotations

from scorepad.rules import RuleSet

from . import sumread as sr
from .result import NEEDS_REVIEW, Candidate, CellRead
from .sumread import Relation


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
