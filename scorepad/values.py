"""What each box can hold on a finished card, and which values need five of a kind.

Derived from the natural-score table in ``scoring`` (never listed by hand), so a
rule option such as ``five_of_a_kind_full_house`` flows through automatically.
"""

from __future__ import annotations

from functools import lru_cache

from .boxes import ALL_BOXES, Box
from .rules import RuleSet
from .scoring import ALL_ROLLS, is_yahtzee, natural_scores


def zero_allowed(rules: RuleSet, box: Box) -> bool:
    """A zero may be written here on an ordinary turn (001 line 65; Chance is an option)."""
    return box is not Box.CHANCE or rules.zero_in_chance


@lru_cache(maxsize=64)
def _value_tables(rules: RuleSet) -> tuple[dict[Box, frozenset[int]], dict[Box, frozenset[int]]]:
    plain: dict[Box, set[int]] = {b: set() for b in ALL_BOXES}
    five_kind: dict[Box, set[int]] = {b: set() for b in ALL_BOXES}
    for dice in ALL_ROLLS:
        target = five_kind if is_yahtzee(dice) else plain
        for box, score in natural_scores(dice, rules.five_of_a_kind_full_house).items():
            if score or zero_allowed(rules, box):
                target[box].add(score)
    for box in ALL_BOXES:
        if zero_allowed(rules, box):
            plain[box].add(0)
    return ({b: frozenset(v) for b, v in plain.items()},
            {b: frozenset(v) for b, v in five_kind.items()})


def possible_values(rules: RuleSet, box: Box) -> frozenset[int]:
    """Every value some legal turn can write in ``box`` under ``rules``.

    Joker values add nothing new: FH 25 / SS 30 / LS 40 and the dice totals of
    five of a kind are already natural values of some roll.
    """
    return possible_table(rules)[box]


@lru_cache(maxsize=64)
def possible_table(rules: RuleSet) -> dict[Box, frozenset[int]]:
    """``possible_values`` for every box at once (one cache look-up per card)."""
    plain, five_kind = _value_tables(rules)
    return {b: plain[b] | five_kind[b] for b in ALL_BOXES}


def needs_five_of_a_kind(rules: RuleSet, box: Box, value: int) -> bool:
    """True when only a five-of-a-kind roll scores ``value`` in ``box`` (e.g. 30 in 4 of a kind)."""
    plain, five_kind = _value_tables(rules)
    return value not in plain[box] and value in five_kind[box]
