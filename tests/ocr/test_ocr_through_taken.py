"""Readings two sums confirm through a cell taken for its ink (``taken.confirm_through_taken``):
with the taken cell dropped out, what is left is a sum of readings as read that holds."""

from __future__ import annotations

from ocr.result import CONFIDENT, NEEDS_REVIEW, Candidate, CellRead
from ocr.sumread import Relation
from ocr.taken import THROUGH_MIN, confirm_through_taken, take
from scorepad.rules import get_rules

RULES = get_rules(None)


def _cell(field: str, value: int, p: float = 0.7, status: str = NEEDS_REVIEW) -> CellRead:
    return CellRead(field, field, 0, 0, "number", value, p, status,
                    candidates=[Candidate(value, p)])


def _taken(field: str, ink: int, value: int) -> CellRead:
    """A cell whose ink read ``ink``, taken as ``value`` (a failed sum's one explanation)."""
    c = _cell(field, ink, p=0.5)
    take(c, Candidate(value, 0.1))
    return c


def _upper(score: CellRead, total: CellRead, repeat: CellRead, *parts: int) -> list[Relation]:
    boxes = [_cell(f, v, p=0.999, status=CONFIDENT)
             for f, v in zip(("aces", "twos", "threes", "fours", "fives", "sixes"), parts,
                             strict=False)]
    bonus = CellRead("upper_bonus", "upper_bonus", 0, 0, "blank", None, 1.0, CONFIDENT)
    return [("upper_sum", boxes, [score]), ("upper_total", [score, bonus], [total]),
            ("upper_repeat", [total], [repeat])]


def test_a_total_that_agrees_with_the_boxes_through_a_taken_total_is_confident() -> None:
    # fresh photo 300055: TOTAL SCORE 49 read 19 and taken as 49 from the boxes; the TOTAL
    # below it read 49 by itself: the boxes add up to it, a check that needs no taken cell
    score = _taken("upper_total_score", 19, 49)
    total = _cell("upper_total", 49, p=0.96)
    repeat = _cell("upper_total_repeat", 49, p=0.65)
    confirm_through_taken(_upper(score, total, repeat, 1, 6, 0, 16, 20, 6), RULES)
    assert total.status == CONFIDENT and "through_taken" in total.checks
    assert repeat.status == CONFIDENT  # its copy, below
    assert score.status == NEEDS_REVIEW and score.ink == 19  # still for a person


def test_nothing_is_confirmed_through_a_copy_alone() -> None:
    # TOTAL taken, TOTAL SCORE and the repeat read alike: x = y twice is no evidence (one
    # hand's digit misread alike in both)
    score = _cell("upper_total_score", 46)
    total = _taken("upper_total", 16, 46)
    repeat = _cell("upper_total_repeat", 46)
    relations = _upper(score, total, repeat, 2, 6, 9, 8, 15, 6)[1:]
    confirm_through_taken(relations, RULES)
    assert (score.status, repeat.status) == (NEEDS_REVIEW, NEEDS_REVIEW)


def test_a_sum_with_a_second_taken_cell_or_a_failed_one_confirms_nothing() -> None:
    lower_parts = [_cell("chance", 25), _cell("three_of_a_kind", 20, p=0.999, status=CONFIDENT)]
    lower = _taken("lower_total", 445, 45)
    grand = _taken("grand_total", 101, 94)
    relations: list[Relation] = [("lower_sum", lower_parts, [lower]),
                                 ("grand_total", [_cell("upper_total_repeat", 49), lower],
                                  [grand])]
    confirm_through_taken(relations, RULES)
    assert lower_parts[0].status == NEEDS_REVIEW  # GRAND TOTAL taken too: no check left
    # ... and where GRAND TOTAL is read (not taken) but does not hold with the taken total
    grand_read = _cell("grand_total", 95)
    relations[1] = ("grand_total", [relations[1][1][0], lower], [grand_read])
    confirm_through_taken(relations, RULES)
    assert (lower_parts[0].status, grand_read.status) == (NEEDS_REVIEW, NEEDS_REVIEW)


def test_a_reading_less_likely_than_the_floor_stays_for_review() -> None:
    score = _taken("upper_total_score", 19, 49)
    total = _cell("upper_total", 49, p=THROUGH_MIN / 2)
    confirm_through_taken(_upper(score, total, _cell("upper_total_repeat", 49),
                                 1, 6, 0, 16, 20, 6), RULES)
    assert total.status == NEEDS_REVIEW


def test_a_chain_of_taken_copies_drops_out_as_a_whole() -> None:
    # fresh photo 300059: TOTAL SCORE and TOTAL both read 51 and taken as 54 (the boxes'
    # sum); the repeat below read 54: three sums, two taken cells, one check left, the
    # boxes against the repeat
    score = _taken("upper_total_score", 51, 54)
    total = _taken("upper_total", 51, 54)
    aces = _cell("aces", 4, p=0.92)
    relations = _upper(score, total, _cell("upper_total_repeat", 54, p=0.9), 4, 4, 6, 12, 10, 18)
    relations[0][1][0] = aces
    confirm_through_taken(relations, RULES)
    assert aces.status == CONFIDENT and relations[2][2][0].status == CONFIDENT
    assert (score.status, total.status) == (NEEDS_REVIEW, NEEDS_REVIEW)


def test_a_taken_cell_in_one_sum_only_confirms_nothing_there() -> None:
    # ACES taken for the upper sum: that sum made it; the other sums say nothing of ACES,
    # and the boxes beside it stay as they were
    aces = _taken("aces", 0, 1)
    twos = _cell("twos", 2, p=0.88)
    boxes = [aces, twos, _cell("threes", 3, p=0.999, status=CONFIDENT)]
    confirm_through_taken([("upper_sum", boxes, [_cell("upper_total_score", 6, p=0.6)])], RULES)
    assert twos.status == NEEDS_REVIEW


def test_a_check_through_a_legal_value_put_for_an_illegal_reading_confirms_nothing() -> None:
    # fresh photo 420043: FULL HOUSE read 23 and put as 25 (the box's legal value), the
    # lower TOTAL taken 98 for the boxes, the upper TOTAL's repeat and GRAND TOTAL read 12
    # and 110 for 42 and 140 (one hand's 4 read as a 1 in both): 12 + 98 = 110 holds, but
    # through a value the reader put, not read
    full_house = _cell("full_house", 25, p=0.004)
    full_house.inferred = True
    parts = [_cell("three_of_a_kind", 21, p=0.999, status=CONFIDENT), full_house,
             _cell("small_straight", 30, p=0.999, status=CONFIDENT),
             _cell("chance", 22, p=0.8)]
    lower = _taken("lower_total", 96, 98)
    repeat, grand = _cell("upper_total_repeat", 12, p=0.98), _cell("grand_total", 110, p=0.85)
    confirm_through_taken([("lower_sum", parts, [lower]),
                           ("grand_total", [repeat, lower], [grand])], RULES)
    assert (repeat.status, grand.status, parts[3].status) == (NEEDS_REVIEW,) * 3


def test_a_copy_in_a_sum_that_fails_is_not_confirmed() -> None:
    # the repeat below is confirmed through the taken lower TOTAL, and the TOTAL above it,
    # read the same, as its copy; TOTAL SCORE reads the same too, but the boxes do not add
    # up to it: a misreading among them, or the player's slip
    parts = [_cell("three_of_a_kind", 21, p=0.999, status=CONFIDENT),
             _cell("chance", 22, p=0.999, status=CONFIDENT)]
    lower = _taken("lower_total", 48, 43)
    repeat, grand = _cell("upper_total_repeat", 42, p=0.9), _cell("grand_total", 85, p=0.9)
    score, total = _cell("upper_total_score", 42, p=0.9), _cell("upper_total", 42, p=0.9)
    relations = _upper(score, total, repeat, 1, 2, 3, 8, 10, 12)  # 36, not 42
    relations += [("lower_sum", parts, [lower]), ("grand_total", [repeat, lower], [grand])]
    confirm_through_taken(relations, RULES)
    assert (repeat.status, grand.status, total.status) == (CONFIDENT,) * 3
    assert score.status == NEEDS_REVIEW
