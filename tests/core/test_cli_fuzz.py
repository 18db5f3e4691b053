"""A fuzz run over the command line's arguments and input files: whatever it is given,
``scorepad`` answers with an exit code of its own and never a traceback (the last-resort
handler, exit 70, is a bug and fails this test as well)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.cli import ExitCode, main

ROOT = Path(__file__).resolve().parents[2]
PADS = ROOT / "sample_pads"
SHEETS = sorted(str(p) for p in PADS.glob("*.json") if not p.name.endswith(".expect.json"))
ALLOWED = {ExitCode.OK, ExitCode.FINDINGS, ExitCode.BAD_INPUT, ExitCode.DOUBTS}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["players", "name", "games", "boxes", "aces", "yahtzee", "chance",
                         "totals", "grand_total", "turns", "rolls", "kept", "box", "value",
                         "yahtzee_bonus_checks", "rules", "base", "joker", "format",
                         "players_scores", "readings", "title", "group", "matches", "x"]),
        inner, max_size=5),
    max_leaves=20,
)


def _mutated_sheet(draw: Any) -> str:
    """A sample sheet with one value replaced, or cut short, or its bytes garbled."""
    text = Path(draw(st.sampled_from(SHEETS))).read_text()
    how = draw(st.sampled_from(["replace", "cut", "as is"]))
    if how == "cut":
        return text[: draw(st.integers(0, len(text)))]
    if how == "replace":
        data = json.loads(text)
        node = data
        for _ in range(draw(st.integers(0, 4))):
            if isinstance(node, dict) and node:
                key = draw(st.sampled_from(sorted(node)))
                if draw(st.booleans()) or not isinstance(node[key], dict | list):
                    node[key] = draw(json_values)
                    break
                node = node[key]
            elif isinstance(node, list) and node:
                i = draw(st.integers(0, len(node) - 1))
                if draw(st.booleans()) or not isinstance(node[i], dict | list):
                    node[i] = draw(json_values)
                    break
                node = node[i]
        return json.dumps(data)
    return text


@st.composite
def file_contents(draw: Any) -> bytes:
    kind = draw(st.sampled_from(["json", "sheet", "text", "bytes"]))
    if kind == "json":
        return json.dumps(draw(json_values)).encode()
    if kind == "sheet":
        return _mutated_sheet(draw).encode()
    if kind == "text":
        text: str = draw(st.text(max_size=40))
        return text.encode("utf-8", "surrogatepass")
    data: bytes = draw(st.binary(max_size=64))
    return data


RULES = st.one_of(st.just("RULES"), st.sampled_from(  # RULES: a file (RULE_FILES)
    ["hasbro", "classic", "travel", "official", "monopoly", "", "{", '{"base": "hasbro"}',
     '{"base": 5}', '{"joker": "none"}', "[1]", "/no/such.json"]))
CHEAP_RULES = st.one_of(st.just("RULES"), st.sampled_from(  # no table built but hasbro's
    ["hasbro", "official", "monopoly", "", "{", '{"base": 5}', "/no/such.json"]))
RULE_FILES = st.one_of(  # what a --rules file may hold: scalars, lists, near-rule sets
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    st.lists(json_values, max_size=3),
    st.dictionaries(st.sampled_from(["name", "base", "joker", "yahtzee_bonus", "upper_bonus",
                                     "zero_in_chance", "title", "x"]), json_values, max_size=3),
).map(lambda v: json.dumps(v).encode())
DICE = st.sampled_from(["12345", "66666", "6666", "1234567", "abcde", "", "0", "11111",
                        "1 2 3 4 5", "-1"])
NUMBER = st.sampled_from(["1", "2", "0", "-1", "6", "7", "x", "", "99999999999999999999"])
CARD = st.sampled_from(["FILE", '{"aces": 3}', '{"boxes": {"yahtzee": 0}, '
                        '"yahtzee_bonus_checks": 2}', "{", "/no/such.json",
                        str(PADS / "hasbro_two_players_six_games.json")])


@st.composite
def argv(draw: Any) -> list[str]:
    command = draw(st.sampled_from(["verify", "options", "tally", "rules", "advise",
                                    "analyse", "simulate", "solve", "scan", "render",
                                    "db import", "db", "nonsense", "--version", ""]))
    args: list[str] = command.split()
    if command == "verify":
        args += draw(st.lists(st.sampled_from(["FILE", "FILE", "-", str(PADS), "/no/such",
                                               "DIR"]), min_size=0, max_size=3))
        for flag, values in (("--rules", RULES), ("--format", st.sampled_from(
                ["text", "json", "xml"]))):
            if draw(st.booleans()):
                args += [flag, draw(values)]
        if draw(st.booleans()):
            args.append("--summary")
    elif command in ("tally", "analyse"):
        args.append(draw(st.sampled_from(["FILE", "-", "/no/such", "DIR"])))
        if draw(st.booleans()):
            args += ["--rules", draw(CHEAP_RULES if command == "analyse" else RULES)]
        if draw(st.booleans()):
            args += ["--format", draw(st.sampled_from(["text", "json"]))]
    elif command in ("options", "advise"):
        args += ["--dice", draw(DICE)]
        if command == "advise":
            args += ["--roll", draw(NUMBER)]
        if draw(st.booleans()):
            args += ["--card", draw(CARD)]
            for flag in ("--player", "--game"):
                if draw(st.booleans()):
                    args += [flag, draw(NUMBER)]
        if draw(st.booleans()):
            args += ["--rules", draw(CHEAP_RULES if command == "advise" else RULES)]
    elif command == "simulate":
        args += ["--games", draw(st.sampled_from(["1", "5", "0", "-3", "x"])),
                 "--seed", draw(NUMBER)]
        if draw(st.booleans()):
            args += ["--rules", draw(CHEAP_RULES)]
    elif command == "solve":
        args += ["--rules", draw(CHEAP_RULES)]
    elif command == "scan":
        args.append(draw(st.sampled_from(["FILE", "/no/such.jpg", "DIR"])))
        if draw(st.booleans()):
            args += ["--corners", draw(st.sampled_from(["1,2 3,4 5,6 7,8", "x", "",
                                                        "0,0 0,0 0,0 0,0"]))]
    elif command == "render":
        args += ["-o", draw(st.sampled_from(["OUT.txt", "OUT.png", "DIR/x.pdf", "/no/dir/x.png"])),
                 "--side", draw(st.sampled_from(["front", "back", "middle"]))]
    elif command == "db import":
        args.append(draw(st.sampled_from(["FILE", "/no/such.json", "DIR"])))
    if draw(st.integers(0, 9)) == 0:  # now and then, an argument nobody expects
        args.insert(draw(st.integers(0, len(args))), draw(st.sampled_from(
            ["--", "-x", "--rules", "--format=json", "\x00", "-"])))
    return args


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    base = tmp_path_factory.mktemp("fuzz-env")
    monkeypatch.setenv("SCOREPAD_DATABASE_URL", f"sqlite:///{base / 'fuzz.db'}")
    if "SCOREPAD_CACHE_DIR" not in os.environ:  # tests/solver's session cache when present
        monkeypatch.setenv("SCOREPAD_CACHE_DIR", str(base / "cache"))


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(args=argv(), content=file_contents(), stdin=file_contents(), rules=RULE_FILES)
def test_no_traceback_whatever_the_arguments(args: list[str], content: bytes, stdin: bytes,
                                             rules: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "input.json"
        f.write_bytes(content)
        (Path(tmp) / "rules.json").write_bytes(rules)
        (Path(tmp) / "dir").mkdir()
        places = {"RULES": str(Path(tmp) / "rules.json"), "FILE": str(f),
                  "DIR": str(Path(tmp) / "dir"), "OUT": str(Path(tmp) / "out")}
        real = []
        for a in args:
            for key, value in places.items():
                a = a.replace(key, value)
            real.append(a)
        out, err = io.StringIO(), io.StringIO()
        fake_stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="strict")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                pytest.MonkeyPatch.context() as mp:
            mp.setattr("sys.stdin", fake_stdin)
            try:
                code = main(real)
            except SystemExit as exc:  # argparse: --help, --version, usage errors
                code = exc.code if isinstance(exc.code, int) else 2
        assert "Traceback" not in err.getvalue(), (real, err.getvalue())
        assert code in ALLOWED, (real, code, err.getvalue())
        if code == ExitCode.BAD_INPUT and real and real[0] not in ("db",):
            assert err.getvalue().strip(), real  # a failure always says why
