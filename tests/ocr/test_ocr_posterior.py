"""Readings the column's sums vouch for together (``ocr.posterior``): a doubtful reading
that every likely way of reading its column keeps is confident; taken cells stay for a
person, and nothing changes value."""

from __future__ import annotations

import pytest

from ocr.posterior import OTHER, _weight, confirm_joint
from ocr.result import CONFIDENT, NEEDS_REVIEW, Candidate, CellRead
from ocr.sumread import Relation
from ocr.taken import take
from scorepad.rules import get_rules

RULES = get_rules(None)


def _cell(field: str, value: int, *others: tuple[int, float], p: float,
          status: str = NEEDS_REVIEW, game: int | None = 0) -> CellRead:
    """A cell read ``value`` at ``p``, with ``others`` among its candidates."""
    return CellRead(field, field, 0, game, "number", value, p, status,
                    candidates=[Candidate(value, p), *(Candidate(v, q) for v, q in others)])


def _players_column(third: CellRead, total: int = 741) -> tuple[list[CellRead], list[Relation]]:
    """A PLAYERS' SCORES column: 188 + 110 + the third game = the TOTAL."""
    scores = [_cell("score", 188, (388, 0.04), p=0.95),
              _cell("score", 110, (210, 0.06), p=0.93, game=1), third]
    cells = [*scores, _cell("total", total, (747, 0.03), p=0.95, game=None)]
    return cells, [("players_total", scores, [cells[-1]])]


def test_a_sum_held_through_a_taken_cell_vouches_where_no_other_reading_is_likely() -> None:
    # the third game's ink read 445 (443 its runner-up), taken 443 for the TOTAL 741: the
    # sum holds only through it, yet every other way of reading the column is unlikely
    third = _cell("score", 445, (443, 0.3), p=0.6, game=2)
    take(third, Candidate(443, 0.3))
    cells, relations = _players_column(third)
    confirm_joint(relations, RULES)
    first, second, _third, total = cells
    for cell in (first, second, total):
        assert cell.status == CONFIDENT and "joint" in cell.checks
    assert third.status == NEEDS_REVIEW and third.ink == 445  # still for a person
    assert [c.value for c in cells] == [188, 110, 443, 741]  # nothing changes value


def test_the_columns_one_failed_sum_keeps_the_cell_it_rests_on_for_a_person() -> None:
    # 188 + 110 + 445 = 743 read for a TOTAL of 741: the 445 (443 its runner-up) is the
    # likely misreading; every likely way keeps the rest, and the failure rests on the 445
    cells, relations = _players_column(_cell("score", 445, (443, 0.3), p=0.6, game=2))
    confirm_joint(relations, RULES)
    first, second, third, total = cells
    assert all(c.status == CONFIDENT for c in (first, second, total))
    assert third.status == NEEDS_REVIEW and third.value == 445


def test_a_failure_no_likely_misreading_explains_is_never_laid_on_sure_readings() -> None:
    # every cell read at 0.9 or more, no candidate making the sum hold: the player's slip
    # or a misreading the reader is sure of; confirming every cell would accuse the player
    third = _cell("score", 445, (945, 0.04), p=0.95, game=2)
    cells, relations = _players_column(third)
    for c in cells:
        c.candidates.append(Candidate(1, 1.0 - sum(k.p for k in c.candidates)))
    confirm_joint(relations, RULES)
    assert all(c.status == NEEDS_REVIEW for c in cells)


def test_nothing_is_confirmed_in_a_failed_sum_where_two_fail() -> None:
    # two sums failing: the ways that mend both change two cells, all a way may change,
    # and none is left for a target's own misreading; the sums' cells stay for a person
    cells, relations = _players_column(_cell("score", 445, (443, 0.3), p=0.6, game=2))
    other_scores = [_cell("score", 200, (300, 0.1), p=0.8, game=3),
                    _cell("score", 300, (200, 0.1), p=0.8, game=4)]
    other_total = _cell("total", 501, (500, 0.2), p=0.7, game=None)
    relations.append(("players_total", other_scores, [other_total]))
    confirm_joint(relations, RULES)
    assert all(c.status == NEEDS_REVIEW for c in [*cells, *other_scores, other_total])


def test_a_reading_with_another_as_likely_is_not_confirmed() -> None:
    # 110 or 210 alike: the TOTAL 841 with 210 would hold too, had the total been misread
    third = _cell("score", 445, (443, 0.3), p=0.6, game=2)
    take(third, Candidate(443, 0.3))
    cells, relations = _players_column(third)
    second, total = cells[1], cells[-1]
    second.confidence = second.candidates[0].p = 0.5
    second.candidates[1] = Candidate(210, 0.45)
    total.candidates.append(Candidate(841, 0.05))
    confirm_joint(relations, RULES)
    assert second.status == NEEDS_REVIEW and total.status == NEEDS_REVIEW
    assert cells[0].status == CONFIDENT  # (no likely way moves 188)


def _sure(field: str, value: int) -> CellRead:
    return _cell(field, value, p=0.999, status=CONFIDENT)


def test_one_hands_digit_misread_alike_in_two_numbers_is_one_misreading() -> None:
    # written 42 and 140, read 12 and 110 (one hand's 4 as a 1): the GRAND TOTAL holds as
    # read, the upper boxes' sum fails (a slip, as read); weighed as two misreadings the
    # twin would be too unlikely to count, and 110 would be confirmed
    score = _cell("upper_total_score", 12, (42, 0.005), p=0.99, status=CONFIDENT)
    repeat = _cell("upper_total_repeat", 12, (42, 0.05), p=0.9)
    grand = _cell("grand_total", 110, (140, 0.05), p=0.85)
    boxes = [_sure("fours", 12), _sure("fives", 30)]
    relations: list[Relation] = [
        ("upper_sum", boxes, [score]),
        ("grand_total", [repeat, _sure("lower_total", 98)], [grand])]
    confirm_joint(relations, RULES)
    assert repeat.status == NEEDS_REVIEW and grand.status == NEEDS_REVIEW


def test_two_numbers_misread_the_same_way_weigh_as_the_likelier() -> None:
    a = _cell("upper_total_repeat", 12, p=0.9)
    b = _cell("grand_total", 110, p=0.85)
    assert _weight([a, b], [(42, -3.0), (140, -2.0)]) == -2.0  # 1 for 4, tens, in both
    assert _weight([a, b], [(32, -3.0), (140, -2.0)]) == -5.0  # other digits
    assert _weight([a, b], [(12, -3.0), (150, -2.0)]) == -5.0  # (12 as read: no digit other)
    assert _weight([a, b], [(OTHER, -3.0), (140, -2.0)]) == -5.0


def test_a_failure_is_never_laid_on_readings_all_confirmed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # with a lower bar every reading of the failed sum would be kept (the player's slip the
    # likeliest way): none of them is confirmed, the failure stays on cells a person checks
    monkeypatch.setattr("ocr.posterior.POST_MIN", 0.5)
    cells, relations = _players_column(_cell("score", 445, (945, 0.04), p=0.95, game=2))
    confirm_joint(relations, RULES)
    assert all(c.status == NEEDS_REVIEW for c in cells)


def test_two_sums_one_misreading_fails_leave_the_rest_to_be_confirmed() -> None:
    # CHANCE 23 and the lower boxes' 71 make a lower TOTAL of 94, read 99 (94 its
    # runner-up): it fails its own sum and GRAND TOTAL's (98 + 94 = 192); its candidate
    # mends both, one change, and every likely way keeps CHANCE
    chance = _cell("chance", 23, (28, 0.05), p=0.9)
    lower = _cell("lower_total", 99, (94, 0.3), p=0.6)
    relations: list[Relation] = [
        ("lower_sum", [_sure("three_of_a_kind", 71), chance], [lower]),
        ("grand_total", [_sure("upper_total_repeat", 98), lower], [_sure("grand_total", 192)])]
    confirm_joint(relations, RULES)
    assert chance.status == CONFIDENT and "joint" in chance.checks
    assert lower.status == NEEDS_REVIEW and lower.value == 99
