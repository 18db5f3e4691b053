"""The fast sheet loader agrees with scorepad.schemas.load_sheet whenever it answers."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.fastsheet import fast_load
from scorepad.boxes import ALL_BOXES, TotalField
from scorepad.schemas import SheetFormatError, load_sheet

from .conftest import pad, pad_names


def agree(data: Any) -> bool:
    """fast_load answers only what load_sheet accepts, with the same Sheet. True if it answered."""
    fast = fast_load(data)
    try:
        slow = load_sheet(data)
    except SheetFormatError:
        assert fast is None, data
        return False
    if fast is not None:
        assert fast == slow
    return fast is not None


@pytest.mark.parametrize("name", pad_names())
def test_sample_pads(name: str) -> None:
    data = pad(name)
    answered = agree(data)
    has_turns = any(g and g.get("turns") is not None
                    for p in data["players"] for g in p.get("games", []))
    has_readings = any(g and "readings" in g for p in data["players"]
                       for g in p.get("games", [])) or any(
        "readings" in (p.get("players_scores") or {}) for p in data["players"])
    # the fast path takes every pad without a turn log or readings (a scanned sheet)
    assert answered is not (has_turns or has_readings)


values = st.one_of(st.none(), st.integers(-100_001, 100_001), st.booleans(), st.floats(0, 9),
                   st.text(max_size=2))
box_keys = st.sampled_from([b.value for b in ALL_BOXES] + ["ones", "bogus"])
total_keys = st.sampled_from([t.value for t in TotalField] + ["sum"])
games = st.one_of(st.none(), st.fixed_dictionaries({}, optional={
    "boxes": st.one_of(st.none(), st.dictionaries(box_keys, values, max_size=14)),
    "totals": st.dictionaries(total_keys, values, max_size=3),
    "yahtzee_bonus_checks": st.one_of(st.integers(-1, 100), st.none(), st.booleans()),
    "turns": st.sampled_from([None, [], [{"rolls": [[1, 2, 3, 4, 5]]}]]),
    "readings": st.sampled_from([{}, {"aces": {"status": "confident", "candidates": [None, 2]}},
                                 {"bogus": {"status": "confirmed"}}, None]),
    "extra": st.just(1),
}))
names = st.one_of(st.sampled_from(["Ann", "ann ", "Bob", "", "x" * 64, "x" * 65]), st.none(),
                  st.integers(0, 3))
players = st.fixed_dictionaries({"name": names}, optional={
    "games": st.one_of(st.lists(games, max_size=7), st.none()),
    "players_scores": st.one_of(st.none(), st.fixed_dictionaries({}, optional={
        "games": st.lists(values, max_size=7), "total": values, "x": st.just(0),
        "readings": st.sampled_from([{}, {"total": {"status": "needs_review"}}])})),
    "colour": st.just("red"),
})
sheets = st.fixed_dictionaries({"players": st.lists(players, min_size=0, max_size=13)},
                               optional={
    "format": st.sampled_from(["scorepad/sheet@1", "scorepad/sheet@2", None]),
    "title": st.one_of(st.none(), st.text(max_size=3), st.just("t" * 201), st.integers()),
    "rules": st.one_of(st.none(), st.sampled_from(["hasbro", "Official", "nope", ""]),
                       st.just({"name": "h", "yahtzee_bonus": 0}), st.just({"bad": 1}),
                       st.integers()),
    "extra": st.just(True),
})


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(sheets)
def test_generated_sheets(data: dict[str, Any]) -> None:
    agree(data)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from([n for n in pad_names() if n.startswith(("hasbro", "four", "three"))]),
       st.data())
def test_mutated_sample_pads(name: str, data: st.DataObject) -> None:
    sheet = copy.deepcopy(pad(name))
    p = data.draw(st.integers(0, len(sheet["players"]) - 1))
    player = sheet["players"][p]
    if player.get("games"):
        g = data.draw(st.integers(0, len(player["games"]) - 1))
        game = player["games"][g]
        if game is not None:
            key = data.draw(box_keys)
            game.setdefault("boxes", {})[key] = data.draw(values)
    assert isinstance(agree(sheet), bool)
