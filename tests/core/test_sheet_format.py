"""The sheet format: marshmallow loading, JSON paths in errors, the published JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from scorepad import SheetFormatError, dump_sheet, load_sheet, loads_sheet
from scorepad.schemas import MAX_JSON_BYTES

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "scorepad" / "jsonschema" / "sheet.schema.json").read_text())
PADS = sorted(p for p in (ROOT / "sample_pads").glob("*.json") if not p.name.endswith(
    (".expect.json", ".truth.json")))


@pytest.mark.parametrize("pad", PADS, ids=lambda p: p.stem)
def test_sample_pads_match_published_schema_and_round_trip(pad: Path) -> None:
    data = json.loads(pad.read_text())
    jsonschema.validate(data, SCHEMA)
    sheet = load_sheet(data)
    again = dump_sheet(sheet)
    jsonschema.validate(again, SCHEMA)
    assert load_sheet(again) == sheet


def _paths(data: object) -> list[str]:
    with pytest.raises(SheetFormatError) as exc:
        load_sheet(data)
    return [p for p, _ in exc.value.errors]


def _ok() -> dict:
    return {"players": [{"name": "Ann", "games": [{"boxes": {"aces": 3}}]}]}


def _DUPLICATE_NAMES(d: dict) -> None:  # noqa: N802
    d["players"].append({"name": "ann"})


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d["players"][0]["games"][0]["boxes"].update(aces="3"),
         "$.players[0].games[0].boxes.aces"),
        (lambda d: d["players"][0]["games"][0]["boxes"].update(aces=3.5),
         "$.players[0].games[0].boxes.aces"),
        (lambda d: d["players"][0]["games"][0]["boxes"].update(aces=True),
         "$.players[0].games[0].boxes.aces"),
        (lambda d: d["players"][0]["games"][0]["boxes"].update(bogus=1),
         "$.players[0].games[0].boxes.bogus"),
        (lambda d: d["players"][0].update(games=[{}] * 7), "$.players[0].games"),
        (lambda d: d.update(players=[]), "$.players"),
        (lambda d: d["players"][0].update(name=""), "$.players[0].name"),
        (lambda d: d["players"][0].update(name="x" * 65), "$.players[0].name"),
        (lambda d: d.update(rules="monopoly"), "$.rules"),
        (lambda d: d.update(rules={"joker": "sometimes"}), "$.rules"),
        (lambda d: d["players"][0]["games"][0].update(turns=[{"rolls": [[1, 2, 3]]}]),
         "$.players[0].games[0].turns[0].rolls[0]"),
        (lambda d: d["players"][0]["games"][0].update(turns=[{"rolls": [[1, 2, 3, 4, 7]]}]),
         "$.players[0].games[0].turns[0].rolls[0][4]"),
        (lambda d: d["players"][0]["games"][0].update(yahtzee_bonus_checks=-1),
         "$.players[0].games[0].yahtzee_bonus_checks"),
        (_DUPLICATE_NAMES, "$.players"),
    ],
)
def test_malformed_sheets_name_the_json_path(mutate, path: str) -> None:  # type: ignore[no-untyped-def]
    data = _ok()
    mutate(data)
    assert path in _paths(data)
    if mutate is not _DUPLICATE_NAMES:  # JSON Schema cannot say "names differ"
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(data, SCHEMA)


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", '"x"', "{" * 100_000])
def test_bad_json_text_is_a_format_error(text: str) -> None:
    with pytest.raises(SheetFormatError):
        loads_sheet(text)


def test_size_limit() -> None:
    with pytest.raises(SheetFormatError) as exc:
        loads_sheet(" " * (MAX_JSON_BYTES + 1))
    assert exc.value.errors[0][0] == "$"


def test_custom_rules_in_sheet() -> None:
    sheet = load_sheet({"rules": {"name": "ours", "base": "travel", "yahtzee_bonus": 50},
                        "players": [{"name": "A"}]})
    assert sheet.rules.name == "ours"  # type: ignore[union-attr]
    assert sheet.rules.yahtzee_bonus == 50  # type: ignore[union-attr]
