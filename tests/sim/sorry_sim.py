"""Random SORRY! play-for-points evenings, written correctly. The points are worked out here
from the book's list (000:138-143) on their own, not by ``scorepad.sorry``."""

from __future__ import annotations

import random
from typing import Any


def book_points(homes: list[int], i: int, cumulative: bool = True) -> int:
    pts = 5 * homes[i]
    if homes[i] != 4:
        return pts
    others = homes[:i] + homes[i + 1:]
    pts += sum(5 * (4 - h) for h in others)
    shut = []
    if all(h <= 2 for h in others):
        shut.append(25)
    if all(h <= 1 for h in others):
        shut.append(50)
    if all(h == 0 for h in others):
        shut.append(100)
    return pts + (sum(shut) if cumulative else max(shut, default=0))


def random_evening(rng: random.Random, cumulative: bool = True) -> dict[str, Any]:
    names = rng.sample(["Ann", "Ben", "Cat", "Dan", "Eve"], rng.randint(2, 4))
    games, totals = [], dict.fromkeys(names, 0)
    for _ in range(rng.randint(1, 6)):
        homes = [rng.randint(0, 3) for _ in names]
        homes[rng.randrange(len(names))] = 4
        players = []
        for i, n in enumerate(names):
            pts = book_points(homes, i, cumulative)
            totals[n] += pts
            players.append({"name": n, "home": homes[i], "points": pts})
        games.append({"players": players})
    return {"format": "scorepad/sheet@1", "game": "sorry",
            "rules": "sorry" if cumulative else "sorry-best", "games": games,
            "totals": [{"name": n, "total": t} for n, t in totals.items()]}
