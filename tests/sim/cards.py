"""Single-card sheets, card mutations and random small cards for the exactness tests."""

from __future__ import annotations

import random
from typing import Any

from .model import CH, FH, K3, K4, KEYS, LS, SS, TOTAL_KEYS, UPPER, Cfg, Y, totals

# Finding codes that judge the card itself (box values, check marks and their order).
CARD_CODES = frozenset({
    "BOX_VALUE_IMPOSSIBLE",
    "BONUS_CHECKS_WITHOUT_YAHTZEE_50",
    "BONUS_CHECKS_NOT_IN_RULES",
    "BONUS_CHECKS_UNSUPPORTED",
})
TOTAL_CODES = frozenset({
    "TOTAL_ARITHMETIC",
    "UPPER_BONUS_WRONG",
    "YAHTZEE_BONUS_POINTS_WRONG",
})


def card_sheet(
    boxes: dict[int, int], checks: int, rules_json: Any, cfg: Cfg,
    written: dict[str, int | None] | None = None,
) -> dict[str, Any]:
    """A one-player, one-game sheet; totals written correctly unless ``written`` is given."""
    if written is None:
        written = dict(totals(boxes, checks, cfg)) if len(boxes) == 13 else {}
    game = {
        "boxes": {k: boxes.get(i) for i, k in enumerate(KEYS)},
        "yahtzee_bonus_checks": checks,
        "totals": {k: written.get(k) for k in TOTAL_KEYS},
    }
    return {"format": "scorepad/sheet@1", "rules": rules_json,
            "players": [{"name": "A", "games": [game]}]}


def show(boxes: dict[int, int], checks: int) -> str:
    """A compact card: 'aces=5 ... yahtzee=50 | checks=2'."""
    parts = [f"{KEYS[b]}={boxes[b]}" for b in sorted(boxes)]
    return " ".join(parts) + f" | checks={checks}"


def candidate_values(rng: random.Random, box: int) -> int:
    """A value worth trying in ``box``: legal ones, joker ones and near misses."""
    if box in UPPER:
        f = box + 1
        return rng.choice([0, f, 2 * f, 3 * f, 4 * f, 5 * f, 5 * f, 6 * f, f * rng.randint(0, 5) + 1])
    if box in (K3, K4, CH):
        return rng.choice([0, 5, 10, 15, 20, 25, 30, rng.randint(0, 31), rng.randint(4, 31)])
    if box in (FH, SS, LS):
        return rng.choice([0, 25, 30, 40, 50, 20])
    if box == Y:
        return rng.choice([0, 50, 50, 100, 25])
    raise ValueError(box)


def mutate_card(
    rng: random.Random, boxes: dict[int, int], checks: int
) -> tuple[dict[int, int], int, str]:
    """One change: a box value, an emptied box, or the check count."""
    boxes = dict(boxes)
    r = rng.random()
    if r < 0.25:
        new = rng.choice([checks + 1, checks - 1, checks + 2, rng.randint(0, 4)])
        checks = max(0, new)
        return boxes, checks, "checks"
    if r < 0.32 and boxes:
        b = rng.choice(sorted(boxes))
        del boxes[b]
        return boxes, checks, f"empty {KEYS[b]}"
    b = rng.randrange(13)
    old = boxes.get(b)
    for _ in range(10):
        v = candidate_values(rng, b)
        if v != old:
            break
    boxes[b] = v
    return boxes, checks, f"{KEYS[b]}: {old} -> {v}"


def random_bonus_card(rng: random.Random) -> tuple[dict[int, int], int]:
    """A small card (in progress) with 50 in YAHTZEE and bonus checks, built from the values a
    bonus Yahtzee can leave (5f in upper and 3K/4K/Chance, 25/30/40, zeros) and ordinary ones."""
    n = rng.randint(1, 9)
    chosen = rng.sample([b for b in range(13) if b != Y], n)
    boxes = {Y: 50 if rng.random() < 0.9 else 0}
    for b in chosen:
        if b in UPPER:
            f = b + 1
            boxes[b] = rng.choice([0, 5 * f, 5 * f, rng.randint(0, 4) * f])
        elif b in (K3, K4, CH):
            boxes[b] = rng.choice([0, 5 * rng.randint(1, 6), 5 * rng.randint(1, 6), rng.randint(6, 29)])
        else:
            boxes[b] = rng.choice([0, {FH: 25, SS: 30, LS: 40}[b]])
    checks = rng.choice([1, 1, 2, 2, 3, rng.randint(0, min(6, n))])
    return boxes, checks


def random_joker_card(rng: random.Random, n_boxes: int | None = None) -> dict[int, int]:
    """A card (complete or not) with 50 in YAHTZEE whose other boxes mostly hold values a
    bonus Yahtzee can leave, so that the number of checks it supports is the question."""
    n = 12 if n_boxes is None else n_boxes
    chosen = rng.sample([b for b in range(13) if b != Y], n)
    boxes = {Y: 50}
    for b in chosen:
        if b in UPPER:
            f = b + 1
            boxes[b] = rng.choice([0, 0, 5 * f, 5 * f, 5 * f, 3 * f])
        elif b in (K3, K4, CH):
            boxes[b] = rng.choice([0, 5 * rng.randint(1, 6), 5 * rng.randint(1, 6), 17])
        else:
            boxes[b] = rng.choice([0, 0, {FH: 25, SS: 30, LS: 40}[b]])
    return boxes
