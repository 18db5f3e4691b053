"""The printed pad's rows as the score pages show them: label, HOW TO SCORE hint, kind.

One table in the core (001's pad order); the numbers that are rule-set fields (the upper
bonus threshold and bonus, the Yahtzee bonus per check) come from the rule set, so a
house rule shows its own. ``api/web/pad.py`` builds the on-screen pad from it.
(``ocr/layout.py`` is the reader's geometry of the printed card, with the card's own
capitalisation.)
"""

from __future__ import annotations

from dataclasses import dataclass

from .boxes import LABELS, LOWER, UPPER, Box, TotalField
from .rules import RuleSet, get_rules
from .sheetspec import CHECKS_KEY

# The pad's "HOW TO SCORE" column for the thirteen boxes.
BOX_HINTS: dict[Box, str] = {
    Box.ACES: "Count and add only Aces", Box.TWOS: "Count and add only Twos",
    Box.THREES: "Count and add only Threes", Box.FOURS: "Count and add only Fours",
    Box.FIVES: "Count and add only Fives", Box.SIXES: "Count and add only Sixes",
    Box.THREE_OF_A_KIND: "Add total of all dice", Box.FOUR_OF_A_KIND: "Add total of all dice",
    Box.FULL_HOUSE: "Score 25", Box.SMALL_STRAIGHT: "Score 30 (sequence of 4)",
    Box.LARGE_STRAIGHT: "Score 40 (sequence of 5)", Box.YAHTZEE: "Score 50 (5 of a kind)",
    Box.CHANCE: "Score total of all 5 dice",
}


@dataclass(frozen=True)
class PadRow:
    key: str  # sheet key: a box, a total or "yahtzee_bonus_checks"
    label: str  # as printed on the pad
    hint: str  # the pad's "HOW TO SCORE" column
    kind: str  # box, total, checks
    section: str  # upper, lower


def pad_rows(rules: RuleSet | str | None = None) -> tuple[PadRow, ...]:
    """The front of the pad, top to bottom, with the rule set's numbers in the hints."""
    rs = rules if isinstance(rules, RuleSet) else get_rules(rules)
    T = TotalField
    return (
        *(PadRow(b.value, LABELS[b], BOX_HINTS[b], "box", "upper") for b in UPPER),
        PadRow(T.UPPER_SUBTOTAL.value, "TOTAL SCORE", "→", "total", "upper"),
        PadRow(T.UPPER_BONUS.value, "BONUS",
               f"If total score is {rs.upper_bonus_threshold} or over", "total", "upper"),
        PadRow(T.UPPER_TOTAL.value, "TOTAL", "Of upper section", "total", "upper"),
        *(PadRow(b.value, LABELS[b], BOX_HINTS[b], "box", "lower") for b in LOWER),
        PadRow(CHECKS_KEY, "YAHTZEE BONUS", "✓ for each bonus", "checks", "lower"),
        PadRow(T.YAHTZEE_BONUS.value, "BONUS points", f"Score {rs.yahtzee_bonus} per ✓",
               "total", "lower"),
        PadRow(T.LOWER_TOTAL.value, "TOTAL", "Of lower section", "total", "lower"),
        PadRow(T.UPPER_TOTAL_REPEAT.value, "TOTAL", "Of upper section", "total", "lower"),
        PadRow(T.GRAND_TOTAL.value, "GRAND TOTAL", "→", "total", "lower"),
    )
