"""Analysis of turn logs, and advice for positions."""

from __future__ import annotations

import random

import pytest

from scorepad.boxes import ALL_BOXES, Box
from scorepad.card import Game, Turn
from scorepad.solver import AnalysisError, advise, analyse_game, get_table, parse_card


def _roll(rng: random.Random, kept: list[int]) -> list[int]:
    return sorted(kept + [rng.randint(1, 6) for _ in range(5 - len(kept))])


def optimal_game(seed: int, rules: str = "hasbro") -> list[Turn]:
    """A turn log played by following the advice at every decision."""
    rng = random.Random(seed)
    boxes: dict[Box, int] = {}
    checks = 0
    turns = []
    for _ in range(13):
        rolls, kept = [], []
        dice = _roll(rng, [])
        rolls.append(dice)
        for roll in (1, 2):
            keep = advise(boxes, dice, roll, rules, bonus_checks=checks).best.keep
            assert keep is not None
            kept.append(keep)
            dice = _roll(rng, keep)
            rolls.append(dice)
        best = advise(boxes, dice, 3, rules, bonus_checks=checks).best
        assert best.box is not None and best.value is not None
        if len(set(dice)) == 1 and boxes.get(Box.YAHTZEE) == 50:
            checks += 1
        boxes[best.box] = best.value
        turns.append(Turn(rolls=rolls, kept=kept, box=best.box, value=best.value))
    return turns


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_optimal_game_has_zero_loss(seed: int) -> None:
    turns = optimal_game(seed)
    result = analyse_game(Game(turns=turns), "hasbro")
    assert result.complete and result.turns == 13
    assert len(result.decisions) == 13 * 3
    assert result.total_loss == pytest.approx(0.0, abs=1e-9)
    assert all(d.loss == pytest.approx(0.0, abs=1e-9) for d in result.decisions)
    # Luck is the whole difference between the score and the optimal expectation.
    assert result.luck == pytest.approx(result.score - get_table("hasbro").expected_score)


def test_obviously_bad_decisions_cost() -> None:
    turns = [
        # Rerolling all five dice of a Yahtzee on an empty card.
        Turn(rolls=[[6, 6, 6, 6, 6], [1, 2, 3, 4, 5], [1, 1, 2, 3, 5]],
             kept=[[], [1, 2, 3, 5]], box=Box.CHANCE, value=12),
        # A large straight written as a zero in Aces.
        Turn(rolls=[[2, 3, 4, 5, 6]], kept=[], box=Box.ACES, value=0),
    ]
    result = analyse_game(turns, "hasbro")
    d = result.decisions
    assert [x.kind for x in d] == ["keep", "keep", "box", "box"]
    assert d[0].loss > 30 and d[0].best.keep == [6, 6, 6, 6, 6]
    assert d[3].loss > 20 and d[3].best.box is Box.LARGE_STRAIGHT
    assert all(x.loss >= 0 for x in d)
    assert result.total_loss == pytest.approx(sum(x.loss for x in d))
    assert not result.complete
    assert result.luck == pytest.approx(
        result.score - (result.optimal_expected - result.total_loss))
    doc = result.to_dict()
    assert doc["decision_count"] == 4 and doc["total_loss"] > 50
    assert doc["decisions"][0]["chosen"] == {"kind": "keep", "expected": doc["decisions"][0][
        "chosen"]["expected"], "keep": []}


def test_written_zero_is_valued_below_the_natural_score() -> None:
    natural = analyse_game([Turn(rolls=[[1, 1, 1, 4, 5]], box=Box.ACES, value=3)])
    zero = analyse_game([Turn(rolls=[[1, 1, 1, 4, 5]], box=Box.ACES, value=0)])
    assert zero.decisions[-1].loss > natural.decisions[-1].loss


def test_missing_keeps_are_inferred() -> None:
    result = analyse_game([Turn(rolls=[[1, 2, 5, 5, 6], [3, 4, 5, 5, 6]], box=Box.CHANCE)])
    assert result.decisions[0].inferred and result.decisions[0].chosen.keep == [5, 5, 6]
    assert result.decisions[-1].chosen.value == 23  # the value the rules give, none written


def test_turn_in_progress_is_valued_where_it_stands() -> None:
    done = Turn(rolls=[[2, 3, 4, 5, 6]], box=Box.LARGE_STRAIGHT, value=40)
    rolled = analyse_game([done, Turn(rolls=[[1, 1, 1, 2, 6]])], "hasbro")
    kept = analyse_game([done, Turn(rolls=[[1, 1, 1, 2, 6]], kept=[[1, 1, 1]])], "hasbro")
    assert not rolled.complete and rolled.turns == 2
    assert [d.kind for d in kept.decisions][-1] == "keep"
    # Keeping the three 1s is not the best keep: the position is worth less after it.
    assert kept.score == pytest.approx(rolled.score - kept.decisions[-1].loss)
    assert kept.luck == pytest.approx(rolled.luck)
    with pytest.raises(AnalysisError):  # only the last turn may be unfinished
        analyse_game([Turn(rolls=[[1, 1, 1, 2, 6]]), done], "hasbro")


@pytest.mark.parametrize("turn", [
    Turn(rolls=[[1, 2, 3, 4, 5], [2, 2, 3, 4, 6]], kept=[[2, 2]], box=Box.CHANCE),
    Turn(rolls=[[1, 2, 3, 4, 5]] * 4, kept=[[1]] * 3, box=Box.CHANCE),
    Turn(rolls=[[2, 3, 3, 4, 5]], box=Box.FULL_HOUSE, value=25),
    Turn(rolls=[[2, 3, 3, 4, 5]], kept=[[2], [3]], box=None),
    Turn(rolls=[[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], kept=[[1], [2]], box=Box.CHANCE),
])
def test_impossible_turns_are_refused(turn: Turn) -> None:
    with pytest.raises(AnalysisError):
        analyse_game([turn], "hasbro")


def test_forced_joker_is_refused_elsewhere() -> None:
    turns = [Turn(rolls=[[6] * 5], box=Box.YAHTZEE, value=50),
             Turn(rolls=[[6] * 5], box=Box.LARGE_STRAIGHT, value=40)]
    with pytest.raises(AnalysisError):
        analyse_game(turns, "hasbro")
    # Travel rules allow neither, but the natural 3 of a kind is fine.
    turns[1] = Turn(rolls=[[6] * 5], box=Box.THREE_OF_A_KIND, value=30)
    assert analyse_game(turns, "travel").decisions[-1].chosen.value == 30


# -- advice --------------------------------------------------------------------------------

def test_yahtzee_on_empty_card_goes_in_the_yahtzee_box() -> None:
    a = advise({}, "66666", 3, "hasbro")
    assert a.kind == "box" and a.best.box is Box.YAHTZEE and a.best.value == 50
    assert a.runner_up is not None and a.best.expected > a.runner_up.expected
    doc = a.to_dict()
    assert doc["runner_up"]["worse_by"] == pytest.approx(
        a.best.expected - a.runner_up.expected, abs=1e-4)


def test_yahtzee_first_roll_keeps_all() -> None:
    a = advise({}, [4, 4, 4, 4, 4], 1, "hasbro")
    assert a.kind == "keep" and a.best.keep == [4, 4, 4, 4, 4]


def test_empty_card_value_is_the_table() -> None:
    table = get_table("hasbro")
    a = advise({}, "12345", 1, "hasbro")
    assert len(a.options) == 32
    assert all(a.options[i].expected >= a.options[i + 1].expected
               for i in range(len(a.options) - 1))
    assert table.expected_score < 300


def test_forced_joker_leaves_one_choice() -> None:
    card = {Box.YAHTZEE: 50}
    a = advise(card, "55555", 3, "hasbro")
    assert [(o.box, o.value) for o in a.options] == [(Box.FIVES, 25)]
    assert a.runner_up is None
    # The bonus is in the expectation: 50 + 100 + 25 written or earned.
    assert a.best.expected - get_table("hasbro").expected_score > 100


def test_full_card_and_bad_input_are_refused() -> None:
    full = dict.fromkeys(ALL_BOXES, 0)
    with pytest.raises(AnalysisError):
        advise(full, "12345", 3)
    with pytest.raises(AnalysisError):
        advise({}, "1234", 3)
    with pytest.raises(AnalysisError):
        advise({}, "12345", 4)


def test_parse_card_forms() -> None:
    assert parse_card({"aces": 3, "chance": None}) == ({Box.ACES: 3}, 0)
    assert parse_card({"boxes": {"yahtzee": 50}, "yahtzee_bonus_checks": 2}) == (
        {Box.YAHTZEE: 50}, 2)
    for bad in ([], {"nope": 1}, {"aces": "3"}, {"aces": True}, {"boxes": {}, "x": 1}):
        with pytest.raises(AnalysisError):
            parse_card(bad)
