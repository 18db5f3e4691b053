"""Random SORRY! evenings (``sorry_sim``) verify clean under both shut-out readings, and a
single mutation of pawns, points or totals is always caught."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from scorepad.sorry.check import check_sheet
from scorepad.sorry.schemas import load_sheet

from .sorry_sim import random_evening

SEEDS = range(60)


def codes(sheet: dict[str, Any]) -> set[str]:
    return set(check_sheet(load_sheet(sheet)).codes())


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("cumulative", [True, False])
def test_random_evening_verifies_clean(seed: int, cumulative: bool) -> None:
    sheet = random_evening(random.Random(seed), cumulative)
    report = check_sheet(load_sheet(sheet))
    assert report.findings == [], [f.message for f in report.findings]
    assert report.tally is not None
    got = {r["player"]: r["total"] for r in report.tally["players"]}
    assert got == {t["name"]: t["total"] for t in sheet["totals"]}


@pytest.mark.parametrize("seed", SEEDS)
def test_single_mutations_are_caught(seed: int) -> None:
    rng = random.Random(500 + seed)
    sheet = random_evening(rng)
    g = rng.randrange(len(sheet["games"]))
    players = sheet["games"][g]["players"]
    i = rng.randrange(len(players))
    win = next(j for j, p in enumerate(players) if p["home"] == 4)
    losers = [j for j in range(len(players)) if j != win]

    m = copy.deepcopy(sheet)
    m["games"][g]["players"][i]["points"] += rng.choice([-10, -5, 5, 25])
    assert "SORRY_POINTS_WRONG" in codes(m)

    m = copy.deepcopy(sheet)  # a loser's pawn count changes the winner's points
    j = rng.choice(losers)
    h = m["games"][g]["players"][j]["home"]
    m["games"][g]["players"][j]["home"] = rng.choice([x for x in range(4) if x != h])
    assert "SORRY_POINTS_WRONG" in codes(m)

    m = copy.deepcopy(sheet)
    m["games"][g]["players"][j]["home"] = 4
    assert "SORRY_TWO_WINNERS" in codes(m)

    m = copy.deepcopy(sheet)
    m["games"][g]["players"][win]["home"] = 3
    assert "SORRY_NO_WINNER" in codes(m)

    m = copy.deepcopy(sheet)
    m["games"][g]["players"][i]["home"] = rng.choice([-1, 5, 9])
    assert "SORRY_PAWNS_IMPOSSIBLE" in codes(m)

    m = copy.deepcopy(sheet)
    m["totals"][i]["total"] += rng.choice([-5, 5, 10])
    assert "SORRY_TOTAL_WRONG" in codes(m)
