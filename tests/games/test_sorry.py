"""SORRY! play for points (000:136-143): the points item by item, the shut-out reading as an
option, the format's errors."""

from __future__ import annotations

import pytest

from scorepad.schemas import SheetFormatError
from scorepad.sorry import get_rules, points
from scorepad.sorry.check import check_sheet
from scorepad.sorry.schemas import load_sheet

BOOK, BEST = get_rules("sorry"), get_rules("sorry-best")


@pytest.mark.parametrize(("homes", "book", "best"), [
    # 5 per pawn HOME (000:138); the winner 5 per opponent pawn not HOME (000:140)
    ([4, 3, 3], 20 + 10, 20 + 10),
    ([4, 2, 3], 20 + 15, 20 + 15),  # an opponent with three HOME: no premium
    ([4, 2, 2], 20 + 20 + 25, 20 + 20 + 25),  # 000:141
    ([4, 1, 0], 20 + 35 + 25 + 50, 20 + 35 + 50),  # 000:141-142
    ([4, 0, 0, 0], 20 + 60 + 25 + 50 + 100, 20 + 60 + 100),  # 000:141-143
])
def test_the_winners_points(homes: list[int], book: int, best: int) -> None:
    assert points(homes, 0, BOOK)["total"] == book
    assert points(homes, 0, BEST)["total"] == best
    assert points(homes, 1, BOOK) == {"home": 5 * homes[1], "total": 5 * homes[1]}


def test_every_finding_cites_the_book_and_names_the_rule_set() -> None:
    sheet = load_sheet({"game": "sorry", "games": [{"players": [
        {"name": "Ann", "home": 4, "points": 20}, {"name": "Ben", "home": 0, "points": 0}]}]})
    for rules, want in ((None, 20 + 20 + 175), ("sorry-best", 20 + 20 + 100)):
        report = check_sheet(sheet, rules)
        assert report.codes() == ["SORRY_POINTS_WRONG"]
        f = report.findings[0]
        assert f.expected == want and f.rule_set == report.rule_set.name
        assert "000:140" in f.rules and "000:143" in f.rules


def test_house_rules() -> None:
    rs = get_rules({"base": "sorry", "shutout": "best", "name": "ours"})
    assert rs.name == "ours" and rs.shutout == "best"
    with pytest.raises(ValueError):
        get_rules({"shutout": "all"})


@pytest.mark.parametrize(("data", "path"), [
    ({"game": "sorry", "games": []}, "$.games"),
    ({"game": "sorry", "games": [{"players": [{"name": "A"}]}]}, "$.games[0].players[0].home"),
    ({"game": "sorry", "games": [{"players": [{"name": "A", "home": 1.5}]}]},
     "$.games[0].players[0].home"),
    ({"game": "sorry", "games": [{"players": [{"name": "A", "home": 1}, {"name": "a ",
                                                                        "home": 1}]}]},
     "$.games[0].players"),
    ({"game": "sorry", "rules": "hasbro", "games": [{"players": [{"name": "A", "home": 1}]}]},
     "$.rules"),
    ({"game": "sorry", "extra": 1, "games": [{"players": [{"name": "A", "home": 1}]}]},
     "$.extra"),
])
def test_format_errors_name_the_json_path(data: dict[str, object], path: str) -> None:
    with pytest.raises(SheetFormatError) as exc:
        load_sheet(data)
    assert path in [p for p, _ in exc.value.errors]
