"""Category scoring checked against published test cases of other Yahtzee projects.

Facts only (dice -> expected score in one category), re-typed from the named
files; no code copied.  Only cases whose category matches the Yahtzee rules
exactly are used: Yatzy/"Yacht" kata score differently (three of a kind as
the sum of the three dice, pairs, a 1-2-3-4-5 small straight worth 15, ...)
and are left out, and so are cases from a file whose "three of a kind" means
exactly three (FerayGuluzada/Yahtzee scores 5-5-5-5-1 as 0 there, which 001
line 98, "3 or more of the same number", does not allow).
"""

from __future__ import annotations

import pytest

from scorepad import get_rules
from scorepad.boxes import Box
from scorepad.placement import legal_options
from scorepad.scoring import natural_score

A, T, TH, FO, FI, S = Box.ACES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES
K3, K4, FH, SS, LS, Y, CH = (
    Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.FULL_HOUSE, Box.SMALL_STRAIGHT,
    Box.LARGE_STRAIGHT, Box.YAHTZEE, Box.CHANCE,
)

# (source, box, dice, expected)
HBEADLES = "hbeadles/yahtzee-rl tests/test_scoring_operations.py"
AOC = "advent-of-craft/2023 solution/c#/Day20/Day20.Tests/Original/YahtzeeCalculatorTests.cs"
J23 = "j23schoen/YahtzeeKata test/YahtzeeTest.java"
FERAY = "FerayGuluzada/Yahtzee test/yahtzee_test.exs (Full House cases only)"

CASES: list[tuple[str, Box, tuple[int, ...], int]] = [
    # hbeadles/yahtzee-rl
    (HBEADLES, A, (1, 1, 1, 2, 3), 3),
    (HBEADLES, A, (1, 1, 4, 5, 6), 2),
    (HBEADLES, A, (2, 3, 4, 5, 6), 0),
    (HBEADLES, T, (2, 2, 3, 4, 5), 4),
    (HBEADLES, T, (2, 2, 2, 2, 1), 8),
    (HBEADLES, T, (1, 3, 4, 5, 6), 0),
    (HBEADLES, TH, (3, 3, 3, 1, 2), 9),
    (HBEADLES, TH, (3, 3, 4, 5, 6), 6),
    (HBEADLES, TH, (1, 2, 4, 5, 6), 0),
    (HBEADLES, FO, (4, 4, 1, 2, 3), 8),
    (HBEADLES, FO, (4, 4, 4, 4, 1), 16),
    (HBEADLES, FO, (1, 2, 3, 5, 6), 0),
    (HBEADLES, FI, (5, 5, 5, 5, 1), 20),
    (HBEADLES, FI, (5, 5, 1, 2, 3), 10),
    (HBEADLES, FI, (1, 2, 3, 4, 6), 0),
    (HBEADLES, S, (6, 6, 6, 1, 2), 18),
    (HBEADLES, S, (6, 6, 3, 4, 5), 12),
    (HBEADLES, S, (1, 2, 3, 4, 5), 0),
    (HBEADLES, K3, (3, 3, 3, 4, 5), 18),
    (HBEADLES, K3, (6, 6, 6, 1, 2), 21),
    (HBEADLES, K3, (1, 2, 3, 4, 5), 0),
    (HBEADLES, K4, (4, 4, 4, 4, 2), 18),
    (HBEADLES, K4, (5, 5, 5, 5, 1), 21),
    (HBEADLES, K4, (3, 3, 3, 4, 5), 0),
    (HBEADLES, FH, (2, 2, 2, 5, 5), 25),
    (HBEADLES, FH, (3, 3, 6, 6, 6), 25),
    (HBEADLES, FH, (1, 2, 3, 4, 5), 0),
    (HBEADLES, FH, (3, 3, 3, 3, 5), 0),
    (HBEADLES, SS, (1, 2, 3, 4, 6), 30),
    (HBEADLES, SS, (2, 3, 4, 5, 5), 30),
    (HBEADLES, SS, (1, 3, 4, 5, 6), 30),
    (HBEADLES, SS, (1, 2, 3, 5, 6), 0),
    (HBEADLES, LS, (1, 2, 3, 4, 5), 40),
    (HBEADLES, LS, (2, 3, 4, 5, 6), 40),
    (HBEADLES, LS, (1, 2, 3, 4, 6), 0),
    (HBEADLES, Y, (5, 5, 5, 5, 5), 50),
    (HBEADLES, Y, (1, 1, 1, 1, 1), 50),
    (HBEADLES, Y, (5, 5, 5, 5, 4), 0),
    (HBEADLES, CH, (1, 2, 3, 4, 5), 15),
    (HBEADLES, CH, (6, 6, 6, 6, 6), 30),
    (HBEADLES, CH, (1, 1, 1, 1, 1), 5),
    # advent-of-craft/2023 day 20
    (AOC, A, (1, 2, 1, 1, 3), 3),
    (AOC, A, (2, 3, 4, 5, 6), 0),
    (AOC, A, (4, 4, 4, 4, 4), 0),
    (AOC, FO, (4, 1, 4, 4, 5), 12),
    (AOC, K3, (3, 3, 3, 4, 5), 18),
    (AOC, K3, (2, 3, 4, 5, 6), 0),
    (AOC, K3, (4, 4, 4, 4, 4), 20),
    (AOC, K3, (1, 1, 2, 1, 5), 10),
    (AOC, K4, (3, 3, 3, 3, 5), 17),
    (AOC, K4, (2, 3, 4, 5, 6), 0),
    (AOC, K4, (4, 4, 4, 4, 4), 20),
    (AOC, K4, (1, 1, 1, 1, 5), 9),
    (AOC, FH, (2, 2, 3, 3, 3), 25),
    (AOC, FH, (2, 3, 4, 5, 6), 0),
    (AOC, FH, (4, 4, 1, 4, 1), 25),
    (AOC, SS, (1, 2, 3, 4, 5), 30),
    (AOC, SS, (5, 4, 3, 2, 1), 30),
    (AOC, SS, (2, 3, 4, 5, 1), 30),
    (AOC, SS, (1, 1, 1, 3, 2), 0),
    (AOC, LS, (1, 2, 3, 4, 5), 40),
    (AOC, LS, (5, 4, 3, 2, 1), 40),
    (AOC, LS, (2, 3, 4, 5, 6), 40),
    (AOC, LS, (1, 4, 1, 3, 2), 0),
    (AOC, Y, (4, 4, 4, 4, 4), 50),
    (AOC, Y, (2, 2, 2, 2, 2), 50),
    (AOC, Y, (1, 4, 1, 3, 2), 0),
    (AOC, CH, (3, 3, 3, 3, 3), 15),
    (AOC, CH, (6, 5, 4, 3, 3), 21),
    (AOC, CH, (1, 4, 1, 3, 2), 11),
    # j23schoen/YahtzeeKata
    (J23, A, (1, 1, 2, 3, 4), 2),
    (J23, A, (2, 3, 4, 5, 5), 0),
    (J23, A, (1, 1, 1, 1, 2), 4),
    (J23, T, (2, 2, 3, 4, 5), 4),
    (J23, T, (2, 3, 2, 2, 2), 8),
    (J23, T, (3, 4, 5, 4, 3), 0),
    # FerayGuluzada/Yahtzee
    (FERAY, FH, (2, 2, 5, 5, 5), 25),
    (FERAY, FH, (3, 3, 4, 4, 4), 25),
    (FERAY, FH, (1, 1, 2, 2, 3), 0),
    (FERAY, FH, (1, 3, 2, 2, 2), 0),
]


def _id(case: tuple[str, Box, tuple[int, ...], int]) -> str:
    src, box, dice, expected = case
    return f"{src.split('/')[0]}-{box.value}-{''.join(map(str, dice))}={expected}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_natural_score_matches_published_case(
    case: tuple[str, Box, tuple[int, ...], int],
) -> None:
    _src, box, dice, expected = case
    assert natural_score(box, list(dice)) == expected


@pytest.mark.parametrize("rules", ["hasbro", "classic", "travel"])
def test_legal_options_on_an_empty_card_offer_the_published_score(rules: str) -> None:
    rs = get_rules(rules)
    wrong = []
    for src, box, dice, expected in CASES:
        option = legal_options(rs, {}, list(dice)).for_box(box)
        if not option.allowed or expected not in option.values:
            wrong.append((src, box.value, dice, expected, option.values))
    assert not wrong, wrong
