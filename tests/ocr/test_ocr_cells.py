"""A cell's own lines and ink, and a digit lost at a cell's edge (fast: synthetic pixels,
no tesseract)."""

from __future__ import annotations

import numpy as np

from ocr import layout
from ocr.cell import Cell, make_cell
from ocr.cellgrid import inside
from ocr.crosscheck import cross_check
from ocr.glyphs import faint_ink, ink_mask, pale_marks
from ocr.result import BLANK, CONFIDENT, NEEDS_REVIEW, NUMBER, Candidate, CellRead
from scorepad.boxes import Box, TotalField
from scorepad.rules import get_rules

PAPER, LINE, INK = 245, 150, 40


def _card(top: int = 100, bottom: int = 150, left: int = 100, right: int = 190) -> np.ndarray:
    """Paper with one cell ruled at the given lines (2 px thick), in a 300 x 300 card."""
    card = np.full((300, 300), PAPER, np.uint8)
    for y in (top, bottom):
        card[y: y + 2, :] = LINE
    for x in (left, right):
        card[:, x: x + 2] = LINE
    return card


def test_a_cell_is_cut_between_its_own_lines_not_the_grids() -> None:
    # the grid says 100..150 x 100..190; the lines are printed 9 px lower and 6 px right
    card = _card(109, 159, 106, 196)
    x0, y0, x1, y1 = inside(card, 100, 100, 190, 150, 6, 6)
    assert (y0, y1) == (109 + 6, 159 - 6)  # my inside the lines found (their first row)
    assert 108 <= x0 <= 111 and 192 <= x1 <= 195  # just inside the side lines' edges
    # nothing of the lines is left inside
    assert not ink_mask(card[y0:y1, x0:x1]).any()


def test_a_one_written_beside_the_line_stays_in_the_cell() -> None:
    card = _card()
    card[112:140, 105:108] = INK  # a 1, 3 px right of the left line
    card[112:140, 130:150] = INK  # and a fat digit
    x0, y0, x1, y1 = inside(card, 100, 100, 190, 150, 8, 6)
    assert x0 <= 105  # the grid's margin (8) would have cut the 1 away
    assert np.asarray(ink_mask(card[y0:y1, x0:x1]).any(axis=0))[: 108 - x0].any()


def test_a_one_written_against_the_side_line_is_not_cut_off() -> None:
    # a fresh photo's 187: the 1 a pixel from the left line, so the line has no paper on
    # its inside; taken for no line, the grid's margin cut the 1 away (read 87)
    card = _card()
    card[112:140, 103:106] = INK
    card[112:140, 130:150] = INK
    x0, _y0, _x1, _y1 = inside(card, 100, 100, 190, 150, 8, 6)
    assert x0 <= 104  # (the grid's margin: 108)


def test_a_neighbours_digit_against_the_side_line_leaves_the_margin() -> None:
    # the next cell's 4 written against (and over) the line: the line has paper on the
    # inside only; cut just inside it, the 4's tail over the line came in (a blank read 1)
    card = _card()
    card[112:140, 96:100] = INK
    x0, _y0, _x1, _y1 = inside(card, 100, 100, 190, 150, 6, 6)
    assert x0 == 106


def test_a_digits_upright_is_not_taken_for_a_side_line_not_printed() -> None:
    # no left line to be found (faded); a 4's upright near where it would be, paper outside
    # it and the 4's bar inside: a line runs on into the rows above and below, the upright not
    card = _card()
    card[:, 100:102] = PAPER
    card[104:147, 104:107] = INK
    card[120:124, 107:125] = INK
    x0, _y0, _x1, _y1 = inside(card, 100, 100, 190, 150, 3, 6)
    assert x0 <= 104


def test_a_printed_band_or_a_dash_near_a_line_is_not_taken_for_the_line() -> None:
    card = _card()
    card[60:100, :] = 30  # a dark header band down to the top line
    card[83:96, ::3] = PAPER  # with white words in it (a third of their row is white)
    card[134:138, 115:160] = INK  # a dash written low in the cell (a zero)
    x0, y0, x1, y1 = inside(card, 100, 100, 190, 150, 6, 6)
    assert y0 == 100 + 6 and y1 == 150 - 6  # both lines where they are printed
    assert ink_mask(card[y0:y1, x0:x1]).any()  # the dash is still in the cell


def test_a_pale_narrow_stroke_cut_by_the_cells_edge_is_ink() -> None:
    cell = np.full((36, 80), 250, np.uint8)
    cell[8:30, 30:36] = 60  # a dark digit
    cell[8:30, 45:51] = 60
    cell[12:36, 10:14] = 185  # a pale 1 that runs out of the cut at the bottom
    mask = ink_mask(cell)
    assert not mask[:, 8:16].any()  # too pale for the cell's ink
    faint = faint_ink(cell, mask)
    assert faint is not None and faint[:, 10:14].any()


def test_a_pale_one_the_cut_went_through_at_its_side_is_found() -> None:
    # a fresh photo's 110: the first 1 pale and cut by the cell's left edge (read 10)
    cell = np.full((46, 73), 250, np.uint8)
    cell[8:38, 40:46] = 40  # a dark 0 (a bar will do)
    cell[8:38, 56:62] = 40
    cell[8:38, 0:6] = 200  # the pale 1, its left part beyond the cut
    mask = ink_mask(cell)
    faint = faint_ink(cell, mask)
    assert faint is not None and faint[:, 0:6].any()
    # not a ruled line's remnant, which runs the cut's whole height or is a sliver along
    # its side, nor a neighbour's dark stroke come over the line
    for shade, rows, cols in ((200, slice(0, 46), slice(0, 6)), (200, slice(8, 38), slice(0, 3)),
                              (60, slice(8, 38), slice(0, 6))):
        cell[:, 0:6] = 250
        cell[rows, cols] = shade
        faint = faint_ink(cell, ink_mask(cell))
        assert faint is None or not faint[:, 0:6].any()


def test_a_pale_leading_one_beside_a_dark_digit_is_found() -> None:
    # a fresh photo's 10 in Fives: the 1 about a tenth darker than the paper, the 0 dark;
    # left out, the cell read a sure 0
    cell = np.full((39, 75), 252, np.uint8)
    cell[8:33, 38:44] = 60  # the 0's stroke (a bar will do)
    cell[8:33, 52:58] = 60
    cell[10:32, 24:28] = 227  # the pale 1: darkness 0.099
    mask = ink_mask(cell)
    assert not mask[:, 20:32].any()
    faint = faint_ink(cell, mask)
    assert faint is not None and faint[:, 24:28].any()


def test_a_pale_thin_one_written_close_to_a_dark_digit_and_broken_up_is_found() -> None:
    # fresh photos 450016 and 460030: thin pale 1s (about 14% darker than the paper) that
    # the threshold broke into pieces, written a few pixels from the digit after them:
    # 15, 16 and 17 read as a sure 5, 6 and 7, a 1 alone as a sure blank
    cell = np.full((38, 77), 252, np.uint8)
    cell[8:33, 17:22] = 80  # the 5's stroke (a bar will do)
    for y0, y1 in ((9, 15), (17, 24), (26, 31)):  # the 1 in three pieces, 2 px apart
        cell[y0:y1, 10:13] = 216
    mask = ink_mask(cell)
    assert not mask[:, 8:15].any()
    faint = faint_ink(cell, mask)
    assert faint is not None and faint[9:31, 10:13].any()
    assert faint[15:17, 10:13].any()  # one stroke, its gaps closed
    # alone in an empty cell, against a small digit's height
    alone = cell.copy()
    alone[:, 15:] = 252
    faint = faint_ink(alone, ink_mask(alone), round(0.4 * alone.shape[0]))
    assert faint is not None and faint[:, 10:13].any()
    # pieces too far apart to be one stroke stay specks
    alone[15:26, 10:13] = 252
    assert faint_ink(alone, ink_mask(alone), round(0.4 * alone.shape[0])) is None


def _grainy(shape: tuple[int, int], sigma: float, seed: int) -> np.ndarray:
    """Paper photographed by a small sensor in poor light: grain of ``sigma`` grey levels,
    softened a little as JPEG softens it (specks of a few pixels, not single ones)."""
    import cv2

    noise = np.random.default_rng(seed).normal(0.0, 1.0, shape).astype(np.float32)
    noise = cv2.GaussianBlur(noise, (0, 0), 0.8)
    noise *= sigma / float(noise.std())
    return np.clip(230.0 + noise, 0, 255).astype(np.uint8)


def test_the_papers_grain_is_measured_beside_ink() -> None:
    from ocr.paper import grain

    paper = _grainy((40, 90), 8.0, 1)
    assert 6.5 < grain(paper) < 9.5
    paper[10:30, 30:36] = 60  # a digit's stroke does not count as grain
    assert 6.5 < grain(paper) < 9.5
    assert grain(np.full((40, 90), 230, np.uint8)) == 0.0


def test_a_grainy_blank_cell_has_no_faint_strokes() -> None:
    # development photos with a small sensor's grain (benchmark --altered noise): specks
    # in flattened shaded cells joined into a pale "7" that the sums then confirmed, a
    # blank GRAND TOTAL read as a confident 7; grain of 8 grey levels on paper of 230
    row = next(r for r in layout.FRONT.rows if r.field is TotalField.GRAND_TOTAL)
    found = 0
    for seed in range(40):
        card = _grainy((38, 90), 8.0, seed)
        assert faint_ink(card, ink_mask(card), round(0.4 * card.shape[0])) is None
        found += make_cell(card, row, 0, 0, (0, 0, 90, 38)).kind != BLANK
    assert found == 0
    # a pale 1 (a sixth darker than the paper, too pale for the cell's ink) on the same
    # paper is still seen
    card = _grainy((38, 90), 8.0, 0)
    card[8:32, 40:44] = 200
    assert not ink_mask(card)[:, 40:44].any()
    faint = faint_ink(card, ink_mask(card), round(0.4 * card.shape[0]))
    assert faint is not None and faint[:, 40:44].any()
    assert make_cell(card, row, 0, 0, (0, 0, 90, 38)).kind != BLANK


def test_pale_pieces_too_small_to_read_beside_a_sure_digit_make_it_unsure() -> None:
    # fresh photo 450016: 117 written with two faint short 1s read as a sure 7, and the
    # TOTAL's repeat (117) was accused of not matching it
    row = next(r for r in layout.FRONT.rows if r.field is Box.CHANCE)
    card = np.full((36, 85), 252, np.uint8)
    card[8:30, 50:55] = 80  # the 7 (a bar will do)
    card[15:24, 30:34] = 216  # the 1s: 9 and 5 px high, about 14% darker than the paper
    card[19:24, 23:25] = 216
    mask = ink_mask(card)
    assert faint_ink(card, mask) is None  # too small to be read as digits ...
    assert pale_marks(card, mask)  # ... but there
    assert make_cell(card, row, 0, 0, (0, 0, 85, 36)).unsure_ink
    # the digit alone, a speck beside it, or shading from the cell's edge: a sure reading
    for y0, y1, x0, x1 in ((0, 0, 0, 0), (18, 20, 30, 32), (0, 36, 0, 12)):
        card[8:30, 20:45] = 252
        card[:, :12] = 252
        card[y0:y1, x0:x1] = 216
        assert not pale_marks(card, ink_mask(card))
        assert not make_cell(card, row, 0, 0, (0, 0, 85, 36)).unsure_ink


def test_a_digit_written_very_lightly_in_an_empty_cell_is_no_blank() -> None:
    # a pale 1 alone in Aces (a hand pressing lightly): ink_mask leaves it out, and there
    # is no dark digit to measure it by; a sure blank would have been a silent error
    row = next(r for r in layout.FRONT.rows if r.field is Box.ACES)
    card = np.full((60, 100), PAPER, np.uint8)
    card[15:45, 48:52] = 206  # 16% darker than the paper (ink starts at 20%)
    cell = make_cell(card, row, 0, 0, (0, 0, 100, 60))
    assert not ink_mask(card).any()
    assert cell.kind == NUMBER and cell.unsure_ink  # read, and only the sums may vouch
    # paper with a faint speck or a smudge wider than a digit is high is still blank
    card = np.full((60, 100), PAPER, np.uint8)
    card[28:31, 40:43] = 206
    card[10:22, 5:95] = 215
    assert make_cell(card, row, 0, 0, (0, 0, 100, 60)).kind == BLANK


def test_a_number_written_over_the_cells_lines_is_read_whole_not_its_neighbour() -> None:
    # the cell's lines at y 100 and 150; its inside cut 6 px within them (106..144)
    row = next(r for r in layout.FRONT.rows if r.field is Box.CHANCE)
    card = _card()
    card[96:141, 130:134] = INK  # a 1 written up over the top line
    card[96:99, 126:134] = INK  # (its flag above the line)
    card[110:156, 150:154] = INK  # a 1 written down over the bottom line
    card[136:150, 170:176] = INK  # the tail of the digit below, written up into this cell
    card[150:190, 166:178] = INK  # ... whose body is in the next row
    rect = (106, 106, 186, 144)
    cell = make_cell(card, row, 0, 0, rect)
    top, bottom = cell.rect[1], cell.rect[3]
    assert top <= 96 and bottom >= 156  # the cell grown to its strokes past both lines
    ys, xs = np.nonzero(cell.mask)
    assert ys.min() + top <= 97 and ys.max() + top >= 155  # the flag and the tail are read
    # the neighbour's body is not taken in (its tail inside the cell stays as it was cut)
    assert not cell.mask[150 - top: 156 - top, 166 - 106: 178 - 106].any()
    assert not cell.mask[100 - top: 102 - top, : 120 - 106].any()  # nor the lines
    assert [(g.x0 + 106, g.x1 + 106) for g in cell.glyphs][:2] == [(126, 134), (150, 154)]
    # a cell whose ink stays clear of its inside's edges is cut as before
    plain = _card()
    plain[115:135, 130:140] = INK
    assert make_cell(plain, row, 0, 0, rect).rect == rect


def _read(field: str, value: int, confidence: float = 0.97) -> CellRead:
    return CellRead(field, field, 0, 0, "number", value, confidence, CONFIDENT,
                    candidates=[Candidate(value, confidence)])


def _upper(values: list[int], confidence: float = 0.999) -> list[CellRead]:
    """The six upper boxes read as ``values``, Aces first."""
    return [_read(b.value, v, confidence)
            for b, v in zip([b for b in Box if b.is_upper], values, strict=True)]


def test_a_digit_lost_at_the_edge_is_suspected_even_where_another_sum_holds() -> None:
    # the lower section adds up to 146; TOTAL read 46 (its 1 lost at the cell's edge);
    # 26 + 46 = 72 and GRAND TOTAL was read 72 (its 1 lost too): that sum holds
    lower = [(Box.THREE_OF_A_KIND, 17), (Box.FOUR_OF_A_KIND, 0), (Box.FULL_HOUSE, 25),
             (Box.SMALL_STRAIGHT, 30), (Box.LARGE_STRAIGHT, 40), (Box.YAHTZEE, 0),
             (Box.CHANCE, 34)]
    reads = [_read(b.value, v, 0.999) for b, v in lower]
    total = _read(TotalField.LOWER_TOTAL.value, 46)
    repeat = _read(TotalField.UPPER_TOTAL_REPEAT.value, 26)
    grand = _read(TotalField.GRAND_TOTAL.value, 72)
    reads += [total, repeat, grand]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert total.status == NEEDS_REVIEW and total.value == 46  # never changed to fit
    assert 146 in [c.value for c in total.candidates]
    # a digit changed (not lost) is the classifier's to suggest: 72 -> 172 is not made up
    # for GRAND TOTAL, whose own sum holds
    assert all(c.value != 172 for c in grand.candidates)


def test_a_digit_read_as_another_however_surely_is_suspected() -> None:
    # an unfamiliar hand's 1 read as a 7 at p 0.999: GRAND TOTAL 219 read 279; the sum
    # says 219, one digit other: a person looks (the value stays as read)
    boxes = [_read(b.value, v, 0.999) for b, v in zip(
        Box, [3, 6, 9, 12, 15, 15, 25, 15, 25, 30, 40, 0, 24], strict=True)]
    T = TotalField
    sums = [_read(f.value, v, 0.999) for f, v in (
        (T.UPPER_SUBTOTAL, 60), (T.UPPER_BONUS, 0), (T.UPPER_TOTAL, 60))]
    repeat = _read(T.UPPER_TOTAL_REPEAT.value, 60, 0.999)
    lower = _read(T.LOWER_TOTAL.value, 159, 0.999)
    grand = _read(T.GRAND_TOTAL.value, 279, 0.999)
    cross_check([*boxes, *sums, repeat, lower, grand], layout.Side.FRONT, get_rules(None))
    assert grand.status == NEEDS_REVIEW and grand.value == 279
    assert [c.value for c in grand.candidates] == [279, 219]
    # 60 would have to be 120, 159 219: no one digit of theirs explains it
    assert repeat.status == CONFIDENT and [c.value for c in repeat.candidates] == [60]
    assert lower.status == CONFIDENT and [c.value for c in lower.candidates] == [159]


def test_a_slip_suggests_only_values_the_box_can_hold() -> None:
    upper = _upper([3, 6, 9, 12, 15, 18])
    total = _read(TotalField.UPPER_SUBTOTAL.value, 66, 0.999)  # 63 written as 66: a slip
    cross_check([*upper, total], layout.Side.FRONT, get_rules(None))
    assert [c.value for c in total.candidates] == [66, 63]
    # Fours 12 -> 15 and Fives 15 -> 18 would make it hold, a digit other each: neither box
    # can hold that value
    assert [[c.value for c in r.candidates] for r in upper] == [[v] for v in (3, 6, 9, 12, 15, 18)]


def _probs(*digits_p: tuple[int, float]) -> np.ndarray:
    """One glyph's class probabilities: the digit given, the rest spread evenly."""
    from ocr import digits as dg

    out = np.zeros((len(digits_p), len(dg.CLASSES)), np.float32)
    for row, (d, p) in enumerate(digits_p):
        out[row, :] = (1 - p) / (len(dg.CLASSES) - 1)
        out[row, d] = p
    return out


def test_tesseract_counting_more_digits_lets_the_cut_reading_win() -> None:
    # "327" with the 3 and 2 touching: the classifier sees "2" in the wide glyph (sure) and
    # "7"; cut in two the wide glyph reads "3", "2".  Tesseract reads 327.
    from ocr.cell import Cell
    from ocr.cellread import read_cell
    from ocr.glyphs import Glyph
    from ocr.result import NUMBER
    from ocr.tesseract import OcrText

    grand = next(r for r in layout.FRONT.rows if r.field is TotalField.GRAND_TOTAL)
    blank = np.zeros((30, 80), np.uint8)
    wide, seven = Glyph(blank[:, :40], 0, 40, 0, 30), Glyph(blank[:, :20], 45, 65, 0, 30)
    cell = Cell(grand, 22, 0, (0, 0, 80, 30), blank, blank, [wide, seven], NUMBER, tess_index=0)
    cell.probs = _probs((2, 0.95), (7, 0.97))
    cell.alts, cell.priors = [_probs((3, 0.9), (2, 0.9), (7, 0.97))], [1.0]
    cell.wide = True
    rules = get_rules(None)
    alone = read_cell(cell, [OcrText("", 0.0)], rules, (0, 0, 1, 1))
    assert alone.value == 27  # without tesseract's count, the whole glyph read sure wins
    both = read_cell(cell, [OcrText("327", 0.7)], rules, (0, 0, 1, 1))
    assert both.value == 327


def test_the_copies_of_a_total_a_digit_from_its_sum_are_suspects_too() -> None:
    # the boxes add up to 41; TOTAL SCORE, TOTAL (with no bonus) and its repeat below all
    # read 4: the hand's 1 lost against the 4 each time, and 4 + 0 = 4 = 4 holds
    upper = _upper([1, 8, 3, 12, 5, 12])
    score = _read(TotalField.UPPER_SUBTOTAL.value, 4, 0.997)
    bonus = _read(TotalField.UPPER_BONUS.value, 0, 1.0)
    total = _read(TotalField.UPPER_TOTAL.value, 4, 0.992)
    repeat = _read(TotalField.UPPER_TOTAL_REPEAT.value, 4, 0.999)
    cross_check([*upper, score, bonus, total, repeat], layout.Side.FRONT, get_rules(None))
    for r in (score, total, repeat):
        assert r.status == NEEDS_REVIEW and r.value == 4
        assert 41 in [c.value for c in r.candidates]
    assert bonus.status == CONFIDENT and all(u.status == CONFIDENT for u in upper)


def _unsure(field: str, *candidates: tuple[int, float]) -> CellRead:
    r = _read(field, candidates[0][0], candidates[0][1])
    r.status, r.candidates = NEEDS_REVIEW, [Candidate(v, p) for v, p in candidates]
    return r


def test_a_sum_that_holds_through_a_misreading_its_copies_repeat_vouches_for_nothing() -> None:
    # a development column: the boxes add up to 50; a hand's 5 read as a 6 in TOTAL SCORE
    # (60, unsure, 50 its runner-up), in TOTAL and its repeat below (60 and 60: copies, which
    # x + 0 = x cannot check) and in GRAND TOTAL: 60 + 107 = 167 holds, through the same
    # misreading twice
    upper = _upper([3, 4, 9, 8, 20, 6])
    T = TotalField
    score = _unsure(T.UPPER_SUBTOTAL.value, (60, 0.749), (50, 0.251))
    bonus = _read(T.UPPER_BONUS.value, 0, 1.0)
    total = _unsure(T.UPPER_TOTAL.value, (60, 0.866), (50, 0.134))
    repeat = _read(T.UPPER_TOTAL_REPEAT.value, 60, 0.995)
    repeat.candidates.append(Candidate(50, 0.005))
    lower = _read(T.LOWER_TOTAL.value, 107, 0.996)
    grand = _read(T.GRAND_TOTAL.value, 167, 0.963)
    grand.candidates.append(Candidate(157, 0.036))
    cross_check([*upper, score, bonus, total, repeat, lower, grand], layout.Side.FRONT,
                get_rules(None))
    # the boxes' failed sum says TOTAL SCORE is 50, so are its copies; GRAND TOTAL would
    # then be 157, one of its candidates: all for a person to check, as read
    for r, value, other in ((repeat, 60, 50), (grand, 167, 157)):
        assert r.status == NEEDS_REVIEW and r.value == value
        assert other in [c.value for c in r.candidates]
    # LOWER TOTAL would have to be 117, which nothing suggests: still vouched for
    assert lower.status == CONFIDENT and all(u.status == CONFIDENT for u in upper)


def test_a_failed_sum_one_doubtful_cells_digit_accounts_for_keeps_the_sure_readings() -> None:
    # the boxes add up to 63; TOTAL SCORE read 68, unsure, none of its candidates 63: one
    # digit of it (and of no other cell: no box can be 5 more and a digit other) from
    # holding. Its slip accounts for the failure; the boxes read at p 0.95 stay confident
    upper = _upper([3, 6, 9, 12, 15, 18], 0.95)
    score = _unsure(TotalField.UPPER_SUBTOTAL.value, (68, 0.5), (60, 0.3))
    cross_check([*upper, score], layout.Side.FRONT, get_rules(None))
    assert all(u.status == CONFIDENT for u in upper)
    assert score.status == NEEDS_REVIEW and score.value == 68
    assert 63 in [c.value for c in score.candidates]
    # Fives read 10 (the boxes 58): TOTAL SCORE 58 or Fives 20 would hold it, a digit
    # each: no one cell accounts for it, and every reading below 0.99 is a suspect
    upper = _upper([3, 6, 9, 12, 10, 18], 0.95)
    score = _unsure(TotalField.UPPER_SUBTOTAL.value, (68, 0.5), (60, 0.3))
    cross_check([*upper, score], layout.Side.FRONT, get_rules(None))
    assert all(u.status == NEEDS_REVIEW for u in upper)


def test_a_cell_its_own_sum_vouches_for_explains_no_other_failure() -> None:
    # TOTAL SCORE 42 (unsure alone, 12 its runner-up) is vouched for by the boxes adding up
    # to 42; TOTAL was read 12: that failure is no longer put down to TOTAL SCORE
    upper = _upper([3, 2, 3, 12, 10, 12])
    score = _read(TotalField.UPPER_SUBTOTAL.value, 42, 0.655)
    score.status, score.candidates = NEEDS_REVIEW, [Candidate(42, 0.655), Candidate(12, 0.254)]
    total = _read(TotalField.UPPER_TOTAL.value, 12, 0.924)
    total.candidates = [Candidate(12, 0.924), Candidate(2, 0.044), Candidate(42, 0.025)]
    cross_check([*upper, score, total], layout.Side.FRONT, get_rules(None))
    assert score.status == CONFIDENT  # the boxes' sum holds
    assert total.status == NEEDS_REVIEW and total.value == 12


def test_a_stroke_that_may_be_a_one_is_no_confident_zero_where_a_one_is_legal() -> None:
    from ocr import digits as dg
    from ocr.cell import Cell
    from ocr.cellread import read_cell
    from ocr.glyphs import Glyph
    from ocr.result import NUMBER
    from ocr.tesseract import OcrText

    aces = next(r for r in layout.FRONT.rows if r.field is Box.ACES)
    blank = np.zeros((30, 60), np.uint8)

    def stroke(p_one: float) -> CellRead:
        cell = Cell(aces, 1, 0, (0, 0, 60, 30), blank, blank, [Glyph(blank[:, :10], 20, 30, 0, 30)],
                    NUMBER, tess_index=0)
        probs = np.zeros((1, len(dg.CLASSES)), np.float32)
        probs[0, 1], probs[0, dg.CLASSES.index("slash")] = p_one, 1 - p_one
        cell.probs = probs
        return read_cell(cell, [OcrText("o", 0.5)], get_rules(None), (0, 0, 1, 1))

    slanted_one = stroke(0.038)
    assert slanted_one.value == 0 and slanted_one.status == NEEDS_REVIEW
    assert 1 in [c.value for c in slanted_one.candidates]
    slash = stroke(0.001)
    assert slash.value == 0 and slash.status == CONFIDENT


def _dash_read(field: Box | TotalField, x0: int = 30, x1: int = 70,
               unsure: bool = False) -> CellRead:
    """A dash drawn from x0 to x1 across a 100x40 cell of ``field``'s row, classified a sure
    dash and read by tesseract as "-" (``unsure``: its ink doubtful, as faint ink is)."""
    from ocr import digits as dg
    from ocr.cellread import read_cell
    from ocr.tesseract import OcrText

    row = next(r for r in layout.FRONT.rows if r.field is field)
    probs = np.zeros((1, len(dg.CLASSES)), np.float32)
    probs[0, dg.CLASSES.index("dash")] = 1.0
    card = np.full((40, 100), PAPER, np.uint8)
    card[18:21, x0:x1] = INK
    cell = make_cell(card, row, 0, 0, (0, 0, 100, 40))
    cell.probs, cell.tess_index = probs, 0
    cell.unsure_ink = cell.unsure_ink or unsure
    return read_cell(cell, [OcrText("-", 0.9)], get_rules(None), (0, 0, 1, 1))


def test_a_stroke_across_the_whole_cut_is_no_sure_zero() -> None:
    # a ruled line a skewed warp put inside a blank cell, or a dash drawn across the box:
    # read 0, for the sums (or a person) to confirm; a dash clear of the sides is sure
    for x0, x1, status in ((0, 100, NEEDS_REVIEW), (30, 70, CONFIDENT)):
        read = _dash_read(Box.CHANCE, x0, x1)
        assert (read.value, read.status) == (0, status)


def test_a_lone_stroke_is_a_sure_zero_in_a_box_never_in_a_sum() -> None:
    # a dash in CHANCE or BONUS is how a zero is written; in a TOTAL or the GRAND TOTAL
    # nobody writes one, and a blank's shadow or speck in a dim photo is read as one (a
    # blank read as a confident 0 is an accusation): read 0, for the sums or a person
    for field, status in ((Box.CHANCE, CONFIDENT), (TotalField.UPPER_BONUS, CONFIDENT),
                          (TotalField.GRAND_TOTAL, NEEDS_REVIEW),
                          (TotalField.LOWER_TOTAL, NEEDS_REVIEW)):
        read = _dash_read(field)
        assert (field, read.kind, read.value, read.status) == (field, "scratch", 0, status)


def test_a_lone_stroke_of_doubtful_ink_is_no_sure_zero() -> None:
    # a dim development photo: a soft shadow in a blank Sixes box, only as dark as faint
    # ink, was read as a dash, a blank read as a confident 0
    for unsure, status in ((False, CONFIDENT), (True, NEEDS_REVIEW)):
        read = _dash_read(Box.SIXES, unsure=unsure)
        assert (read.kind, read.value, read.status) == ("scratch", 0, status)


def _three_digit_grand_total() -> Cell:
    """A GRAND TOTAL cell written as three glyphs, for tesseract to read (probs to be set)."""
    from ocr.glyphs import Glyph
    from ocr.result import NUMBER

    grand = next(r for r in layout.FRONT.rows if r.field is TotalField.GRAND_TOTAL)
    blank = np.zeros((30, 80), np.uint8)
    glyphs = [Glyph(blank[:, :20], x, x + 20, 0, 30) for x in (0, 25, 50)]
    return Cell(grand, 22, 0, (0, 0, 80, 30), blank, blank, glyphs, NUMBER, tess_index=0)


def test_tesseract_reading_another_number_keeps_a_sure_classifier_from_confidence() -> None:
    # "207" in an unfamiliar hand: the classifier is sure of 707, tesseract reads 207
    from ocr.cellread import read_cell
    from ocr.tesseract import OcrText

    cell = _three_digit_grand_total()
    cell.probs = _probs((7, 0.99), (0, 0.995), (7, 0.995))
    rules = get_rules(None)
    alone = read_cell(cell, [OcrText("", 0.0)], rules, (0, 0, 1, 1))
    assert (alone.value, alone.status) == (707, CONFIDENT)
    same = read_cell(cell, [OcrText("707", 0.6)], rules, (0, 0, 1, 1))
    assert (same.value, same.status) == (707, CONFIDENT)
    other = read_cell(cell, [OcrText("207", 0.6)], rules, (0, 0, 1, 1))
    assert (other.value, other.status) == (707, NEEDS_REVIEW)
    assert 207 in [c.value for c in other.candidates]


def test_tesseract_seeing_fewer_digits_than_the_glyphs_hold_adds_no_odds() -> None:
    # "225" as three glyphs, the classifier fairly sure (though not beyond doubt) of the
    # first 2; tesseract lost it and reads 25
    from ocr.cellread import read_cell
    from ocr.tesseract import OcrText

    cell = _three_digit_grand_total()
    cell.probs = _probs((2, 0.7), (2, 0.99), (5, 0.99))
    cell.alts, cell.priors = [_probs((2, 0.99), (5, 0.99))], [0.3]  # the first two as one
    rules = get_rules(None)
    alone = read_cell(cell, [OcrText("", 0.0)], rules, (0, 0, 1, 1))
    assert alone.value == 225
    lost = read_cell(cell, [OcrText("25", 0.9)], rules, (0, 0, 1, 1))
    # the three glyphs' reading stands; the two readers disagree, so a person looks
    assert (lost.value, lost.status) == (225, NEEDS_REVIEW)
    assert 25 in [c.value for c in lost.candidates]


def test_slanted_digits_that_overlap_are_parted_round_the_zero() -> None:
    # a slanted 1 whose foot reaches under the 0 beside it: one glyph, and every vertical
    # cut goes through the 0 or the 1; a seam goes round the 0 (its hole is not paper to
    # cut through) and crosses where they touch
    import cv2

    from ocr.glyphs import Glyph, glyphs, seam_splits, splits

    zero, one = np.zeros((40, 44), np.uint8), np.zeros((40, 44), np.uint8)
    cv2.ellipse(zero, (30, 20), (8, 16), 15, 0, 360, 255, 3)  # a 0 leaning right
    cv2.line(one, (10, 3), (20, 37), 255, 3)  # a 1 leaning right, its foot under the 0
    [g] = glyphs(np.maximum(zero, one))
    only_one = (one > 0) & (zero == 0)

    def clean(pieces: list[Glyph]) -> bool:
        right = np.zeros_like(zero)
        r = pieces[-1]
        right[r.y0: r.y1, r.x0: r.x1] = r.mask
        return bool(((right > 0) & (zero > 0)).sum() >= 0.95 * (zero > 0).sum()
                    and ((right > 0) & only_one).sum() <= 0.05 * only_one.sum())

    assert not any(clean(p) for p in splits(g, 2))  # a straight cut takes some of the other
    seams = seam_splits(g, 2)
    assert seams and any(clean(p) for p in seams)


def test_rows_the_reader_never_found_are_unreadable_not_blank() -> None:
    # the upper section's rows were not found on the photo (labels unread): the lower
    # section, two bonus checks and the totals below were read; the upper boxes are no
    # blank cells, and two bonus Yahtzees that only they could hold accuse nobody
    from dataclasses import replace

    from ocr.assemble import front_sheet
    from ocr.result import MARKS
    from scorepad import Severity, audit_sheet
    from scorepad.card import Sheet
    from scorepad.readings import ReadStatus

    lower = {Box.THREE_OF_A_KIND: 20, Box.FOUR_OF_A_KIND: 0, Box.FULL_HOUSE: 25,
             Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.YAHTZEE: 50, Box.CHANCE: 22}
    T = TotalField
    reads = [CellRead("NAME", "name", 0, None, "text", "Ann", 0.99, CONFIDENT)]
    reads += [_read(b.value, v, 0.999) for b, v in lower.items()]
    reads.append(CellRead("YAHTZEE BONUS", "yahtzee_bonus_checks", 0, 0, MARKS, 2, 0.97,
                          CONFIDENT, candidates=[Candidate(2, 1.0)]))
    reads += [_read(f.value, v, 0.999) for f, v in (
        (T.LOWER_TOTAL, 387), (T.UPPER_TOTAL_REPEAT, 98), (T.GRAND_TOTAL, 485))]
    sheet = front_sheet(reads, get_rules(None))
    game = sheet.players[0].games[0]
    assert game is not None
    missing = {b.value for b in Box if b.is_upper} | {
        T.UPPER_SUBTOTAL.value, T.UPPER_BONUS.value, T.UPPER_TOTAL.value}
    assert {k for k, r in game.readings.items() if r.status is ReadStatus.UNREADABLE} == missing

    def bonus_finding(s: Sheet) -> Severity:
        report = audit_sheet(s)
        return next(f.severity for f in report.findings if f.field == "yahtzee_bonus_checks")

    assert bonus_finding(sheet) is Severity.DOUBT
    # the same cells taken for blanks (before): an error
    as_blank = replace(game, readings={k: r for k, r in game.readings.items()
                                       if r.status is not ReadStatus.UNREADABLE})
    assert bonus_finding(replace(sheet, players=[replace(sheet.players[0], games=[as_blank])])) \
        is Severity.ERROR


def test_a_wide_glyph_is_read_by_tesseract_however_sure_the_classifier() -> None:
    # a wide 0 is surely a 0 whole, yet cut in two it may read 13: the segmentations' odds
    # keep it from confidence, so the second reader is asked (it may agree)
    from ocr import digits as dg
    from ocr.cell import Cell
    from ocr.cellread import classifier_sure
    from ocr.glyphs import Glyph
    from ocr.result import NUMBER

    chance = next(r for r in layout.FRONT.rows if r.field is Box.CHANCE)
    blank = np.zeros((30, 60), np.uint8)
    cell = Cell(chance, 1, 0, (0, 0, 60, 30), blank, blank, [Glyph(blank[:, :40], 10, 50, 0, 30)],
                NUMBER)
    probs = np.zeros((1, len(dg.CLASSES)), np.float32)
    probs[0, 7] = 0.999
    cell.probs = probs
    assert classifier_sure(cell, get_rules(None))
    cell.wide = True
    assert not classifier_sure(cell, get_rules(None))


def _boxes_cell(left_edge: int, tick: bool = False) -> np.ndarray:
    """A YAHTZEE BONUS cell of the official pad: three printed check boxes (the first one's
    left edge at ``left_edge``, as a lens bends it a little differently from cell to cell),
    and perhaps a tick written in the first."""
    import cv2

    cell = np.full((40, 80), PAPER, np.uint8)
    for x0 in (8, 32, 56):
        x = left_edge if x0 == 8 else x0
        cv2.rectangle(cell, (x, 10), (x0 + 18, 28), LINE, 1)
    if tick:
        cv2.line(cell, (10, 18), (15, 26), INK, 2)
        cv2.line(cell, (15, 26), (27, 6), INK, 2)
    return cell


def test_the_check_boxes_edges_laid_a_little_off_are_not_marks() -> None:
    from ocr import plan
    from ocr.cell import make_cell
    from ocr.rowprint import without_print

    row = next(r for r in layout.FRONT.rows if r.kind is layout.Kind.MARKS)
    # the first box's left edge 3-4 px off in two cells: more than the print's own spread
    edges = [8, 8, 4, 8, 5, 8]
    cells = [make_cell(_boxes_cell(e, tick=(c == 1)), row, 0, c, (0, 0, 80, 40))
             for c, e in enumerate(edges)]
    without_print(cells, plan.MIN_CELL)
    assert [c.kind for c in cells] == ["blank", "marks", "blank", "blank", "blank", "blank"]
    assert len(cells[1].glyphs) == 1  # the tick, whatever of the box's edge it touches


class _PairModel:
    """A classifier for one test: a glyph 20 px wide or more is 'several' (0.9) or a 2;
    one under 10 px is a 1; anything between a 2."""

    def classify(self, masks: list[np.ndarray]) -> np.ndarray:
        from ocr import digits as dg

        out = np.zeros((len(masks), len(dg.CLASSES)), np.float32)
        for i, m in enumerate(masks):
            cols = np.nonzero(m.any(axis=0))[0]
            w = int(cols.max() - cols.min()) + 1
            if w >= 20:
                out[i, dg.SEVERAL], out[i, 2] = 0.9, 0.1
            else:
                out[i, 1 if w < 10 else 2] = 1.0
        return out


def test_a_glyph_the_classifier_sees_as_several_digits_is_cut_though_narrow() -> None:
    # "21" written close: one glyph no wider than a digit (the width offers no cut), but
    # the classifier reads it as several digits: it is cut, and read 21 (in Chance, where
    # 2 cannot stand); the cell is held as a wide glyph is (tesseract asked)
    from ocr.cell import Cell
    from ocr.cellread import read_cell
    from ocr.glyphs import glyphs
    from ocr.reader import Reader
    from ocr.result import NUMBER

    mask = np.zeros((30, 26), np.uint8)
    mask[2:28, 1:3] = mask[2:4, 1:14] = mask[14:16, 1:14] = mask[26:28, 1:14] = 255
    mask[2:16, 12:14] = 255  # a square "2"
    mask[2:28, 20:23] = 255  # the "1" ...
    mask[27:28, 13:21] = 255  # ... touching it by a hair
    [g] = glyphs(mask)
    chance = next(r for r in layout.FRONT.rows if r.field is Box.CHANCE)
    rules = get_rules(None)

    def read(model: _PairModel) -> CellRead:
        cell = Cell(chance, 1, 0, (0, 0, 26, 30), mask, mask, [g], NUMBER)
        Reader(model=model, use_tesseract=False)._classify([cell], model, rules)
        assert cell.wide == (len(cell.alts) > 0)
        return read_cell(cell, [], rules, (0, 0, 26, 30), tesseract=False)

    assert read(_PairModel()).value == 21

    class _OneModel(_PairModel):  # the same glyph seen as one digit: never cut
        def classify(self, masks: list[np.ndarray]) -> np.ndarray:
            out = super().classify(masks)
            out[:, :] = 0.0
            out[:, 7] = 1.0
            return out

    assert read(_OneModel()).value == 7


def test_a_copy_read_as_its_vouched_original_is_confident_unvouched_copies_are_not() -> None:
    # the boxes add up to 42 and TOTAL SCORE read 42 (the sum vouches for it); the BONUS is
    # surely 0, so TOTAL and its repeat below are copies of it: read 42 too, each unsure on
    # its own, they are confident (a misread copy would have to land on 42)
    upper = _upper([3, 2, 3, 12, 10, 12])
    T = TotalField
    score = _unsure(T.UPPER_SUBTOTAL.value, (42, 0.655), (12, 0.254))
    bonus = _read(T.UPPER_BONUS.value, 0, 1.0)
    total = _unsure(T.UPPER_TOTAL.value, (42, 0.7), (12, 0.2))
    repeat = _unsure(T.UPPER_TOTAL_REPEAT.value, (42, 0.5), (47, 0.4))
    cross_check([*upper, score, bonus, total, repeat], layout.Side.FRONT, get_rules(None))
    assert score.status == CONFIDENT
    for r in (total, repeat):
        assert r.status == CONFIDENT and r.value == 42 and "copy" in r.checks
    # without the boxes nothing vouches for TOTAL SCORE: copies unsure alike stay unsure
    # (one hand's digit misread alike in both), and so they do where TOTAL SCORE is sure
    # on its own reading only (a misreading it is sure of would be made again)
    for score in (_unsure(T.UPPER_SUBTOTAL.value, (42, 0.655), (12, 0.254)),
                  _read(T.UPPER_SUBTOTAL.value, 42, 0.999)):
        total = _unsure(T.UPPER_TOTAL.value, (42, 0.7), (12, 0.2))
        repeat = _unsure(T.UPPER_TOTAL_REPEAT.value, (42, 0.5), (47, 0.4))
        cross_check([score, _read(T.UPPER_BONUS.value, 0, 1.0), total, repeat],
                    layout.Side.FRONT, get_rules(None))
        assert all(r.status == NEEDS_REVIEW for r in (total, repeat))
    # a BONUS of 35: TOTAL is no copy of TOTAL SCORE (its own sum, with two parts, decides)
    upper = _upper([3, 6, 9, 12, 15, 18])
    score = _read(T.UPPER_SUBTOTAL.value, 63, 0.999)
    total = _unsure(T.UPPER_TOTAL.value, (63, 0.7), (98, 0.2))
    cross_check([*upper, score, _read(T.UPPER_BONUS.value, 35, 0.999), total],
                layout.Side.FRONT, get_rules(None))
    assert total.status == NEEDS_REVIEW and "copy" not in total.checks


def test_a_legal_value_taken_for_an_illegal_reading_is_confident_where_a_sum_holds() -> None:
    # Fours read as "14" (no Fours box holds it): the best legal value, 12 (p 0.1), is
    # taken, inferred; the boxes then add up to TOTAL SCORE: the sum confirms it
    T = TotalField
    upper = _upper([3, 6, 9, 12, 15, 18])
    fours = upper[3]
    fours.status, fours.inferred, fours.confidence = NEEDS_REVIEW, True, 0.1
    fours.candidates = [Candidate(14, 0.8), Candidate(12, 0.1)]
    score = _read(T.UPPER_SUBTOTAL.value, 63, 0.999)
    cross_check([*upper, score], layout.Side.FRONT, get_rules(None))
    assert fours.status == CONFIDENT and fours.value == 12
    # ... unless it is less likely than INFERRED_MIN (a sum can hold through a misreading
    # beside it: in a dim photo Aces 0 put at p 0.000 for a 1 that way) ...
    fours.status, fours.confidence, fours.checks = NEEDS_REVIEW, 0.001, []
    score = _read(T.UPPER_SUBTOTAL.value, 63, 0.999)
    cross_check([*upper, score], layout.Side.FRONT, get_rules(None))
    assert fours.status == NEEDS_REVIEW
    # ... or where the sum fails
    fours.status, fours.confidence, fours.checks = NEEDS_REVIEW, 0.1, []
    score = _read(T.UPPER_SUBTOTAL.value, 65, 0.999)
    cross_check([*upper, score], layout.Side.FRONT, get_rules(None))
    assert fours.status == NEEDS_REVIEW
    # ... and not a total taken a digit shorter than read, past what a game reaches: TOTAL
    # SCORE read 746 (no game's), 46 taken, and the boxes add up to 46: the player may
    # have written 146, a slip the sum must not hide from a person
    upper = _upper([1, 2, 3, 8, 20, 12])
    score = _unsure(T.UPPER_SUBTOTAL.value, (46, 0.3), (746, 0.6))
    score.inferred = True
    cross_check([*upper, score], layout.Side.FRONT, get_rules(None))
    assert score.status == NEEDS_REVIEW and "upper_sum" in score.checks


def test_a_sure_total_is_doubted_where_a_doubtful_cell_cannot_make_its_sum_hold() -> None:
    # a fresh photo: the lower TOTAL 154 read 156 (unsure, 154 its runner-up), the GRAND
    # TOTAL 252 read surely as 757 (the hand's 2 taken for a 7 twice): no reading of the
    # doubtful cell makes 98 + it = 757. Two cells are wrong; once a person mends the
    # doubtful one, a sure 757 would be called the player's slip
    repeat = _read(TotalField.UPPER_TOTAL_REPEAT.value, 98, 0.999)
    lower = _unsure(TotalField.LOWER_TOTAL.value, (156, 0.6), (154, 0.3))
    grand = _read(TotalField.GRAND_TOTAL.value, 757, 0.999)
    cross_check([repeat, lower, grand], layout.Side.FRONT, get_rules(None))
    assert grand.status == NEEDS_REVIEW and grand.value == 757  # never changed to fit
    assert repeat.status == CONFIDENT  # a sure part keeps its reading's word
    # every cell sure, the sum failing by no digit's misreading: the player's slip, which
    # the audit must see
    repeat = _read(TotalField.UPPER_TOTAL_REPEAT.value, 98, 0.999)
    lower = _read(TotalField.LOWER_TOTAL.value, 154, 0.999)
    grand = _read(TotalField.GRAND_TOTAL.value, 300, 0.999)
    cross_check([repeat, lower, grand], layout.Side.FRONT, get_rules(None))
    assert grand.status == CONFIDENT


def _two_digit_cell(box: Box) -> Cell:
    """A cell of ``box`` written as two glyphs (probs to be set)."""
    from ocr.glyphs import Glyph

    row = next(r for r in layout.FRONT.rows if r.field is box)
    blank = np.zeros((30, 60), np.uint8)
    glyphs = [Glyph(blank[:, :20], x, x + 20, 0, 30) for x in (0, 25)]
    return Cell(row, 0, 0, (0, 0, 60, 30), blank, blank, glyphs, NUMBER, tess_index=0)


def test_a_box_of_one_score_read_as_its_score_is_confident_below_the_usual_bar() -> None:
    # 40 in Large Straight, its 4 not quite sure (about 0.7 for the whole number): the box
    # holds 40 or 0, so a misreading would be a digit from nothing or a whole other number
    from ocr.cellread import read_cell
    from ocr.decode import CONFIDENT_AT, FIXED_SURE
    from ocr.tesseract import OcrText

    rules = get_rules(None)
    probs = _probs((4, 0.75), (0, 0.95))
    cell = _two_digit_cell(Box.LARGE_STRAIGHT)
    cell.probs = probs
    read = read_cell(cell, [OcrText("", 0.0)], rules, (0, 0, 1, 1))
    assert read.value == 40 and FIXED_SURE <= read.confidence < CONFIDENT_AT
    assert read.status == CONFIDENT
    # the same digits in a box of many scores: below the bar, for a person
    cell = _two_digit_cell(Box.THREE_OF_A_KIND)
    cell.probs = probs
    assert read_cell(cell, [OcrText("", 0.0)], rules, (0, 0, 1, 1)).status == NEEDS_REVIEW
    # tesseract reading the box's other value (0) disputes it
    cell = _two_digit_cell(Box.LARGE_STRAIGHT)
    cell.probs = probs
    assert read_cell(cell, [OcrText("0", 0.6)], rules, (0, 0, 1, 1)).status == NEEDS_REVIEW
    # a number the box cannot hold read best (10, a slip or a 4 read as a 1): 40 is only
    # inferred, and a person looks
    cell = _two_digit_cell(Box.LARGE_STRAIGHT)
    cell.probs = _probs((1, 0.6), (0, 0.95))
    read = read_cell(cell, [OcrText("", 0.0)], rules, (0, 0, 1, 1))
    assert read.inferred and read.status == NEEDS_REVIEW


def test_ink_that_only_meets_the_side_line_lost_nothing() -> None:
    # fresh photos 330003, 330026: a 20 or a 30 written close to the cell's right or left
    # line, paper beyond it, was kept from being confident as if a digit lay past the line
    fives = next(r for r in layout.FRONT.rows if r.field is Box.FIVES)
    rect = (40, 4, 120, 56)  # the cell's inside, its side lines at 37-38 and 122-123

    def card_with(*inks: tuple[int, int]) -> np.ndarray:
        card = np.full((60, 200), PAPER, np.uint8)
        card[:, 37:39] = LINE
        card[:, 122:124] = LINE
        for x0, x1 in inks:
            card[14:46, x0:x1] = INK
        return card

    for x0, x1 in ((100, 120), (40, 60)):  # a digit's stroke up to the right or left side
        assert not make_cell(card_with((x0, x1)), fives, 0, 2, rect).unsure_ink
    # ... with ink past the line: a digit beyond it, written over it, or a neighbour's
    for inks in (((100, 120), (128, 140)), ((100, 130),), ((40, 60), (20, 34))):
        assert make_cell(card_with(*inks), fives, 0, 2, rect).unsure_ink, inks


def test_a_lone_stroke_down_the_cuts_side_is_no_sure_one() -> None:
    # the table's right edge, bent by the lens, taken into a blank GAME #6 cell's cut: a
    # thin stroke from its top to its bottom by its side, read a sure 1 before
    aces = next(r for r in layout.FRONT.rows if r.field is Box.ACES)
    for x0, x1, unsure in ((70, 76, True), (4, 9, True), (38, 44, False)):
        card = np.full((77, 81), PAPER, np.uint8)
        card[:, x0:x1] = INK
        cell = make_cell(card, aces, 0, 5, (0, 0, 81, 77))
        assert cell.kind == NUMBER and cell.unsure_ink is unsure
    # a 1 written in the middle of the cell, not reaching its top: as sure as its reading
    card = np.full((77, 81), PAPER, np.uint8)
    card[12:65, 70:76] = INK
    assert make_cell(card, aces, 0, 5, (0, 0, 81, 77)).unsure_ink is False
