"""The pad's four corners marked by hand, when the reader cannot find the pad (or finds it
wrong): the reader goes on from them (real tesseract, real photos of the pad)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from ocr import CORNERS_PATTERN, ScanError, parse_corners, scan_image
from ocr.corners import check_corners
from ocr.layout import Side
from padsynth import variants as vr
from padsynth.evaluate import score
from padsynth.render import PhotoSpec

from .conftest import needs_tesseract
from .thumbs import held_pad

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ units (no tesseract)


@pytest.mark.parametrize(("text", "want"), [
    ("10,20 400,22 410,600 5,590", [(10, 20), (400, 22), (410, 600), (5, 590)]),
    ("10,20,400,22,410,600,5,590", [(10, 20), (400, 22), (410, 600), (5, 590)]),
    (" 10.5, 20  -3,22 410 ,600 5,590.25 ", [(10.5, 20), (-3, 22), (410, 600), (5, 590.25)]),
])
def test_corners_are_read_from_text(text: str, want: list[tuple[float, float]]) -> None:
    assert parse_corners(text) == want


@pytest.mark.parametrize("text", ["", "10,20 400,22 410,600", "10,20 400,22 410,600 5,590 1,1",
                                  "a,b c,d e,f g,h", "1e3,2 3,4 5,6 7,8", "nan,1 2,3 4,5 6,7",
                                  "10;20 400;22 410;600 5;590"])
def test_corners_in_bad_syntax_are_bad_corners(text: str) -> None:
    import re

    with pytest.raises(ScanError) as exc:
        parse_corners(text)
    assert exc.value.code == "bad_corners"
    assert re.match(CORNERS_PATTERN, text) is None  # what the API documents, too


def test_corners_in_any_order_are_ordered_as_seen() -> None:
    quad = [(100, 80), (900, 120), (880, 1000), (60, 950)]  # TL, TR, BR, BL
    for order in ([0, 1, 2, 3], [2, 0, 3, 1], [3, 2, 1, 0], [1, 3, 0, 2]):
        got = check_corners([quad[i] for i in order], (1000, 1100))
        assert got.tolist() == [list(map(float, p)) for p in quad]


@pytest.mark.parametrize("corners", [
    [(100, 80), (900, 120), (880, 1000)],  # three
    [(100, 80, 1), (900, 120, 1), (880, 1000, 1), (60, 950, 1)],  # not (x, y)
    "100,80 900,120 880,1000 60,950",  # text: parse it first
    [(100, 80), (900, 120), (880, 1000), (60, float("nan"))],
    [(100, 80), (1400, 120), (880, 1000), (60, 950)],  # far outside the photo
    [(100, 80), (900, 120), (880, 1000), (500, 500)],  # one inside the others
    [(100, 100), (500, 100), (900, 100), (60, 950)],  # three on a line
    [(100, 100), (100, 100), (880, 1000), (60, 950)],  # twice the same
    [(100, 100), (180, 100), (180, 180), (100, 180)],  # 0.6% of the photo
])
def test_bad_corners_are_refused_with_their_own_code(corners: object) -> None:
    with pytest.raises(ScanError) as exc:
        check_corners(corners, (1000, 1100))
    assert exc.value.code == "bad_corners" and exc.value.message


def test_corners_a_little_outside_the_photo_are_taken() -> None:
    check_corners([(-20, -10), (1015, 0), (1000, 1120), (0, 1100)], (1000, 1100))


# ------------------------------------------------------------------ end to end



def _values(result: object) -> list[tuple[str, int, object]]:
    return [(c.field, c.column, c.value) for c in result.cells  # type: ignore[attr-defined]
            if c.field != "name"]


@needs_tesseract
@pytest.mark.slow
def test_a_pad_not_found_is_read_from_its_marked_corners() -> None:
    held = held_pad()
    with pytest.raises(ScanError) as exc:  # thumbs over two corners, a checked tablecloth
        scan_image(held.jpeg)
    assert exc.value.code == "not_a_pad"
    result = scan_image(held.jpeg, corners=held.corners)
    assert result.layout == "template" and result.side is Side.FRONT and result.rotation == 0
    assert result.corners_given is True
    s = score(result, held.sheet, Side.FRONT)
    assert s.cells >= 70
    assert s.correct / s.cells >= 0.97, s.errors
    assert s.silent == 0, s.errors
    d = result.to_dict()
    assert d["corners_given"] is True and d["corners"] == result.corners
    for (x, y), (tx, ty) in zip(result.corners or [], held.corners, strict=True):
        assert abs(x - tx) <= 3 and abs(y - ty) <= 3  # the card's frame, in photo pixels
    # cell boxes stay in the photo's own pixels: Aces of game 1 lies inside the card
    aces = next(c for c in result.cells if c.field == "aces" and c.column == 0)
    inside = cv2.pointPolygonTest(np.array(held.corners, np.float32),
                                  ((aces.box[0] + aces.box[2]) / 2, (aces.box[1] + aces.box[3]) / 2),
                                  False)
    assert inside > 0
    # the corners it returns, fed back, read the same
    again = scan_image(held.jpeg, corners=result.corners)
    assert _values(again) == _values(result)


@needs_tesseract
@pytest.mark.slow
def test_corners_in_another_order_or_a_finger_off_read_the_same() -> None:
    held = held_pad()
    want = _values(scan_image(held.jpeg, corners=held.corners))
    shuffled = [held.corners[i] for i in (2, 0, 3, 1)]
    assert _values(scan_image(held.jpeg, corners=shuffled)) == want
    # each corner up to 3% of the card off, as a finger on a phone marks it: the edges
    # move onto the printed frame
    rng = np.random.default_rng(7)
    side = float(np.linalg.norm(np.subtract(held.corners[2], held.corners[1])))
    sloppy = [(x + rng.uniform(-0.03, 0.03) * side, y + rng.uniform(-0.03, 0.03) * side)
              for x, y in held.corners]
    result = scan_image(held.jpeg, corners=sloppy)
    assert _values(result) == want
    for (x, y), (tx, ty) in zip(result.corners or [], held.corners, strict=True):
        assert abs(x - tx) <= 3 and abs(y - ty) <= 3


@needs_tesseract
@pytest.mark.slow
def test_a_found_pad_reports_the_corners_it_used() -> None:
    clear = held_pad(thumbs=False)  # the same photo, no thumbs: found by the search
    result = scan_image(clear.jpeg)
    assert result.corners_given is False and result.corners is not None
    for (x, y), (tx, ty) in zip(result.corners, clear.corners, strict=True):
        assert abs(x - tx) <= 4 and abs(y - ty) <= 4


@needs_tesseract
@pytest.mark.slow
def test_another_design_is_read_from_its_marked_corners() -> None:
    # a pad of another design lying sideways: its lines and labels inside the marked corners
    s = vr.variant_sample(6, "plain", mnist_share=0.0,
                          spec=PhotoSpec(angle=92.0, perspective=0.02, light=0.2, blur=0.6,
                                         noise=3.0, jpeg=85))
    (w, h), m = s.variant.size, vr.PAGE_MARGIN
    corners = cv2.perspectiveTransform(
        np.array([[[m, m]], [[m + w, m]], [[m + w, m + h]], [[m, m + h]]], np.float32),
        s.transform).reshape(4, 2).tolist()
    result = scan_image(s.jpeg, corners=corners)
    assert result.layout == "adaptive" and result.corners_given is True
    assert result.rotation == 270 and result.side is Side.FRONT
    sc = score(result, s.sheet, Side.FRONT)
    assert sc.cells >= 8 and sc.correct / sc.cells >= 0.9 and sc.silent == 0, sc.errors


@needs_tesseract
@pytest.mark.slow
def test_corners_around_no_pad_are_not_a_pad() -> None:
    held = held_pad()
    w, h = held.size
    with pytest.raises(ScanError) as exc:  # the tablecloth below the card
        scan_image(held.jpeg, corners=[(0, 0.8 * h), (w, 0.8 * h), (w, h), (0, h)])
    assert exc.value.code == "not_a_pad"
    with pytest.raises(ScanError) as exc:
        scan_image(held.jpeg, corners=[(0, 0), (w, 0), (w / 2, h / 2), (0, h)][::-1] + [(1, 1)])
    assert exc.value.code == "bad_corners"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorepad.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=False)


@needs_tesseract
@pytest.mark.slow
def test_cli_scan_with_corners(tmp_path: Path) -> None:
    held = held_pad()
    photo = tmp_path / "held.jpg"
    photo.write_bytes(held.jpeg)
    r = _cli("scan", str(photo))
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "not_a_pad" in r.stderr and "--corners" in r.stderr  # the way on
    text = " ".join(f"{round(x)},{round(y)}" for x, y in held.corners)
    r = _cli("scan", str(photo), "--corners", text, "--report")
    assert r.returncode == 0, r.stderr
    import json

    report = json.loads(r.stdout)
    assert report["corners_given"] is True and len(report["corners"]) == 4


@pytest.mark.parametrize("args", [
    ("--corners", "1,2 3,4"),  # syntax
    ("--corners", "0,0 10,0 10,10 0,10"),  # too small a part of the photo
    ("SECOND", "--corners", "1,2 3,4 5,6 7,8"),  # two photos
])
def test_cli_bad_corners_exit_2_with_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    photo = tmp_path / "held.jpg"
    photo.write_bytes(held_pad().jpeg)
    r = _cli("scan", str(photo), *[str(photo) if a == "SECOND" else a for a in args])
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "--corners" in r.stderr
    assert r.stdout == ""
