"""End to end with the real tesseract: rendered photos in, sheets out, honest statuses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ocr import CONFIDENT, ScanError, scan_image
from ocr.evaluate import score
from ocr.layout import Side
from ocr.render import PhotoSpec, random_back, random_front, sample
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


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorepad.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=False)


def test_cli_render_then_scan(tmp_path: Path) -> None:
    blank = tmp_path / "pad.pdf"
    assert _cli("render", "--side", "back", "-o", str(blank)).returncode == 0
    assert blank.read_bytes().startswith(b"%PDF")
    sheet_file = tmp_path / "sheet.json"
    from scorepad.schemas import dump_sheet

    sheet_file.write_text(json.dumps(dump_sheet(random_front(np.random.default_rng(25)))))
    photo = tmp_path / "photo.jpg"
    r = _cli("render", str(sheet_file), "-o", str(photo), "--seed", "3")
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


def test_cli_render_samples_of_another_design_scan_by_the_adaptive_path(tmp_path: Path) -> None:
    r = _cli("render-samples", str(tmp_path), "--count", "1", "--seed", "1100", "--design", "plain")
    assert r.returncode == 0, r.stderr
    photo = next(tmp_path.glob("*-plain-front.jpg"))
    meta = json.loads(photo.with_name(photo.stem + ".meta.json").read_text())
    assert meta["design"] == "plain" and meta["side"] == "front"
    r = _cli("scan", str(photo), "--report")
    assert json.loads(r.stdout)["layout"] == "adaptive"
    r = _cli("render-samples", str(tmp_path), "--design", "nope")
    assert r.returncode == 2 and "unknown --design" in r.stderr
