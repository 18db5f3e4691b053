"""The scorepad command line: exit codes, JSON output, clear errors without tracebacks."""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from scorepad import audit_sheet, load_sheet
from scorepad import cli as cli_module
from scorepad import commands as commands_module
from scorepad.cli import COMMANDS, ExitCode, build_parser, main
from scorepad.findings import Code
from scorepad.rules import RuleSetError

ROOT = Path(__file__).resolve().parents[2]
PADS = ROOT / "sample_pads"
VERIFY_SCHEMA = json.loads((ROOT / "scorepad/jsonschema/verify.schema.json").read_text())
HEAVY = ("numba", "flask", "sqlalchemy", "cv2", "PIL")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorepad.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def verify_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[Any]]:
    """Run ``verify --format json`` in-process; the document, validated against the schema."""
    code = main(["verify", "--format", "json", *args])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, VERIFY_SCHEMA)
    return code, doc


def exit_code(argv: list[str]) -> int:
    """main's exit code, also when argparse exits (usage errors, --help)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def test_verify_clean_sheet_exit_0() -> None:
    r = run("verify", str(PADS / "hasbro_two_players_six_games.json"))
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""


def test_verify_errors_exit_1_json() -> None:
    r = run("verify", "--format", "json", str(PADS / "upper_bonus_missing.json"))
    assert r.returncode == 1
    (doc,) = json.loads(r.stdout)
    assert doc["ok"] is False
    assert doc["rule_set"]["name"] == "hasbro"
    assert "UPPER_BONUS_WRONG" in {f["code"] for f in doc["findings"]}


def test_verify_rules_override_changes_verdict() -> None:
    pad = str(PADS / "zero_in_chance.json")
    assert run("verify", pad).returncode == 0
    r = run("verify", "--rules", "classic", "--format", "json", pad)
    assert r.returncode == 1
    assert json.loads(r.stdout)[0]["rule_set"]["name"] == "classic"


def test_verify_custom_rules_file_and_inline(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    house = {"name": "house", "base": "hasbro", "yahtzee_bonus": 0}
    rules = tmp_path / "house.json"
    rules.write_text(json.dumps(house))
    for given in (str(rules), json.dumps(house)):
        code, (doc,) = verify_json(capsys, "--rules", given, str(PADS / "perfect_1575.json"))
        assert code == 1
        assert doc["rule_set"]["name"] == "house"
        assert doc["findings"][0]["code"] == "BONUS_CHECKS_NOT_IN_RULES"


@pytest.mark.parametrize(
    ("content", "code", "path"),
    [("{not json", "not_json", None), ('{"players": [{"name": 5}]}', "not_a_sheet", "$.players[0].name"),
     ("[]", "not_a_sheet", "$"), (b"\xff\xfe", "not_text", None)],
)
def test_verify_bad_input_exit_2(tmp_path: Path, content: str | bytes, code: str, path: str | None,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bad.json"
    if isinstance(content, bytes):
        f.write_bytes(content)
    else:
        f.write_text(content)
    r = run("verify", str(f))
    assert r.returncode == 2
    assert r.stderr.startswith("scorepad: ") and "Traceback" not in r.stderr
    exit_code, (entry,) = verify_json(capsys, str(f))
    assert exit_code == 2
    assert entry["source"] == str(f) and entry["error"]["code"] == code
    if path is not None:
        assert path in [e["path"] for e in entry["error"]["errors"]]


def test_verify_missing_file_and_unknown_rules(capsys: pytest.CaptureFixture[str]) -> None:
    r = run("verify", "/no/such/sheet.json")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    code, doc = verify_json(capsys, "/no/such/sheet.json")
    assert code == 2 and doc == [{"source": "/no/such/sheet.json", "error": {
        "code": "unreadable", "message": doc[0]["error"]["message"], "errors": []}}]
    assert main(["verify", "--rules", "monopoly", str(PADS / "perfect_1575.json")]) == 2
    assert capsys.readouterr().out == ""


def test_verify_stdin() -> None:
    r = run("verify", "-", stdin=(PADS / "hasbro_clean_single.json").read_text())
    assert r.returncode == 0


# ---- one JSON contract --------------------------------------------------------------------------

def test_verify_json_is_always_an_array_of_entries(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    one = str(PADS / "perfect_1575.json")
    code, doc = verify_json(capsys, one)
    assert code == 0 and len(doc) == 1 and doc[0]["source"] == one
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    empty = tmp_path / "empty"
    empty.mkdir()
    inputs = [one, str(bad), "/no/such.json", str(empty), str(PADS / "upper_bonus_missing.json")]
    code, doc = verify_json(capsys, *inputs)
    assert code == 2
    assert [e["source"] for e in doc] == inputs
    assert [e["error"]["code"] if "error" in e else e["verdict"] for e in doc] == [
        "correct", "not_json", "unreadable", "no_sheets", "errors"]


def test_verify_json_schema_holds_for_every_sample_pad(capsys: pytest.CaptureFixture[str]) -> None:
    """Real output of every sample sheet (and every photo's true sheet) fits the schema."""
    code, doc = verify_json(capsys, str(PADS), str(PADS / "photos"))
    assert code == 1
    assert {e["verdict"] for e in doc} == {"correct", "unsure", "errors"}
    for rules in ("classic", "travel"):
        verify_json(capsys, "--rules", rules, str(PADS))


def test_verify_schema_lists_every_finding_code() -> None:
    codes = VERIFY_SCHEMA["$defs"]["finding"]["properties"]["code"]["enum"]
    assert set(codes) == {c.value for c in Code}


def test_verify_directory_sheets(capsys: pytest.CaptureFixture[str]) -> None:
    """A directory's sheets: NAME.json and NAME.truth.json, never *.expect.json / *.meta.json."""
    photos = PADS / "photos"
    _, doc = verify_json(capsys, str(photos))
    sources = [Path(e["source"]).name for e in doc]
    assert sources == sorted(p.name for p in photos.glob("*.truth.json"))
    assert all("error" not in e for e in doc)
    _, doc = verify_json(capsys, str(PADS))
    assert {Path(e["source"]).name for e in doc} == {
        p.name for p in PADS.glob("*.json") if not p.name.endswith(".expect.json")}


# ---- --rules: never a traceback -----------------------------------------------------------------

RULES_COMMANDS = [
    ["verify", str(PADS / "perfect_1575.json")],
    ["tally", str(PADS / "perfect_1575.json")],
    ["options", "--dice", "12345"],
    ["solve"],
    ["analyse", str(PADS / "turn_log_clean_hasbro.json")],
    ["advise", "--dice", "12345", "--roll", "1"],
    ["simulate", "--games", "10"],
    ["scan", str(PADS / "photos" / "pad-01000-front.jpg")],
]


@pytest.mark.parametrize("content", ["[1, 2]", "5", "true", "null", '"hasbro"', "{", '{"joker": 3}'])
@pytest.mark.parametrize("command", RULES_COMMANDS, ids=lambda c: c[0])
def test_rules_file_that_is_not_a_rule_set(content: str, command: list[str], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "rules.json"
    f.write_text(content)
    assert main([*command, "--rules", str(f)]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("scorepad: ") and len(err.splitlines()) == 1


@pytest.mark.parametrize("rules", [[1], 5, True, [], 2.5, {1: 2}])
def test_library_refuses_a_rule_set_that_is_not_one(rules: Any) -> None:
    sheet = load_sheet(json.loads((PADS / "perfect_1575.json").read_text()))
    with pytest.raises(RuleSetError):
        audit_sheet(sheet, rules)


# ---- options -----------------------------------------------------------------------------------

def test_options_five_sixes_large_straight(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"boxes": {"yahtzee": 50, "sixes": 18}}))
    r = run("options", "--rules", "hasbro", "--card", str(card), "--dice", "66666",
            "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    ls = next(o for o in doc["options"] if o["box"] == "large_straight")
    assert ls["allowed"] and ls["values"][0] == 40 and ls["reason"] == "JOKER"
    assert doc["bonus"] is True
    assert {"box": "large_straight", "value": 40} in doc["legal"]
    r = run("options", "--rules", "classic", "--card", str(card), "--dice", "66666",
            "--format", "json")
    ls = next(o for o in json.loads(r.stdout)["options"] if o["box"] == "large_straight")
    assert not ls["allowed"] and ls["reason"] == "FORBIDDEN_PRIORITY"


def test_options_card_inline_file_sheet_agree(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    game = {"boxes": {"yahtzee": 50, "sixes": 18}}
    f = tmp_path / "card.json"
    f.write_text(json.dumps(game))
    s = tmp_path / "sheet.json"
    s.write_text(json.dumps({"players": [{"name": "A", "games": [None, game]}]}))
    answers = []
    for card in ([json.dumps(game)], [str(f)], [json.dumps(game["boxes"])],
                 [str(s), "--game", "2"]):
        assert main(["options", "--dice", "66666", "--format", "json", "--card", *card]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert all(a == answers[0] for a in answers)


def test_options_json_is_the_apis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from api import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}",
                      "RATELIMIT_ENABLED": False})
    boxes = {"yahtzee": 50, "sixes": 24}
    for rules in ("hasbro", "classic", "travel"):
        api = app.test_client().post("/api/v1/options", json={
            "rules": rules, "boxes": boxes, "dice": [6, 6, 6, 6, 6]}).get_json()
        assert main(["options", "--rules", rules, "--dice", "66666", "--card",
                     json.dumps(boxes), "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out) == api


@pytest.mark.parametrize("args", [["--player", "0"], ["--player", "-1"], ["--game", "0"],
                                  ["--game", "7"], ["--game", "-1"], ["--player", "3"],
                                  ["--player", "x"]])
def test_options_player_and_game_start_at_1(args: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    sheet = str(PADS / "hasbro_two_players_six_games.json")
    assert exit_code(["options", "--dice", "12345", "--card", sheet, *args]) == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith("scorepad: ")


def test_options_last_player_and_game(capsys: pytest.CaptureFixture[str]) -> None:
    sheet = str(PADS / "hasbro_two_players_six_games.json")
    assert main(["options", "--dice", "12345", "--card", sheet, "--player", "2", "--game", "6",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert not any(o["allowed"] for o in doc["options"])  # Ben's game 6 is complete


def test_options_impossible_card_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    card = json.dumps({"yahtzee": 0, "yahtzee_bonus_checks": 3})
    assert main(["options", "--dice", "12345", "--card", card]) == ExitCode.FINDINGS
    assert capsys.readouterr().out == ""


def test_options_bad_dice() -> None:
    r = run("options", "--dice", "6666")
    assert r.returncode == 2 and "--dice" in r.stderr


# ---- tally and rules --------------------------------------------------------------------------

def test_tally_and_rules_commands() -> None:
    r = run("tally", "--format", "json", str(PADS / "four_players_tie.json"))
    assert r.returncode == 0
    doc = json.loads(r.stdout)
    assert doc["games"][0]["tie"] is True and doc["verdict"] == "correct"
    assert sorted(doc["winners"]) == ["Ria", "Sam"]
    r = run("rules", "--format", "json")
    names = {rs["name"] for rs in json.loads(r.stdout)["rule_sets"]}
    assert names == {"hasbro", "classic", "travel"}


def test_tally_of_a_sheet_with_errors_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    pad = str(PADS / "upper_bonus_missing.json")
    assert main(["tally", "--format", "json", pad]) == ExitCode.FINDINGS
    captured = capsys.readouterr()
    assert json.loads(captured.out)["verdict"] == "errors"
    assert captured.err.startswith("scorepad: ")
    assert main(["tally", str(PADS / "scanned_misread_total.json")]) == ExitCode.DOUBTS


def test_main_in_process_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(PADS / "perfect_1575.json")]) == 0
    out = capsys.readouterr().out
    assert "1575" in out and "hasbro" in out
    assert main(["tally", str(PADS / "hasbro_two_players_six_games.json")]) == 0
    assert "TOTAL OF ALL GAMES" in capsys.readouterr().out


# ---- scanned sheets: doubts --------------------------------------------------------------------

SCANNED = str(PADS / "scanned_misread_total.json")


def test_verify_doubts_exit_3_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, (doc,) = verify_json(capsys, SCANNED)
    assert code == 3
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


def test_verify_help_lists_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--help"])
    assert exc.value.code == 0
    codes = [ln.split()[0] for ln in capsys.readouterr().out.splitlines()
             if ln[:3].strip().isdigit()]
    assert codes == ["0", "1", "2", "3"]


# ---- the command line as a whole ---------------------------------------------------------------

def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert capsys.readouterr().out.split() == ["scorepad", project["version"]]


def test_no_command_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == ExitCode.BAD_INPUT
    assert capsys.readouterr().out == ""
    assert exit_code(["--nonsense"]) == ExitCode.BAD_INPUT
    assert exit_code(["nonsense"]) == ExitCode.BAD_INPUT


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_every_command_registered_as_listed(command: cli_module.Command) -> None:
    """Each module registers exactly the commands COMMANDS lists for it, each with help on
    every argument and examples in its --help."""
    real = _subparsers(build_parser(command.name))
    mine = [c for c in COMMANDS if c.module == command.module]
    assert set(real) == {n for c in mine for n in (c.name, *c.aliases)}
    assert set(_subparsers(build_parser())) == {n for c in COMMANDS for n in (c.name, *c.aliases)}
    p = real[command.name]
    for alias in command.aliases:
        assert real[alias] is p
    assert p.add_help and p.get_default("func") is not None or command.name == "db"
    assert "examples:" in (p.epilog or "")
    for action in p._actions:
        assert action.help, (command.name, action.dest)
    assert len({c.name for c in mine}) == len(mine)


def test_help_and_verify_do_not_import_heavy_modules() -> None:
    """Start-up: only the command's own dependencies are loaded (behaviour, not timing)."""
    code = """
import contextlib, io, json, sys
from scorepad.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)))
""".replace("HEAVY", repr(HEAVY))
    for args in (["--help"], [], ["verify", str(PADS / "perfect_1575.json")], ["rules"],
                 ["verify", "--help"], ["tally", str(PADS / "perfect_1575.json")],
                 ["options", "--dice", "66666"], ["solve", "--help"]):
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                           timeout=120, check=True)
        loaded = json.loads(r.stdout)
        if args[:1] == ["solve"]:
            assert "numba" in loaded and "flask" not in loaded and "cv2" not in loaded
        else:
            assert loaded == [], args
    # a plain sheet is read by the fast loader, without marshmallow (any game's verify/tally)
    code = code.replace(repr(HEAVY), repr(("marshmallow",)))
    for command in ("verify", "tally"):
        r = subprocess.run([sys.executable, "-c", code, command, str(PADS / "perfect_1575.json")],
                           capture_output=True, text=True, timeout=120, check=True)
        assert json.loads(r.stdout) == [], command


def test_last_resort_handler(monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    def broken(args: argparse.Namespace) -> int:
        raise TypeError("a bug\nover two lines")

    monkeypatch.setattr(commands_module, "cmd_rules", broken)
    assert main(["rules"]) == ExitCode.INTERNAL
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("scorepad: ")
    r = subprocess.run([sys.executable, "-c", "import sys; from scorepad import commands\n"
                        "def broken(args): raise RuntimeError('x')\n"
                        "commands.cmd_rules = broken\n"
                        "from scorepad.cli import main; sys.exit(main(['rules']))"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == ExitCode.INTERNAL and "Traceback" not in r.stderr


def test_broken_pipe_is_quiet() -> None:
    r = subprocess.run(f"{sys.executable} -m scorepad.cli verify {PADS} | head -c 10",
                       shell=True, capture_output=True, text=True, timeout=60)
    assert r.stderr == ""


def test_one_error_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every failure, whichever command, is reported as ``scorepad: ...``."""
    cases = [["verify", "/no/such.json"], ["options", "--dice", "7"], ["tally", "/no/such.json"],
             ["analyse", "/no/such.json"], ["advise", "--dice", "7", "--roll", "1"],
             ["simulate", "--games", "0"], ["scan", "/no/such.jpg"],
             ["render", "-o", str(tmp_path / "pad.txt")], ["db", "import", "/no/such.json"]]
    for args in cases:
        code = main(args)
        err = capsys.readouterr().err
        assert code == ExitCode.BAD_INPUT, (args, err)
        assert err.startswith("scorepad: ") and not err.startswith("scorepad: error"), args
        assert len(err.splitlines()) == 1


@pytest.mark.parametrize("args", [["--dice", "7", "--roll", "1"], ["--dice", "1234567", "--roll", "3"],
                                  ["--dice", "1234", "--roll", "2"]])
def test_advise_refuses_bad_dice_before_it_builds_a_table(
        args: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # (found on a fresh machine: a bad roll first built the 10-20 s table, then was refused)
    import scorepad.solver.cli as solver_cli

    def no_table(*_: Any) -> Any:
        raise AssertionError("a table was built for input that is refused")

    monkeypatch.setattr(solver_cli, "prepare_table", no_table)
    assert main(["advise", *args]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("scorepad: ")


@pytest.mark.parametrize("content", ["{}", "[1, 2]", '{"group": 5}', "5", "{"])
def test_db_import_of_what_is_not_a_backup(content: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "backup.json"
    f.write_text(content)
    assert main(["db", "import", str(f)]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("scorepad: ") and len(err.splitlines()) == 1


def test_serve_on_a_busy_port_fails_before_starting(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("scorepad: ")
    assert main(["serve", "--port", "0"]) == ExitCode.BAD_INPUT


def test_serve_starts_again_right_after_a_server_on_its_port_stopped() -> None:
    # `make run` stopped and started again: the stopped server's connections wait out
    # TIME_WAIT on the port, which a server binding with SO_REUSEADDR may use
    from api.cli import _port_free

    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn listens
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            conn, _ = server.accept()
            conn.close()  # the server side closes first: its end waits in TIME_WAIT
            client.recv(1)
    assert _port_free("127.0.0.1", port) is None


def test_scan_report_has_no_hint_to_use_report(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    photo = str(PADS / "photos" / "pad-01000-front.jpg")
    assert main(["scan", photo, "--report", "-o", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    err = capsys.readouterr().err
    assert any(c["status"] != "confident" for c in report["cells"])
    assert "--report" not in err


def test_render_has_no_seed_to_get_wrong(tmp_path: Path) -> None:
    """``render`` draws the one blank pad: a --seed (negative or not) is a usage error."""
    for seed in ("-1", "5"):
        assert exit_code(["render", "--seed", seed, "-o", str(tmp_path / "pad.png")]) == 2
