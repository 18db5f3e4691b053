"""Confidence from the pad's own arithmetic: readings that satisfy a sum are confident, a
failed sum no doubtful cell explains takes confidence away. One value may change: a
doubtful cell whose one candidate is a failed sum's only explanation takes that reading,
stays for a person to check, and keeps what its ink read (``CellRead.ink``), which the
audit tries (a sum that holds only as the reader took it is a doubt, not "correct")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scorepad.boxes import Box, TotalField
from scorepad.readings import digit_apart, digit_other
from scorepad.rules import RuleSet

from . import sumread as sr
from .decode import CONFIDENT_AT, fixed_sure, legal_values_of
from .jointread import take_joint
from .layout import Side
from .misread import misread_alike, swapped_digit, twins_by_swap
from .posterior import confirm_joint
from .result import BLANK, CONFIDENT, NEEDS_REVIEW, Candidate, CellRead
from .sumread import Relation
from .taken import confirm_through_taken, take_implied

KEEP_ON_FAIL = 0.99  # a failed sum no doubtful cell explains leaves readings this sure confident
# Chosen on the development seeds (independent 300000-300089, own 90000-90059): see ocr/README.md.
CROSS_MIN = 0.2  # a reading this likely, confirmed by the pad's own arithmetic, is confident
ALIKE_MIN = 0.4  # ... this likely where two of the sum's cells read as candidates hold it too
INFERRED_MIN = 0.05  # ... a legal value taken for an illegal reading, where a sum holds plainly
# (any likelihood on 2026-12-06 and 07 only: in a dim photo an Aces 1 read as an illegal
# glyph, 0 put for it at p 0.000, held its sum through another misreading beside it)
LONE_MIN = 0.05  # ... the one reading of a sum that holds plainly not sure on its own
TWIN_P = 0.05  # a runner-up less likely than this is no misreading a hand makes twice
ALIKE_CANDIDATES = 6  # the candidates of a cell looked at for a second way the sum holds
SLIP_P = 0.02  # the likelihood given to a reading the pad's sum suggests (a digit more, less, other)




def cross_check(reads: Sequence[CellRead], side: Side, rules: RuleSet) -> None:
    """Confidence from the pad's arithmetic.

    When the numbers as read satisfy one of the pad's sums (the six upper boxes
    add up to TOTAL SCORE, ...), a misreading would have to be cancelled by
    another one, which is unlikely: such readings become confident.  No sure
    reading is ever changed to make a sum agree (a sum that fails may be the
    player's mistake, which the audit reports); a doubtful cell that one of its
    own candidates is the failed sum's only explanation for reads as that
    candidate (``taken.take_implied``), still for a person to check.
    """
    for col in _columns(reads, side):
        relations = _relations(col, side)
        sums = _weigh(relations, rules)
        _confirm_held(sums, rules)
        # (after the sums that hold have made their readings confident: a cell a sum
        # vouches for explains no other sum's failure)
        explained = _doubt_failed(sums, rules)
        _doubt_implied(relations, sums, rules)
        _doubt_slips(relations, sums, explained, rules)
        _confirm_copies(col, sums)
        take_implied(relations, sums.implied, sums.contested, rules)
        take_joint(relations, rules)
        confirm_through_taken(relations, rules)
        confirm_joint(relations, rules)


def _columns(reads: Sequence[CellRead], side: Side) -> list[dict[str, CellRead]]:
    """Each column's readings by sheet key (on the back, by key and game)."""
    groups: dict[int, dict[str, CellRead]] = {}
    for r in reads:
        if r.field != "name":
            groups.setdefault(r.column, {})[f"{r.field}:{r.game}" if side is Side.BACK
                                             else r.field] = r
    return list(groups.values())


def _relations(col: dict[str, CellRead], side: Side) -> list[Relation]:
    """The column's sums: the front's five, the back's total of all games."""
    if side is Side.BACK:
        scores = [r for k, r in col.items() if k.startswith("score:")]
        total = [r for k, r in col.items() if k.startswith("total:")]
        return [("players_total", scores, total)]

    def cells(*names: str) -> list[CellRead]:
        return [col[n] for n in names if n in col]

    upper = cells(*(b.value for b in Box if b.is_upper))
    lower = cells(*(b.value for b in Box if not b.is_upper), "yahtzee_bonus_checks")
    T = TotalField
    # (a player who leaves the upper TOTAL's repeat below blank adds the TOTAL itself)
    repeat = col.get(T.UPPER_TOTAL_REPEAT.value)
    upper_part = (T.UPPER_TOTAL if repeat is not None and repeat.kind == BLANK
                  else T.UPPER_TOTAL_REPEAT)
    return [
        ("upper_sum", upper, cells(T.UPPER_SUBTOTAL.value)),
        ("upper_total", cells(T.UPPER_SUBTOTAL.value, T.UPPER_BONUS.value),
         cells(T.UPPER_TOTAL.value)),
        ("lower_sum", lower, cells(T.LOWER_TOTAL.value)),
        ("upper_repeat", cells(T.UPPER_TOTAL.value), cells(T.UPPER_TOTAL_REPEAT.value)),
        ("grand_total", cells(upper_part.value, T.LOWER_TOTAL.value),
         cells(T.GRAND_TOTAL.value)),
        # (the official pad's SCORE 100 PER line: the bonus for each check above it)
        ("bonus_score", cells("yahtzee_bonus_checks"), cells(T.YAHTZEE_BONUS.value)),
    ]


@dataclass
class _Sums:
    """What a column's sums say of its readings (cells keyed by ``id``)."""

    held: dict[int, tuple[CellRead, str]] = field(default_factory=dict)  # in a sum that holds
    # ... that it vouches for plainly: not two of its cells that, read as their candidates,
    # would hold it too (one hand's digit misread alike in a part and a total)
    plain: set[int] = field(default_factory=set)
    # ... and that no two of its cells read as any of their runners-up would hold (what a
    # copy of a cell needs: one hand's digit misread surely in both has a runner-up at 0.7%)
    plainest: set[int] = field(default_factory=set)
    # ... the one reading of such a sum not sure on its own: its sure readings pin it
    lone: set[int] = field(default_factory=set)
    failed: dict[int, tuple[CellRead, str]] = field(default_factory=dict)  # in a failed sum
    slipped: dict[int, tuple[CellRead, int]] = field(default_factory=dict)  # a digit of one
    # cell from holding: more or fewer; ``misread``: other (unless a sum vouches), with the
    # failed sum's index
    misread: list[tuple[CellRead, int, int]] = field(default_factory=list)
    failing: list[tuple[list[CellRead], CellRead, list[CellRead]]] = field(default_factory=list)
    # a failed sum's one doubtful cell and the one candidate that explains it
    implied: dict[int, tuple[CellRead, int]] = field(default_factory=dict)
    contested: set[int] = field(default_factory=set)  # ... implied otherwise by another sum
    suspects: set[int] = field(default_factory=set)  # cells a failed sum says may be other


def _weigh(relations: list[Relation], rules: RuleSet) -> _Sums:
    """Which sums hold and which fail as read (a sum with a result unread is no evidence)."""
    sums = _Sums()
    for name, parts, result in relations:
        if not sr.read_through(parts, result):
            continue
        if name == "bonus_score" and all(p.kind == BLANK for p in parts):
            continue  # (no check read: the audit says what a score without checks is)
        written = [r for r in [*parts, result[0]] if r.kind != BLANK]
        if not sr.holds(parts, result[0], rules):
            # a misreading or the player's own mistake: the values stay as read
            for r in written:
                sums.failed.setdefault(id(r), (r, f"{name}_failed"))
            # (a digit other: even where a doubtful cell's candidate would explain the
            # failure, a reading not quite sure may be the misread one: on the
            # development seeds that left a confident 51 for 54 in a TOTAL SCORE)
            for r, value, other in _one_slip(parts, result[0], rules):
                if other:
                    sums.misread.append((r, value, len(sums.failing)))
                else:
                    sums.slipped[id(r)] = (r, value)
            sums.failing.append((parts, result[0], written))
        elif sum(sr.worth(p, rules) != 0 for p in parts) >= 2 or name == "bonus_score":
            # (x == y, or x + 0 == y, is no evidence: one hand's digits misread alike; marks
            # counted and the digits of their points are not misread alike)
            twins = _held_alike(parts, result[0], rules, TWIN_P)
            any_twins = _held_alike(parts, result[0], rules, 0.0)
            unsure = [r for r in written if r.status != CONFIDENT or r.inferred]
            if len(unsure) == 1:
                sums.lone.add(id(unsure[0]))
            for r in written:
                sums.held.setdefault(id(r), (r, name))
                if id(r) not in twins:
                    sums.plain.add(id(r))
                if id(r) not in any_twins:
                    sums.plainest.add(id(r))
    return sums


def _confirm_held(sums: _Sums, rules: RuleSet) -> None:
    """A reading in a sum that holds is confident from CROSS_MIN (ALIKE_MIN for twins); one
    inferred from the box's legal values from INFERRED_MIN (any), where the sum holds
    plainly (the legal value taken for an illegal reading is then the one the sum needs:
    Large Straight read "10", 40 taken, and the lower boxes add up to their TOTAL); the one
    reading of a sum that holds plainly that is not sure on its own from LONE_MIN: the
    sum's sure readings say what it is, and a reading that unlikely landing on just that
    value by chance is less likely still (a lower bar for every reading let three weak
    misreadings that cancel in one sum pass: 22 for 25, 25 for 23, 177 for 178).  Not a
    total inferred past what a game reaches (read 746, taken 46): the player may have
    written that digit too many (146 for 46), a slip the sum would hide."""
    for key, (r, note) in sums.held.items():
        r.checks.append(note)
        if key not in sums.plain:
            sr.confirm(r, ALIKE_MIN)
        else:
            by_box = r.inferred and legal_values_of(r.field, rules) is not None
            at_least = (INFERRED_MIN if r.inferred else LONE_MIN if key in sums.lone
                        else CROSS_MIN)
            sr.confirm(r, at_least, inferred=by_box)


def _confirm_copies(col: dict[str, CellRead], sums: _Sums) -> None:
    """A copy read as the same number as its original, which a sum that holds vouches for,
    is confident from CROSS_MIN, and vouches for its own copy in turn: TOTAL SCORE and TOTAL
    where the BONUS is surely blank or 0, TOTAL and its repeat below.  A misread copy would
    have to land on a reading the pad's arithmetic confirms; two copies merely agreeing are
    no evidence (one hand's digit misread alike in both), nor is an original sure on its own
    (a misreading it is sure of would be made a second and a third time)."""
    T = TotalField
    vouched = {k for k in sums.plainest if k not in sums.suspects}
    subtotal, bonus, total, repeat = (col.get(f.value) for f in (
        T.UPPER_SUBTOTAL, T.UPPER_BONUS, T.UPPER_TOTAL, T.UPPER_TOTAL_REPEAT))
    no_bonus = (bonus is not None and bonus.status == CONFIDENT
                and (bonus.kind == BLANK or bonus.value == 0))
    pairs = [(total, repeat)] + ([(subtotal, total)] if no_bonus else [])
    pairs += [(b, a) for a, b in pairs]
    vouched |= _agreeing_copies([subtotal, total, repeat] if no_bonus else [total, repeat],
                                sums)
    grown = True
    while grown:  # (TOTAL SCORE -> TOTAL -> its repeat)
        grown = False
        for original, copy in pairs:
            if (original is None or copy is None or id(original) not in vouched
                    or id(copy) in vouched or original.status != CONFIDENT
                    or original.kind == BLANK or copy.value != original.value):
                continue
            if copy.status == CONFIDENT or sr.confirm(copy, CROSS_MIN):
                copy.checks.append("copy")
                vouched.add(id(copy))
                grown = True


def _agreeing_copies(copies: list[CellRead | None], sums: _Sums) -> set[int]:
    """Copies of one number, each confident in a sum of its own that holds, reading alike:
    each sum alone may hold through one digit misread alike in two of its cells, but two
    sums doing so and landing on the same reading is no likelier than a plain misreading
    (TOTAL SCORE 49 in the upper boxes' sum, its repeat below 49 in the GRAND TOTAL)."""
    held = [r for r in copies if r is not None and id(r) in sums.held
            and id(r) not in sums.suspects and r.status == CONFIDENT and r.kind != BLANK]
    out: set[int] = set()
    for i, a in enumerate(held):
        for b in held[i + 1:]:
            if a.value == b.value and sums.held[id(a)][1] != sums.held[id(b)][1]:
                out.update((id(a), id(b)))
    return out


def _doubt_failed(sums: _Sums, rules: RuleSet) -> list[bool]:
    """A failed sum that one doubtful cell's one candidate explains vouches for the rest of
    it; one that no doubtful cell explains, by a candidate or by a digit of its own
    (``_one_doubtful_slip``), doubts every reading in it below KEEP_ON_FAIL (not vouched
    for by a sum that holds, nor a box's one score read sure enough by the box itself,
    while another cell of the sum is doubtful), and its total however sure where a
    doubtful cell is in it, or a total so doubted by another such sum.
    Returns, per failed sum, whether a candidate explains it."""
    explanations = [_explanations(parts, res, rules) for parts, res, _w in sums.failing]
    # (a cell that would explain one failed sum is vouched for by no other)
    explaining = {id(c) for why in explanations for way in why for c, _v in way}
    unexplained: set[int] = set()  # suspects of failed sums no doubtful cell accounts for
    for (parts, res, _written), why in zip(sums.failing, explanations, strict=True):
        if len(why) == 1 and len(why[0]) == 1:
            # one doubtful cell's one candidate, and no other way, makes the sum hold:
            # read so, the sum vouches for the rest of it as a sum that holds does
            _vouch_rest(parts, res, why[0][0], explaining, rules)
            cell, value = why[0][0]
            if sums.implied.setdefault(id(cell), (cell, value))[1] != value:
                sums.contested.add(id(cell))
    totals: set[int] = set()  # ... the totals of those with a doubtful cell in them too
    doubting: list[tuple[CellRead, list[CellRead]]] = []  # those sums' totals and readings
    for (parts, res, written), why in zip(sums.failing, explanations, strict=True):
        if not why and not _one_doubtful_slip(parts, res, rules):
            # no doubtful cell explains it: every reading still marked confident is a
            # suspect (below KEEP_ON_FAIL), not just the least sure ones: two or three
            # misread in one sum are common in an unfamiliar hand (203, 200 and 150
            # read 263, 260 and 156 in one PLAYERS' SCORES column)
            unexplained.update(id(r) for r in written
                               if r.status == CONFIDENT and r.kind != BLANK)
            # ... and a total, however sure, where a doubtful cell is in it that none of
            # its readings makes hold: two cells are wrong then, and a misread total is
            # what a verdict would call the player's slip (252 read surely 757 beside a
            # lower TOTAL read 156 for 154: reviewed, the column was accused)
            if any(r.status != CONFIDENT and r.kind != BLANK for r in written):
                totals.add(id(res))
            doubting.append((res, written))
    # a total so doubted is a doubtful cell of the sums it is a part of (TOTAL's repeat
    # read surely 3 beside TOTAL 31, GRAND TOTAL 191 read surely 9: reviewed, accused)
    grown = True
    while grown:
        grown = False
        for res, written in doubting:
            if (id(res) not in totals and id(res) not in sums.held
                    and any(id(r) in totals and id(r) not in sums.held for r in written)):
                totals.add(id(res))
                grown = True
    fixed = {k for k in unexplained if _fixed_sure(sums.failed[k][0], rules)}
    for key, (r, note) in sums.failed.items():
        r.checks.append(note)
        if (key not in sums.held and key in unexplained and key not in fixed
                and r.status == CONFIDENT and (r.confidence < KEEP_ON_FAIL or key in totals)):
            r.status = NEEDS_REVIEW
    # (... unless nothing else in its failed sum is left to a person: a failure must rest
    # on a doubtful cell, never on sure readings alone)
    for _parts, _res, written in sums.failing:
        if not any(r.status != CONFIDENT for r in written if id(r) not in fixed):
            for r in written:
                if id(r) in fixed and id(r) not in sums.held and r.confidence < KEEP_ON_FAIL:
                    r.status = NEEDS_REVIEW
    return [bool(why) for why in explanations]


def _fixed_sure(r: CellRead, rules: RuleSet) -> bool:
    """A box's one score read sure enough by the box itself (``decode.fixed_sure``): a
    failed sum it is in is laid on the sum's other cells."""
    return fixed_sure(r.value, r.confidence, r.inferred, legal_values_of(r.field, rules))


def _one_doubtful_slip(parts: list[CellRead], result: CellRead, rules: RuleSet) -> bool:
    """The failed sum is one digit (other, more or fewer) of one doubtful cell from holding,
    and of no other cell: that cell's slip accounts for it, so the sum's sure readings are
    no suspects (the cell itself goes to a person, with that reading: ``_doubt_slips``)."""
    slips = _one_slip(parts, result, rules)
    return len(slips) == 1 and slips[0][0].status != CONFIDENT


def _doubt_implied(relations: list[Relation], sums: _Sums, rules: RuleSet) -> None:
    """A failed sum that one doubtful cell's one candidate explains says what that cell
    holds, and its copies (TOTAL SCORE + a blank BONUS as TOTAL, TOTAL repeated below) the
    same.  A sum that holds with a copy as read, not as implied, holds through one misreading
    made twice (a hand's 5 read as a 6 in TOTAL SCORE, its copies and the GRAND TOTAL: 50,
    50, 157 read 60, 60, 167): the copy, and its partners that a candidate would make hold
    with it as implied, are for a person to check."""
    implied = dict(sums.implied)
    sr.copies(relations, implied, rules)
    for _name, parts, result in relations:
        if len(result) != 1 or not isinstance(result[0].value, int):
            continue
        cells = [*parts, result[0]]
        moved = [(c, implied[id(c)][1]) for c in cells
                 if id(c) in implied and implied[id(c)][1] != c.value]
        if len(moved) != 1 or not sr.holds(parts, result[0], rules):
            continue  # (only a sum that holds as read, with one cell implied other)
        copy, value = moved[0]
        parts2, result2 = sr.read_as(parts, result[0], copy, value)
        for r in cells:
            if r is copy or r.kind == BLANK or not isinstance(r.value, int):
                continue
            want = sr.holding(parts2, result2, r, rules)
            if (r.status == CONFIDENT and (r.confidence < KEEP_ON_FAIL or r.inferred)
                    and any(c.value == want for c in r.candidates[:ALIKE_CANDIDATES])):
                r.status = NEEDS_REVIEW
        _suspect(copy, value, sums)


def _doubt_slips(relations: list[Relation], sums: _Sums, explained: list[bool],
                 rules: RuleSet) -> None:
    """A cell one digit from making a failed sum hold (a digit more, fewer or other) is for
    a person to look at, with that reading among its candidates; so are its copies."""
    slipped = sums.slipped
    sr.copies(relations, slipped, rules)
    # (where a doubtful cell's candidate accounts for the failure, a reading at
    # KEEP_ON_FAIL or above is not suspected a digit other too: a +1 failure would
    # otherwise doubt every sure cell whose last digit may be one more)
    others = {id(r): (r, v) for r, v, k in sums.misread if id(r) not in slipped
              and (not explained[k] or r.confidence < KEEP_ON_FAIL)}
    sr.copies(relations, others, rules)
    # (a digit misread as another in a cell whose own sum holds, or in a copy of it,
    # would need a second misreading to cancel it there: that cell is vouched for,
    # unless a cell of that sum shows the same digit where the same misreading
    # cancels it: one hand's 8 read as a 1 in 28 and in 158, 21 and 151 hold)
    twice = _misread_twice(relations, others, rules)
    slipped.update({k: rv for k, rv in others.items()
                    if (k not in sums.held or k in twice) and k not in slipped})
    for k, rv in twice.items():
        slipped.setdefault(k, rv)
    for r, value in slipped.values():
        # one digit more, fewer or other in this cell and the sum holds: a digit lost at
        # the cell's edge, a mark taken for one or a digit misread looks exactly so
        # (so does the player's slip: the person who looks tells), even where another sum holds
        # (both may rest on the same misreading): a person looks, and the audit knows
        # the reading that would make the card right
        _suspect(r, value, sums)


def _suspect(r: CellRead, value: int, sums: _Sums) -> None:
    """A cell for a person to look at (one inferred from the box's legal values too, though
    a sum confirmed it), with ``value``, the reading the pad's sums suggest, among its
    candidates."""
    sums.suspects.add(id(r))
    if r.status == CONFIDENT:
        r.status = NEEDS_REVIEW
    if all(c.value != value for c in r.candidates):
        r.candidates.insert(min(1, len(r.candidates)), Candidate(value, SLIP_P, suggested=True))


def _one_slip(parts: list[CellRead], result: CellRead, rules: RuleSet
              ) -> list[tuple[CellRead, int, bool]]:
    """The cells of a failed sum that one digit more, fewer or other would make hold, with
    that value: a digit lost at the cell's edge, a mark beside it taken for one, or one
    digit misread as another by a classifier sure of it (an unfamiliar hand's 2 taken for
    a 9 at p 0.99: its own candidates then miss the 2).  Only values the box can hold count;
    the YAHTZEE BONUS checks are a count, not digits."""
    out: list[tuple[CellRead, int, bool]] = []
    for r in [*parts, result]:
        if r.field == "yahtzee_bonus_checks" or r.kind == BLANK or not isinstance(r.value, int):
            continue
        want = sr.holding(parts, result, r, rules)
        legal = legal_values_of(r.field, rules)
        if want < 0 or (legal is not None and want not in legal):
            continue
        if digit_apart(r.value, want):
            out.append((r, want, False))
        elif digit_other(r.value, want):
            out.append((r, want, True))
    return out


def _held_alike(parts: list[CellRead], result: CellRead, rules: RuleSet,
                at_least: float) -> set[int]:
    """The cells of a sum that holds, two of which, read as one of their other candidates
    each, would hold it as well: a part and the total moved alike (the same digit misread
    the same way in both: 153 and 189 read 133 and 169), or two parts moved apart.  Only
    candidates ``at_least`` this likely count (``TWIN_P`` for a sum's confirmations: a sum
    of many cells nearly always has two runners-up at 0.1% that would hold it too)."""
    moves = [(id(r), sr.moves(r, result, rules, ALIKE_CANDIDATES, at_least))
             for r in [*parts, result] if r.kind != BLANK and isinstance(r.value, int)]
    out: set[int] = set()
    for i, (a, da) in enumerate(moves):
        for b, db in moves[i + 1:]:
            if any(-d in db for d in da):
                out.update((a, b))
    return out | twins_by_swap([*parts, result], result, rules, ALIKE_CANDIDATES, at_least)


def _misread_twice(relations: list[Relation],
                   others: dict[int, tuple[CellRead, int]], rules: RuleSet
                   ) -> dict[int, tuple[CellRead, int]]:
    """Cells one digit other from a failed sum's holding, confident only because their own
    sum holds, which holds as well with the same digit misread the same way in another of
    its cells (a part when the cell is the total, the total when it is a part): the hand's
    one confusion twice, not two independent misreadings.  Both are returned, each with
    its other reading."""
    out: dict[int, tuple[CellRead, int]] = {}
    for r, value in others.values():
        swap = swapped_digit(r.value, value)
        if swap is None or not isinstance(r.value, int) or r.confidence >= CONFIDENT_AT:
            continue  # (a reading sure on its own is not sure through its sum only)
        step = value - r.value
        for _name, parts, result in relations:
            if len(result) != 1 or not isinstance(result[0].value, int):
                continue
            if r is not result[0] and all(p is not r for p in parts):
                continue
            if not sr.holds(parts, result[0], rules):
                continue  # (only a sum that holds vouches)
            partners = parts if r is result[0] else result
            for c in partners:
                other = misread_alike(c, swap, rules) if c is not r else None
                if other is not None and isinstance(c.value, int) and other - c.value == step:
                    out[id(r)] = (r, value)
                    out.setdefault(id(c), (c, other))
    return out


Way = tuple[tuple[CellRead, int], ...]  # cells of a sum, each with its other reading


def _explanations(parts: list[CellRead], result: CellRead, rules: RuleSet) -> list[Way]:
    """How a failed sum is accounted for by cells already marked for review: one of a
    cell's own candidates, or one each of two cells' (in an unfamiliar hand two cells of a
    sum are misread as often as one), would make the sum hold; each way as its cells and
    their candidates.  (Confidence depends on this, and where there is one way, one
    cell's one candidate, that cell's value: ``taken.take_implied``.)  None: the failure may
    hide a confident misreading."""
    gap = sum(sr.worth(p, rules) for p in parts) - sr.worth(result, rules)  # parts over total
    cells = [r for r in [*parts, result]
             if r.status != CONFIDENT and r.kind != BLANK and isinstance(r.value, int)]
    moves = [sr.moves(r, result, rules, 5) for r in cells]
    out: list[Way] = [((r, m[-gap]),) for r, m in zip(cells, moves, strict=True) if -gap in m]
    # two doubtful cells, each read as one of its candidates (two misread in one sum)
    for i, a in enumerate(moves):
        for j in range(i + 1, len(moves)):
            d = next((d for d in a if -gap - d in moves[j]), None)
            if d is not None:
                out.append(((cells[i], a[d]), (cells[j], moves[j][-gap - d])))
    return out


def _vouch_rest(parts: list[CellRead], result: CellRead, way: tuple[CellRead, int],
                explaining: set[int], rules: RuleSet) -> None:
    """A failed sum that holds with one doubtful cell read as the one candidate that
    explains it (``way``): its other readings are confirmed as by a sum that holds (at
    CROSS_MIN, not where two of them could move alike), and the doubtful cell stays for a
    person to look at."""
    parts2, result2 = sr.read_as(parts, result, *way)
    if sum(sr.worth(p, rules) != 0 for p in parts2) < 2:
        return  # (x == y, or x + 0 == y, is no evidence)
    twins = _held_alike(parts2, result2, rules, TWIN_P)
    for r in [*parts, result]:
        if id(r) not in explaining and id(r) not in twins and sr.confirm(r, CROSS_MIN):
            r.checks.append("explained")
