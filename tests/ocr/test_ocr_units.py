"""Fast tests of the pad reader's parts, with the fake OCR engine (no tesseract)."""

from __future__ import annotations

import io
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image, ImageDraw

from ocr import ScanError, cnn, digits, layout, scan_image
from ocr.crosscheck import cross_check
from ocr.decode import (
    classifier_candidates,
    decide,
    legal_candidates,
    most_of,
    tesseract_number,
)
from ocr.glyphs import count_marks, glyphs
from ocr.loading import load_image
from ocr.plan import _line_sharpness
from ocr.reader import Reader
from ocr.result import CONFIDENT, NEEDS_REVIEW, UNREADABLE, Candidate, CellRead
from ocr.tesseract import FakeEngine, OcrText, parse_tsv
from padsynth import handwriting as hw
from padsynth import render
from scorepad.boxes import Box, TotalField
from scorepad.rules import get_rules
from scorepad.schemas import dump_sheet, load_sheet

from .conftest import photo_of

TSV = (
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
    "1\t1\t0\t0\t0\t0\t0\t0\t100\t50\t-1\t\n"
    "5\t1\t1\t1\t1\t1\t5\t5\t20\t30\t91.5\t25\n"
    "1\t2\t0\t0\t0\t0\t0\t0\t100\t50\t-1\t\n"
    "5\t3\t1\t1\t1\t1\t5\t5\t20\t30\t40\t1\n"
    "5\t3\t1\t1\t1\t2\t30\t5\t20\t30\t80\t2\n"
)


def test_tsv_gives_one_reading_per_page_in_order() -> None:
    out = parse_tsv(TSV, 3)
    assert [o.text for o in out] == ["25", "", "1 2"]
    assert out[0].confidence == pytest.approx(0.915)
    assert out[1].confidence == 0.0
    assert out[2].confidence == pytest.approx(0.40)  # the weakest word


@pytest.mark.parametrize(("text", "want"), [
    ("25", 25), ("2 5", 25), ("O", 0), ("l2", 12), ("S0", 50), ("", None), ("abc", None),
    ("12345", None), ("-", None),
])
def test_tesseract_text_to_number(text: str, want: int | None) -> None:
    assert tesseract_number(text) == want


def test_decide_prefers_what_was_read_and_marks_legal_fallbacks_inferred() -> None:
    legal = frozenset({0, 25})
    read = decide([Candidate(25, 0.9), Candidate(26, 0.1)], None, 0.0, legal)
    assert (read.value, read.inferred) == (25, False)
    # the best reading (26) is illegal in Full House: 25 is chosen *because it is legal*
    fallback = decide([Candidate(26, 0.7), Candidate(25, 0.3)], None, 0.0, legal)
    assert (fallback.value, fallback.inferred) == (25, True)
    assert fallback.confidence < 0.5
    nothing = decide([Candidate(7, 1.0)], None, 0.0, legal)
    assert nothing.value is None


def _row(side: layout.Side, label: str) -> layout.Row:
    return next(r for r in layout.grid(side).rows if r.label.startswith(label))


def test_a_total_no_game_reaches_is_a_misreading() -> None:
    hasbro = get_rules("hasbro")
    # every box at its best (105 above, 235 below) ...
    assert most_of(_row(layout.Side.FRONT, "TOTAL SCORE"), hasbro) == 105
    # ... and below, a bonus Yahtzee every turn (13 x 100) would make 1,675; but 1,000 takes
    # eight of them: an unsure four-digit reading of one game's total is a digit too many
    assert most_of(_row(layout.Side.FRONT, "GRAND TOTAL"), hasbro) == 999
    assert most_of(_row(layout.Side.FRONT, "TOTAL Of Upper"), hasbro) == 105 + 35
    assert most_of(_row(layout.Side.FRONT, "TOTAL Of Lower"), hasbro) == 999
    assert most_of(_row(layout.Side.BACK, "GAME #2"), hasbro) == 999
    assert most_of(_row(layout.Side.BACK, "TOTAL OF ALL GAMES"), hasbro) == 6 * 999
    assert most_of(_row(layout.Side.FRONT, "Chance"), hasbro) > 1675  # a box: its legal set
    # no Yahtzee bonus under a rule set without one
    plain = replace(hasbro, yahtzee_bonus=0)
    assert most_of(_row(layout.Side.FRONT, "GRAND TOTAL"), plain) == 375
    # a 320 read with a digit too many: the next reading, inferred, for a person to confirm
    read = decide([Candidate(3220, 0.6), Candidate(320, 0.15)], None, 0.0, None, most=999)
    assert (read.value, read.inferred) == (320, True)
    # ... but a sure reading is what was written (a player's slip, for the audit)
    read = decide([Candidate(1515, 0.97), Candidate(155, 0.01)], None, 0.0, None, most=999)
    assert (read.value, read.inferred) == (1515, False)
    assert decide([Candidate(3220, 0.6)], None, 0.0, None, most=1675).value is None
    # a sure reading is what was written: a player's 163 for 63 stays, for the audit
    slip = decide([Candidate(163, 0.99), Candidate(63, 0.01)], None, 0.0, None, most=105)
    assert (slip.value, slip.inferred) == (163, False)


def test_tesseract_agreement_raises_confidence() -> None:
    alone = decide([Candidate(18, 0.6), Candidate(13, 0.4)], None, 0.0, None)
    agreed = decide([Candidate(18, 0.6), Candidate(13, 0.4)], 18, 0.95, None)
    disagreed = decide([Candidate(18, 0.6), Candidate(13, 0.4)], 13, 0.95, None)
    assert agreed.value == 18 and agreed.confidence > alone.confidence
    assert disagreed.value == 13


def _png(w: int, h: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), "white").save(buf, "PNG")
    return buf.getvalue()


@pytest.mark.parametrize(("data", "code"), [
    (b"", "not_an_image"),
    (b"this is not an image at all", "not_an_image"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "not_an_image"),
])
def test_bad_bytes_get_a_stable_code(data: bytes, code: str) -> None:
    with pytest.raises(ScanError) as exc:
        load_image(data)
    assert exc.value.code == code


def test_size_limits() -> None:
    png = _png(300, 200)
    with pytest.raises(ScanError) as exc:
        load_image(png, max_bytes=len(png) - 1)
    assert exc.value.code == "too_large"
    with pytest.raises(ScanError) as exc:
        load_image(png, max_pixels=300 * 200 - 1)
    assert exc.value.code == "too_many_pixels"
    assert load_image(png).size == (300, 200)
    with pytest.raises(ScanError) as exc:
        Reader(FakeEngine(), max_pixels=1000).scan(png)
    assert exc.value.code == "too_many_pixels"


def test_a_photo_without_a_pad_is_refused_before_any_ocr() -> None:
    rng = np.random.default_rng(3)
    noise = Image.fromarray(rng.integers(0, 255, (900, 700, 3), dtype=np.uint8))
    im = Image.new("RGB", (900, 700), (120, 90, 60))
    d = ImageDraw.Draw(im)
    d.ellipse((100, 100, 600, 500), fill=(240, 240, 240))
    engine = FakeEngine()
    for img in (noise, im):
        buf = io.BytesIO()
        img.save(buf, "JPEG")
        with pytest.raises(ScanError) as exc:
            scan_image(buf.getvalue(), engine=engine)
        assert exc.value.code == "not_a_pad"
    assert engine.calls == 0


def test_blurred_photo_is_refused(front_sheet) -> None:  # type: ignore[no-untyped-def]
    data = photo_of(front_sheet, spec=render.PhotoSpec(angle=3.0, blur=6.0, noise=2.0, jpeg=85))
    with pytest.raises(ScanError) as exc:
        scan_image(data, engine=FakeEngine())
    assert exc.value.code == "too_blurred"


def test_grid_fits_the_card() -> None:
    for g in (layout.FRONT, layout.BACK):
        assert g.bottom < layout.CARD_H - layout.FRAME
        assert g.col_x[-1] < layout.CARD_W - layout.FRAME
    fields = {r.field for r in layout.FRONT_ROWS if r.field is not None}
    assert fields == set(Box) | set(TotalField) - {TotalField.YAHTZEE_BONUS}


def test_marks_are_counted() -> None:
    for n in range(0, 5):
        mask = np.zeros((40, 90), np.uint8)
        for i in range(n):
            mask[6:34, 8 + i * 18: 11 + i * 18] = 255
        assert count_marks(glyphs(mask)) == n


@pytest.mark.parametrize("size", [28, 14, 7])  # 7: PyTorch's pool drops the odd last row
def test_the_convolution_layer_is_conv_pool_relu_as_pytorch_computes_it(size: int) -> None:
    rng = np.random.default_rng(size)
    x = rng.normal(size=(3, size, size, 4)).astype(np.float32)
    w = rng.normal(size=(5, 4, 3, 3)).astype(np.float32)
    b = rng.normal(size=5).astype(np.float32)
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    conv = np.zeros((3, size, size, 5), np.float32)
    for dy in range(3):  # the plain definition, one kernel place at a time
        for dx in range(3):
            conv += np.einsum("nhwc,oc->nhwo", xp[:, dy: dy + size, dx: dx + size], w[:, :, dy, dx])
    conv = np.maximum(conv + b, 0)
    half = size // 2
    want = conv[:, : 2 * half, : 2 * half].reshape(3, half, 2, half, 2, 5).max(axis=(2, 4))
    got = cnn._conv_relu_pool(x, w, b)
    assert got.shape == want.shape
    assert np.allclose(got, want, atol=1e-4)


def _strokes(n: int, seed: int) -> list[np.ndarray]:
    """Masks of a few random pen strokes each, of many sizes (and an empty one)."""
    import cv2

    rng = np.random.default_rng(seed)
    out = [np.zeros((5, 5), np.uint8)]
    for _ in range(n):
        h, w = int(rng.integers(3, 60)), int(rng.integers(2, 90))
        m = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(1, 5))):
            cv2.line(m, (int(rng.integers(0, w)), int(rng.integers(0, h))),
                     (int(rng.integers(0, w)), int(rng.integers(0, h))), 255,
                     int(rng.integers(1, 6)))
        out.append(m)
    return out


def test_thinning_many_glyphs_at_once_is_thinning_each() -> None:
    masks = _strokes(80, 3)
    together = digits.normalize_many(masks)
    assert all(np.array_equal(digits.normalize(m), t) for m, t in zip(masks, together, strict=True))
    assert not together[0].any() and together[1].any()


def test_alike_masks_are_classified_once_and_each_row_gets_its_own_reading() -> None:
    model = cnn.load()
    masks = _strokes(30, 4)
    twice = [*masks, masks[5].copy(), (masks[9] > 0).astype(np.uint8), masks[2]]
    probs, feats = model.classify_embed(twice)
    alone = model.proba_inputs(np.stack([cnn.prepare(m) for m in twice]).astype(np.float32))
    assert probs.shape == (len(twice), len(digits.CLASSES)) and len(feats) == len(twice)
    assert np.allclose(probs, alone, atol=1e-5)
    assert np.array_equal(probs[len(masks)], probs[5]) and np.array_equal(probs[-2], probs[9])


def test_the_members_first_convolution_run_together_reads_as_each_member_alone() -> None:
    model = cnn.load()
    x = np.stack([cnn.prepare(m) for m in _strokes(45, 7)]).astype(np.float32)
    probs, feats = model._forward(x, 16)  # three chunks, the last one short
    alone = [n.hidden(x) for n in model.nets]
    want = np.mean([cnn.softmax(n.head(h)) for n, h in zip(model.nets, alone, strict=True)],
                   axis=0)
    assert np.allclose(probs, want, atol=1e-6)
    unit = np.concatenate([h / np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-9)
                           for h in alone], axis=1)
    assert np.allclose(feats, unit, atol=1e-5)


def test_classifier_reads_held_out_font_digits() -> None:
    masks, want = [], []
    for path in hw.available(hw.EVAL_FONTS):
        for d in range(10):
            g = hw.glyph(path, str(d), 40)
            masks.append(((g > 100) * 255).astype(np.uint8))
            want.append(d)
    if not masks:
        pytest.skip("no evaluation fonts installed")
    got = digits.classify(masks, cnn.load()).argmax(axis=1)
    assert float((got == np.array(want)).mean()) >= 0.75


def test_scan_with_fake_engine_runs_one_batch_and_reports_every_cell(front_sheet) -> None:  # type: ignore[no-untyped-def]
    data = photo_of(front_sheet)
    engine = FakeEngine(lambda i, im: OcrText("", 0.0))
    result = scan_image(data, engine=engine)
    assert engine.calls == 1
    assert result.side is layout.Side.FRONT
    assert result.rotation == 0
    n_games = len(front_sheet.players[0].games)
    assert len(result.sheet.players[0].games) == n_games
    photo = Image.open(io.BytesIO(data))
    for cell in result.cells:
        assert cell.status in (CONFIDENT, NEEDS_REVIEW, UNREADABLE)
        x0, y0, x1, y1 = cell.box
        assert 0 <= x0 < x1 <= photo.width + 2 and 0 <= y0 < y1 <= photo.height + 2
    out = result.to_dict()
    assert load_sheet(out["sheet"]) is not None  # the core's own format
    assert dump_sheet(result.sheet) == out["sheet"]
    assert {"confident", "needs_review", "unreadable"} == set(out["counts"])


def test_the_reader_keeps_a_wrong_total_it_reads(front_sheet) -> None:  # type: ignore[no-untyped-def]
    """An OCR engine that reads every cell as "999": the grand total stays what was read,
    never the arithmetic sum of the boxes."""
    game = front_sheet.players[0].games[0]
    data = photo_of(front_sheet)
    result = scan_image(data, engine=FakeEngine(lambda i, im: OcrText("999", 0.99)))
    got = result.sheet.players[0].games[0]
    assert got is not None and game is not None
    gt = [c for c in result.cells if c.field == "grand_total" and c.column == 0][0]
    assert gt.value == got.totals.get(TotalField.GRAND_TOTAL)
    for c in result.cells:
        if c.field in {b.value for b in Box} and c.value is not None:
            assert c.value != 999  # 999 is never a legal box value


def test_photos_of_one_pad_merge_into_one_sheet() -> None:
    from ocr.merge import merge
    from ocr.result import ScanResult
    from scorepad.card import Game, Player, PlayersScores, Sheet

    def result(side: layout.Side, sheet: Sheet) -> ScanResult:
        return ScanResult(sheet, side, [], 0, 1.0, 0.1, "fake")

    a = result(layout.Side.FRONT, Sheet([Player("Ann", [Game(boxes={Box.ACES: 3})])], "hasbro"))
    b = result(layout.Side.FRONT, Sheet([Player("Ann", [Game(boxes={Box.ACES: 2})])], "hasbro"))
    back = result(layout.Side.BACK, Sheet([
        Player("Ann", [], PlayersScores([200], 200)), Player("Bob", [], PlayersScores([150], 150)),
        Player("Cy", [], PlayersScores([90], 90))]))
    sheet = merge([a, b, back])
    assert [len(p.games) for p in sheet.players] == [1, 1, 0]
    assert len({p.name.casefold() for p in sheet.players}) == 3  # names kept unique
    assert [p.players_scores.total for p in sheet.players if p.players_scores] == [200, 150, 90]
    load_sheet(dump_sheet(sheet))
    with pytest.raises(ScanError) as exc:
        merge([back, back])
    assert exc.value.code == "two_backs"


def _read(field: str, value: int, confidence: float, status: str = CONFIDENT,
          candidates: list[Candidate] | None = None) -> CellRead:
    return CellRead(field, field, 0, 0, "number", value, confidence, status,
                    candidates=candidates or [Candidate(value, confidence)])


UPPER = [b.value for b in Box if b.is_upper]


def _upper_column(values: list[int], total: int, confs: list[float], total_conf: float
                  ) -> list[CellRead]:
    reads = [_read(f, v, c, CONFIDENT if c >= 0.9 else NEEDS_REVIEW)
             for f, v, c in zip(UPPER, values, confs, strict=True)]
    return [*reads, _read(TotalField.UPPER_SUBTOTAL.value, total, total_conf)]


def test_a_sum_that_holds_makes_its_readings_confident() -> None:
    reads = _upper_column([3, 6, 9, 12, 15, 18], 63, [0.97, 0.6, 0.97, 0.97, 0.97, 0.97], 0.97)
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert all(r.status == CONFIDENT for r in reads)
    assert "upper_sum" in reads[1].checks


def test_a_sum_that_holds_pins_its_one_unsure_reading_however_unlikely() -> None:
    # every other reading of the sum is sure on its own: they say what the unsure one is
    from ocr.crosscheck import CROSS_MIN, LONE_MIN

    p = (LONE_MIN + CROSS_MIN) / 2
    reads = _upper_column([3, 6, 9, 12, 15, 18], 63, [0.97, p, 0.97, 0.97, 0.97, 0.97], 0.97)
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert reads[1].status == CONFIDENT and "upper_sum" in reads[1].checks
    # two such readings may be two misreadings that cancel: neither is pinned
    reads = _upper_column([3, 6, 9, 12, 15, 18], 63, [0.97, p, p, 0.97, 0.97, 0.97], 0.97)
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert (reads[1].status, reads[2].status) == (NEEDS_REVIEW, NEEDS_REVIEW)


def _bonus_line(checks: int | None, score: int, conf: float) -> list[CellRead]:
    """The official pad's YAHTZEE BONUS checks (marks counted; None: none read) and its
    SCORE 100 PER line, both for review as read."""
    marks = (CellRead("YAHTZEE BONUS", "yahtzee_bonus_checks", 0, 0, "blank", None, 1.0,
                      CONFIDENT) if checks is None else
             CellRead("YAHTZEE BONUS", "yahtzee_bonus_checks", 0, 0, "marks", checks, 0.7,
                      NEEDS_REVIEW, candidates=[Candidate(checks, 1.0)]))
    return [marks, _read(TotalField.YAHTZEE_BONUS.value, score, conf, NEEDS_REVIEW)]


@pytest.mark.parametrize(("checks", "score", "confident"), [
    (2, 200, True),  # two checks, 100 each: the count and the digits vouch for each other
    (1, 100, True),
    (2, 300, False),  # one of them misread, or the player's slip: for a person
    (None, 100, False),  # no check read: nothing to vouch with
])
def test_the_score_100_per_line_and_its_checks_vouch_for_each_other(
        checks: int | None, score: int, confident: bool) -> None:
    marks, points = _bonus_line(checks, score, 0.6)
    cross_check([marks, points], layout.Side.FRONT, get_rules(None))
    assert (points.status == CONFIDENT) is confident
    assert (marks.status == CONFIDENT) is (confident or checks is None)
    assert ("bonus_score" in points.checks) is confident


def _grand_total_column(lower_cands: list[int], grand_cands: list[int]) -> tuple[CellRead, ...]:
    """A column whose lower boxes add up to 153, TOTAL read 133 and GRAND TOTAL 169 (the
    hand's 5 read as a 3 in both), unsure; 36 + 133 = 169 holds all the same."""
    from ocr.crosscheck import ALIKE_MIN, CROSS_MIN

    p = (CROSS_MIN + ALIKE_MIN) / 2  # enough for a sum that vouches, not for one held alike
    T = TotalField
    upper = [_read(f, v, 0.999) for f, v in zip(UPPER, [1, 2, 3, 8, 10, 12], strict=True)]
    sums = [_read(f.value, v, 0.999) for f, v in (
        (T.UPPER_SUBTOTAL, 36), (T.UPPER_BONUS, 0), (T.UPPER_TOTAL, 36), (T.UPPER_TOTAL_REPEAT, 36))]
    lower_boxes = [_read(b.value, v, 0.999) for b, v in zip(
        [b for b in Box if not b.is_upper], [20, 0, 25, 30, 40, 0, 38], strict=True)]
    lower = _read(T.LOWER_TOTAL.value, 133, p, NEEDS_REVIEW,
                  [Candidate(v, p if v == 133 else p / 2) for v in lower_cands])
    grand = _read(T.GRAND_TOTAL.value, 169, p, NEEDS_REVIEW,
                  [Candidate(v, p if v == 169 else p / 2) for v in grand_cands])
    cross_check([*upper, *sums, *lower_boxes, lower, grand], layout.Side.FRONT, get_rules(None))
    return lower, grand


def test_a_sum_held_by_two_readings_misread_alike_vouches_for_neither() -> None:
    # 153 and 189 (their candidates) hold the sum too: it cannot tell the two apart
    lower, grand = _grand_total_column([133, 153], [169, 189])
    assert (lower.status, grand.status) == (NEEDS_REVIEW, NEEDS_REVIEW)
    assert "grand_total" in grand.checks and (lower.value, grand.value) == (133, 169)
    assert lower.ink is None  # (153 would break the GRAND TOTAL that holds as read)
    # no second way for the sum to hold: the sum vouches for the readings, unsure as they are
    _, grand = _grand_total_column([133, 153], [169, 187])
    assert grand.status == CONFIDENT


def _copies_column(repeat_holds: bool) -> tuple[CellRead, CellRead, CellRead]:
    """A column with no upper bonus, TOTAL SCORE, TOTAL and its repeat all read 36: TOTAL
    SCORE held by the upper boxes' sum, the repeat by GRAND TOTAL (or, where not
    ``repeat_holds``, GRAND TOTAL read one other), each sum also holding with two of its cells
    read as their runners-up (Twos 4 and TOTAL SCORE 38; the repeat 46 and GRAND TOTAL 179)."""
    T = TotalField
    upper = [_read(f, v, 0.999) for f, v in zip(UPPER, [1, 2, 3, 8, 10, 12], strict=True)]
    upper[1] = _read(UPPER[1], 2, 0.6, NEEDS_REVIEW, [Candidate(2, 0.6), Candidate(4, 0.3)])
    subtotal = _read(T.UPPER_SUBTOTAL.value, 36, 0.6, NEEDS_REVIEW,
                     [Candidate(36, 0.6), Candidate(38, 0.3)])
    bonus = CellRead("", T.UPPER_BONUS.value, 0, 0, "blank", None, 1.0, CONFIDENT)
    total = _read(T.UPPER_TOTAL.value, 36, 0.6, NEEDS_REVIEW)
    repeat = _read(T.UPPER_TOTAL_REPEAT.value, 36, 0.6, NEEDS_REVIEW,
                   [Candidate(36, 0.6), Candidate(46, 0.3)])
    lower_boxes = [_read(b.value, v, 0.999) for b, v in zip(
        [b for b in Box if not b.is_upper], [20, 0, 25, 30, 40, 0, 18], strict=True)]
    lower = _read(T.LOWER_TOTAL.value, 133, 0.999)
    grand_value = 169 if repeat_holds else 168
    grand = _read(T.GRAND_TOTAL.value, grand_value, 0.6, NEEDS_REVIEW,
                  [Candidate(grand_value, 0.6), Candidate(grand_value + 10, 0.3)])
    cross_check([*upper, subtotal, bonus, total, *lower_boxes, lower, repeat, grand],
                layout.Side.FRONT, get_rules(None))
    return subtotal, total, repeat


def test_copies_held_by_two_sums_alike_vouch_for_the_copy_between_them() -> None:
    # each sum may hold through one digit misread alike in two of its cells, which is why
    # neither vouches for TOTAL on its own; both doing so and landing on 36 is not likely
    subtotal, total, repeat = _copies_column(repeat_holds=True)
    assert (subtotal.status, repeat.status) == (CONFIDENT, CONFIDENT)
    assert total.status == CONFIDENT and "copy" in total.checks
    # GRAND TOTAL fails: the repeat is vouched for by no sum, TOTAL stays for a person
    _subtotal, total, repeat = _copies_column(repeat_holds=False)
    assert (total.status, repeat.status) == (NEEDS_REVIEW, NEEDS_REVIEW)


@pytest.mark.parametrize(("repeat_runner_up", "copied"), [(True, False), (False, True)])
def test_a_copy_is_vouched_for_only_by_a_sum_no_two_runners_up_would_hold(
        repeat_runner_up: bool, copied: bool) -> None:
    # 47 read surely as 17 in the repeat (47 its runner-up at 0.7%) and the lower TOTAL 117
    # read 147: 17 + 147 = 164 holds. Below TWIN_P that runner-up makes no twins for the
    # sum's confirmations, but TOTAL, a copy of the repeat, would be the same misreading
    # made a third time: a copy needs a sum that no two runners-up at all would hold
    T = TotalField
    subtotal = _read(T.UPPER_SUBTOTAL.value, 17, 0.6, NEEDS_REVIEW)
    bonus = _read(T.UPPER_BONUS.value, 0, 0.999)
    total = _read(T.UPPER_TOTAL.value, 17, 0.6, NEEDS_REVIEW)
    repeat = _read(T.UPPER_TOTAL_REPEAT.value, 17, 0.992, CONFIDENT,
                   [Candidate(17, 0.992), *([Candidate(47, 0.007)] if repeat_runner_up else [])])
    lower = _read(T.LOWER_TOTAL.value, 147, 0.325, NEEDS_REVIEW,
                  [Candidate(147, 0.325), Candidate(117, 0.276)])
    grand = _read(T.GRAND_TOTAL.value, 164, 0.6, NEEDS_REVIEW,
                  [Candidate(164, 0.6), Candidate(144, 0.077)])
    cross_check([subtotal, bonus, total, repeat, lower, grand], layout.Side.FRONT,
                get_rules(None))
    assert (total.status == CONFIDENT) is copied and ("copy" in total.checks) is copied


def test_runners_up_too_unlikely_to_be_the_ink_make_no_twins() -> None:
    # Twos' and TOTAL SCORE's runners-up would hold the sum too, but at TWIN_P or less they
    # are no misreading the hand makes: the sum vouches for its readings from CROSS_MIN
    from ocr.crosscheck import ALIKE_MIN, CROSS_MIN, TWIN_P

    p = (CROSS_MIN + ALIKE_MIN) / 2
    for runner_up, confident in ((TWIN_P / 2, True), (0.2, False)):
        reads = _upper_column([1, 2, 3, 8, 10, 12], 36, [0.999, p, 0.999, 0.999, 0.999, 0.999],
                              p)
        reads[1].candidates = [Candidate(2, p), Candidate(4, runner_up)]
        reads[-1].candidates = [Candidate(36, p), Candidate(38, runner_up)]
        cross_check(reads, layout.Side.FRONT, get_rules(None))
        assert (reads[1].status == CONFIDENT) is confident, runner_up


def _front(upper: list[int], sums: list[tuple[TotalField, int]], lower: list[int]
           ) -> tuple[list[CellRead], list[CellRead], list[CellRead]]:
    """A score card's column read surely as given (the sums as (field, value))."""
    boxes = [_read(f, v, 0.999) for f, v in zip(UPPER, upper, strict=True)]
    totals = [_read(f.value, v, 0.999) for f, v in sums]
    below = [_read(b.value, v, 0.999) for b, v in zip(
        [b for b in Box if not b.is_upper], lower, strict=True)]
    return boxes, totals, below


def test_one_digit_misread_alike_where_a_candidate_shows_it_once_vouches_for_neither() -> None:
    # lower TOTAL 176 and GRAND TOTAL 274 (98 + 176), the hand's 7 read as a 1 in both:
    # 116 and 214, and 98 + 116 = 214 holds.  GRAND TOTAL's candidates have 274, TOTAL's not
    # 176; the same digit at the same place of TOTAL, misread the same way, holds the sum
    # too, so it vouches for neither (a 3 of a kind misread too: the lower sum fails)
    T = TotalField
    upper, sums, lower_boxes = _front([3, 6, 9, 12, 15, 18], [
        (T.UPPER_SUBTOTAL, 63), (T.UPPER_BONUS, 35), (T.UPPER_TOTAL, 98),
        (T.UPPER_TOTAL_REPEAT, 98)], [28, 0, 25, 30, 40, 50, 5])
    lower_boxes[0] = _read(Box.THREE_OF_A_KIND.value, 28, 0.5, NEEDS_REVIEW)

    def column(grand_other: int) -> tuple[CellRead, CellRead]:
        lower = _read(T.LOWER_TOTAL.value, 116, 0.3, NEEDS_REVIEW,
                      [Candidate(116, 0.3), Candidate(118, 0.2)])
        grand = _read(T.GRAND_TOTAL.value, 214, 0.3, NEEDS_REVIEW,
                      [Candidate(214, 0.3), Candidate(grand_other, 0.2)])
        reads = [replace(r) for r in [*upper, *sums, *lower_boxes]]
        cross_check([*reads, lower, grand], layout.Side.FRONT, get_rules(None))
        return lower, grand

    lower, grand = column(274)
    assert (lower.status, grand.status) == (NEEDS_REVIEW, NEEDS_REVIEW)
    assert "grand_total" in grand.checks
    # a candidate with another digit other, which TOTAL does not show there: it vouches
    lower, grand = column(213)
    assert (lower.status, grand.status) == (CONFIDENT, CONFIDENT)


def test_a_grand_total_beside_a_blank_repeat_is_checked_against_the_upper_total() -> None:
    # the player left the upper TOTAL's repeat below blank: GRAND TOTAL adds TOTAL itself.
    # 252 read surely as 752 is then a digit from holding, for a person to look at
    T = TotalField
    upper, sums, lower_boxes = _front([1, 8, 12, 8, 10, 24], [
        (T.UPPER_SUBTOTAL, 63), (T.UPPER_BONUS, 35), (T.UPPER_TOTAL, 98)],
        [17, 21, 25, 30, 40, 0, 21])
    repeat = CellRead("", T.UPPER_TOTAL_REPEAT.value, 0, 0, "blank", None, 1.0, CONFIDENT)
    lower = _read(T.LOWER_TOTAL.value, 154, 0.999)
    grand = _read(T.GRAND_TOTAL.value, 752, 0.999)
    cross_check([*upper, *sums, *lower_boxes, lower, repeat, grand], layout.Side.FRONT,
                get_rules(None))
    assert grand.status == NEEDS_REVIEW and grand.value == 752
    assert 252 in [c.value for c in grand.candidates]


def test_a_value_the_box_cannot_hold_explains_no_failed_sum() -> None:
    # TOTAL SCORE 63 read surely as 61; Fives unsure, its runner-up 13 (no Fives score):
    # no reading a box can hold makes the sum hold, so the sure total is doubted too
    upper = _upper_column([3, 6, 9, 12, 15, 18], 61, [0.999, 0.999, 0.999, 0.999, 0.6, 0.999],
                          0.999)
    upper[4].candidates = [Candidate(15, 0.6), Candidate(13, 0.3)]
    cross_check(upper, layout.Side.FRONT, get_rules(None))
    assert upper[-1].status == NEEDS_REVIEW and upper[-1].value == 61


def test_a_check_mark_not_sure_of_may_be_no_mark() -> None:
    # the lower boxes add up to 113 and TOTAL reads 113; a speck in the YAHTZEE BONUS row
    # read as one check (unsure) makes the sum fail by 100.  TOTAL's candidate 213 would
    # hold it, and so would the check being no mark: the sum vouches for neither
    T = TotalField
    _, _, lower_boxes = _front([0] * 6, [], [22, 18, 25, 30, 0, 0, 18])
    check = CellRead("", "yahtzee_bonus_checks", 0, 0, "marks", 1, 0.7, NEEDS_REVIEW,
                     candidates=[Candidate(1, 1.0)])
    lower = _read(T.LOWER_TOTAL.value, 113, 0.4, NEEDS_REVIEW,
                  [Candidate(113, 0.4), Candidate(213, 0.3)])
    cross_check([*lower_boxes, check, lower], layout.Side.FRONT, get_rules(None))
    assert check.status == NEEDS_REVIEW


def test_one_digit_misread_alike_in_a_part_and_its_total_is_doubted_in_both() -> None:
    # The hand's 8 read as a 1 in 3 of a kind (28 as 21, sure) and in the lower TOTAL (158
    # as 151, made confident by its sum, which 21 ... 151 holds): GRAND TOTAL 194 is right
    # and fails.  151 -> 158 would make it hold, but its own sum vouches for 151, unless
    # the same misreading in 21 cancels it there, which it does: both go to a person.
    T = TotalField
    upper = [_read(f, v, 0.999) for f, v in zip(UPPER, [1, 2, 3, 8, 10, 12], strict=True)]
    sums = [_read(f.value, v, 0.999) for f, v in (
        (T.UPPER_SUBTOTAL, 36), (T.UPPER_BONUS, 0), (T.UPPER_TOTAL, 36), (T.UPPER_TOTAL_REPEAT, 36))]
    lower_boxes = [_read(b.value, v, 0.999 if v != 21 else 0.96) for b, v in zip(
        [b for b in Box if not b.is_upper], [21, 0, 25, 30, 40, 0, 35], strict=True)]
    lower = _read(T.LOWER_TOTAL.value, 151, 0.8, NEEDS_REVIEW)
    grand = _read(T.GRAND_TOTAL.value, 194, 0.999)
    cross_check([*upper, *sums, *lower_boxes, lower, grand], layout.Side.FRONT, get_rules(None))
    three = lower_boxes[0]
    assert (three.status, lower.status) == (NEEDS_REVIEW, NEEDS_REVIEW)
    assert (three.value, lower.value) == (21, 151)  # never changed to fit
    assert 28 in [c.value for c in three.candidates] and 158 in [c.value for c in lower.candidates]
    # where no part shows a 1 in the units, no second misreading cancels 151 -> 158 in its
    # own sum: that sum vouches for 151 (the failure is the player's, or a sure misreading
    # elsewhere)
    lower_boxes = [_read(b.value, v, 0.999) for b, v in zip(
        [b for b in Box if not b.is_upper], [20, 0, 25, 30, 40, 0, 36], strict=True)]
    lower = _read(T.LOWER_TOTAL.value, 151, 0.8, NEEDS_REVIEW)
    grand = _read(T.GRAND_TOTAL.value, 194, 0.999)
    cross_check([*upper, *sums, *lower_boxes, lower, grand], layout.Side.FRONT, get_rules(None))
    assert lower.status == CONFIDENT and all(r.status == CONFIDENT for r in lower_boxes)


def test_a_failed_sum_explained_by_a_doubtful_cell_keeps_the_others_confident() -> None:
    # Twos read 8 (unsure, 6 among its candidates); with 6 the sum would hold.
    reads = _upper_column([3, 8, 9, 12, 15, 18], 63, [0.97, 0.6, 0.97, 0.97, 0.97, 0.97], 0.95)
    reads[1].candidates = [Candidate(8, 0.6), Candidate(6, 0.35)]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    # it reads as 6 (the sum's only explanation), still for a person, its ink's 8 kept
    assert (reads[1].status, reads[1].value, reads[1].ink) == (NEEDS_REVIEW, 6, 8)
    assert [c.value for c in reads[1].candidates][:2] == [6, 8] and "implied" in reads[1].checks
    # the others keep their status, but for those one digit other would make the sum hold
    # (Aces 1, TOTAL SCORE 65: the sure reading may be the misread one)
    assert [r.status for r in reads if r is not reads[1]] == [
        NEEDS_REVIEW, CONFIDENT, CONFIDENT, CONFIDENT, CONFIDENT, NEEDS_REVIEW]
    assert 65 in [c.value for c in reads[-1].candidates]
    assert "upper_sum_failed" in reads[0].checks


def test_a_sure_reading_is_not_suspected_a_digit_other_where_a_doubtful_cell_explains() -> None:
    # As above, Aces read at 0.999: the doubtful Twos (6 among its candidates) accounts for
    # the failure, so the sure Aces is not doubted for the 1 it might be; TOTAL SCORE (0.95,
    # below KEEP_ON_FAIL) still is.
    reads = _upper_column([3, 8, 9, 12, 15, 18], 63, [0.999, 0.6, 0.97, 0.97, 0.97, 0.97], 0.95)
    reads[1].candidates = [Candidate(8, 0.6), Candidate(6, 0.35)]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert (reads[0].status, reads[-1].status) == (CONFIDENT, NEEDS_REVIEW)
    # with no candidate of Twos explaining it, the sure Aces is doubted all the same
    reads = _upper_column([3, 8, 9, 12, 15, 18], 63, [0.999, 0.6, 0.97, 0.97, 0.97, 0.97], 0.95)
    reads[1].candidates = [Candidate(8, 0.6), Candidate(3, 0.35)]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert reads[0].status == NEEDS_REVIEW and 1 in [c.value for c in reads[0].candidates]


def test_a_failed_sum_explained_by_two_doubtful_cells_keeps_the_others_confident() -> None:
    # Twos 6 read 8 and Fours 12 read 16, both unsure with the truth among their candidates:
    # together they account for 69 against 63, so Fives (0.97) keeps its confidence. Read
    # together (``jointread``), they take those readings, still for review, the ink kept.
    confs = [0.995, 0.6, 0.995, 0.6, 0.97, 0.995]
    reads = _upper_column([3, 8, 9, 16, 15, 18], 63, confs, 0.999)
    reads[1].candidates = [Candidate(8, 0.6), Candidate(6, 0.3)]
    reads[3].candidates = [Candidate(16, 0.6), Candidate(12, 0.3)]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert reads[4].status == CONFIDENT and (reads[1].value, reads[3].value) == (6, 12)
    assert (reads[1].ink, reads[3].ink) == (8, 16)
    assert reads[1].status == reads[3].status == NEEDS_REVIEW
    # when Fours' candidates do not close the rest of the gap, Fives is a suspect
    reads = _upper_column([3, 8, 9, 16, 15, 18], 63, confs, 0.999)
    reads[1].candidates = [Candidate(8, 0.6), Candidate(6, 0.3)]
    reads[3].candidates = [Candidate(16, 0.6), Candidate(20, 0.3)]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert reads[4].status == NEEDS_REVIEW


def test_an_unexplained_failed_sum_takes_confidence_from_its_readings_below_keep() -> None:
    # Every reading is sure, yet 3+6+9+12+15+18 != 60: a misreading or the player's slip.
    confs = [0.999, 0.95, 0.97, 0.96, 0.999, 0.999]
    reads = _upper_column([3, 6, 9, 12, 15, 18], 60, confs, 0.999)
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    demoted = {r.field for r in reads if r.status == NEEDS_REVIEW}
    # those below KEEP_ON_FAIL; and every cell one digit other would make the sum hold with a
    # value its box can hold, however sure (Aces 0, Threes 6, TOTAL SCORE 63): a sure
    # classifier misreads an unfamiliar hand too.  Fours 9, Fives 12, Sixes 15 cannot be.
    assert demoted == {"twos", "threes", "fours"} | {"aces", "upper_total_score"}
    assert reads[-1].value == 60  # the written total is what the audit checks


def test_a_legal_value_outside_the_top_choices_is_found_and_marked_inferred() -> None:
    # Two glyphs read "8" then "5" (85); Full House holds 0 or 25: the "2" is the first
    # glyph's fourth choice, so only the legal decoding finds 25.
    probs = np.zeros((2, len(digits.CLASSES)), np.float32)
    probs[0, [8, 9, 3, 2]] = [0.5, 0.25, 0.15, 0.1]
    probs[1, [5, 6]] = [0.9, 0.1]
    legal = frozenset({0, 25})
    assert 25 not in {c.value for c in classifier_candidates(probs)}
    got = {c.value: c.p for c in legal_candidates(probs, legal)}
    assert set(got) == {25} and got[25] == pytest.approx(0.1 * 0.9, rel=1e-3)
    d = decide([*classifier_candidates(probs), *legal_candidates(probs, legal)], None, 0.0, legal)
    assert d.value == 25 and d.inferred


def test_the_suspects_of_a_failed_sum_are_readings_still_marked_confident() -> None:
    # Aces is already doubtful (0.6) and none of its candidates explains the sum, so the
    # CONFIDENT readings below 0.99 (threes 0.97, fours 0.95, fives 0.96) are marked for
    # review too.
    confs = [0.6, 0.999, 0.97, 0.95, 0.96, 0.999]
    reads = _upper_column([3, 6, 9, 12, 15, 18], 60, confs, 0.999)
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert {r.field for r in reads if r.status == NEEDS_REVIEW} == {"aces", "fours", "fives"} | {
        "threes", "upper_total_score"}  # (a digit other: 6 and 63)


def test_every_reading_below_keep_in_an_unexplained_failed_sum_is_a_suspect() -> None:
    # not just the least sure: several cells of one sum may be misread (an unfamiliar hand)
    confs = [0.86, 0.87, 0.88, 0.97, 0.999, 0.999]
    reads = _upper_column([3, 6, 9, 12, 15, 18], 60, confs, 0.999)
    for r in reads:
        r.status = CONFIDENT  # (the reader's own threshold is CONFIDENT_AT, 0.85)
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    # readings at KEEP_ON_FAIL (0.99) or above stay confident: Fives, Sixes
    assert {r.field for r in reads if r.status == NEEDS_REVIEW} == {
        "aces", "twos", "threes", "fours"} | {"upper_total_score"}  # (a digit other: 63)


def test_line_sharpness_skips_columns_too_narrow_to_hold_a_line() -> None:
    # a grid found in a tiny pad can have columns narrower than the margins (no warning,
    # no NaN: pytest turns warnings into errors)
    card = np.full((100, 60), 255, np.uint8)
    card[50] = 0
    assert _line_sharpness(card, [50], [0, 10, 20, 60]) > 0.5
    assert _line_sharpness(card, [50], [0, 10, 20]) == 0.0


def test_a_glyph_twice_a_digit_wide_is_likelier_two_digits_than_one() -> None:
    from ocr.glyphs import Glyph, width_odds

    def glyph(w: int) -> Glyph:
        return Glyph(np.full((30, w), 255, np.uint8), 0, w, 0, 30)

    # the hand's digits are 20 wide and 30 high
    assert width_odds(glyph(40), 2, 20.0, 30.0) > 1.0
    assert width_odds(glyph(20), 2, 20.0, 30.0) < 0.1
    assert width_odds(glyph(56), 3, 20.0, 30.0) > width_odds(glyph(40), 3, 20.0, 30.0)
    assert width_odds(glyph(400), 2, 20.0, 30.0) <= 20.0  # the width alone is never decisive


def test_a_piece_that_looks_like_several_digits_is_no_digit_of_a_number() -> None:
    # two glyphs read 1 and 8, but the second looks like several touching digits
    probs = np.zeros((2, len(digits.CLASSES)), np.float32)
    probs[0, 1] = 1.0
    probs[1, 8], probs[1, digits.SEVERAL] = 0.3, 0.7
    best = classifier_candidates(probs)[0]
    assert best.value == 18 and best.p < 0.35
    # ... while a scratch class's share is not counted against a digit of a number
    probs[1, digits.SEVERAL], probs[1, digits.CLASSES.index("dash")] = 0.0, 0.7
    assert classifier_candidates(probs)[0].p > 0.95


@pytest.mark.parametrize("q", [0, 10, 50, 90, 99.5, 100])
def test_paper_level_is_numpys_percentile(q: float) -> None:
    from ocr.paper import paper_level

    rng = np.random.default_rng(int(q * 10))
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(1, 50, 2))
        img = rng.integers(0, 256, (h, w)).astype(np.uint8)
        if rng.random() < 0.2:
            img[:] = rng.integers(0, 256)  # one grey: every order statistic alike
        assert paper_level(img, q) == pytest.approx(float(np.percentile(img, q)))
    floats = rng.random((7, 9)).astype(np.float32)  # not 8-bit: numpy's own answer
    assert paper_level(floats, q) == pytest.approx(float(np.percentile(floats, q)))


def test_a_failed_sum_one_doubtful_cell_explains_vouches_for_the_rest() -> None:
    # Twos 6 read 8 (unsure, 6 its only other candidate); Fours 12 read at 0.6, Fives 15 at
    # 0.5: the sum holds with Twos as 6 and no other way, so it vouches for Fours and Fives
    # as a sum that holds would; Twos stays for a person, read as 6 (its ink's 8 kept).
    confs = [0.999, 0.6, 0.999, 0.6, 0.5, 0.999]
    reads = _upper_column([3, 8, 9, 12, 15, 18], 63, confs, 0.999)
    reads[1].candidates = [Candidate(8, 0.6), Candidate(6, 0.35)]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert (reads[1].status, reads[1].value, reads[1].ink) == (NEEDS_REVIEW, 6, 8)
    assert (reads[3].status, reads[4].status) == (CONFIDENT, CONFIDENT)
    assert "explained" in reads[3].checks
    # a second way to account for it (Fours' own candidate 8 with Twos' 10, about as
    # likely read together): no vouching, and no one reading to take
    reads = _upper_column([3, 8, 9, 12, 15, 18], 63, confs, 0.999)
    reads[1].candidates = [Candidate(8, 0.6), Candidate(6, 0.35), Candidate(10, 0.3)]
    reads[3].candidates = [Candidate(12, 0.6), Candidate(8, 0.3)]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert (reads[3].status, reads[4].status) == (NEEDS_REVIEW, NEEDS_REVIEW)
    assert (reads[1].value, reads[1].ink) == (8, None)  # no one explanation: as read


def test_a_reading_taken_for_a_failed_sum_reaches_the_sheet_with_its_ink() -> None:
    from ocr.assemble import reading_of

    reads = _upper_column([3, 8, 9, 12, 15, 18], 63, [0.999, 0.6, 0.999, 0.999, 0.999, 0.999],
                          0.999)
    reads[1].candidates = [Candidate(8, 0.6), Candidate(6, 0.35)]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    reading = reading_of(reads[1])
    assert (reading.status.value, reading.ink, reading.candidates[0]) == (NEEDS_REVIEW, 8, 8)
    assert reading.confidence == pytest.approx(0.35)
    # a sure reading is never taken otherwise, however the sum fails
    reads = _upper_column([3, 8, 9, 12, 15, 18], 63, [0.999] * 6, 0.999)
    reads[1].candidates = [Candidate(8, 0.999), Candidate(6, 0.001)]
    cross_check(reads, layout.Side.FRONT, get_rules(None))
    assert (reads[1].value, reads[1].ink) == (8, None)


def test_a_reading_taken_for_a_failed_sum_takes_its_copies_with_it() -> None:
    # Upper boxes 49, TOTAL SCORE, TOTAL and its repeat all read 19 (one hand's 4 as a 1),
    # unsure, 49 among their candidates; the BONUS blank. Only the TOTAL SCORE explains the
    # failed upper sum, and its copies hold with it as read: all three read 49, ink 19.
    T = TotalField

    def column() -> list[CellRead]:
        boxes = [_read(f, v, 0.999) for f, v in zip(UPPER, [3, 6, 9, 12, 15, 4], strict=True)]
        bonus = CellRead(T.UPPER_BONUS.value, T.UPPER_BONUS.value, 0, 0, "blank", None, 1.0,
                         CONFIDENT)
        sums = [_read(f.value, 19, 0.6, NEEDS_REVIEW, [Candidate(19, 0.6), Candidate(49, 0.3)])
                for f in (T.UPPER_SUBTOTAL, T.UPPER_TOTAL, T.UPPER_TOTAL_REPEAT)]
        reads = [*boxes, bonus, *sums]
        cross_check(reads, layout.Side.FRONT, get_rules(None))
        return sums

    sums = column()
    assert [(r.value, r.ink, r.status) for r in sums] == [(49, 19, NEEDS_REVIEW)] * 3
    assert all("implied" in r.checks for r in sums)


def test_a_box_of_one_score_read_as_its_score_is_no_suspect_of_a_failed_sum() -> None:
    # the lower boxes add up to 133, TOTAL reads 150: Chance (18, at 0.95) may be the
    # misread one; Full House read 25 at 0.9 holds 25 or 0, and stays confident
    T = TotalField

    def column(chance_p: float) -> tuple[CellRead, CellRead]:
        _, _, lower = _front([0] * 6, [], [20, 0, 25, 30, 40, 0, 18])
        lower[2].confidence = lower[2].candidates[0].p = 0.9
        lower[6].confidence = lower[6].candidates[0].p = chance_p
        total = _read(T.LOWER_TOTAL.value, 150, 0.999)
        cross_check([*lower, total], layout.Side.FRONT, get_rules(None))
        return lower[2], lower[6]

    full_house, chance = column(0.95)
    assert (full_house.status, chance.status) == (CONFIDENT, NEEDS_REVIEW)
    assert "lower_sum_failed" in full_house.checks
    # every other reading sure: the failure must rest on a cell a person looks at
    full_house, chance = column(0.999)
    assert (full_house.status, chance.status) == (NEEDS_REVIEW, CONFIDENT)


def test_a_total_doubted_by_its_sum_doubts_the_totals_it_is_part_of() -> None:
    # a fresh photo: the upper TOTAL 31 (unsure), its repeat read surely as 3 and GRAND
    # TOTAL 191 surely as 9 (pale 1s lost). The repeat's failed sum doubts it however sure;
    # GRAND TOTAL's sum (3 + 160 against 9) then has a doubtful cell in it too, and GRAND
    # TOTAL goes to a person: kept sure, it was accused once the repeat was mended
    T = TotalField
    upper, totals, lower = _front([1, 2, 3, 4, 5, 16], [
        (T.UPPER_SUBTOTAL, 31), (T.UPPER_BONUS, 0)], [30, 25, 25, 30, 40, 0, 10])
    totals += [_read(T.UPPER_TOTAL.value, 31, 0.725, NEEDS_REVIEW),
               _read(T.UPPER_TOTAL_REPEAT.value, 3, 0.994)]
    lower_total = _read(T.LOWER_TOTAL.value, 160, 0.999)
    grand = _read(T.GRAND_TOTAL.value, 9, 0.998)
    cross_check([*upper, *totals, *lower, lower_total, grand], layout.Side.FRONT,
                get_rules(None))
    assert (totals[3].status, grand.status) == (NEEDS_REVIEW, NEEDS_REVIEW)
    assert grand.value == 9 and lower_total.status == CONFIDENT
