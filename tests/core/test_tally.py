"""Tallies: winners with ties, games won, total of all games, difference points."""

from __future__ import annotations

from fractions import Fraction

from scorepad import Box, Game, Player, Sheet, tally_sheet
from scorepad.tally import difference_points

FULL = {b: 0 for b in Box}


def card(chance: int) -> Game:
    return Game(boxes={**FULL, Box.CHANCE: chance})


def test_difference_points_two_players() -> None:
    assert difference_points({"a": 200, "b": 150}) == {"a": 50, "b": 0}


def test_difference_points_three_players_and_ties() -> None:
    assert difference_points({"a": 200, "b": 150, "c": 100}) == {"a": 150, "b": 0, "c": 0}
    pts = difference_points({"a": 200, "b": 200, "c": 100})
    assert pts == {"a": Fraction(50), "b": Fraction(50), "c": 0}
    assert difference_points({"a": 5, "b": 5}) == {"a": 0, "b": 0}


def test_tally_two_games_tie_and_standings() -> None:
    sheet = Sheet(players=[
        Player("Ann", [card(20), card(10)]),
        Player("Ben", [card(20), card(25)]),
        Player("Cy", [card(5), Game(boxes={Box.ACES: 3})]),
    ])
    t = tally_sheet(sheet)
    d = t.to_dict()
    g1, g2 = d["games"]
    assert g1["winners"] == ["Ann", "Ben"] and g1["tie"]
    assert g2["in_progress"] == ["Cy"] and g2["winners"] == []
    assert d["games_won"] == {"Ann": 1, "Ben": 1, "Cy": 0}
    assert d["players_scores"]["total_of_all_games"] == {"Ann": 30, "Ben": 45, "Cy": 5}
    assert d["standings"][0]["player"] == "Ben"
    assert d["winners"] == ["Ben"]
    assert d["difference_points"]["Ann"] == 7.5 and d["difference_points"]["Ben"] == 7.5
