"""Random SCRABBLE games (``scrabble_sim``) verify clean, with and without their move log,
and a single mutation of a written number, a tile or the winner is always caught."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from scorepad.scrabble.check import check_sheet
from scorepad.scrabble.schemas import load_sheet

from .scrabble_sim import random_sheet

SEEDS = range(25)


def codes(sheet: dict[str, Any]) -> set[str]:
    return {f.code.value for f in check_sheet(load_sheet(sheet)).findings}


@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_verifies_clean(seed: int) -> None:
    sheet = random_sheet(random.Random(seed), games=2)
    report = check_sheet(load_sheet(sheet))
    assert report.findings == [], [f.message for f in report.findings]
    for got, game in zip(report.games, sheet["games"], strict=True):
        assert got["winners"] == game["winners"]
        assert [p["final"] for p in got["players"]] == [p["final"] for p in game["players"]]
    for game in sheet["games"]:  # the score sheet alone, without the tiles
        for p in game["players"]:
            for t in p["turns"]:
                t.pop("tiles", None)
    assert check_sheet(load_sheet(sheet)).findings == []


def _plays(game: dict[str, Any]) -> list[tuple[int, int]]:
    return [(p, t) for p, pl in enumerate(game["players"]) for t, turn in enumerate(pl["turns"])
            if turn["kind"] == "play"]


def _mutations(rng: random.Random, sheet: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    game = sheet["games"][0]
    players = game["players"]
    plays = _plays(game)
    p, t = rng.choice(plays)

    m = copy.deepcopy(sheet)
    m["games"][0]["players"][p]["turns"][t]["score"] += rng.choice([-3, -1, 1, 2, 7])
    out.append(("SCRABBLE_TURN_SCORE_WRONG", m))

    m = copy.deepcopy(sheet)
    m["games"][0]["players"][p]["turns"][t]["total"] += rng.choice([-10, -1, 1, 10])
    out.append(("SCRABBLE_RUNNING_TOTAL", m))

    i = rng.randrange(len(players))
    m = copy.deepcopy(sheet)
    m["games"][0]["players"][i]["adjustment"] += rng.choice([-2, 1, 3])
    out.append(("SCRABBLE_ADJUSTMENT_WRONG", m))

    m = copy.deepcopy(sheet)
    m["games"][0]["players"][i]["final"] += rng.choice([-5, 1, 4])
    out.append(("SCRABBLE_FINAL_WRONG", m))

    losers = [pl["name"] for pl in players if pl["name"] not in game["winners"]]
    if losers:
        m = copy.deepcopy(sheet)
        m["games"][0]["winners"] = [rng.choice(losers)]
        out.append(("SCRABBLE_WINNER_WRONG", m))

    first = min(plays, key=lambda x: (x[1], x[0]))
    if len(plays) > 1:
        p2, t2 = max(plays, key=lambda x: (x[1], x[0]))
        m = copy.deepcopy(sheet)
        taken = players[first[0]]["turns"][first[1]]["tiles"][0]["square"]
        m["games"][0]["players"][p2]["turns"][t2]["tiles"][0]["square"] = taken
        out.append(("SCRABBLE_SQUARE_TAKEN", m))

    idle = [(p2, t2) for p2, pl in enumerate(players) for t2, turn in enumerate(pl["turns"])
            if turn["kind"] != "play"]
    if idle:
        p2, t2 = rng.choice(idle)
        m = copy.deepcopy(sheet)
        m["games"][0]["players"][p2]["turns"][t2]["score"] = rng.randint(1, 30)
        out.append(("SCRABBLE_NO_PLAY_SCORED", m))

    bingos = [(p2, t2) for p2, t2 in plays if len(players[p2]["turns"][t2]["tiles"]) == 7]
    if bingos:
        p2, t2 = rng.choice(bingos)
        m = copy.deepcopy(sheet)
        m["games"][0]["players"][p2]["turns"][t2]["score"] -= 50
        out.append(("SCRABBLE_BINGO_MISSING", m))

    holders = [j for j, pl in enumerate(players) if pl["unplayed"] and len(pl["unplayed"]) < 7]
    if holders:
        j = rng.choice(holders)
        m = copy.deepcopy(sheet)
        m["games"][0]["players"][j]["unplayed"] += rng.choice("DGBCMPFHKXZ")
        out.append(("SCRABBLE_ADJUSTMENT_WRONG", m))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_single_mutations_are_caught(seed: int) -> None:
    rng = random.Random(1000 + seed)
    sheet = random_sheet(rng)
    for want, mutated in _mutations(rng, sheet):
        got = codes(mutated)
        assert want in got, (want, got)
        assert not check_sheet(load_sheet(mutated)).ok
