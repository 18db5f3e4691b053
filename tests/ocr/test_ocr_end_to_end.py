"""End to end with the real tesseract: rendered photos in, sheets out, honest statuses."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from ocr import CONFIDENT, ScanError, scan_image
from ocr.layout import FRONT, Side, field_key
from padsynth import handwriting as hw
from padsynth.evaluate import score
from padsynth.render import (
    FAR_FILL,
    FAR_SIDE,
    PAGE_MARGIN,
    PhotoSpec,
    make_style,
    photograph,
    random_back,
    random_front,
    sample,
    write,
)
from scorepad.boxes import TotalField
from scorepad.card import Sheet
from scorepad.schemas import loads_sheet

from .conftest import needs_tesseract, photo_of

pytestmark = [needs_tesseract, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = ROOT / "sample_pads" / "photos"


def _check(result_sheet_side: tuple[object, Sheet, Side], min_accuracy: float = 0.9) -> None:
    result, sheet, side = result_sheet_side
    s = score(result, sheet, side)  # type: ignore[arg-type]
    assert s.cells > 0
    assert s.correct / s.cells >= min_accuracy, s.errors
    assert s.silent == 0, s.errors  # every wrong cell is flagged for review


@pytest.mark.parametrize(("angle", "rotation"), [(3.0, 0), (178.0, 180), (-92.0, 90), (88.0, 270)])
def test_photo_at_any_quarter_turn(angle: float, rotation: int) -> None:
    sheet = random_front(np.random.default_rng(21))
    data = photo_of(sheet, seed=5, spec=PhotoSpec(angle=angle, perspective=0.02, blur=0.5,
                                                  noise=3.0, jpeg=85))
    result = scan_image(data)
    assert result.side is Side.FRONT
    assert result.rotation == rotation
    _check((result, sheet, Side.FRONT))


def test_exif_orientation_is_applied() -> None:
    sheet = random_front(np.random.default_rng(22))
    data = photo_of(sheet, seed=6, spec=PhotoSpec(angle=1.0, exif_orientation=6, jpeg=88))
    result = scan_image(data)
    assert result.rotation == 0  # upright once the EXIF tag is applied
    _check((result, sheet, Side.FRONT))
    # where the time went, step by step (the benchmark names it for the slowest photos)
    assert list(result.timings) == ["load", "find", "classify", "tesseract", "decide"]
    assert all(t >= 0 for t in result.timings.values())
    assert abs(sum(result.timings.values()) - result.seconds) < 1e-6
    assert "timings" not in result.to_dict()


def test_a_pad_small_in_a_big_photo_is_read_from_its_full_resolution() -> None:
    # a 12-megapixel photo with the pad across 30% of it: at the working size the card
    # would be warped up from a few hundred pixels
    sheet = random_front(np.random.default_rng(25))
    rng = np.random.default_rng(9)
    style = make_style(rng, hw.available(hw.EVAL_FONTS), None, mnist_share=0.0)
    style.zero_style = "0"
    page = write(sheet, Side.FRONT, style, rng)
    where: list[np.ndarray] = []
    spec = PhotoSpec(angle=4.0, perspective=0.02, blur=1.5, noise=3.0, jpeg=85,
                     long_side=FAR_SIDE, fill=FAR_FILL)
    result = scan_image(photograph(page, spec, rng, transform=where))
    # (read at the working size only: 80% of cells, 4 silent errors)
    _check((result, sheet, Side.FRONT), min_accuracy=0.95)
    # every cell's box is where that cell is printed, in the photo's own pixels
    inv = np.linalg.inv(where[0])
    for c in result.cells:
        if c.field == "name" or c.game is None:
            continue
        x0, y0, x1, y1 = c.box
        px, py = cv2.perspectiveTransform(
            np.array([[[(x0 + x1) / 2, (y0 + y1) / 2]]], np.float32), inv)[0, 0]
        r = next(i for i, row in enumerate(FRONT.rows)
                 if row.label == c.row and field_key(row) == c.field)
        cx0, cy0, cx1, cy1 = FRONT.cell(r, c.column)
        assert cx0 <= px - PAGE_MARGIN <= cx1 and cy0 <= py - PAGE_MARGIN <= cy1, c


def test_an_iphone_heic_photo_is_read_like_its_jpeg() -> None:
    # HEIC is an iPhone's default; this one carries the JPEG's EXIF orientation (sideways)
    from PIL import Image

    sheet = random_front(np.random.default_rng(26))
    jpeg = photo_of(sheet, seed=10, spec=PhotoSpec(angle=2.0, exif_orientation=6, jpeg=92))
    buf = io.BytesIO()
    with Image.open(io.BytesIO(jpeg)) as im:
        im.save(buf, format="HEIF", quality=90, exif=im.info["exif"])
    heic = buf.getvalue()
    assert heic[4:12] == b"ftypheic"
    result = scan_image(heic)
    assert result.rotation == 0  # upright once the orientation is applied, as for the JPEG
    _check((result, sheet, Side.FRONT))


def test_players_scores_back_sheet() -> None:
    sheet = random_back(np.random.default_rng(23))
    result = scan_image(photo_of(sheet, Side.BACK, seed=7))
    assert result.side is Side.BACK
    assert len(result.sheet.players) == len(sheet.players)
    assert all(p.players_scores is not None and not p.games for p in result.sheet.players)
    _check((result, sheet, Side.BACK), min_accuracy=0.85)


def test_a_players_adding_mistake_is_kept_not_corrected() -> None:
    sheet = random_front(np.random.default_rng(24))
    game = sheet.players[0].games[0]
    assert game is not None
    game.totals[TotalField.GRAND_TOTAL] = (game.totals.get(TotalField.GRAND_TOTAL) or 0) + 10
    result = scan_image(photo_of(sheet, seed=8))
    cell = next(c for c in result.cells if c.field == "grand_total" and c.column == 0)
    assert cell.value == game.totals[TotalField.GRAND_TOTAL] or cell.status != CONFIDENT


def test_a_non_pad_photo_is_refused() -> None:
    s = sample(31, split="eval")
    import io

    from PIL import Image, ImageFilter

    img = Image.open(io.BytesIO(s.jpeg)).convert("RGB").filter(ImageFilter.GaussianBlur(40))
    buf = io.BytesIO()
    img.save(buf, "JPEG")
    with pytest.raises(ScanError) as exc:
        scan_image(buf.getvalue())
    assert exc.value.code in ("not_a_pad", "too_blurred")


SAMPLES = sorted(PHOTOS.glob("*.jpg"))


def test_there_are_sample_photos() -> None:
    assert len(SAMPLES) >= 6


@pytest.mark.parametrize("photo", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_photo_reads_right_or_flags_the_wrong_cells(photo: Path) -> None:
    truth = loads_sheet(photo.with_name(photo.stem + ".truth.json").read_text())
    side = Side(json.loads(photo.with_name(photo.stem + ".meta.json").read_text())["side"])
    result = scan_image(photo.read_bytes())
    assert result.side is side
    s = score(result, truth, side)
    assert s.silent == 0, s.errors


def _cli(*args: str, module: str = "scorepad.cli") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=False)


def _synth(*args: str) -> subprocess.CompletedProcess[str]:
    return _cli(*args, module="padsynth")


def test_cli_render_then_scan(tmp_path: Path) -> None:
    blank = tmp_path / "pad.pdf"
    assert _cli("render", "--side", "back", "-o", str(blank)).returncode == 0
    assert blank.read_bytes().startswith(b"%PDF")
    sheet_file = tmp_path / "sheet.json"
    from scorepad.schemas import dump_sheet

    sheet_file.write_text(json.dumps(dump_sheet(random_front(np.random.default_rng(25)))))
    photo = tmp_path / "photo.jpg"
    r = _synth("photo", str(sheet_file), "-o", str(photo), "--seed", "3")
    assert r.returncode == 0, r.stderr
    r = _cli("scan", str(photo))
    assert r.returncode == 0, r.stderr
    loads_sheet(r.stdout)  # the sheet format, ready for `scorepad verify`
    r = _cli("scan", str(photo), "--report")
    report = json.loads(r.stdout)
    assert {"sheet", "cells", "counts", "rotation", "side"} <= set(report)


def test_cli_bad_input_exits_2_with_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jpg"
    junk.write_text("not a photo")
    for args in (("scan", str(junk)), ("scan", str(tmp_path / "missing.jpg")),
                 ("render", "-o", str(tmp_path / "x.txt"))):
        r = _cli(*args)
        assert r.returncode == 2
        assert len(r.stderr.strip().splitlines()) == 1
    r = _cli("scan", str(junk))
    assert "not_an_image" in r.stderr


def test_synth_samples_of_another_design_scan_by_the_adaptive_path(tmp_path: Path) -> None:
    r = _synth("samples", str(tmp_path), "--count", "1", "--seed", "1100", "--design", "plain")
    assert r.returncode == 0, r.stderr
    photo = next(tmp_path.glob("*-plain-front.jpg"))
    meta = json.loads(photo.with_name(photo.stem + ".meta.json").read_text())
    assert meta["design"] == "plain" and meta["side"] == "front"
    r = _cli("scan", str(photo), "--report")
    assert json.loads(r.stdout)["layout"] == "adaptive"
    r = _synth("samples", str(tmp_path), "--design", "nope")
    assert r.returncode == 2 and "unknown --design" in r.stderr
