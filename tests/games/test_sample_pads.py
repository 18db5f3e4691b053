"""Every SCRABBLE and SORRY! sheet in sample_pads/scrabble and sample_pads/sorry gets exactly
the verdict its .expect.json names ("CODE@gN.field": the finding's game and JSON path)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scorepad.games.dispatch import check_other, game_of, load_other, resolve_rules

PADS = Path(__file__).resolve().parents[2] / "sample_pads"
CASES = []
for expect_file in sorted([*PADS.glob("scrabble/*.expect.json"), *PADS.glob("sorry/*.expect.json")]):
    expect = json.loads(expect_file.read_text())
    sheet_file = expect_file.with_name(expect_file.name.replace(".expect.json", ".json"))
    for rules, want in (expect.get("by_rules") or {"sheet": expect}).items():
        CASES.append(pytest.param(sheet_file, rules, want, id=f"{sheet_file.parent.name}/"
                                  f"{sheet_file.stem}[{rules}]"))


def test_every_game_and_rule_has_sample_pads() -> None:
    sheets: set[Path] = {c.values[0] for c in CASES}  # type: ignore[misc]
    assert len([s for s in sheets if s.parent.name == "scrabble"]) >= 12
    assert len([s for s in sheets if s.parent.name == "sorry"]) >= 5
    assert PADS / "scrabble" / "book_example.json" in sheets


def _rules(game: str, rules: str) -> Any:
    if rules == "sheet":
        return None
    return resolve_rules(game, json.loads(rules) if rules.startswith("{") else rules)


@pytest.mark.parametrize(("sheet_file", "rules", "want"), CASES)
def test_sample_pad_verdict(sheet_file: Path, rules: str, want: dict[str, Any]) -> None:
    data = json.loads(sheet_file.read_text())
    game = game_of(data)
    assert game == sheet_file.parent.name
    report = check_other(load_other(game, data), _rules(game, rules))
    got = Counter(f"{f.code.value}@{'' if f.game is None else f'g{f.game}.'}{f.field or ''}"
                  for f in report.findings)
    assert got == Counter(want["codes"]), [f.message for f in report.findings]
    assert report.ok is want["ok"]
    assert report.verdict == ("correct" if want["ok"] else "errors")
    assert report.tally is not None
    assert report.tally["winners"] == want["winners"]
    for f in report.findings:  # every finding names its rule set and the book's lines
        assert f.rule_set == report.rule_set.name
        assert f.rules and all(r.startswith("000:") for r in f.rules)
        assert f.message
