"""The column's doubtful cells read together (``ocr.jointread``): the one joint reading
under which every sum holds is taken, kept for a person, with the ink's reading kept."""

from __future__ import annotations

from ocr.jointread import MAX_TRIES, _joint_readings, take_joint
from ocr.result import CONFIDENT, NEEDS_REVIEW, Candidate, CellRead
from ocr.sumread import Relation
from scorepad.rules import get_rules

RULES = get_rules(None)


def _cell(field: str, value: int, *others: tuple[int, float], p: float = 0.45,
          status: str = NEEDS_REVIEW, suggested: bool = False) -> CellRead:
    """A cell read ``value`` at ``p``, with ``others`` among its candidates."""
    return CellRead(field, field, 0, 0, "number", value, p, status,
                    candidates=[Candidate(value, p),
                                *(Candidate(v, q, suggested=suggested) for v, q in others)])


def _sure(field: str, value: int) -> CellRead:
    return _cell(field, value, p=0.999, status=CONFIDENT)


def _column(chance: CellRead, lower: CellRead, grand: CellRead) -> list[Relation]:
    """Lower boxes worth 71 and CHANCE make the lower TOTAL; 98 and it make GRAND TOTAL."""
    return [("lower_sum", [_sure("three_of_a_kind", 71), chance], [lower]),
            ("grand_total", [_sure("upper_total_repeat", 98), lower], [grand])]


def test_two_misread_cells_are_taken_where_every_sum_of_the_column_agrees() -> None:
    # written: CHANCE 23, lower TOTAL 94 (71 + 23), GRAND TOTAL 192 (98 + 94); read 25 and
    # 99: both sums fail, neither one cell's candidate makes them hold, the two together do
    chance = _cell("chance", 25, (23, 0.2), p=0.6)
    lower = _cell("lower_total", 99, (94, 0.4), (90, 0.05))
    grand = _sure("grand_total", 192)
    take_joint(_column(chance, lower, grand), RULES)
    assert (chance.value, lower.value) == (23, 94)
    for cell, ink in ((chance, 25), (lower, 99)):
        assert cell.status == NEEDS_REVIEW  # still for a person to check
        assert cell.ink == ink and cell.candidates[1].value == ink  # the audit tries it
        assert "implied" in cell.checks
    assert grand.value == 192 and grand.ink is None


def test_nothing_is_taken_where_two_readings_are_about_as_likely() -> None:
    # 71 + 25 + 30 = 126 read for a TOTAL of 124: 25 as 23, or 30 as 28, each makes it hold
    a = _cell("chance", 25, (23, 0.35), p=0.4)
    b = _cell("four_of_a_kind", 30, (28, 0.35), p=0.4)
    total = _sure("lower_total", 124)
    take_joint([("lower_sum", [_sure("three_of_a_kind", 71), a, b], [total])], RULES)
    assert (a.value, b.value, a.ink, b.ink) == (25, 30, None, None)


def test_a_reading_the_sums_suggested_is_no_evidence_of_itself() -> None:
    chance = _cell("chance", 23, p=0.999, status=CONFIDENT)
    lower = _cell("lower_total", 99, (94, 0.02), p=0.9, suggested=True)
    take_joint(_column(chance, lower, _sure("grand_total", 192)), RULES)
    assert lower.value == 99 and lower.ink is None


def test_sure_readings_are_never_changed_and_a_slip_stays_as_written() -> None:
    # CHANCE read surely 25: the lower TOTAL read 94 cannot be made to hold by itself
    # without breaking GRAND TOTAL, so the failed sum stays (the player's slip, or a
    # misreading a person sees): nothing is taken
    chance = _sure("chance", 25)
    lower = _cell("lower_total", 99, (94, 0.4), (96, 0.01))
    take_joint(_column(chance, lower, _sure("grand_total", 192)), RULES)
    assert (chance.value, chance.status) == (25, CONFIDENT)
    assert lower.value == 99 and lower.ink is None


def test_a_column_whose_sums_hold_as_read_is_left_alone() -> None:
    chance = _cell("chance", 23, (25, 0.4), p=0.5)
    lower = _cell("lower_total", 94, (99, 0.4), p=0.5)
    take_joint(_column(chance, lower, _sure("grand_total", 192)), RULES)
    assert (chance.value, lower.value, chance.ink, lower.ink) == (23, 94, None, None)


def test_joint_readings_are_counted_before_any_is_tried() -> None:
    # cells with 1, 2 and 3 other readings: 6 changing one, 11 two, 6 all three
    assert _joint_readings([1, 2, 3]) == 23
    assert _joint_readings([6] * 40) > MAX_TRIES  # such a column is left to a person
