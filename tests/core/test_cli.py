"""The scorepad command line: exit codes, JSON output, clear errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorepad.cli import main

PADS = Path(__file__).resolve().parents[2] / "sample_pads"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorepad.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_verify_clean_sheet_exit_0() -> None:
    r = run("verify", str(PADS / "hasbro_two_players_six_games.json"))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr


def test_verify_errors_exit_1_json() -> None:
    r = run("verify", "--format", "json", str(PADS / "upper_bonus_missing.json"))
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    assert doc["ok"] is False
    assert doc["rule_set"]["name"] == "hasbro"
    assert "UPPER_BONUS_WRONG" in {f["code"] for f in doc["findings"]}


def test_verify_rules_override_changes_verdict() -> None:
    pad = str(PADS / "zero_in_chance.json")
    assert run("verify", pad).returncode == 0
    r = run("verify", "--rules", "classic", "--format", "json", pad)
    assert r.returncode == 1
    assert json.loads(r.stdout)["rule_set"]["name"] == "classic"


def test_verify_custom_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "house.json"
    rules.write_text(json.dumps({"name": "house", "base": "hasbro", "yahtzee_bonus": 0}))
    r = run("verify", "--rules", str(rules), "--format", "json", str(PADS / "perfect_1575.json"))
    assert r.returncode == 1
    assert json.loads(r.stdout)["findings"][0]["code"] == "BONUS_CHECKS_NOT_IN_RULES"


@pytest.mark.parametrize(
    ("content", "needle"),
    [("{not json", "not valid JSON"), ('{"players": [{"name": 5}]}', "$.players[0].name"),
     ("[]", "$")],
)
def test_verify_bad_input_exit_2(tmp_path: Path, content: str, needle: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(content)
    r = run("verify", str(f))
    assert r.returncode == 2
    assert needle in r.stderr
    assert "Traceback" not in r.stderr


def test_verify_missing_file_and_unknown_rules() -> None:
    r = run("verify", "/no/such/sheet.json")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    r = run("verify", "--rules", "monopoly", str(PADS / "perfect_1575.json"))
    assert r.returncode == 2 and "unknown rule set" in r.stderr


def test_verify_stdin() -> None:
    r = run("verify", "-", stdin=(PADS / "hasbro_clean_single.json").read_text())
    assert r.returncode == 0


def test_options_five_sixes_large_straight(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"boxes": {"yahtzee": 50, "sixes": 18}}))
    r = run("options", "--rules", "hasbro", "--card", str(card), "--dice", "66666",
            "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    ls = next(o for o in doc["options"] if o["box"] == "large_straight")
    assert ls["allowed"] and ls["values"][0] == 40 and ls["reason"] == "JOKER"
    assert doc["yahtzee_bonus"] is True
    r = run("options", "--rules", "classic", "--card", str(card), "--dice", "66666",
            "--format", "json")
    ls = next(o for o in json.loads(r.stdout)["options"] if o["box"] == "large_straight")
    assert not ls["allowed"] and ls["reason"] == "FORBIDDEN_PRIORITY"


def test_options_bad_dice() -> None:
    r = run("options", "--dice", "6666")
    assert r.returncode == 2 and "--dice" in r.stderr


def test_tally_and_rules_commands() -> None:
    r = run("tally", "--format", "json", str(PADS / "four_players_tie.json"))
    assert r.returncode == 0
    doc = json.loads(r.stdout)
    assert doc["games"][0]["tie"] is True
    assert sorted(doc["winners"]) == ["Ria", "Sam"]
    r = run("rules", "--format", "json")
    names = {rs["name"] for rs in json.loads(r.stdout)["rule_sets"]}
    assert names == {"hasbro", "classic", "travel"}


def test_main_in_process_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(PADS / "perfect_1575.json")]) == 0
    out = capsys.readouterr().out
    assert "1575" in out and "hasbro" in out
    assert main(["tally", str(PADS / "hasbro_two_players_six_games.json")]) == 0
    assert "TOTAL OF ALL GAMES" in capsys.readouterr().out


# ---- scanned sheets: doubts --------------------------------------------------------------------

SCANNED = str(PADS / "scanned_misread_total.json")


def test_verify_doubts_exit_3_json() -> None:
    r = run("verify", "--format", "json", SCANNED)
    assert r.returncode == 3, r.stderr
    doc = json.loads(r.stdout)
    assert doc["ok"] is True and doc["verdict"] == "unsure"
    assert doc["counts"]["doubt"] == 1 and doc["counts"]["error"] == 0
    (f,) = [f for f in doc["findings"] if f["severity"] == "doubt"]
    assert f["code"] == "TOTAL_ARITHMETIC" and f["field"] == "grand_total"
    cell = f["details"]["doubt"]["cells"][0]
    assert cell["field"] == "grand_total" and cell["box"] == [812, 1400, 905, 1452]
    assert cell["read"] == 354 and cell["status"] == "needs_review" and cell["photo"] == 0
    assert f["details"]["doubt"]["would_be_right_if"][0] == {
        "field": "grand_total", "game": 1, "value": 355}


def test_verify_doubts_text_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", SCANNED]) == 3
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split()[0] for ln in lines if "TOTAL_ARITHMETIC" in ln] == ["DOUBT"]
    assert main(["verify", "--summary", SCANNED]) == 3
    assert "TOTAL_ARITHMETIC" in capsys.readouterr().out


def test_verify_exit_code_of_several_sheets(tmp_path: Path) -> None:
    """The worst sheet decides: bad input 2, then errors 1, then doubts 3, then 0."""
    errors = str(PADS / "upper_bonus_missing.json")
    clean = str(PADS / "perfect_1575.json")
    assert main(["verify", "--summary", clean, SCANNED]) == 3
    assert main(["verify", "--summary", SCANNED, errors, clean]) == 1
    assert main(["verify", "--summary", SCANNED, str(tmp_path / "missing.json")]) == 2


def test_verify_help_lists_exit_code_3(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--help"])
    assert exc.value.code == 0
    codes = [ln.split()[0] for ln in capsys.readouterr().out.splitlines()
             if ln[:3].strip().isdigit()]
    assert codes == ["0", "1", "2", "3"]
