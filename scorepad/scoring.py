"""Natural scores of five dice in each box (the table every book agrees on)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement

from .boxes import ALL_BOXES, Box

Dice = tuple[int, int, int, int, int]

ALL_ROLLS: tuple[Dice, ...] = tuple(
    combinations_with_replacement(range(1, 7), 5)
)


class DiceError(ValueError):
    """Not five dice showing 1..6."""


def parse_dice(spec: str | Iterable[int]) -> Dice:
    """``"66666"``, ``"6 6 6 6 6"``, ``"6,6,6,6,6"`` or a list of ints -> sorted dice."""
    if isinstance(spec, str):
        digits = [c for c in spec if not c.isspace() and c != ","]
        if not all(c.isdigit() for c in digits):
            raise DiceError(f"dice must be digits 1-6, got {spec!r}")
        values = [int(c) for c in digits]
    else:
        values = list(spec)
    if len(values) != 5:
        raise DiceError(f"a roll is five dice, got {len(values)}")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise DiceError(f"each die shows 1-6, got {v!r}")
    return tuple(sorted(values))  # type: ignore[return-value]


def is_yahtzee(dice: Sequence[int]) -> bool:
    return len(set(dice)) == 1


def _has_run(faces: set[int], length: int) -> bool:
    return any(all(f + i in faces for i in range(length)) for f in range(1, 8 - length))


@cache
def _scores(dice: Dice, five_kind_full_house: bool) -> tuple[int, ...]:
    counts = Counter(dice)
    total = sum(dice)
    most = max(counts.values())
    faces = set(dice)
    full_house = sorted(counts.values()) == [2, 3] or (five_kind_full_house and most == 5)
    return (
        *(face * counts[face] for face in range(1, 7)),
        total if most >= 3 else 0,
        total if most >= 4 else 0,
        25 if full_house else 0,
        30 if _has_run(faces, 4) else 0,
        40 if _has_run(faces, 5) else 0,
        50 if most == 5 else 0,
        total,
    )


def natural_scores(dice: Sequence[int], five_kind_full_house: bool = False) -> dict[Box, int]:
    """The score of ``dice`` in every box, ignoring jokers."""
    key: Dice = tuple(sorted(dice))  # type: ignore[assignment]
    return dict(zip(ALL_BOXES, _scores(key, five_kind_full_house), strict=True))


def natural_score(box: Box, dice: Sequence[int], five_kind_full_house: bool = False) -> int:
    key: Dice = tuple(sorted(dice))  # type: ignore[assignment]
    return _scores(key, five_kind_full_house)[ALL_BOXES.index(box)]


# Joker values of a five-of-a-kind of ``face`` in the lower boxes (001 lines 146-158).
def joker_value(box: Box, face: int) -> int:
    if box is Box.FULL_HOUSE:
        return 25
    if box is Box.SMALL_STRAIGHT:
        return 30
    if box is Box.LARGE_STRAIGHT:
        return 40
    if box is Box.YAHTZEE:
        return 50
    if box.is_upper:
        return 5 * face if box.face == face else 0
    return 5 * face  # 3K, 4K, Chance: the dice total
