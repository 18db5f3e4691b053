"""The generated SCRABBLE and SORRY! JSON Schemas are current, every sample sheet and random
sheet validates against them, and they refuse what the marshmallow schemas refuse."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from scorepad.jsonschema import games
from scorepad.schemas import SheetFormatError
from scorepad.scrabble.schemas import load_sheet as load_scrabble
from scorepad.sorry.schemas import load_sheet as load_sorry
from tests.sim.scrabble_sim import random_sheet
from tests.sim.sorry_sim import random_evening

PADS = Path(__file__).resolve().parents[2] / "sample_pads"
SCHEMA = {g: json.loads((games.HERE / f"{g}.schema.json").read_text())
          for g in ("scrabble", "sorry")}


def test_the_schemas_are_current() -> None:
    assert games.main(["--check"]) == 0


@pytest.mark.parametrize("sheet", sorted([*PADS.glob("scrabble/*.json"),
                                          *PADS.glob("sorry/*.json")]), ids=str)
def test_sample_sheets_validate(sheet: Path) -> None:
    if sheet.name.endswith(".expect.json"):
        return
    jsonschema.validate(json.loads(sheet.read_text()), SCHEMA[sheet.parent.name])


def test_random_sheets_validate() -> None:
    for seed in range(5):
        jsonschema.validate(random_sheet(random.Random(seed)), SCHEMA["scrabble"])
        jsonschema.validate(random_evening(random.Random(seed)), SCHEMA["sorry"])


BAD: list[tuple[str, Any]] = [
    ("scrabble", {"game": "scrabble", "games": []}),
    ("scrabble", {"game": "scrabble", "games": [{"players": [{"name": "A", "turns": [
        {"score": 1, "tiles": [{"square": "P1", "letter": "A"}]}]}]}]}),
    ("scrabble", {"game": "scrabble", "games": [{"players": [{"name": "A",
                                                              "unplayed": "ABCDEFGH"}]}]}),
    ("scrabble", {"game": "scrabble", "rules": "hasbro", "games": [{"players": [{"name": "A"}]}]}),
    ("sorry", {"game": "sorry", "games": [{"players": [{"name": "A", "home": True}]}]}),
    ("sorry", {"game": "sorry", "games": [{"players": [{"name": "", "home": 1}]}]}),
    ("sorry", {"game": "sorry", "rules": {"shutout": "all"}, "games": [
        {"players": [{"name": "A", "home": 1}]}]}),
]


@pytest.mark.parametrize(("game", "data"), BAD)
def test_both_refuse_the_same_sheets(game: str, data: Any) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA[game])
    with pytest.raises(SheetFormatError):
        (load_scrabble if game == "scrabble" else load_sorry)(data)
