"""``scorepad verify`` and ``scorepad tally`` dispatch on the sheet's ``game``: SCRABBLE and
SORRY! sheets, their rule sets by --rules, exit codes, and Yahtzee sheets as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from scorepad.cli import ExitCode, main

PADS = Path(__file__).resolve().parents[2] / "sample_pads"
VERIFY_SCHEMA = Path(__file__).resolve().parents[2] / "scorepad" / "jsonschema" / "verify.schema.json"


def verify_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    code = main(["verify", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_verify_dispatches_on_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify_json(capsys, str(PADS / "scrabble" / "finished_game.json"),
                            str(PADS / "sorry" / "total_wrong.json"),
                            str(PADS / "hasbro_clean_single.json"))
    assert code == ExitCode.FINDINGS
    assert [e.get("game") for e in out] == ["scrabble", "sorry", None]
    assert [e["verdict"] for e in out] == ["correct", "errors", "correct"]
    assert [e["rule_set"]["name"] for e in out] == ["scrabble", "sorry", "hasbro"]
    assert {f["code"] for f in out[1]["findings"]} == {"SORRY_TOTAL_WRONG",
                                                      "SORRY_SLIP_CHANGES_LEADER"}


def test_yahtzee_output_is_unchanged(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    # a Yahtzee sheet that says "game": "yahtzee" gets the same report as without it
    sheet = PADS / "hasbro_clean_single.json"
    _, plain = verify_json(capsys, str(sheet))
    data = json.loads(sheet.read_text())
    named = tmp_path / "named.json"
    named.write_text(json.dumps({"game": "yahtzee", **data}))
    _, same = verify_json(capsys, str(named))
    assert {k: v for k, v in same[0].items() if k != "source"} == {
        k: v for k, v in plain[0].items() if k != "source"}
    jsonschema.validate(plain, json.loads(VERIFY_SCHEMA.read_text()))


def test_rules_option_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    shutout = str(PADS / "sorry" / "shutout.json")
    assert verify_json(capsys, shutout)[0] == ExitCode.OK
    code, out = verify_json(capsys, "--rules", "sorry-best", shutout)
    assert code == ExitCode.FINDINGS and out[0]["rule_set"]["name"] == "sorry-best"
    code, out = verify_json(capsys, "--rules", '{"base": "scrabble", "out_bonus": false}',
                            str(PADS / "scrabble" / "finished_game.json"))
    assert code == ExitCode.FINDINGS
    assert [f["code"] for f in out[0]["findings"]] == ["SCRABBLE_ADJUSTMENT_WRONG"]
    # a rule set of another game: bad input for that sheet
    assert main(["verify", "--rules", "classic", shutout]) == ExitCode.BAD_INPUT
    assert "not a sorry rule set" in capsys.readouterr().err
    assert main(["verify", "--rules", "monopoly", shutout]) == ExitCode.BAD_INPUT


def test_bad_sheets_are_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "scrabble", "games": [{"players": [
        {"name": "A", "turns": [{"score": 2, "tiles": [{"square": "Z9", "letter": "A"}]}]}]}]}))
    code, out = verify_json(capsys, str(bad))
    assert code == ExitCode.BAD_INPUT
    assert out[0]["error"]["code"] == "not_a_sheet"
    assert out[0]["error"]["errors"][0]["path"] == "$.games[0].players[0].turns[0].tiles[0].square"
    bad.write_text(json.dumps({"game": "clue", "players": []}))
    code, out = verify_json(capsys, str(bad))
    assert code == ExitCode.BAD_INPUT and out[0]["error"]["errors"][0]["path"] == "$.game"


def test_text_output_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(PADS / "scrabble" / "later_play_rules.json")]) == 1
    out = capsys.readouterr().out
    assert "SCRABBLE_SQUARE_TAKEN" in out and "[000:291" in out
    assert main(["verify", "--summary", str(PADS / "sorry")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(list((PADS / "sorry").glob("*.expect.json")))


def test_tally(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tally", "--format", "json", str(PADS / "sorry" / "evening.json")]) == 0
    t = json.loads(capsys.readouterr().out)
    assert t["verdict"] == "correct" and t["game"] == "sorry"
    assert [(r["player"], r["total"]) for r in t["players"]] == [("Cy", 135), ("Ann", 85),
                                                                 ("Ben", 60)]
    assert main(["tally", "--format", "json", str(PADS / "scrabble" / "finished_game.json")]) == 0
    t = json.loads(capsys.readouterr().out)
    assert t["winners"] == [["Ann"]] and t["best_turn"]["score"] == 25
    assert main(["tally", str(PADS / "scrabble" / "final_wrong.json")]) == ExitCode.FINDINGS
    assert "error" in capsys.readouterr().err


def test_every_yahtzee_sample_verifies_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    # the dispatching verify reports each Yahtzee sheet exactly as the audit of inputs.load
    from scorepad.audit import audit_sheet
    from scorepad.inputs import load

    sheets = sorted(str(p) for p in PADS.glob("*.json") if not p.name.endswith(".expect.json"))
    _, out = verify_json(capsys, *sheets)
    assert len(out) == len(sheets)
    for sheet, entry in zip(sheets, out, strict=True):
        want = {"source": sheet, **audit_sheet(load(sheet)).to_dict()}
        assert json.dumps(entry, indent=2) == json.dumps(want, indent=2)
