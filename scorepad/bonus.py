"""Can k Yahtzee-bonus check marks stand on this card? An exact answer with a witness.

Each check is a Yahtzee rolled after 50 went into the YAHTZEE box, and that roll
filled one other box under the rule set's joker rule. Which boxes a bonus
Yahtzee may fill depends on which boxes were already filled, so order matters.

Two facts make the search small and exact:
* Each joker permission only asks that certain boxes be *filled already*, so it
  is monotone: more filled boxes never forbid a placement. Hence every turn that
  is not a bonus turn can be played first (a value that needs five of a kind is
  scored while the YAHTZEE box is still open), then the YAHTZEE box, then the
  bonus turns.
* A bonus placement with no precondition (e.g. five 4s into an open Fours box)
  can always go first among the bonus turns, so such boxes are taken greedily.
What remains is a search for an order of the other bonus boxes, memoised on the
set of boxes placed after the current one (at most 2**12 sets).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from .boxes import ALL_BOXES, JOKER_LOWER, Box, upper_box
from .rules import JokerRule, RuleSet
from .scoring import joker_value, natural_score
from .values import zero_allowed

_LOWER_MASK = sum(b.bit for b in JOKER_LOWER)
_KINDS_MASK = Box.THREE_OF_A_KIND.bit | Box.FOUR_OF_A_KIND.bit


@lru_cache(maxsize=4096)
def bonus_options(rules: RuleSet, box: Box) -> tuple[tuple[int, int, int], ...]:
    """(face, value, boxes that must already be filled) for a bonus Yahtzee written in ``box``.

    This restates ``placement.allowed_values`` as minimal preconditions; a test
    checks the two agree on every state.
    """
    out: list[tuple[int, int, int]] = []
    for face in range(1, 7):
        own = upper_box(face)
        five = (face,) * 5

        def add(values: tuple[int, ...], needs: int, face: int = face) -> None:
            for v in values:
                out.append((face, v, needs))

        def joker_values(b: Box, face: int = face) -> tuple[int, ...]:
            v = joker_value(b, face)
            return (v, 0) if rules.joker_zero and zero_allowed(rules, b) else (v,)

        def natural(b: Box, five: tuple[int, ...] = five) -> tuple[int, ...]:
            v = natural_score(b, five, rules.five_of_a_kind_full_house)
            return (v, 0) if v and zero_allowed(rules, b) else ((v,) if v or zero_allowed(rules, b) else ())

        if box is Box.YAHTZEE:
            continue
        if rules.joker in (JokerRule.FORCED, JokerRule.PRIORITY):
            if box is own:
                add((5 * face,), 0)
            elif box.is_upper:
                add((0,), own.bit | _LOWER_MASK)
            elif rules.joker is JokerRule.PRIORITY and box not in (
                Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND
            ):
                add(joker_values(box), own.bit | _KINDS_MASK)
            else:
                add(joker_values(box), own.bit)
        elif rules.joker is JokerRule.CONDITIONAL:
            add(natural(box), 0)
            if box in (Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT):
                add(joker_values(box), own.bit)
        else:  # no joker: the roll scores what it naturally is
            add(natural(box), 0)
    return tuple(out)


@dataclass(frozen=True)
class BonusPlan:
    """One legal order of the bonus turns: (box, face of the Yahtzee) in play order."""

    turns: tuple[tuple[Box, int], ...]


@lru_cache(maxsize=64)
def _alternative_table(rules: RuleSet) -> dict[Box, dict[int, dict[int, int]]]:
    """box -> value -> {needs-mask: a face that works with it}, for a bonus Yahtzee."""
    table: dict[Box, dict[int, dict[int, int]]] = {}
    for box in ALL_BOXES:
        by_value: dict[int, dict[int, int]] = {}
        for face, v, needs in bonus_options(rules, box):
            by_value.setdefault(v, {}).setdefault(needs, face)
        table[box] = by_value
    return table


_BIT: dict[Box, int] = {b: b.bit for b in ALL_BOXES}

# A candidate bonus box during the search: (its bit, the needs-masks that would let it be played).
_Cand = tuple[int, tuple[int, ...]]


def _greedy(cands: list[_Cand], never_filled: int) -> list[int] | None:
    """Play every candidate as a bonus turn, each as soon as it is allowed (indices in play
    order); None if stuck. Exact for a fixed set: permissions only grow as boxes fill, so
    playing an allowed box early never hurts."""
    open_mask = never_filled
    for bit, _ in cands:
        open_mask |= bit
    left, order = list(range(len(cands))), []
    while left:
        for i in left:
            if any(not (needs & open_mask) for needs in cands[i][1]):
                order.append(i)
                left.remove(i)
                open_mask &= ~cands[i][0]
                break
        else:
            return None
    return order


def _chain(cands: list[_Cand], need: int, never_filled: int) -> list[int] | None:
    """``need`` candidates in reverse play order, each playable while the ones after it (and
    the never-filled boxes) are still open; None when there is none."""
    failed: set[int] = set()

    def extend(chain: list[int], later: int) -> bool:
        if len(chain) == need:
            return True
        if later in failed:
            return False
        blocked = later | never_filled
        options = [i for i, (bit, alts) in enumerate(cands)
                   if not bit & later and any(not (needs & blocked) for needs in alts)]
        # Placing more boxes later only blocks more, so today's options bound the chain.
        if len(chain) + len(options) >= need:
            for i in options:
                chain.append(i)
                if extend(chain, later | cands[i][0]):
                    return True
                chain.pop()
        failed.add(later)
        return False

    chain: list[int] = []
    return chain if extend(chain, 0) else None


def plan_bonus_turns(rules: RuleSet, filled: Mapping[Box, int], checks: int) -> tuple[BonusPlan | None, int]:
    """Find a legal order for ``checks`` bonus Yahtzees on a card whose YAHTZEE box holds 50.

    Returns (plan, most checks this card can carry); plan is None when ``checks``
    is more than that.
    """
    never_filled = 0
    for b in ALL_BOXES:
        if b not in filled:
            never_filled |= _BIT[b]
    table = _alternative_table(rules)
    alts: dict[Box, dict[int, int]] = {}
    for box, value in filled.items():
        if box is Box.YAHTZEE:
            continue
        # Keep only alternatives whose preconditions can ever be met on this card.
        a = {needs: face for needs, face in table[box].get(value, {}).items()
             if not needs & never_filled}
        if a:
            alts[box] = a
    # Boxes holding points first, so the witness shows the natural story (a zero last).
    ordered = sorted((b for b in ALL_BOXES if b in alts), key=lambda b: filled[b] == 0)
    free = [b for b in ordered if 0 in alts[b]]
    rest = [b for b in ordered if 0 not in alts[b]]
    if checks <= len(free):
        return BonusPlan(tuple((b, alts[b][0]) for b in free[:checks])), len(free) + len(rest)
    cands: list[_Cand] = [(_BIT[b], tuple(alts[b])) for b in rest]
    need = checks - len(free)
    chain: list[int] | None = None
    if need <= len(rest):
        # Fast path: play every remaining candidate greedily; exact when all of them are needed.
        greedy = _greedy(cands, never_filled)
        if greedy is not None:
            chain = list(reversed(greedy[:need]))
        elif need < len(rest):
            chain = _chain(cands, need, never_filled)
    if chain is None:
        top = min(need, len(rest)) - (1 if need <= len(rest) else 0)
        most = next(m for m in range(top, -1, -1) if _chain(cands, m, never_filled) is not None)
        return None, len(free) + most
    # Free boxes first, then the chain in play order (it was built from the last turn back).
    order: list[tuple[Box, int]] = [(b, alts[b][0]) for b in free]
    later = 0
    played: list[tuple[Box, int]] = []
    for i in chain:
        box = rest[i]
        blocked = later | never_filled | _BIT[box]
        face = next(f for needs, f in alts[box].items() if not needs & blocked)
        played.append((box, face))
        later |= _BIT[box]
    order.extend(reversed(played))
    return BonusPlan(tuple(order)), checks


def max_bonus_checks(rules: RuleSet, filled: Mapping[Box, int]) -> int:
    """The most bonus checks a card with these boxes (and 50 in YAHTZEE) can carry."""
    _, most = plan_bonus_turns(rules, filled, len(ALL_BOXES))
    return most


__all__ = ["BonusPlan", "bonus_options", "max_bonus_checks", "plan_bonus_turns"]
