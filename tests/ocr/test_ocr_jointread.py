"""The column's doubtful cells read together (``ocr.jointread``): the one joint reading
under which every sum holds is taken, kept for a person, with the ink's reading kept."""

from __future__ import annotations

from ocr.jointread import MAX_TRIES, _digit_lost, _joint_readings, take_joint
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


def _upper_column(score: CellRead, total: CellRead, repeat: CellRead, fours: CellRead,
                  sixes: int = 25, grand: int = 141) -> list[Relation]:
    """Upper boxes worth ``sixes`` and FOURS make TOTAL SCORE; a blank BONUS; TOTAL
    repeated below; the repeat and a lower TOTAL of 100 make GRAND TOTAL ``grand``."""
    bonus = CellRead("upper_bonus", "upper_bonus", 0, 0, "blank", None, 0.99, CONFIDENT)
    return [("upper_sum", [_sure("sixes", sixes), fours], [score]),
            ("upper_total", [score, bonus], [total]),
            ("upper_repeat", [total], [repeat]),
            ("grand_total", [repeat, _sure("lower_total", 100)], [_sure("grand_total", grand)])]


def test_copies_by_one_hand_are_read_again_together_as_one_misreading() -> None:
    # 41 written in TOTAL SCORE, TOTAL and its repeat, the 1 touching the 4: read 4 in all
    # three, 41 a far runner-up of each. TOTAL holds its copy (4 + 0 = 4), so it is in no
    # failed sum; FOURS (16) is doubtful too. As read two sums fail, the player's slips
    # (2 x log 0.02 = -7.8); three copies weighed as three misreadings, 3 x log(0.03 / 0.6)
    # = -9.0, would lose to them, as one misreading (-3.0) they are taken together
    copies = [_cell(f, 4, (41, 0.03), p=0.6)
              for f in ("upper_total_score", "upper_total", "upper_total_repeat")]
    fours = _cell("fours", 16, (18, 0.1), p=0.7)
    take_joint(_upper_column(*copies, fours), RULES)
    for c in copies:
        assert (c.value, c.ink, c.status) == (41, 4, NEEDS_REVIEW)
    assert fours.value == 16 and fours.ink is None


def test_copies_are_taken_only_where_each_has_the_reading_among_its_own() -> None:
    copies = [_cell(f, 4, (41, 0.15), p=0.6) for f in ("upper_total_score", "upper_total")]
    repeat = _cell("upper_total_repeat", 4, (44, 0.15), p=0.6)
    fours = _cell("fours", 16, (18, 0.1), p=0.7)
    take_joint(_upper_column(*copies, repeat, fours), RULES)
    assert [c.value for c in (*copies, repeat)] == [4, 4, 4]


def _suggested(field: str, value: int, suggestion: int) -> CellRead:
    """A cell read surely ``value`` whose failed sum suggested ``suggestion`` (crosscheck)."""
    return _cell(field, value, (suggestion, 0.02), p=0.998, suggested=True)


def test_a_digit_lost_in_every_copy_is_taken_where_two_sums_ask_for_it() -> None:
    # 41 read a sure 4 in all three copies: the six boxes ask for 41, so does GRAND TOTAL
    # (141 - 100), each sum on its own; the ink's candidates lack 41, the sums' suggestion
    # of it (one digit more) mends both failed sums at the cost of one
    copies = [_suggested(f, 4, 41)
              for f in ("upper_total_score", "upper_total", "upper_total_repeat")]
    take_joint(_upper_column(*copies, _sure("fours", 16)), RULES)
    for c in copies:
        assert (c.value, c.ink, c.status) == (41, 4, NEEDS_REVIEW)


def test_a_suggestion_mending_only_its_own_sum_is_not_taken() -> None:
    # the lower TOTAL read 14 for 141 (71 + 70): only its own sum fails (GRAND TOTAL
    # unread): the suggestion is that sum's own, no evidence, left for a person
    lower = _suggested("lower_total", 14, 141)
    take_joint([("lower_sum", [_sure("three_of_a_kind", 71), _sure("chance", 70)], [lower])],
               RULES)
    assert (lower.value, lower.ink) == (14, None)


def test_a_digit_other_suggested_is_never_tried() -> None:
    # 47 read for TOTAL SCORE and its copies where the boxes make 48 and GRAND TOTAL asks
    # for 48 too: as often the player's slip (a sum added wrong, carried on) as a misread
    copies = [_suggested(f, 47, 48)
              for f in ("upper_total_score", "upper_total", "upper_total_repeat")]
    take_joint(_upper_column(*copies, _sure("fours", 16), sixes=32, grand=148), RULES)
    assert [c.value for c in copies] == [47, 47, 47]


def test_a_digit_lost_is_the_reading_with_one_digit_more() -> None:
    assert _digit_lost(4, 41) and _digit_lost(53, 153) and _digit_lost(14, 141)
    assert _digit_lost(21, 211) and _digit_lost(0, 10)
    assert not _digit_lost(47, 48) and not _digit_lost(4, 4) and not _digit_lost(4, 412)
    assert not _digit_lost(53, 135) and not _digit_lost(41, 4)
