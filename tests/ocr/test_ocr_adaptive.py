"""Pads of other designs: the layout-adaptive path (ruled lines + printed labels)."""

from __future__ import annotations

import io
from collections.abc import Sequence

import cv2
import numpy as np
import pytest
from PIL import Image

from ocr import ScanError, ruling, scan_image
from ocr import table_layout as ad
from ocr.glyphs import ink_mask
from ocr.labels import PlacedReads
from ocr.layout import ANY_FRONT_ROWS, BACK_ROWS, FRONT_ROWS, Kind, Row, Side
from ocr.plan import Planner
from ocr.reader import Reader
from ocr.tesseract import FakeEngine, OcrText, TesseractEngine
from padsynth import variants as vr
from padsynth.evaluate import score
from padsynth.render import PhotoSpec

from .conftest import needs_tesseract, photo_of

# ------------------------------------------------------------------ units (no tesseract)


def test_labels_align_in_order_and_an_unread_label_is_filled_in() -> None:
    texts = ["", "Aces", "Twos", "Thre3s", "", "Fives", "Sixes", "Total Score", "Bonus",
             "Total of Upper Section", "3 of a Kind", "4 of a Kind", "Full House",
             "Small Straight", "Large Straight", "YAHTZEE", "Chance", "Yahtzee Bonus",
             "Total of Lower Section", "Total of Upper Section", "Grand Total"]
    mapping, _, matched = ad.align(texts, FRONT_ROWS)
    got = {i: FRONT_ROWS[j].label for i, j in mapping.items()}
    assert matched >= 18
    assert got[4] == "Fours = 4"  # not read: between Threes and Fives
    assert got[9] == "TOTAL Of Upper" and got[19] == "TOTAL Of Upper"
    assert FRONT_ROWS[mapping[19]].field is not FRONT_ROWS[mapping[9]].field  # the repeat
    assert got[10] == "3 of a kind"  # no LOWER SECTION row on this pad
    assert got[20] == "GRAND TOTAL"


def test_both_lower_totals_read_as_plain_total_keep_their_order() -> None:
    # the official pad: both lower TOTAL rows print "TOTAL" large and what they total in
    # small print a photo does not resolve; the SCORE 100 PER row's label is the second
    # line of YAHTZEE BONUS (read as junk) and its HOW TO SCORE text was not read either
    from ocr.layout import ANY_FRONT_ROWS

    texts = ["_", "Aces leyet", "Twos Pee", "Threes 3", "Fours odie", "Fives bie", "Sixes",
             "TOTAL SCORE", "BONUS oom", "TOTAL ee", "dof a kind", "4 of a kind", "Full House",
             "Sm Straight aiear", "Lg Straight", "YAHTZFF cont", "Chance", "VAHT/EP", "BVNVD",
             "TOTAL rah al", "TOTAL a", "GRAND TOTAL"]
    mapping, _, _ = ad.align(texts, ANY_FRONT_ROWS)
    got = {i: ANY_FRONT_ROWS[j] for i, j in mapping.items()}
    assert got[17].label == "YAHTZEE BONUS"
    assert got[18].label == "YAHTZEE BONUS SCORE"  # filled in between its neighbours
    assert got[19].label == "TOTAL Of Lower" and got[20].label == "TOTAL Of Upper"
    assert got[21].label == "GRAND TOTAL"


# The official pad's rows as its label and HOW TO SCORE columns read (one row each).
OFFICIAL = [("_", ""), ("Aces", "Count and add only Aces"), ("Twos", "Count and add only Twos"),
            ("Threes", "Count and add only Threes"), ("Fours", "Count and add only Fours"),
            ("Fives", "Count and add only Fives"), ("Sixes", "Count and add only Sixes"),
            ("TOTAL SCORE", ""), ("BONUS", "SCORE 35"), ("TOTAL", ""),
            ("3 of a kind", "Add Total Of All Dice"), ("4 of a kind", "Add Total Of All Dice"),
            ("Full House", "SCORE 25"), ("Sm Straight", "SCORE 30"), ("Lg Straight", "SCORE 40"),
            ("YAHTZEE", "SCORE 50"), ("Chance", "Score Total Of All 5 Dice"),
            ("YAHTZEE BONUS", "Check for each bonus"), ("", "SCORE 100 PER"), ("TOTAL", ""),
            ("TOTAL", ""), ("GRAND TOTAL", "")]


def ruled_table() -> ruling.Grid:
    """A white table ruled like the official pad: labels, HOW TO SCORE, six GAME columns."""
    xs = [0, 200, 380, *range(460, 940, 80)]
    ys = list(range(0, 40 * len(OFFICIAL) + 1, 40))
    warp = np.full((ys[-1] + 1, xs[-1] + 1), 250, np.uint8)
    for x in xs:
        warp[:, x] = 20
    for y in ys:
        warp[y, :] = 20
    h, w = warp.shape
    return ruling.Grid(warp, xs, ys, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))


@pytest.mark.parametrize("labels_read", [True, False])
def test_how_to_score_is_read_with_the_labels_and_used_where_they_leave_rows_unmatched(
        labels_read: bool) -> None:
    # one tesseract start-up a grid (about 0.1 s): the label column's crops, then the HOW
    # TO SCORE column's, in one batch
    rows = len(OFFICIAL)

    def matched(hints_read: bool) -> int:
        asked: list[int] = []

        def answer(i: int, _im: np.ndarray) -> OcrText:
            if i < rows:  # the label column: all, or a third of it read
                return OcrText(OFFICIAL[i][0] if labels_read or i % 3 == 0 else "~", 0.9)
            return OcrText(OFFICIAL[i - rows][1] if hints_read else "~", 0.9)

        class Counting(FakeEngine):
            def read_batch(self, images: Sequence[np.ndarray]) -> list[OcrText]:
                asked.append(len(images))
                return super().read_batch(images)

        g = ruled_table()
        table = ad.recognise(g.warp, g, Counting(answer))
        assert asked == [2 * rows]  # one image a row of each column, in one batch
        assert table is not None and table.side is Side.FRONT
        assert {row.label for _, row in table.rows} >= {"Aces = 1", "Chance", "GRAND TOTAL"}
        return table.matched

    if labels_read:  # the labels alone match: the HOW TO SCORE text is not used
        assert matched(hints_read=True) == matched(hints_read=False) >= ad.LABELS_SURE
    else:  # a third of them: the HOW TO SCORE text matches the rest
        assert matched(hints_read=True) >= ad.LABELS_SURE > matched(hints_read=False)


def test_the_last_search_looks_again_at_labels_read_as_noise_sharpened() -> None:
    # fresh photo 410051: a soft photo whose labels tesseract read as noise ("ci cm a i i",
    # "Paws Nes"); the last search before a refusal reads them again, enlarged and
    # sharpened, in a second batch (first search: one batch, and no table)
    def engine() -> FakeEngine:
        e = FakeEngine()
        e.answer = lambda i, _im: OcrText(OFFICIAL[i][0] if e.calls == 2 and i < len(OFFICIAL)
                                          else "~", 0.9)
        return e

    g = ruled_table()
    first = engine()
    assert ad.recognise(g.warp, g, first) is None and first.calls == 1
    last = engine()
    table = ad.recognise(g.warp, g, last, rescue=True)
    assert last.calls == 2
    assert table is not None and ad.accepted(table)
    assert {row.label for _, row in table.rows} >= {"Aces = 1", "Chance", "GRAND TOTAL"}


def test_a_label_cell_of_no_pixels_is_blank_sharpened_or_not() -> None:
    from ocr.labels import label_image

    for shape in ((0, 30), (30, 0), (1, 1)):
        for sharpen in (False, True):
            assert label_image(np.full(shape, 200, np.uint8), sharpen).shape == (40, 40)


@needs_tesseract
def test_sharpened_labels_of_a_soft_photo_read_better() -> None:
    from PIL import ImageDraw, ImageFont

    from ocr.labels import label_image

    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", 9)
    words = ["Aces", "Twos", "Threes", "Fours", "Fives", "Sixes", "TOTAL SCORE", "BONUS",
             "Full House", "Chance", "GRAND TOTAL", "Sm Straight"]
    cells = []
    for word in words:  # a small bold label, printed grey on a pale cell, photographed soft
        im = Image.new("L", (150, 38), 235)
        ImageDraw.Draw(im).text((6, 12), word, font=font, fill=60)
        cells.append(cv2.GaussianBlur(np.asarray(im), (0, 0), 1.2))
    engine = TesseractEngine()

    def right(sharpen: bool) -> int:
        texts = engine.read_batch([label_image(c, sharpen) for c in cells])
        return sum(t.text.strip().casefold() == w.casefold()
                   for t, w in zip(texts, words, strict=True))

    assert right(sharpen=True) >= right(sharpen=False) + 4


def test_back_labels_align() -> None:
    texts = ["Names", "Game 1", "Game 2", "Game 3", "Gane 4", "", "Game 6", "Total of all games"]
    mapping, _, matched = ad.align(texts, BACK_ROWS)
    assert matched >= 6
    assert [BACK_ROWS[mapping[i]].game for i in range(1, 7)] == list(range(6))
    assert BACK_ROWS[mapping[7]].kind is Kind.GRAND


def test_a_label_like_two_rows_goes_where_its_neighbours_fill_in() -> None:
    # the official pad's end, as tesseract read it on a blurred photo: YAHTZEE BONUS over
    # two lines (the SCORE 100 PER line's label cell empty), then TOTAL read, the upper
    # TOTAL not, GRAND TOTAL. "TOTAL" is as like the lower TOTAL as the upper one: taken for
    # the upper one, the SCORE 100 PER line became the lower TOTAL, every row below it off
    texts = ["Aces", "Twos", "Threes", "Fours", "Fives", "Sixes", "TOTAL SCORE", "BONUS",
             "TOTAL", "LOWER SECTION", "3 of a kind", "4 of a kind", "Full House",
             "Sm Straight", "Lg Straight", "YAHTZEE", "Chance", "YAHTZEE BONUS", "", "TOTAL",
             "", "GRAND TOTAL"]
    mapping, _total, _matched = ad.align(texts, ANY_FRONT_ROWS)
    labels = {i: ANY_FRONT_ROWS[j].label for i, j in mapping.items()}
    assert [labels.get(i) for i in (18, 19, 20, 21)] == [
        "YAHTZEE BONUS SCORE", "TOTAL Of Lower", "TOTAL Of Upper", "GRAND TOTAL"]


def test_two_labels_matched_one_row_apart_with_a_row_between_them_are_not_both_kept() -> None:
    # the official pad as tesseract read it on a fresh photo: Twos, Threes and Fours read
    # as "ees na", "hives" and "heures nee", Fives as "tives Nee".  Fours' label read best
    # as Threes, one row above Fives: without the rows' heights the upper section slid a
    # row (Fours never read, the Fours row taken for Threes: reviewed, a column accused)
    texts = ["le", "", "ees na", "hives \\e", "heures nee", "tives Nee", "", "", "", "Tora ~",
             "LOWER BEE TION", "Sofa kine", "", "Tull Mewee", "Sm Btratgnt .", "La Stratent ~",
             "VAnTree .", "Chance", "VANTIEE", "BONY Ss", "TOTAL .", "TOTAL —_", "GRAND TOTAL"]
    heights = [18.0, 66.0] + [50.0] * 8 + [23.0] + [50.0] * 12
    slid, _, _ = ad.align(texts, ANY_FRONT_ROWS)
    assert ANY_FRONT_ROWS[slid[4]].label == "Threes = 3"
    mapping, _, _ = ad.align(texts, ANY_FRONT_ROWS, heights=heights)
    labels = {i: ANY_FRONT_ROWS[j].label for i, j in mapping.items()}
    assert [labels[i] for i in range(1, 8)] == [
        "Aces = 1", "Twos = 2", "Threes = 3", "Fours = 4", "Fives = 5", "Sixes = 6", "TOTAL SCORE"]
    assert labels[22] == "GRAND TOTAL"
    # rows high enough for the rows between (one row as high as two: a line not found)
    tall = [*heights[:4], 100.0, *heights[5:]]
    merged, _, _ = ad.align(texts, ANY_FRONT_ROWS, heights=tall)
    assert ANY_FRONT_ROWS[merged[5]].label == "Fives = 5"


def test_of_two_crowded_labels_the_one_let_go_leaves_the_likelier_alignment() -> None:
    # the official pad as tesseract read it on a fresh photo: YAHTZEE's and Chance's labels
    # unread, YAHTZEE BONUS's first line read "YAHTZEE" (as like the YAHTZEE row as can
    # be), the lower TOTALs half read. YAHTZEE there leaves no room for the rows above
    # GRAND TOTAL; letting GRAND TOTAL go (the later of two alike) took it for the upper
    # TOTAL, every row below Lg Straight off (ten confident misreadings, columns accused)
    texts = ["UPPER SECTION", "aces [=)=a", "Twos Pye?", "Threes (-)=3", "Fours Ei)-4",
             "Fives Cei«s", "Sixes gp-«", "TOTAL SCORE", "BONUS toom", "TOTAL =",
             "LOWER SECTION", "3 of a kind", "4 of a kind", "Full House", "Sm Straight wees",
             "Lg Straight —", "rms pat", "a", "YAHTZEE", "", "|ToTaL o ae", "Yor. we",
             "GRAND TOTAL"]
    mapping, _, _ = ad.align(texts, ANY_FRONT_ROWS, heights=[50.0] * len(texts))
    labels = {i: ANY_FRONT_ROWS[j].label for i, j in mapping.items()}
    assert [labels.get(i) for i in range(15, 23)] == [
        "Lg. Straight", "YAHTZEE", "Chance", "YAHTZEE BONUS", "YAHTZEE BONUS SCORE",
        "TOTAL Of Lower", "TOTAL Of Upper", "GRAND TOTAL"]


def test_a_label_let_go_is_not_matched_again_with_a_row_far_less_like_it() -> None:
    # the official pad as tesseract read it on a photo sent at 1000 pixels: YAHTZEE's label
    # half read, Chance's unread, YAHTZEE BONUS's read "yaurzee", GRAND TOTAL read whole,
    # two rows of the stack of sheets below the table. "yaurzee" as YAHTZEE leaves no
    # room above GRAND TOTAL; letting GRAND TOTAL go matched it again with the lower TOTAL
    # (0.625, two weak matches outweighing its sure one): every row from YAHTZEE down two
    # rows low, and the two rows off the pad read as confident blanks
    texts = ["WALT CV fe", "fee", "“as rie", ", wes ‘,e' “are", "| Tarees “-*; “Syme",
             "fours fie VS", "| tives a-s| “geee~", "Sires i+ Tam", "| TOTAL scone ~", "",
             "TOTAL .™ ~", "LOWER GEC TION", "ota kina vue", "[Ao a hing «(hee",
             "pat Mouse ; ane 1s", ", im Satan ed el one 0", "jo Stratene ~ i one oe",
             "VANTZE8 o “Monee", "", "“yaurzee teen Se", "| = |", "| VTA “ee cd", "~~",
             "GRAND TOTAL ~~", "", "_"]
    heights = [45.0, 23.0, 29.0, 21.0, 21.0, 21.0, 22.0, 22.0, 22.0, 22.0, 22.0, 15.0, 23.0,
               22.0, 23.0, 23.0, 23.0, 24.0, 22.0, 25.0, 25.0, 23.0, 24.0, 23.0, 22.0, 21.0]
    mapping, _, _ = ad.align(texts, ANY_FRONT_ROWS, heights=heights)
    labels = {i: ANY_FRONT_ROWS[j].label for i, j in mapping.items()}
    assert [labels.get(i) for i in range(16, 26)] == [
        "Lg. Straight", "YAHTZEE", "Chance", "YAHTZEE BONUS", "YAHTZEE BONUS SCORE",
        "TOTAL Of Lower", "TOTAL Of Upper", "GRAND TOTAL", None, None]


def test_unrelated_labels_match_nothing() -> None:
    _, _, matched = ad.align(["Monday", "Tuesday", "Milk", "Bread", "Eggs", "Rice"], FRONT_ROWS)
    assert matched == 0


def test_a_missing_line_is_put_back() -> None:
    assert ad.regularise([0, 60, 100, 140, 220, 260, 300]) == [0, 60, 100, 140, 180, 220, 260, 300]
    assert ad.regularise([0, 80, 120, 160, 200]) == [0, 80, 120, 160, 200]  # a tall header


def test_faint_rules_in_a_row_several_rows_high_are_found() -> None:
    # a steep view: the far end's rules thin and broken up, each filling under half a row of
    # the line map; the near end's whole. regularise splits a row two or three rows high
    # only, so the upper section read as one row seven rows high (Aces to Fours never read)
    warp = np.full((700, 640), 235, np.uint8)
    for x in (3, 150, 266, 328, 389, 454, 517, 579, 636):
        cv2.line(warp, (x, 0), (x, 699), 40, 2)
    rules = list(range(10, 700, 31))
    for k, y in enumerate(rules):
        if k in (0, *range(8, len(rules))):
            cv2.line(warp, (0, y), (639, y), 40, 2)
        else:  # dashes: 40% of the width
            for x0 in range(0, 640, 75):
                cv2.line(warp, (x0, y), (x0 + 29, y), 110, 1)
    _xs, ys = ruling._lines(warp)
    assert len(ys) == len(rules)
    assert all(abs(a - b) <= 2 for a, b in zip(ys, rules, strict=True))
    # without rows several rows high nothing is added (a faint mark inside a row is no rule)
    assert ruling._with_faint([0, 30, 60, 90, 120], np.full(121, 0.3)) == [0, 30, 60, 90, 120]


def _pale_columns(rows: int) -> tuple[np.ndarray, tuple[int, ...]]:
    """A table of ``rows`` rows ruled across in grey, its nine column rules a few grey
    levels darker than the paper only."""
    warp = np.full((31 * rows + 20, 700), 235, np.uint8)
    for y in range(10, 31 * rows + 11, 31):
        cv2.line(warp, (0, y), (699, y), 180, 2)
    cols = (30, 190, 310, 370, 430, 490, 550, 610, 670)
    for x in cols:
        cv2.line(warp, (x, 0), (x, warp.shape[0] - 1), 226, 1)
    return warp, cols


def test_pale_column_rules_of_a_table_ruled_darker_across_are_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # fresh photo 360014: the game columns parted by rules so pale that the line map missed
    # every one of them (a table of 24 rows and one column, refused as no pad)
    warp, cols = _pale_columns(22)
    xs, ys = ruling._lines(warp)
    assert len(ys) == 23
    assert len(xs) == len(cols) and all(abs(a - b) <= 1 for a, b in zip(xs, cols, strict=True))
    monkeypatch.setattr(ruling, "FAINT_C", 12)  # as dark as ink must be: none found
    assert ruling._lines(warp)[0] == []
    monkeypatch.undo()
    # a table of few rows is not searched so (its columns are ruled like its rows, if at all)
    assert ruling._lines(_pale_columns(ruling.FAINT_ROWS - 2)[0])[0] == []


def test_pale_row_rules_of_a_table_ruled_darker_down_are_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # holdout photo 490018, a pad photographed small: its nine column rules found, of its
    # rows' pale rules (blurred) only the darkest four and the table's edge; refused as no
    # pad, its corners marked too
    cols = (30, 190, 310, 370, 430, 490, 550, 610, 670)
    pale = list(range(10, 31 * 22 + 11, 31))
    warp = np.full((31 * 22 + 20, 700), 235, np.uint8)
    for y in pale:
        cv2.line(warp, (0, y), (699, y), 226, 1)
    for y in (pale[0], pale[9], pale[-1]):
        cv2.line(warp, (0, y), (699, y), 180, 2)
    for x in cols:
        cv2.line(warp, (x, 0), (x, warp.shape[0] - 1), 40, 2)
    xs, ys = ruling._lines(warp, faint_rows=True)
    assert len(xs) == len(cols)
    assert len(ys) == len(pale) and all(abs(a - b) <= 1 for a, b in zip(ys, pale, strict=True))
    # not in the first search (a piece of a table there stays a piece: the web of lines
    # then finds it whole), and not sought as dark as ink must be
    assert len(ruling._lines(warp)[1]) == 3
    monkeypatch.setattr(ruling, "FAINT_C", 12)
    assert len(ruling._lines(warp, faint_rows=True)[1]) == 3


def test_a_sliver_outside_the_table_is_no_column() -> None:
    # fresh photo 360014: the paper's edge a few pixels outside the table's outer rules
    # made a first and a last column a third of a game column wide
    xs = [3, 30, 192, 313, 374, 432, 489, 550, 607, 667, 694]
    assert ad._without_margins(xs) == xs[1:-1]
    assert ad._value_cols(ad._read_lines(ruling.Grid(np.zeros((900, 700), np.uint8), xs,
                                                     list(range(0, 900, 36)),
                                                     np.zeros((4, 2), np.float32)), 0)[0],
                          Side.FRONT) == list(range(2, 8))
    # a pad's own outer columns stay: the label column is wide, the last game as wide as all
    assert ad._without_margins(xs[1:-1]) == xs[1:-1]
    assert ad._without_margins([0, 100, 150]) == [0, 100, 150]  # too few to tell


def _table_of(rows: Sequence[Row], side: Side = Side.FRONT) -> ad.Table:
    """A table of these standard rows, one 50 px row each, its card the working image."""
    ys = [100 + 50 * i for i in range(len(rows) + 1)]
    xs = [0, 200, 300, 400, 500, 600, 700, 800, 900]
    return ad.Table(side, 0, 1.0, np.zeros((ys[-1] + 100, 900), np.uint8), np.eye(3), xs, ys,
                    list(enumerate(rows)), list(range(2, 8)), [row.label for row in rows])


def test_a_table_cut_short_is_sought_again_grown_by_the_rows_it_lacks() -> None:
    # the paper's outline cut a steep view's table short: its first row found is Twos, so
    # the table is sought again from a row above Aces (Aces and one more)
    printed = [row for row in ANY_FRONT_ROWS if row.kind is not Kind.HEADER and not row.optional]
    short = _table_of(printed[1:])
    assert ad.lacking(short) == (1, 0)
    quad = ad.grown_quad(short)
    assert quad[0].tolist() == [0.0, 0.0] and quad[2].tolist() == [900.0, float(short.ys[-1])]
    whole = _table_of(printed)
    assert ad.lacking(whole) == (0, 0)
    # a table without the rows some designs leave out lacks nothing; a back is not looked at
    assert ad.lacking(_table_of(FRONT_ROWS[1:])) == (0, 0)
    assert ad.lacking(_table_of(printed[3:], Side.BACK)) == (0, 0)
    # one lacking a whole section is grown by the section, as before
    upper = [row for row in printed if row.kind is Kind.BOX][:6]
    lower_only = _table_of([row for row in printed if row not in upper][4:])
    assert ad.partial(lower_only)
    assert ad.grown_quad(lower_only)[0][1] == 100 - ad.SECTION_ROWS[True] * 50


def test_a_piece_of_a_table_with_too_few_labels_is_a_seed_sought_whole() -> None:
    # fresh photo 420032: a shadow cut the ruled web to Twos .. BONUS, and tesseract read
    # four of those seven labels (fewer than a pad's MIN_ROWS): not a pad by itself, but,
    # in the last search before the photo is refused, a seed, whose table is sought again
    # grown by the section it lacks
    rows = OFFICIAL[2:9]
    read = {0, 1, 3, 5}  # Twos, Threes, Fives, TOTAL SCORE

    def answer(i: int, _im: np.ndarray) -> OcrText:
        return OcrText(rows[i][0] if i in read else "~", 0.9)

    xs = [0, 200, 380, *range(460, 940, 80)]
    ys = list(range(0, 40 * len(rows) + 1, 40))
    warp = np.full((ys[-1] + 1, xs[-1] + 1), 250, np.uint8)
    warp[:, xs] = 20
    warp[ys, :] = 20
    h, w = warp.shape
    g = ruling.Grid(warp, xs, ys, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
    assert ad.recognise(warp, g, FakeEngine(answer)) is None
    seed = ad.recognise(warp, g, FakeEngine(answer), rescue=True)
    assert seed is not None and seed.side is Side.FRONT and seed.matched == len(read)
    assert not ad.accepted(seed)
    assert ad.partial(seed)  # no lower box: grown by the lower section (plan._decide)
    assert {row.label for _, row in seed.rows} >= {"Twos = 2", "TOTAL SCORE"}
    # with one label fewer, not even a seed
    read.discard(5)
    assert ad.recognise(warp, g, FakeEngine(answer), rescue=True) is None


def test_a_table_of_every_pad_row_with_four_labels_read_is_a_pad() -> None:
    # fresh photos 360034 and 310001: so blurred that tesseract read four to six labels (fewer
    # than a pad's MIN_ROWS) of a table ruled with exactly the pad's rows; aligned with
    # them, the table's rows are every row a pad prints, which says it is a pad (and fresh
    # photo 330039, whose labels were read at the photo's full size after two searches)
    read = {3, 7, 12, 21}  # Threes, TOTAL SCORE, Full House, GRAND TOTAL

    def engine() -> FakeEngine:
        e = FakeEngine()
        e.answer = lambda i, _im: OcrText(OFFICIAL[i][0] if e.calls == 1 and i in read
                                          else "~", 0.9)
        return e

    g = ruled_table()
    for rescue in (False, True):
        t = ad.recognise(g.warp, g, engine(), rescue=rescue)
        assert t is not None and t.matched == len(read)
        assert ad.whole(t) and ad.accepted(t)
        assert {r: row.label for r, row in t.rows}[4] == "Fours = 4"
    # three labels read are too few, even in the last search
    read.discard(21)
    assert ad.recognise(g.warp, g, engine()) is None
    assert ad.recognise(g.warp, g, engine(), rescue=True) is None
    # the rows are all there, or the labels are not enough
    printed = [row for row in ANY_FRONT_ROWS if row.kind is not Kind.HEADER and not row.optional]
    assert ad.whole(_table_of(printed)) and not ad.whole(_table_of(printed[:-1]))
    assert not ad.whole(_table_of([*printed[:15], *printed[16:]]))  # Chance's row lacking
    assert not ad.whole(_table_of(printed, Side.BACK))
    short = _table_of(printed[1:])
    short.matched = ad.SEED_ROWS
    assert not ad.accepted(short)


def test_an_outer_row_whose_rule_was_lost_is_put_back() -> None:
    # room for one row above the first rule found (a dark band's edge is no line): put back
    assert ad._edge_rows([46, 95, 145, 194, 244, 295], 300) == [0, 46, 95, 145, 194, 244, 295]
    # ... and below the last
    assert ad._edge_rows([4, 54, 104, 154, 204], 262) == [4, 54, 104, 154, 204, 254]
    # the outer rules found: unchanged
    assert ad._edge_rows([4, 54, 104, 154, 204], 210) == [4, 54, 104, 154, 204]
    # far more room than a row: a part of the table the grid missed, not one lost rule
    assert ad._edge_rows([400, 450, 500, 550, 600], 610) == [400, 450, 500, 550, 600]
    # a first row 1.6 rows high or more: a header band and the row under it, split there
    assert ad._edge_rows([4, 71, 108, 145, 183, 220], 230) == [4, 34, 71, 108, 145, 183, 220]


def test_a_game_column_that_lost_its_line_is_split() -> None:
    # labels 195 wide, HOW TO SCORE 134 (about two game columns), six games of ~75: the
    # line between the third and the fourth game was not found
    xs = [3, 198, 332, 404, 479, 628, 703, 774]
    assert ad.regularise_columns(xs) == [3, 198, 332, 404, 479, 554, 628, 703, 774]
    # all six found: unchanged, HOW TO SCORE not split although it is about twice as wide
    whole = [3, 198, 332, 404, 479, 554, 628, 703, 774]
    assert ad.regularise_columns(whole) == whole
    # two lines lost in one column: split in three
    assert ad.regularise_columns([0, 200, 350, 425, 500, 725, 800]) == \
        [0, 200, 350, 425, 500, 575, 650, 725, 800]
    # a column of no whole number of games: left as it is
    assert ad.regularise_columns([0, 200, 275, 350, 475, 550]) == [0, 200, 275, 350, 475, 550]


def test_the_outer_rules_of_a_table_warped_along_them_are_put_back() -> None:
    # fresh photo 420040 (a pad filling the photo): the warp cut along the table's outline,
    # so neither the label column's left rule nor GAME #6's right one was found; the HOW
    # TO SCORE column (164 wide) then stood first and there were five game columns
    xs = [209, 373, 460, 546, 631, 720, 808]
    assert ad._edge_columns(xs, 897) == [0, *xs, 895]
    # ... only the right one lost: GAME #6 put back, the label column was found
    assert ad._edge_columns([3, 198, 332, 404, 479, 554, 628, 703], 780) == \
        [3, 198, 332, 404, 479, 554, 628, 703, 778]
    # ... only the left one lost (fresh photo 470025): HOW TO SCORE and six games found,
    # the label column put back where the room left of them is as wide as HOW TO SCORE
    assert ad._edge_columns([202, 339, 412, 487, 560, 631, 702, 774], 777) == \
        [0, 202, 339, 412, 487, 560, 631, 702, 774]
    # ... but a margin narrower than the first column is paper beside a table of labels
    # and six games (no HOW TO SCORE): nothing put back
    labels_games = [150, 345, 420, 495, 570, 645, 720, 795]
    assert ad._edge_columns(labels_games, 1000) == labels_games
    # every column found: unchanged, whatever lies around them (paper, a margin)
    whole = [150, 345, 479, 551, 626, 701, 775, 850, 921]
    assert ad._edge_columns(whole, 1100) == whole
    # far more room right than a game column: a part of the table the grid missed, not a
    # lost rule; and no room left for a label column: nothing put back
    assert ad._edge_columns([10, 200, 275, 350, 425, 500], 900) == [10, 200, 275, 350, 425, 500]
    # the outline cut is read so in the last search before the photo is refused, only
    grid = ruling.Grid(np.full((1075, 897), 255, np.uint8), xs, list(range(7, 1075, 48)),
                       np.zeros((4, 2), np.float32))
    assert ad._read_lines(grid, 0, edges=True)[0] == [0, *xs, 895]
    assert ad._read_lines(grid, 0)[0] == xs


def test_only_ruled_webs_in_line_with_the_table_join_it() -> None:
    # (x, y, w, h, area): the table's web, a section below it (a dark band between), and
    # a web in line above it (wood grain: upright lines only, no ruled rows)
    stats = np.array([[0, 0, 0, 0, 0], [100, 400, 600, 500, 9000], [105, 920, 590, 300, 5000],
                      [98, 0, 600, 330, 4000]], np.int32)
    assert sorted(ruling._whole_table(stats, 1, 4, lambda i: True)) == [1, 2, 3]
    assert sorted(ruling._whole_table(stats, 1, 4, lambda i: i != 3)) == [1, 2]


def test_turned_line_positions_follow_rot90() -> None:
    img = np.zeros((30, 50), np.uint8)
    img[10, :] = 1
    img[:, 20] = 1
    for k in range(4):
        t = np.rot90(img, k)
        xs, ys = ad.turned([20], [10], 50, 30, k)
        assert t[ys[0] - 1: ys[0] + 1, :].any(axis=0).all()  # within a pixel
        assert t[:, xs[0] - 1: xs[0] + 1].any(axis=1).all()


def test_our_own_pad_takes_the_template_path_with_one_ocr_call() -> None:
    from padsynth import render

    engine = FakeEngine(lambda i, im: OcrText("", 0.0))
    sheet = render.random_front(np.random.default_rng(3))
    result = Reader(engine).scan(photo_of(sheet, seed=2))
    assert result.layout == "template"
    assert result.to_dict()["layout"] == "template"
    assert engine.calls == 1


def test_variant_renderer_draws_the_table_where_it_says() -> None:
    v = vr.VARIANTS["plain"]
    card = np.asarray(vr.blank_variant(v))
    assert card.shape == (v.size[1], v.size[0])
    assert all(card[y, v.col_x[0] + 5: v.col_x[-1] - 5].mean() < 60 for y in v.row_y)
    assert vr.field_at(v, vr.PAGE_MARGIN + v.col_x[-1] - 5, vr.PAGE_MARGIN + v.row_y[-1] - 5) \
        == ("grand_total", 5, 5)


# ------------------------------------------------------------------ end to end (tesseract)


class CountingEngine(TesseractEngine):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def read_batch(self, images: Sequence[np.ndarray]) -> list[OcrText]:
        self.calls += 1
        return super().read_batch(images)


def _wrong_fields(s: vr.VariantSample, cells: Sequence[object]) -> list[str]:
    """Cells whose box, mapped back onto the printed page, is not the field they claim."""
    inv = np.linalg.inv(s.transform)
    wrong = []
    for c in cells:
        field, column, game, box = c.field, c.column, c.game, c.box  # type: ignore[attr-defined]
        if field == "name" and s.variant.side is Side.FRONT:
            continue
        x0, y0, x1, y1 = box
        p = cv2.perspectiveTransform(np.array([[[(x0 + x1) / 2, (y0 + y1) / 2]]], np.float32),
                                     inv)[0, 0]
        at = vr.field_at(s.variant, float(p[0]), float(p[1]))
        if at != (field, column, game):
            wrong.append(f"{field}[{column}] is at {at}")
    return wrong


CASES = [  # variant, seed, photo angle, rotation the reader must report
    ("plain", 1, 4.0, 0),
    ("plain", 4, 177.0, 180),
    ("compact", 1, -3.0, 0),
    ("compact", 3, 183.0, 180),
    ("back_plain", 1, 2.0, 0),
    ("back_framed", 2, 179.0, 180),
    ("plain", 6, 92.0, 270),  # sideways
]


@needs_tesseract
@pytest.mark.parametrize(("name", "seed", "angle", "rotation"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[3]}" for c in CASES])
def test_a_pad_of_another_design_is_read(name: str, seed: int, angle: float,
                                         rotation: int) -> None:
    s = vr.variant_sample(seed, name, mnist_share=0.0,
                          spec=PhotoSpec(angle=angle, perspective=0.02, light=0.2, blur=0.6,
                                         noise=3.0, jpeg=85))
    engine = CountingEngine()
    result = Reader(engine).scan(s.jpeg)
    assert result.layout == "adaptive"
    assert result.side is s.variant.side
    assert result.rotation == rotation
    assert engine.calls == 2  # the labels (all turns) in one batch, the numbers in another
    assert _wrong_fields(s, result.cells) == []
    want = set()
    for r, row in enumerate(s.variant.rows):
        if row.kind is not Kind.HEADER:
            x0, y0, x1, y1 = s.variant.cell(r, 0)
            at = vr.field_at(s.variant, vr.PAGE_MARGIN + (x0 + x1) / 2, vr.PAGE_MARGIN + (y0 + y1) / 2)
            assert at is not None
            want.add(at[0])
    got = {c.field for c in result.cells} - ({"name"} if s.variant.side is Side.FRONT else set())
    assert got == want  # every row of the pad found
    sc = score(result, s.sheet, s.variant.side)
    assert sc.cells >= 8
    assert sc.correct / sc.cells >= 0.85, sc.errors
    assert sc.silent == 0, sc.errors  # wrong values are flagged for review
    if s.variant.side is Side.FRONT:
        assert len(result.sheet.players[0].games) == len(s.sheet.players[0].games)
    else:
        assert len(result.sheet.players) == len(s.sheet.players)


@needs_tesseract
def test_a_ruled_table_that_is_not_a_pad_is_refused() -> None:
    words = ("", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
             "Milk", "Bread", "Eggs", "Apples", "Rice", "Cheese", "Butter", "Coffee", "Tea",
             "Sugar", "Salt", "Pepper", "Flour", "Oil")
    v = vr.front_variant("calendar", wording=words, title="SHOPPING")
    s = vr.variant_sample(3, v, mnist_share=0.0, spec=PhotoSpec(angle=3.0))
    searches: list[tuple[bool, bool]] = []
    search = Planner._search

    def counted(self: Planner, rgb: Image.Image) -> object:
        searches.append((self.rescue, self.faint_rows))
        return search(self, rgb)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Planner, "_search", counted)
        with pytest.raises(ScanError) as exc:
            scan_image(s.jpeg)
        assert exc.value.code == "not_a_pad"
        # a ruled table, not a pad's: searched twice more before it is refused (the same
        # refusal), the second time with pale row rules sought too; a photo of no ruled
        # table is refused after one search
        assert searches == [(False, False), (True, False), (True, True)]
        searches.clear()
        blank = io.BytesIO()
        Image.new("RGB", (1200, 900), "white").save(blank, "JPEG")
        with pytest.raises(ScanError) as exc:
            scan_image(blank.getvalue())
        assert exc.value.code == "not_a_pad" and searches == [(False, False)]


def test_an_empty_crop_has_no_ink() -> None:
    assert ink_mask(np.zeros((0, 12), np.uint8)).shape == (0, 12)


def _crop() -> np.ndarray:
    return np.full((38, 90), 235, np.uint8)


@pytest.mark.parametrize("edge", ["top", "bottom", "left", "right"])
def test_a_thick_rule_along_a_cells_edge_is_not_ink(edge: str) -> None:
    # (found by the benchmark: a blurred rule 5-6 px thick, cut a little inside the cell,
    # was read as a confident "1" or dash in a blank cell)
    c = _crop()
    band = {"top": np.s_[0:6, :], "bottom": np.s_[-6:, :], "left": np.s_[:, 0:6],
            "right": np.s_[:, -6:]}[edge]
    c[band] = 60
    assert not ink_mask(c).any()


@pytest.mark.parametrize("edge", ["top", "bottom"])
def test_the_edge_of_a_dark_band_above_or_below_a_row_is_not_ink(edge: str) -> None:
    # (found on the independent set: 10 px of the GAME #n and LOWER SECTION bands left at
    # the top of the row below them were read as a confident dash, a 0 in a blank box)
    c = np.full((48, 70), 235, np.uint8)
    c[np.s_[0:10, :] if edge == "top" else np.s_[-10:, :]] = 20
    assert not ink_mask(c).any()


def test_a_dash_drawn_up_to_a_band_is_still_ink() -> None:
    touching = np.full((48, 70), 235, np.uint8)
    touching[0:10, :] = 20  # the band's edge ...
    touching[8:16, 10:60] = 40  # ... and a dash drawn up against it: not flush, not thin
    slanted = np.full((48, 70), 235, np.uint8)
    for x in range(70):  # a dash across the cell, touching the top only at one end
        slanted[x // 7: x // 7 + 6, x] = 40
    for c in (touching, slanted):
        assert ink_mask(c).any()


def test_digits_and_scratches_near_the_edges_are_still_ink() -> None:
    one = _crop()
    one[2:36, 84:90] = 40  # a "1" at the right edge, not the cell's whole height
    dash = _crop()
    dash[17:23, 0:90] = 40  # a dash across the whole cell, away from its edges
    tall_one = _crop()
    tall_one[0:38, 40:46] = 40  # a "1" through the whole height, in the middle
    for c in (one, dash, tall_one):
        assert ink_mask(c).any()


@needs_tesseract
def test_a_table_whose_lines_make_a_sliver_row_is_refused_not_a_crash() -> None:
    # (found by the benchmark: this photo's grid detection gave a row a few pixels high,
    # whose cells were empty crops and crashed the ink mask)
    s = vr.variant_sample(50030, "compact")
    try:
        Reader().scan(s.jpeg)
    except ScanError as exc:
        assert exc.code == "not_a_pad"


def test_labels_read_by_one_grid_are_not_read_again_by_a_grown_one() -> None:
    # fresh photos 330030, 420032: a table found in part is sought again grown (plan._table),
    # each time in a warp of its own, so the labels it had are crops of other pixels; the
    # grown grid's recognise asks tesseract only for the rows the first one lacked
    whole = ruled_table()
    gray = whole.warp.copy()
    for r in range(1, len(OFFICIAL)):  # each label a block as dark as its row's number says
        y = whole.ys[r] + 10
        gray[y: y + 20, 20: 80] = 5 * r
    whole = ruling.Grid(gray, whole.xs, whole.ys, whole.quad)
    asked: list[int] = []

    def answer(_i: int, im: np.ndarray) -> OcrText:
        if im.min() == 255:  # a cell of no ink (HOW TO SCORE, a game column turned)
            return OcrText("", 0.0)
        level = float(np.median(im[im < 128]))  # the block's inside (label_image: paper white)
        r = round(level * 250 / 255 / 5)
        asked.append(r)
        return OcrText(OFFICIAL[r][0], 0.9)

    cut = whole.ys[11]
    short = ruling.Grid(gray[: cut + 1], whole.xs, whole.ys[:12],
                        np.array([[0, 0], [gray.shape[1], 0], [gray.shape[1], cut + 1],
                                  [0, cut + 1]], np.float32))
    reads = PlacedReads(FakeEngine(answer))
    ad.recognise(gray, short, reads)
    assert sorted(set(asked)) == list(range(1, 11))
    asked.clear()
    grown = ad.recognise(gray, whole, reads)
    assert asked and min(asked) >= 11  # only the rows below the first grid's
    alone = ad.recognise(gray, whole, FakeEngine(answer))  # the same table read afresh
    assert grown is not None and alone is not None
    assert grown.rows == alone.rows and grown.labels == alone.labels


def test_a_label_is_known_by_its_place_in_the_working_image() -> None:
    engine = FakeEngine(lambda i, im: OcrText(f"read {int(im[0, 0])}", 0.9))
    reads = PlacedReads(engine)
    cell = np.array([[0, 0], [100, 0], [100, 40], [0, 40]], np.float32)
    crops = [np.full((4, 4), v, np.uint8) for v in (1, 2)]
    assert [t.text for t in reads.read(crops, np.array([cell, cell + [0, 40]]))] == ["read 1",
                                                                                    "read 2"]
    # the same cells a few pixels off (under SAME_PLACE of their height), whatever the
    # pixels: read before; one a third of a row off is another cell
    again = [np.full((4, 4), 9, np.uint8)] * 3
    texts = reads.read(again, np.array([cell + [3, -7], cell + [0, 40 + 7], cell + [0, 13]]))
    assert [t.text for t in texts] == ["read 1", "read 2", "read 9"]
    assert (engine.calls, engine.images) == (2, 3)
    # a cell read sharpened is another reading of the same place
    assert reads.read(again[:1], np.array([cell]), sharpen=True)[0].text == "read 9"
    # corners in another order: the cell seen turned, another crop
    assert reads.read(again[:1], np.array([np.roll(cell, 2, axis=0)]))[0].text == "read 9"
    assert engine.images == 5


@pytest.mark.parametrize("k", range(4))
def test_a_label_cells_place_is_found_through_each_turn(k: int) -> None:
    # a cell of the warp, seen turned k quarter turns: its corners in the working image
    # (here the warp itself) are the cell's, its top-left as seen first
    h, w = 30, 50
    g = ruling.Grid(np.zeros((h, w), np.uint8), [], [],
                    np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
    xs, ys = ad.turned([10, 20], [5, 12], w, h, k)
    corners = [[10, 5], [20, 5], [20, 12], [10, 12]]  # TL, TR, BR, BL unturned
    seen = [corners[(i + k) % 4] for i in range(4)]  # a turn left: TR is seen top-left
    assert ad._cell_places(g, k, xs[0], xs[1], ys)[0].round(3).tolist() == seen
