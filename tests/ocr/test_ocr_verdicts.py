"""Photo -> verdict: a scanned sheet carries how each cell was read, and verify never
accuses a player of what a plausible misreading explains."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ocr import scan_image
from ocr.layout import Side
from ocr.result import BLANK
from padsynth import evaluate
from scorepad.audit import audit_sheet
from scorepad.card import Sheet
from scorepad.readings import ReadStatus
from scorepad.schemas import dump_sheet, loads_sheet

from .conftest import needs_tesseract

pytestmark = [needs_tesseract, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_pads" / "photos").glob("*.jpg"))


def _truth(photo: Path) -> tuple[Sheet, Side]:
    truth = loads_sheet(photo.with_name(photo.stem + ".truth.json").read_text())
    side = Side(json.loads(photo.with_name(photo.stem + ".meta.json").read_text())["side"])
    return evaluate.on_photo(truth, side), side


@pytest.mark.parametrize("photo", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_a_scanned_sample_is_never_falsely_accused(photo: Path) -> None:
    truth, side = _truth(photo)
    result = scan_image(photo.read_bytes(), rules="hasbro")
    scanned = evaluate.verdicts(result.sheet, truth, "hasbro")
    assert scanned.false_accusations == 0, scanned.accused
    # after a person checks every unsure cell, the verdict is the true sheet's
    after = evaluate.verdicts(evaluate.reviewed(result.sheet, truth), truth, "hasbro")
    assert after.false_accusations == 0, after.accused
    assert after.missed == 0


def test_every_cell_with_ink_carries_its_reading_into_the_sheet() -> None:
    photo = next(p for p in SAMPLES if p.stem.endswith("front"))
    result = scan_image(photo.read_bytes())
    games = result.sheet.players[0].games
    for cell in result.cells:
        if cell.field == "name" or cell.kind == BLANK:
            continue
        game = games[cell.column]
        assert game is not None
        reading = game.readings[cell.field]
        assert reading.status is ReadStatus(cell.status)
        assert reading.box == cell.box
        assert cell.value not in reading.candidates
    # the sheet format keeps them: scan > sheet.json; verify sheet.json
    again = loads_sheet(json.dumps(dump_sheet(result.sheet)))
    assert [g.readings if g else None for g in again.players[0].games] == \
        [g.readings if g else None for g in games]


def test_a_back_photo_carries_readings_per_player_column() -> None:
    photo = next(p for p in SAMPLES if p.stem.endswith("-back") and "framed" not in p.stem)
    result = scan_image(photo.read_bytes())
    read = {(c.column, c.field, c.game) for c in result.cells if c.kind != BLANK
            and c.field in ("score", "total")}
    keys = set()
    for p, player in enumerate(result.sheet.players):
        assert player.players_scores is not None
        keys |= {(p, k) for k in player.players_scores.readings}
    assert len(keys) == len(read)


def test_scan_then_verify_on_the_command_line_reports_doubts_not_errors(tmp_path: Path) -> None:
    # pad-01000: the player's own slip in game 2's GRAND TOTAL is really on the pad
    photo = SAMPLES[0]
    truth, _ = _truth(photo)
    sheet = tmp_path / "sheet.json"
    r = subprocess.run([sys.executable, "-m", "scorepad.cli", "scan", str(photo), "-o", str(sheet)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([sys.executable, "-m", "scorepad.cli", "verify", str(sheet), "--format",
                        "json"], capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    report = json.loads(r.stdout)
    report = report[0] if isinstance(report, list) else report
    true_errors = {(f.game, f.code.value, f.field) for f in audit_sheet(truth, "hasbro").findings
                   if f.severity.value == "error"}
    for f in report["findings"]:
        if f["severity"] == "error":
            assert (f["game"], f["code"], f["field"]) in true_errors, f
    expected_exit = {"correct": 0, "errors": 1, "unsure": 3}[report["verdict"]]
    assert r.returncode == expected_exit
