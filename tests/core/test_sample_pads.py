"""Every sheet in sample_pads/ gets exactly the verdict its .expect.json names."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from scorepad import audit_sheet, loads_sheet

PADS = Path(__file__).resolve().parents[2] / "sample_pads"
CASES = []
# Sheets (NAME.json) and, for the photos, the true sheet behind each photo (NAME.truth.json).
for expect_file in sorted([*PADS.glob("*.expect.json"), *PADS.glob("photos/*.expect.json")]):
    expect = json.loads(expect_file.read_text())
    sheet_file = expect_file.with_name(expect.get("sheet") or expect_file.name.replace(
        ".expect.json", ".json"))
    for rules, want in (expect.get("by_rules") or {None: expect}).items():
        CASES.append(pytest.param(sheet_file, rules, want, id=f"{sheet_file.stem}[{rules or 'sheet'}]"))


def test_there_are_enough_sample_pads() -> None:
    assert len({c.values[0] for c in CASES}) >= 25


@pytest.mark.parametrize(("sheet_file", "rules", "want"), CASES)
def test_sample_pad_verdict(sheet_file: Path, rules: str | None, want: dict) -> None:
    report = audit_sheet(loads_sheet(sheet_file.read_text()), rules)
    # "CODE@field", or "DOUBT:CODE@field" for an error that a misread explains (scanned sheets)
    got = Counter(f"{'DOUBT:' if f.severity.value == 'doubt' else ''}{f.code.value}@{f.field}"
                  for f in report.findings)
    assert got == Counter(want["codes"]), [f.message for f in report.findings]
    assert report.ok is want["ok"]
    assert report.verdict == want.get("verdict", "correct" if want["ok"] else "errors")
    if "grand_total" in want:
        assert report.games[0].totals.grand_total == want["grand_total"]
    if "winners" in want:
        assert report.tally is not None
        assert report.tally.to_dict()["winners"] == want["winners"]
    if report.ok:
        for g in report.games:
            # a card with bonus checks that passes carries a witness order of turns
            checks = sum(1 for t in (g.witness or []) if t["bonus"])
            assert g.witness is None or checks > 0
