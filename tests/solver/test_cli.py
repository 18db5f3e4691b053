"""The solver's sub-commands: solve, analyse, advise, simulate."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from scorepad.cli import main
from scorepad.rules import RuleSet
from scorepad.solver import OptimalTable, get_table, table

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
    log = str(PADS / "turn_log_clean_hasbro.json")
    assert main(["analyse", log, "--format", "json"]) == 0
    (game,) = json.loads(capsys.readouterr().out)["games"]
    assert main(["analyse", log]) == 0
    out = capsys.readouterr().out
    # the text shows the same figures: the game's loss and score, one line per decision
    assert f"{game['total_loss']:.2f}" in out and str(game["score"]) in out
    assert len(out.splitlines()) >= game["decision_count"]


@pytest.mark.parametrize("content", ["{not json", '{"players": 3}', '{"players": [{"name": "A"}]}'])
def test_analyse_bad_input_exits_2(content: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(content)
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scorepad: ") and "Traceback" not in err


@pytest.mark.parametrize("name", ["turn_log_kept_dice_not_in_roll", "turn_log_value_wrong"])
def test_analyse_illegal_log_exits_1_as_verify(name: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A turn log that breaks the rules is an error of the sheet: 1, as in verify."""
    pad = str(PADS / f"{name}.json")
    assert main(["verify", pad]) == 1
    capsys.readouterr()
    assert main(["analyse", pad]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1


def test_analyse_uses_the_sheets_rules(capsys: pytest.CaptureFixture[str]) -> None:
    pad = str(PADS / "turn_log_clean_classic.json")
    assert main(["analyse", pad, "--format", "json"]) == 0
    assert {g["rule_set"] for g in json.loads(capsys.readouterr().out)["games"]} == {"classic"}
    assert main(["analyse", pad, "--rules", "hasbro", "--format", "json"]) in (0, 1)
    out = capsys.readouterr().out
    if out:
        assert {g["rule_set"] for g in json.loads(out)["games"]} == {"hasbro"}


def test_analyse_prints_every_decision_or_the_losses(capsys: pytest.CaptureFixture[str]) -> None:
    pad = str(PADS / "turn_log_clean_hasbro.json")
    assert main(["analyse", pad, "--format", "json"]) == 0
    (game,) = json.loads(capsys.readouterr().out)["games"]
    assert main(["analyse", pad]) == 0
    every = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  turn ")]
    assert main(["analyse", pad, "--losses"]) == 0
    lossy = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  turn ")]
    assert len(every) == game["decision_count"]
    assert len(lossy) == sum(1 for d in game["decisions"] if d["loss"] >= 0.005)
    assert set(lossy) < set(every)


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
    assert main(["advise", "--card", '{"aces": 7}', "--dice", "12345", "--roll", "3"]) == 1
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


def test_advise_card_forms_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = {"boxes": {"aces": 5, "yahtzee": 50}, "yahtzee_bonus_checks": 1}
    f = tmp_path / "card.json"
    f.write_text(json.dumps(game))
    s = tmp_path / "sheet.json"
    s.write_text(json.dumps({"players": [{"name": "A", "games": []}, {"name": "B",
                                                                      "games": [game]}]}))
    answers = []
    for card in ([json.dumps(game)], [str(f)], [str(s), "--player", "2"],
                 [json.dumps({"aces": 5, "yahtzee": 50, "yahtzee_bonus_checks": 1})]):
        assert main(["advise", "--dice", "66666", "--roll", "3", "--format", "json",
                     "--card", *card]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert all(a == answers[0] for a in answers)


@pytest.mark.parametrize("card", [{"yahtzee": 0, "yahtzee_bonus_checks": 3},
                                  {"boxes": {"fives": 7}}, {"boxes": {"chance": 4}}])
def test_advise_refuses_an_impossible_card(card: dict[str, object],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--card", json.dumps(card), "--dice", "12345", "--roll", "1"]) == 1
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("args", [["--player", "0"], ["--game", "0"], ["--game", "7"]])
def test_advise_player_and_game_start_at_1(args: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["advise", "--card", str(PADS / "turn_log_clean_hasbro.json"), "--dice", "12345",
              "--roll", "1", *args])
    assert exc.value.code == 2


def test_solve_rebuilds_a_truncated_cache_file(capsys: pytest.CaptureFixture[str]) -> None:
    rules = {"name": "truncated", "base": "hasbro", "upper_bonus": 30}
    args = ["solve", "--rules", json.dumps(rules), "--format", "json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    path = Path(first["cache"])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    table._MEMO.clear()
    assert main(args) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["expected_score"] == first["expected_score"]
    assert "Traceback" not in captured.err
    assert path.read_bytes() != data[: len(data) // 2]  # rewritten whole


@pytest.mark.parametrize("tty", [True, False])
def test_a_build_shows_progress_on_stderr(tty: bool, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from scorepad.solver import cli as solver_cli

    real = get_table
    seen: list[tuple[int, int]] = []

    def counting(rules: RuleSet, **kw: Any) -> OptimalTable:
        progress = kw.pop("progress")
        table = real(rules, **kw)  # from memory: report a build's 13 levels as a build would
        for level in range(1, 14):
            progress(level, 13)
            seen.append((level, 13))
        return table

    monkeypatch.setattr(solver_cli, "table_available", lambda rules: False)
    monkeypatch.setattr(solver_cli, "get_table", counting)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: tty)
    assert main(["solve", "--rules", "hasbro"]) == 0
    err = capsys.readouterr().err
    assert len(seen) == 13
    assert err.startswith("scorepad: ")
    assert ("\r" in err) is tty  # a bar redrawn in place only on a terminal
    assert len(err.replace("\r", "\n").strip().splitlines()) >= 2
