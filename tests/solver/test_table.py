"""The optimal-play table: published expected scores, caching, and the rules it uses."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

from scorepad.boxes import ALL_BOXES, Box
from scorepad.placement import allowed_values, legal_options
from scorepad.rules import get_rules
from scorepad.scoring import ALL_ROLLS
from scorepad.solver import OptimalTable, cache_path, get_table, table_key
from scorepad.solver._dice import keep_index
from scorepad.solver.analysis import _ranked_boxes
from scorepad.solver.placement_tables import (
    best_values as table_best_values,
)
from scorepad.solver.placement_tables import (
    build_placement_tables,
    open_boxes,
)
from scorepad.solver.table import reachable_upper

NO_BONUS_NO_JOKER = {"base": "hasbro", "yahtzee_bonus": 0, "joker": "none"}
RULE_SPECS = ["hasbro", "classic", "travel", NO_BONUS_NO_JOKER,
              {"base": "travel", "name": "house", "five_of_a_kind_full_house": True,
               "zero_in_chance": False}]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "published"), [
    ("hasbro", 254.5877),
    ("travel", 254.5896),
    (NO_BONUS_NO_JOKER, 245.8708),
])
def test_published_expected_scores(spec: object, published: float) -> None:
    table = get_table(spec)  # type: ignore[arg-type]
    assert round(table.expected_score, 4) == published


@pytest.mark.slow
def test_classic_no_better_than_hasbro() -> None:
    # Every placement classic allows, hasbro allows too: optimal play cannot gain.
    classic = get_table("classic").expected_score
    hasbro = get_table("hasbro").expected_score
    assert 240 < classic <= hasbro


def _random_card(rng: random.Random) -> tuple[int, int | None]:
    mask = rng.randrange(1 << 13)
    if mask == (1 << 13) - 1:
        mask ^= 1 << rng.randrange(13)
    yahtzee_bit = 1 << ALL_BOXES.index(Box.YAHTZEE)
    yahtzee = rng.choice((0, 50)) if mask & yahtzee_bit else None
    return mask, yahtzee


@pytest.mark.parametrize("spec", RULE_SPECS, ids=lambda s: s if isinstance(s, str) else
                         s.get("name", "no-bonus-no-joker"))
def test_placement_tables_match_allowed_values(spec: object) -> None:
    """The solver's per-roll tables agree with placement.allowed_values on random cards."""
    rules = get_rules(spec)  # type: ignore[arg-type]
    tables = build_placement_tables(rules)
    rng = random.Random(5)
    for _ in range(3000):
        mask, yahtzee = _random_card(rng)
        joker_dice = rng.random() < 0.4  # plenty of five-of-a-kinds
        dice = [rng.randint(1, 6)] * 5 if joker_dice else list(rng.choice(ALL_ROLLS))
        truth = allowed_values(rules, open_boxes(mask), yahtzee, dice)
        expect = [max(truth[b][0]) if b in truth and truth[b][0] else -1 for b in ALL_BOXES]
        assert table_best_values(tables, mask, yahtzee, dice) == expect, (mask, yahtzee, dice)
    assert tables.yahtzee_bonus == (
        rules.yahtzee_bonus if legal_options(rules, {Box.YAHTZEE: 50}, [3] * 5).bonus else 0)


@pytest.mark.slow
@pytest.mark.parametrize("spec", RULE_SPECS[:3])
def test_kernel_box_values_match_rules_engine(spec: str) -> None:
    """For every roll of many reachable positions, the compiled final-roll value equals
    the best legal placement found through allowed_values and the table."""
    table = get_table(spec)
    rng = random.Random(11)
    ups = reachable_upper(table.threshold)
    for _ in range(40):
        mask, yahtzee = _random_card(rng)
        boxes: dict[Box, int] = {}
        upper_choice = rng.choice(ups[mask & 63])
        for i, box in enumerate(ALL_BOXES):
            if mask >> i & 1:
                boxes[box] = 0
        if Box.YAHTZEE in boxes:
            boxes[Box.YAHTZEE] = yahtzee or 0
        filled_upper = [b for b in ALL_BOXES[:6] if b in boxes]
        if filled_upper:
            boxes[filled_upper[0]] = upper_choice  # only the subtotal matters
        state = table.state_of(boxes)
        if not table.reachable[table.index(state.mask, state.upper, state.yahtzee50)]:
            continue
        ta = table.turn(state)
        for dice in ALL_ROLLS:
            best = _ranked_boxes(table, state, boxes, dice)[0].expected
            assert best == pytest.approx(state.points + ta.e3[keep_index(dice)], abs=1e-9)


def test_cache_key_follows_rule_fields() -> None:
    hasbro = get_rules("hasbro")
    assert table_key(hasbro) == table_key(get_rules("official"))
    renamed = dataclasses.replace(hasbro, name="other", title="x")
    assert table_key(renamed) == table_key(hasbro)  # prose does not change a score
    for change in ({"upper_bonus": 30}, {"yahtzee_bonus": 0}, {"zero_in_chance": False}):
        assert table_key(dataclasses.replace(hasbro, **change)) != table_key(hasbro)


def test_cache_round_trip_and_stale_file(tmp_path: Path) -> None:
    rules = get_rules({"base": "hasbro", "name": "tiny", "upper_bonus_threshold": 0})
    table = get_table(rules, directory=tmp_path)
    files = list(tmp_path.glob("table-*.npz"))  # named by the rules' content, not "tiny"
    assert files == [cache_path(rules, tmp_path)] and table.key in files[0].name
    loaded = OptimalTable.load(rules, files[0])
    assert loaded is not None
    np.testing.assert_array_equal(loaded.values, table.values)
    assert loaded.expected_score == table.expected_score
    other = dataclasses.replace(rules, upper_bonus=0)
    assert OptimalTable.load(other, files[0]) is None  # a rules change invalidates it
    # Threshold 0: the 35 is certain, so it is worth exactly 35 over the no-bonus game.
    no_upper_bonus = get_table(dataclasses.replace(rules, upper_bonus=0), directory=tmp_path)
    assert table.expected_score - no_upper_bonus.expected_score == pytest.approx(35.0)


def test_unreachable_position_is_refused() -> None:
    from scorepad.solver import SolverError

    table = get_table("hasbro")
    with pytest.raises(SolverError):
        table.turn(table.state_of({Box.ACES: 7}))
