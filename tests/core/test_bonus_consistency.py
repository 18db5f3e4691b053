"""bonus.bonus_options restates placement.allowed_values as preconditions; check they agree.

And an exhaustive oracle built on placement.allowed_values (a forward search over
every order of turns) agrees with the audit on random small cards with bonus checks.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from scorepad import ALL_BOXES, Box, Code, Game, audit_game, get_rules
from scorepad.bonus import bonus_options
from scorepad.placement import allowed_values
from scorepad.rules import RuleSet
from scorepad.values import needs_five_of_a_kind, possible_values

RULES = [
    get_rules("hasbro"),
    get_rules("classic"),
    get_rules("travel"),
    get_rules({"base": "hasbro", "joker_zero": False, "name": "hasbro-nozero"}),
    get_rules({"base": "travel", "five_of_a_kind_full_house": True, "name": "travel-fh"}),
    get_rules({"base": "hasbro", "joker": "none", "name": "nojoker"}),
]
OTHERS = [b for b in ALL_BOXES if b is not Box.YAHTZEE]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_bonus_options_match_allowed_values(rules: RuleSet) -> None:
    rng = random.Random(7)
    masks = {0, (1 << 12) - 1} | {rng.getrandbits(12) for _ in range(300)}
    for mask in masks:
        filled = {b for i, b in enumerate(OTHERS) if mask >> i & 1}
        open_boxes = frozenset(b for b in OTHERS if b not in filled)
        for face in range(1, 7):
            allowed = allowed_values(rules, open_boxes, 50, (face,) * 5)
            for box in open_boxes:
                expect = set(allowed[box][0])
                got = {v for f, v, needs in bonus_options(rules, box)
                       if f == face and all(not (needs & b.bit) for b in open_boxes)}
                assert got == expect, (rules.name, box, face, sorted(filled))


def _oracle(rules: RuleSet, card: dict[Box, int], checks: int) -> bool:
    """Is there an order of turns producing ``card`` with exactly ``checks`` bonus Yahtzees?"""
    boxes = list(card)

    @cache
    def reach(mask: int, bonuses: int) -> bool:
        if mask == (1 << len(boxes)) - 1:
            return bonuses == checks
        filled = {boxes[i]: card[boxes[i]] for i in range(len(boxes)) if mask >> i & 1}
        open_boxes = frozenset(b for b in ALL_BOXES if b not in filled)
        for i, box in enumerate(boxes):
            if mask >> i & 1:
                continue
            v = card[box]
            # an ordinary (not five-of-a-kind) roll can write v here
            if v in possible_values(rules, box) and not needs_five_of_a_kind(rules, box, v) \
                    and reach(mask | 1 << i, bonuses):
                return True
            for face in range(1, 7):
                vals, _ = allowed_values(rules, open_boxes, filled.get(Box.YAHTZEE), (face,) * 5)[box]
                if v in vals:
                    bonus = filled.get(Box.YAHTZEE) == 50 and rules.yahtzee_bonus > 0
                    if bonuses + bonus <= checks and reach(mask | 1 << i, bonuses + bonus):
                        return True
        return False

    return reach(0, 0)


VALUES = {b: [0, 5 * b.face] if b.face else [] for b in ALL_BOXES}
for _b, _v in ((Box.THREE_OF_A_KIND, [0, 10, 25, 30]), (Box.FOUR_OF_A_KIND, [0, 15, 30]),
               (Box.FULL_HOUSE, [0, 25]), (Box.SMALL_STRAIGHT, [0, 30]),
               (Box.LARGE_STRAIGHT, [0, 40]), (Box.CHANCE, [0, 20, 30])):
    VALUES[_b] = _v


@pytest.mark.parametrize("rules", RULES[:4], ids=lambda r: r.name)
def test_audit_matches_exhaustive_oracle(rules: RuleSet) -> None:
    rng = random.Random(11)
    disagreements = []
    for _ in range(150):
        chosen = rng.sample(OTHERS, rng.randint(3, 7))
        card = {b: rng.choice(VALUES[b]) for b in chosen}
        card[Box.YAHTZEE] = 50
        checks = rng.randint(1, len(chosen))
        report = audit_game(Game(boxes=dict(card), bonus_checks=checks), rules)
        flagged = Code.BONUS_CHECKS_UNSUPPORTED in {f.code for f in report.findings}
        box_bad = Code.BOX_VALUE_IMPOSSIBLE in {f.code for f in report.findings}
        legal = _oracle(rules, card, checks)
        if box_bad:
            assert not legal
            continue
        if flagged == legal:
            disagreements.append((card, checks, legal))
    assert not disagreements, disagreements[:5]
