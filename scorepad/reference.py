"""Reference figures for optimal solitaire Yahtzee (the strategy maximising the mean score).

Sources:

- Tom Verhoeff, "How to Maximize Your Score in Solitaire Yahtzee" (Eindhoven
  University of Technology, 1999) and his "Optimal Solitaire Yahtzee Player"
  pages (www-set.win.tue.nl/~wstomv/misc/yahtzee/): maximum expected score
  254.5896 under the official rules with Yahtzee bonuses and jokers; standard
  deviation 59.61; upper bonus in 68.1 % of games; and the per-box mean scores
  below (his OSYP statistics table).
- James Glenn, "An Optimal Strategy for Yahtzee" (Loyola College in Maryland,
  CS-TR-0002, 2006) and "Computer Strategies for Solitaire Yahtzee" (IEEE CIG
  2007) confirm the optimum: 254.59 with bonuses and jokers, 245.87 without.

Consistency check of the per-box table (done in tests/api/test_stats.py): the
upper boxes (62.77) plus the expected bonus (23.84 = 35 x 0.681) plus the lower
boxes (158.40) plus the expected Yahtzee bonus points (9.58) add up to 254.59.
"""

from __future__ import annotations

from typing import Any

from .boxes import Box

MEAN = 254.59
SD = 59.61
UPPER_BONUS_RATE = 0.681
EXPECTED_UPPER_BONUS_POINTS = 23.84
EXPECTED_YAHTZEE_BONUS_POINTS = 9.58

# Mean score in each box under optimal solitaire play (Verhoeff, OSYP statistics).
BOX_MEANS: dict[Box, float] = {
    Box.ACES: 1.88,
    Box.TWOS: 5.28,
    Box.THREES: 8.57,
    Box.FOURS: 12.16,
    Box.FIVES: 15.69,
    Box.SIXES: 19.19,
    Box.THREE_OF_A_KIND: 21.66,
    Box.FOUR_OF_A_KIND: 13.10,
    Box.FULL_HOUSE: 22.59,
    Box.SMALL_STRAIGHT: 29.46,
    Box.LARGE_STRAIGHT: 32.71,
    Box.YAHTZEE: 16.87,
    Box.CHANCE: 22.01,
}

SOURCES = [
    "T. Verhoeff, How to Maximize Your Score in Solitaire Yahtzee (TU Eindhoven, 1999); "
    "Optimal Solitaire Yahtzee Player statistics, www-set.win.tue.nl/~wstomv/misc/yahtzee/",
    "J. Glenn, An Optimal Strategy for Yahtzee, Loyola College in Maryland CS-TR-0002 (2006)",
]


def as_dict() -> dict[str, Any]:
    return {
        "strategy": "optimal solitaire play (maximum expected score), official rules",
        "mean": MEAN,
        "sd": SD,
        "upper_bonus_rate": UPPER_BONUS_RATE,
        "yahtzees_per_game": round(BOX_MEANS[Box.YAHTZEE] / 50, 4),
        "bonus_yahtzees_per_game": round(EXPECTED_YAHTZEE_BONUS_POINTS / 100, 4),
        "box_means": {b.value: v for b, v in BOX_MEANS.items()},
        "sources": SOURCES,
    }
