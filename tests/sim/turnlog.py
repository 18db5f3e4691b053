"""Turn logs: an independent replay (legal or not, and why) and single mutations."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from .model import INDEX, KEYS, Cfg, placements

# The audit codes that can name each kind of problem replay() reports.
PROBLEM_CODES: dict[str, set[str]] = {
    "rolls": {"TURN_TOO_MANY_ROLLS"},
    "kept_count": {"TURN_KEPT_COUNT"},
    "kept": {"TURN_KEPT_MISMATCH"},
    "no_box": {"TURN_NO_BOX"},
    "reused": {"TURN_BOX_REUSED"},
    "placement": {"TURN_PLACEMENT_ILLEGAL", "TURN_VALUE_WRONG"},
    "too_long": {"TURN_LOG_TOO_LONG"},
    "card": {"TURN_CARD_MISMATCH"},
    "checks": {"TURN_BONUS_COUNT", "BONUS_CHECKS_WITHOUT_YAHTZEE_50",
               "BONUS_CHECKS_UNSUPPORTED", "BONUS_CHECKS_NOT_IN_RULES"},
}


def _sub(small: list[int], big: list[int]) -> bool:
    return not (Counter(small) - Counter(big))


def replay(cfg: Cfg, game: dict[str, Any]) -> list[str]:
    """Everything wrong with a game's turn log against its card (empty: a legal game).

    Per turn (001:51-63): at most three rolls; kept dice come from the roll before and
    are in the roll after; one box, not used before; the value legal for the final dice
    and the card as it stands (joker rules).  Then the card must be what the log wrote,
    and the check marks the number of bonus Yahtzees the log earned.
    """
    problems: list[str] = []
    filled: dict[int, int] = {}
    bonuses = 0
    for i, turn in enumerate(game["turns"]):
        rolls, kept = turn["rolls"], turn["kept"]
        if len(rolls) > 3:
            problems.append(f"rolls: turn {i + 1}: {len(rolls)} rolls")
        if len(kept) != len(rolls) - 1:
            problems.append(f"kept_count: turn {i + 1}: {len(kept)} kept lists, {len(rolls)} rolls")
        for j, keep in enumerate(kept[: len(rolls) - 1]):
            if not (_sub(keep, rolls[j]) and _sub(keep, rolls[j + 1])):
                problems.append(f"kept: turn {i + 1}: kept {keep} not in rolls {j + 1} and {j + 2}")
        if turn["box"] is None:
            last = i == len(game["turns"]) - 1
            if not (last and len(filled) < 13):  # the turn still going on is fine
                problems.append(f"no_box: turn {i + 1}")
            continue
        box, value = INDEX[turn["box"]], turn["value"]
        if box in filled:
            problems.append(f"reused: turn {i + 1}: {turn['box']} filled twice")
            continue
        opts, _joker, bonus = placements(cfg, filled, rolls[-1])
        if not any(b == box and v == value for b, v, _ in opts):
            problems.append(f"placement: turn {i + 1}: {rolls[-1]} -> {turn['box']}={value}")
        bonuses += bonus
        filled[box] = value
    if len(game["turns"]) > 13:
        problems.append("too_long: more than 13 turns")
    card = {INDEX[k]: v for k, v in game["boxes"].items() if v is not None}
    if card != filled:
        problems.append("card: card and log differ")
    if bonuses != game["yahtzee_bonus_checks"]:
        problems.append(f"checks: {game['yahtzee_bonus_checks']} checks, {bonuses} bonus Yahtzees")
    return problems


def mutate_turns(rng: random.Random, game: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """One change to a turn log; the card follows the log (box values) unless the change is
    to the card/log agreement itself."""
    g = copy.deepcopy(game)
    turns = g["turns"]
    i = rng.randrange(len(turns))
    t = turns[i]
    r = rng.random()
    if t["box"] is None:  # the turn still going on: give it a box, or leave it and change dice
        if r < 0.5:
            t["box"] = rng.choice(KEYS)
            t["value"] = rng.choice([0, 5, 25, 30, 40, 50])
            return g, f"turn {i + 1} (in progress) closed as {t['box']}={t['value']}"
        r = 0.6
    if r < 0.3:  # another value in the same box, card updated
        old = t["value"]
        t["value"] = rng.choice([0, old + 1, old - 1, old + 5, 25, 30, 40, 50, 5 * rng.randint(1, 6)])
        g["boxes"][t["box"]] = t["value"]
        return g, f"turn {i + 1} value {old} -> {t['value']}"
    if r < 0.55:  # another box, card updated
        old_box = t["box"]
        new_box = rng.choice(KEYS)
        if new_box != old_box:
            g["boxes"][old_box] = None
        t["box"] = new_box
        t["value"] = rng.choice([t["value"], 0, 25, 30, 40, 5 * rng.randint(1, 6), t["value"]])
        if g["boxes"].get(new_box) is None:
            g["boxes"][new_box] = t["value"]
        return g, f"turn {i + 1} box {old_box} -> {new_box}={t['value']}"
    if r < 0.7:  # other final dice (only the dice not kept from the roll before change)
        keep = t["kept"][-1] if t["kept"] else []
        face = rng.randint(1, 6)
        if rng.random() < 0.5 and len(set(keep)) <= 1 and (not keep or keep[0] == face):
            new = [face] * (5 - len(keep))
        else:
            new = [rng.randint(1, 6) for _ in range(5 - len(keep))]
        old = list(t["rolls"][-1])
        t["rolls"][-1] = list(keep) + new
        return g, f"turn {i + 1} final dice {old} -> {t['rolls'][-1]}"
    if r < 0.8:  # the check marks
        old = g["yahtzee_bonus_checks"]
        g["yahtzee_bonus_checks"] = max(0, old + rng.choice([1, -1]))
        return g, f"checks {old} -> {g['yahtzee_bonus_checks']}"
    if r < 0.88:  # a fourth roll
        t["rolls"].append(list(t["rolls"][-1]))
        t["kept"].append(list(t["rolls"][-1]))
        return g, f"turn {i + 1} gets a fourth roll"
    if r < 0.95 and t["kept"]:  # kept dice that were not there
        j = rng.randrange(len(t["kept"]))
        t["kept"][j] = [rng.randint(1, 6) for _ in range(rng.randint(1, 4))]
        return g, f"turn {i + 1} kept[{j}] -> {t['kept'][j]}"
    # the card alone differs from the log
    box = rng.choice(KEYS)
    g["boxes"][box] = rng.choice([0, 5, 25, 30, 40, 50])
    return g, f"card {box} -> {g['boxes'][box]}"
