"""Natural scores and legal placements, rule set by rule set."""

from __future__ import annotations

import pytest

from scorepad import Box, get_rules, legal_options, natural_scores, parse_dice
from scorepad.scoring import DiceError


@pytest.mark.parametrize(
    ("dice", "box", "score"),
    [
        ("11111", Box.ACES, 5),
        ("12345", Box.LARGE_STRAIGHT, 40),
        ("23456", Box.LARGE_STRAIGHT, 40),
        ("12346", Box.LARGE_STRAIGHT, 0),
        ("12346", Box.SMALL_STRAIGHT, 30),
        ("13456", Box.SMALL_STRAIGHT, 30),
        ("12456", Box.SMALL_STRAIGHT, 0),
        ("11234", Box.SMALL_STRAIGHT, 30),
        ("22333", Box.FULL_HOUSE, 25),
        ("33333", Box.FULL_HOUSE, 0),  # 001 line 106: three of one number and two of another
        ("22234", Box.THREE_OF_A_KIND, 13),
        ("22234", Box.FOUR_OF_A_KIND, 0),
        ("55552", Box.FOUR_OF_A_KIND, 22),  # 003: 4 fives and a 2 -> 22
        ("22256", Box.THREE_OF_A_KIND, 17),  # 003: 3 twos, a 5 and a 6 -> 17
        ("66666", Box.YAHTZEE, 50),
        ("13456", Box.CHANCE, 19),
        ("33345", Box.THREES, 9),
    ],
)
def test_natural_scores(dice: str, box: Box, score: int) -> None:
    assert natural_scores(parse_dice(dice))[box] == score


def test_five_of_a_kind_full_house_option() -> None:
    assert natural_scores(parse_dice("44444"), five_kind_full_house=True)[Box.FULL_HOUSE] == 25


@pytest.mark.parametrize("bad", ["1234", "123456", "12347", "1a345", [0, 1, 2, 3, 4], [True] * 5])
def test_parse_dice_rejects(bad: object) -> None:
    with pytest.raises(DiceError):
        parse_dice(bad)  # type: ignore[arg-type]


def _legal(rules: str, card: dict[Box, int], dice: str) -> dict[Box, tuple[int, ...]]:
    opts = legal_options(get_rules(rules), card, parse_dice(dice))
    return {o.box: o.values for o in opts.options if o.allowed}


def test_five_sixes_large_straight_empty_card_only_zero() -> None:
    # No joker before the YAHTZEE box is filled: the straight is not made.
    for rules in ("hasbro", "classic", "travel"):
        assert _legal(rules, {}, "66666")[Box.LARGE_STRAIGHT] == (0,)


def test_forced_joker_upper_box_first() -> None:
    legal = _legal("hasbro", {Box.YAHTZEE: 50}, "66666")
    assert legal == {Box.SIXES: (30,)}


def test_forced_joker_any_lower_box_when_upper_filled() -> None:
    legal = _legal("hasbro", {Box.YAHTZEE: 0, Box.FOURS: 12}, "44444")
    assert legal[Box.LARGE_STRAIGHT] == (40, 0)
    assert legal[Box.FULL_HOUSE] == (25, 0)
    assert legal[Box.CHANCE] == (20, 0)
    assert Box.ACES not in legal  # lower boxes still open (001 line 160)


def test_forced_joker_zero_in_upper_when_lower_full() -> None:
    lower_full = {b: 0 for b in (Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.FULL_HOUSE,
                                 Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT, Box.CHANCE)}
    card = {**lower_full, Box.YAHTZEE: 50, Box.TWOS: 4}
    legal = _legal("hasbro", card, "22222")
    assert set(legal) == {Box.ACES, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES}
    assert all(v == (0,) for v in legal.values())
    assert legal_options(get_rules("hasbro"), card, parse_dice("22222")).bonus


def test_classic_priority_steps() -> None:
    card = {Box.YAHTZEE: 50, Box.FIVES: 15}
    assert set(_legal("classic", card, "55555")) == {Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND}
    card |= {Box.THREE_OF_A_KIND: 20, Box.FOUR_OF_A_KIND: 0}
    legal = _legal("classic", card, "55555")
    assert legal == {Box.FULL_HOUSE: (25,), Box.SMALL_STRAIGHT: (30,),
                     Box.LARGE_STRAIGHT: (40,), Box.CHANCE: (25,)}


def test_travel_conditional_joker() -> None:
    # Upper box open: no FH/straights at joker values, but anything natural or a zero.
    legal = _legal("travel", {Box.YAHTZEE: 50}, "33333")
    assert legal[Box.LARGE_STRAIGHT] == (0,)
    assert legal[Box.THREES] == (15, 0)
    assert legal[Box.THREE_OF_A_KIND] == (15, 0)
    # Upper box filled: the joker values open up.
    legal = _legal("travel", {Box.YAHTZEE: 0, Box.THREES: 9}, "33333")
    assert legal[Box.LARGE_STRAIGHT] == (40, 0)
    assert legal[Box.ACES] == (0,)


def test_no_bonus_with_zero_or_open_yahtzee_box() -> None:
    r = get_rules("hasbro")
    assert not legal_options(r, {Box.YAHTZEE: 0}, parse_dice("11111")).bonus
    assert not legal_options(r, {}, parse_dice("11111")).bonus
    assert legal_options(r, {Box.YAHTZEE: 50}, parse_dice("11111")).bonus


def test_zero_in_chance_option() -> None:
    assert _legal("hasbro", {}, "12346")[Box.CHANCE] == (16, 0)
    assert _legal("classic", {}, "12346")[Box.CHANCE] == (16,)
