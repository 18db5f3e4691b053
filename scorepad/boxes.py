"""The thirteen scoring boxes of a Yahtzee card and the pad's total boxes."""

from __future__ import annotations

from enum import Enum


class Box(str, Enum):
    """A scoring box; the value is the key used in sheet JSON."""

    ACES = "aces"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    YAHTZEE = "yahtzee"
    CHANCE = "chance"

    @property
    def is_upper(self) -> bool:
        return self in UPPER

    @property
    def face(self) -> int | None:
        """The die face an upper box counts (1..6); None for lower boxes."""
        return UPPER.index(self) + 1 if self in UPPER else None

    @property
    def label(self) -> str:
        return LABELS[self]

    @property
    def bit(self) -> int:
        return 1 << ALL_BOXES.index(self)


ALL_BOXES: tuple[Box, ...] = tuple(Box)
UPPER: tuple[Box, ...] = ALL_BOXES[:6]
LOWER: tuple[Box, ...] = ALL_BOXES[6:]

# Lower boxes other than YAHTZEE: the ones a joker can fill.
JOKER_LOWER: tuple[Box, ...] = tuple(b for b in LOWER if b is not Box.YAHTZEE)


def upper_box(face: int) -> Box:
    """The upper box that counts ``face`` (1..6)."""
    return UPPER[face - 1]


def box_from_key(key: str) -> Box:
    """Look a box up by its JSON key or a common alias; raises KeyError."""
    k = key.strip().lower().replace(" ", "_").replace("-", "_").replace(".", "")
    return _ALIASES.get(k) or Box(k)


# The labels printed on the official pad (001).
LABELS: dict[Box, str] = {
    Box.ACES: "Aces",
    Box.TWOS: "Twos",
    Box.THREES: "Threes",
    Box.FOURS: "Fours",
    Box.FIVES: "Fives",
    Box.SIXES: "Sixes",
    Box.THREE_OF_A_KIND: "3 of a kind",
    Box.FOUR_OF_A_KIND: "4 of a kind",
    Box.FULL_HOUSE: "Full House",
    Box.SMALL_STRAIGHT: "Sm. Straight",
    Box.LARGE_STRAIGHT: "Lg. Straight",
    Box.YAHTZEE: "YAHTZEE",
    Box.CHANCE: "Chance",
}

_ALIASES: dict[str, Box] = {
    "ones": Box.ACES,
    "1s": Box.ACES,
    "2s": Box.TWOS,
    "3s": Box.THREES,
    "4s": Box.FOURS,
    "5s": Box.FIVES,
    "6s": Box.SIXES,
    "3k": Box.THREE_OF_A_KIND,
    "3_of_a_kind": Box.THREE_OF_A_KIND,
    "three_kind": Box.THREE_OF_A_KIND,
    "4k": Box.FOUR_OF_A_KIND,
    "4_of_a_kind": Box.FOUR_OF_A_KIND,
    "four_kind": Box.FOUR_OF_A_KIND,
    "fh": Box.FULL_HOUSE,
    "ss": Box.SMALL_STRAIGHT,
    "sm_straight": Box.SMALL_STRAIGHT,
    "ls": Box.LARGE_STRAIGHT,
    "lg_straight": Box.LARGE_STRAIGHT,
}


class TotalField(str, Enum):
    """The total boxes printed on the pad, top to bottom (001 lines 168-172)."""

    UPPER_SUBTOTAL = "upper_total_score"  # TOTAL SCORE
    UPPER_BONUS = "upper_bonus"  # BONUS
    UPPER_TOTAL = "upper_total"  # TOTAL of upper section
    YAHTZEE_BONUS = "yahtzee_bonus"  # YAHTZEE BONUS points (100 per check)
    LOWER_TOTAL = "lower_total"  # TOTAL of lower section
    UPPER_TOTAL_REPEAT = "upper_total_repeat"  # TOTAL of upper section, repeated
    GRAND_TOTAL = "grand_total"  # GRAND TOTAL

    @property
    def label(self) -> str:
        return TOTAL_LABELS[self]


TOTAL_LABELS: dict[TotalField, str] = {
    TotalField.UPPER_SUBTOTAL: "TOTAL SCORE (upper)",
    TotalField.UPPER_BONUS: "BONUS",
    TotalField.UPPER_TOTAL: "TOTAL of upper section",
    TotalField.YAHTZEE_BONUS: "YAHTZEE BONUS points",
    TotalField.LOWER_TOTAL: "TOTAL of lower section",
    TotalField.UPPER_TOTAL_REPEAT: "TOTAL of upper section (repeated)",
    TotalField.GRAND_TOTAL: "GRAND TOTAL",
}
