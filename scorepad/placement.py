"""Where a roll may be written: every legal placement, with the rule behind it.

This module is the one source of truth for what is legal on a single turn; the
card audit, the turn-log audit and the ``options`` command all ask it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .boxes import ALL_BOXES, JOKER_LOWER, UPPER, Box, upper_box
from .rules import Citation, JokerRule, RuleSet
from .scoring import is_yahtzee, joker_value, natural_scores
from .values import zero_allowed

# Reason codes (stable; wording lives in messages.py).
NATURAL = "NATURAL"  # the dice's own score in this box
ZERO = "ZERO"  # a zero instead of a score
JOKER = "JOKER"  # a joker value (FH 25, SS 30, LS 40, 3K/4K/Chance total)
JOKER_UPPER = "JOKER_UPPER"  # a joker must go in its own upper box, which is open
JOKER_UPPER_ZERO = "JOKER_UPPER_ZERO"  # upper box and lower section full: zero in an upper box
BOX_FILLED = "BOX_FILLED"
FORBIDDEN_UPPER_FIRST = "FORBIDDEN_UPPER_FIRST"  # forced joker: the matching upper box is open
FORBIDDEN_PRIORITY = "FORBIDDEN_PRIORITY"  # classic joker: an earlier step still has room
FORBIDDEN_LOWER_OPEN = "FORBIDDEN_LOWER_OPEN"  # forced joker: a lower box is still open
ZERO_NOT_ALLOWED = "ZERO_NOT_ALLOWED"  # e.g. a zero in Chance under classic rules


@dataclass(frozen=True)
class Option:
    """What one box may take for this roll."""

    box: Box
    allowed: bool
    values: tuple[int, ...]  # allowed values, best first; empty when not allowed
    reason: str
    citations: tuple[Citation, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "box": self.box.value,
            "allowed": self.allowed,
            "values": list(self.values),
            "reason": self.reason,
            "rule": [str(c) for c in self.citations],
        }


@dataclass(frozen=True)
class Options:
    """Every box's answer for one roll on one card."""

    rules: RuleSet
    dice: tuple[int, ...]
    joker: bool  # a Yahtzee rolled with the YAHTZEE box already filled
    bonus: bool  # this roll earns a Yahtzee bonus check (100 points)
    options: tuple[Option, ...]

    def legal(self) -> list[tuple[Box, int]]:
        return [(o.box, v) for o in self.options if o.allowed for v in o.values]

    def for_box(self, box: Box) -> Option:
        return next(o for o in self.options if o.box is box)


def _natural(rules: RuleSet, box: Box, score: int) -> tuple[tuple[int, ...], str]:
    if score == 0:
        if zero_allowed(rules, box):
            return (0,), ZERO
        return (), ZERO_NOT_ALLOWED
    return ((score, 0) if zero_allowed(rules, box) else (score,)), NATURAL


def _joker_lower(rules: RuleSet, box: Box, face: int) -> tuple[int, ...]:
    value = joker_value(box, face)
    return (value, 0) if rules.joker_zero and zero_allowed(rules, box) else (value,)


def allowed_values(
    rules: RuleSet, open_boxes: frozenset[Box], yahtzee_box: int | None, dice: Sequence[int]
) -> dict[Box, tuple[tuple[int, ...], str]]:
    """For each open box: (allowed values, reason code). An empty tuple means forbidden.

    ``yahtzee_box`` is the value in the YAHTZEE box (None while it is open).
    """
    naturals = natural_scores(dice, rules.five_of_a_kind_full_house)
    joker = is_yahtzee(dice) and yahtzee_box is not None and rules.joker is not JokerRule.NONE
    result: dict[Box, tuple[tuple[int, ...], str]] = {}
    if not joker:
        for box in ALL_BOXES:
            if box in open_boxes:
                result[box] = _natural(rules, box, naturals[box])
        return result

    face = dice[0]
    own = upper_box(face)
    lower_open = [b for b in JOKER_LOWER if b in open_boxes]
    if rules.joker is JokerRule.CONDITIONAL:
        # 004 178-194: natural placements (or zeros, 004 66) always; FH/SS/LS at joker values
        # only once the matching upper box is filled.
        for box in ALL_BOXES:
            if box not in open_boxes:
                continue
            if box in (Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT) and own not in open_boxes:
                result[box] = _joker_lower(rules, box, face), JOKER
            else:
                result[box] = _natural(rules, box, naturals[box])
        return result

    # Forced (001) and priority (003) jokers: the matching upper box first.
    if own in open_boxes:
        for box in ALL_BOXES:
            if box in open_boxes:
                result[box] = ((5 * face,), JOKER_UPPER) if box is own else ((), FORBIDDEN_UPPER_FIRST)
        return result
    if lower_open:
        allowed_lower = set(lower_open)
        if rules.joker is JokerRule.PRIORITY:
            # 003 108-112: 3K/4K before Chance and the stolen combinations.
            kinds = [b for b in lower_open if b in (Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND)]
            allowed_lower = set(kinds or lower_open)
        for box in ALL_BOXES:
            if box not in open_boxes:
                continue
            if box in allowed_lower:
                result[box] = _joker_lower(rules, box, face), JOKER
            elif box.is_upper:
                result[box] = (), FORBIDDEN_LOWER_OPEN
            else:
                result[box] = (), FORBIDDEN_PRIORITY
        return result
    for box in UPPER:  # 001 160: a zero in any open upper box
        if box in open_boxes:
            result[box] = (0,), JOKER_UPPER_ZERO
    return result


def _citations(rules: RuleSet, reason: str) -> tuple[Citation, ...]:
    if reason in (JOKER, JOKER_UPPER, JOKER_UPPER_ZERO, FORBIDDEN_UPPER_FIRST,
                  FORBIDDEN_PRIORITY, FORBIDDEN_LOWER_OPEN):
        return rules.cite("joker")
    if reason == ZERO_NOT_ALLOWED:
        return rules.cite("zero_in_chance")
    if reason == ZERO:
        return rules.cite("zero")
    if reason == BOX_FILLED:
        return rules.cite("turn")
    return rules.cite("box_values")


def legal_options(
    rules: RuleSet, boxes: Mapping[Box, int | None], dice: Sequence[int]
) -> Options:
    """Answer "where can this roll go?" for a card in progress (``boxes``: filled values)."""
    filled = {b for b, v in boxes.items() if v is not None}
    open_boxes = frozenset(b for b in ALL_BOXES if b not in filled)
    yahtzee_box = boxes.get(Box.YAHTZEE)
    allowed = allowed_values(rules, open_boxes, yahtzee_box, dice)
    joker = is_yahtzee(dice) and yahtzee_box is not None
    bonus = is_yahtzee(dice) and yahtzee_box == 50 and rules.yahtzee_bonus > 0
    options = []
    for box in ALL_BOXES:
        if box not in open_boxes:
            options.append(Option(box, False, (), BOX_FILLED, _citations(rules, BOX_FILLED)))
            continue
        values, reason = allowed[box]
        options.append(Option(box, bool(values), values, reason, _citations(rules, reason)))
    return Options(rules, tuple(sorted(dice)), joker, bonus, tuple(options))
