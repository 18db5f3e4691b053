"""The solver's sub-commands: solve, analyse, advise, simulate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.cli import main
from scorepad.solver import get_table

PADS = Path(__file__).resolve().parents[2] / "sample_pads"
CLEAN_LOGS = ["turn_log_clean_hasbro", "turn_log_clean_classic", "turn_log_clean_travel"]


def test_solve_prints_the_expected_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--rules", "hasbro"]) == 0
    out = capsys.readouterr().out
    assert f"{get_table('hasbro').expected_score:.4f}" in out
    assert main(["solve", "--rules", "hasbro", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rule_set"] == "hasbro" and Path(doc["cache"]).is_file()


@pytest.mark.parametrize("name", CLEAN_LOGS)
def test_analyse_sample_pads(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(PADS / f"{name}.json"), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"]
    for game in doc["games"]:
        assert game["decisions"] and game["total_loss"] >= 0
        assert all(d["loss"] >= 0 for d in game["decisions"])


def test_analyse_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(PADS / "turn_log_clean_hasbro.json")]) == 0
    assert "total loss" in capsys.readouterr().out


@pytest.mark.parametrize("content", ["{not json", '{"players": 3}', '{"players": [{"name": "A"}]}'])
def test_analyse_bad_input_exits_2(content: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(content)
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_analyse_illegal_log_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(PADS / "turn_log_kept_dice_not_in_roll.json")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_analyse_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(tmp_path / "none.json")]) == 2


def test_advise(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"aces": 3, "yahtzee": 50}))
    assert main(["advise", "--rules", "hasbro", "--card", str(card), "--dice", "12346",
                 "--roll", "2", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "keep" and doc["runner_up"]["worse_by"] >= 0
    assert main(["advise", "--dice", "66666", "--roll", "3"]) == 0
    assert "yahtzee" in capsys.readouterr().out
    assert main(["advise", "--dice", "6666", "--roll", "3"]) == 2
    assert main(["advise", "--card", '{"aces": 7}', "--dice", "12345", "--roll", "3"]) == 2
    with pytest.raises(SystemExit):
        main(["advise", "--dice", "12345", "--roll", "4"])


def test_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--rules", "hasbro", "--games", "200", "--seed", "1", "--format", "json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["games"] == 200 and first["sd"] > 0
    assert main(["simulate", "--games", "0"]) == 2
