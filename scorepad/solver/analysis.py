"""What each decision of a played game cost, and advice for a position.

Every value here is an *expected final score*: the points already on the card
(boxes and Yahtzee bonus points) plus what optimal play is expected to add from
there, upper bonus included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..boxes import ALL_BOXES, UPPER, Box
from ..card import Game, Sheet, Turn
from ..placement import allowed_values, legal_options
from ..rules import RuleSet, get_rules
from ..scoring import DiceError, parse_dice
from ._dice import ROLL_START, counts_of, dice_of, is_submultiset, keep_index, subkeeps
from .table import OptimalTable, SolverError, State, TurnArrays, get_table

EPS = 1e-9


class AnalysisError(ValueError):
    """A turn log or position that cannot be analysed (not a legal sequence of play)."""


def _r(x: float) -> float:
    return round(x, 4)


@dataclass
class Choice:
    """A keep (``keep`` = dice held) or a box (``box`` and ``value``)."""

    expected: float  # expected final score
    keep: list[int] | None = None
    box: Box | None = None
    value: int | None = None

    @property
    def kind(self) -> str:
        return "keep" if self.keep is not None else "box"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "expected": _r(self.expected)}
        if self.keep is not None:
            d["keep"] = list(self.keep)
        else:
            d["box"] = self.box.value if self.box else None
            d["value"] = self.value
        return d


@dataclass
class Decision:
    """One decision of a game: a keep after roll 1 or 2, or the box."""

    turn: int  # 1-based
    roll: int  # the roll (1..3) the decision follows
    dice: list[int]
    chosen: Choice
    best: Choice
    inferred: bool = False  # the keep was inferred from consecutive rolls

    @property
    def kind(self) -> str:
        return self.chosen.kind

    @property
    def loss(self) -> float:
        return max(0.0, self.best.expected - self.chosen.expected)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "roll": self.roll,
            "kind": self.kind,
            "dice": list(self.dice),
            "chosen": self.chosen.to_dict(),
            "best": self.best.to_dict(),
            "loss": _r(self.loss),
            "inferred": self.inferred,
        }


@dataclass
class GameAnalysis:
    """The decisions of one game's turn log, valued against optimal play."""

    rule_set: str
    decisions: list[Decision]
    turns: int
    complete: bool
    optimal_expected: float  # expected final score of optimal play from the empty card
    score: float  # final score (complete) or points so far + expected rest (incomplete)
    player: str | None = None
    game: int | None = None
    turn_losses: list[float] = field(default_factory=list)

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def expected_given_decisions(self) -> float:
        return self.optimal_expected - self.total_loss

    @property
    def luck(self) -> float:
        """Actual minus expected given the decisions (sum of what the dice gave or took)."""
        return self.score - self.expected_given_decisions

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule_set": self.rule_set,
            "player": self.player,
            "game": self.game,
            "turns": self.turns,
            "complete": self.complete,
            "decisions": [d.to_dict() for d in self.decisions],
            "decision_count": len(self.decisions),
            "total_loss": _r(self.total_loss),
            "mean_loss_per_decision": _r(self.total_loss / len(self.decisions))
            if self.decisions else 0.0,
            "turn_losses": [_r(x) for x in self.turn_losses],
            "optimal_expected": _r(self.optimal_expected),
            "expected_given_decisions": _r(self.expected_given_decisions),
            "score": _r(self.score),
            "luck": _r(self.luck),
        }


# -- shared pieces -----------------------------------------------------------------------

def _keep_arrays(ta: TurnArrays, roll: int) -> tuple[np.ndarray, np.ndarray]:
    """(ek, m) for a keep chosen after ``roll`` (1 or 2)."""
    return (ta.ek1, ta.m1) if roll == 1 else (ta.ek2, ta.m2)


def _roll_value(ta: TurnArrays, roll: int, r: int) -> float:
    """Future value of holding roll ``r`` as roll number ``roll`` (all options open)."""
    return float(ta.m1[r] if roll == 1 else ta.m2[r] if roll == 2 else ta.e3[r])


def _ranked_keeps(ta: TurnArrays, roll: int, r: int, points: int) -> list[Choice]:
    ek, _ = _keep_arrays(ta, roll)
    subs = subkeeps(r)
    order = sorted(subs, key=lambda k: (-ek[k], -len(dice_of(int(k)))))
    return [Choice(points + float(ek[k]), keep=dice_of(int(k))) for k in order]


def _ranked_boxes(table: OptimalTable, state: State, boxes: Mapping[Box, int],
                  dice: Sequence[int]) -> list[Choice]:
    allowed = allowed_values(table.rules, state.open_boxes, boxes.get(Box.YAHTZEE), dice)
    bonus = _bonus_points(table.rules, boxes, dice)
    choices = [
        Choice(table.after_box(state, box, v, bonus), box=box, value=v)
        for box in ALL_BOXES if box in allowed
        for v in allowed[box][0]
    ]
    choices.sort(key=lambda c: (-c.expected, ALL_BOXES.index(c.box or Box.CHANCE)))
    return choices


def _bonus_points(rules: RuleSet, boxes: Mapping[Box, int], dice: Sequence[int]) -> int:
    return rules.yahtzee_bonus if legal_options(rules, dict(boxes), dice).bonus else 0


def _state(table: OptimalTable, boxes: Mapping[Box, int], checks: int) -> State:
    try:
        return table.state_of(dict(boxes), checks)
    except SolverError as exc:
        raise AnalysisError(str(exc)) from None


# -- game analysis -----------------------------------------------------------------------

def _turn_keeps(t: Turn, n: int, last: bool) -> tuple[list[list[int]], bool]:
    """The kept dice between the turn's rolls, inferring them when the log has none.

    The last turn of a game in progress may end with a keep and no roll after it.
    """
    rolls = t.rolls
    if len(t.kept) == len(rolls) - 1 or (
            last and t.box is None and len(t.kept) == len(rolls) < 3):
        return [sorted(k) for k in t.kept], False
    if not t.kept and len(rolls) > 1:
        # No keeps logged: the dice common to consecutive rolls are taken as kept.
        out = []
        for a, b in zip(rolls, rolls[1:], strict=False):
            ca, cb = counts_of(a), counts_of(b)
            out.append([f + 1 for f in range(6) for _ in range(min(ca[f], cb[f]))])
        return out, True
    raise AnalysisError(
        f"turn {n}: {len(t.kept)} kept list(s) for {len(rolls)} roll(s); expected "
        f"{len(rolls) - 1}"
    )


def analyse_game(game: Game | Sequence[Turn], rules: RuleSet | str | dict[str, Any] | None = None,
                 *, table: OptimalTable | None = None) -> GameAnalysis:
    """Value every keep and box choice of a turn log against optimal play."""
    rs = get_rules(rules)
    turns = list(game.turns or []) if isinstance(game, Game) else list(game)
    if not turns:
        raise AnalysisError("the game has no turn log")
    if len(turns) > len(ALL_BOXES):
        raise AnalysisError(f"a game has at most 13 turns, the log has {len(turns)}")
    table = table or get_table(rs)
    boxes: dict[Box, int] = {}
    checks = 0
    decisions: list[Decision] = []
    turn_losses: list[float] = []
    for n, t in enumerate(turns, start=1):
        if not t.rolls or len(t.rolls) > 3:
            raise AnalysisError(f"turn {n}: a turn has 1 to 3 rolls, this one has {len(t.rolls)}")
        try:
            rolls = [list(parse_dice(r)) for r in t.rolls]
        except DiceError as exc:
            raise AnalysisError(f"turn {n}: {exc}") from None
        is_last = n == len(turns)
        keeps, inferred = _turn_keeps(t, n, is_last)
        state = _state(table, boxes, checks)
        ta = table.turn(state)
        before = len(decisions)
        for i, keep in enumerate(keeps):
            roll_no = i + 1
            after = rolls[i + 1] if i + 1 < len(rolls) else keep
            if not is_submultiset(keep, rolls[i]) or not is_submultiset(keep, after):
                raise AnalysisError(
                    f"turn {n}: kept dice {keep} are not in roll {roll_no} {rolls[i]} "
                    f"and roll {roll_no + 1} {after}"
                )
            r = keep_index(rolls[i])
            ek, m = _keep_arrays(ta, roll_no)
            best = _ranked_keeps(ta, roll_no, r, state.points)[0]
            chosen = Choice(state.points + float(ek[keep_index(keep)]), keep=keep)
            best.expected = state.points + float(m[r])
            decisions.append(Decision(n, roll_no, rolls[i], chosen, best, inferred))
        # The box.
        if t.box is None and is_last:
            # A turn still being played: valued where it stands (after the keep, if any).
            if len(keeps) == len(rolls):
                here = decisions[-1].chosen.expected
            else:
                here = state.points + _roll_value(ta, len(rolls), keep_index(rolls[-1]))
            turn_losses.append(sum(d.loss for d in decisions[before:]))
            return _result(rs, table, decisions, turns, turn_losses, complete=False, score=here)
        if t.box is None:
            raise AnalysisError(f"turn {n}: no box was filled")
        if t.box in boxes:
            raise AnalysisError(f"turn {n}: box {t.box.value!r} is already filled")
        last = rolls[-1]
        roll_no = len(rolls)
        allowed = allowed_values(rs, state.open_boxes, boxes.get(Box.YAHTZEE), last)
        values = allowed[t.box][0]
        if not values:
            raise AnalysisError(f"turn {n}: {last} may not be written in {t.box.value!r} "
                                "under these rules")
        value = values[0] if t.value is None else t.value
        if value not in values:
            raise AnalysisError(f"turn {n}: {last} scores {list(values)} in {t.box.value!r}, "
                                f"not {value}")
        bonus = _bonus_points(rs, boxes, last)
        chosen = Choice(table.after_box(state, t.box, value, bonus), box=t.box, value=value)
        best = _ranked_boxes(table, state, boxes, last)[0]
        if roll_no < 3:
            # Stopping early: the alternatives are every box and every reroll.
            rerolls = [c for c in _ranked_keeps(ta, roll_no, keep_index(last), state.points)
                       if len(c.keep or []) < 5]
            if rerolls and rerolls[0].expected > best.expected + EPS:
                best = rerolls[0]
        decisions.append(Decision(n, roll_no, last, chosen, best))
        turn_losses.append(sum(d.loss for d in decisions[before:]))
        boxes[t.box] = value
        if bonus:
            checks += 1
    final = _state(table, boxes, checks)
    complete = len(boxes) == len(ALL_BOXES)
    if complete:
        upper = sum(boxes[b] for b in UPPER)
        score = float(final.points + (rs.upper_bonus if upper >= rs.upper_bonus_threshold else 0))
    else:
        score = final.points + table.future(final.mask, final.upper, final.yahtzee50)
    return _result(rs, table, decisions, turns, turn_losses, complete=complete, score=score)


def _result(rs: RuleSet, table: OptimalTable, decisions: list[Decision], turns: list[Turn],
            turn_losses: list[float], *, complete: bool, score: float) -> GameAnalysis:
    return GameAnalysis(
        rule_set=rs.name, decisions=decisions, turns=len(turns), complete=complete,
        optimal_expected=table.expected_score, score=score, turn_losses=turn_losses,
    )


def analyse_sheet(sheet: Sheet, rules: RuleSet | str | dict[str, Any] | None = None
                  ) -> list[GameAnalysis]:
    """Every game of the sheet that carries a turn log (``rules`` overrides the sheet's)."""
    rs = get_rules(rules if rules is not None else sheet.rules)
    out = []
    for player in sheet.players:
        for number, game in enumerate(player.games, start=1):
            if game is None or not game.turns:
                continue
            try:
                result = analyse_game(game, rs)
            except AnalysisError as exc:
                raise AnalysisError(f"{player.name}, game {number}: {exc}") from None
            result.player = player.name
            result.game = number
            out.append(result)
    return out


# -- advice ------------------------------------------------------------------------------

@dataclass
class Advice:
    """The best and second-best choice for one position."""

    rule_set: str
    roll: int
    dice: list[int]
    kind: str  # "keep" (rolls 1 and 2) or "box" (roll 3)
    options: list[Choice]  # every choice, best first
    current_points: int

    @property
    def best(self) -> Choice:
        return self.options[0]

    @property
    def runner_up(self) -> Choice | None:
        return self.options[1] if len(self.options) > 1 else None

    def to_dict(self, limit: int = 10) -> dict[str, Any]:
        ru = self.runner_up
        return {
            "rule_set": self.rule_set,
            "roll": self.roll,
            "dice": list(self.dice),
            "kind": self.kind,
            "current_points": self.current_points,
            "best": self.best.to_dict(),
            "runner_up": None if ru is None else {
                **ru.to_dict(), "worse_by": _r(self.best.expected - ru.expected)},
            "options": [o.to_dict() for o in self.options[:limit]],
        }


def parse_card(data: Any) -> tuple[dict[Box, int], int]:
    """A card in progress: ``{"aces": 3, ...}`` or a game object ``{"boxes": {...},
    "yahtzee_bonus_checks": n}``. Returns (filled boxes, bonus checks)."""
    from ..boxes import box_from_key

    if not isinstance(data, Mapping):
        raise AnalysisError("card: expected an object of box values")
    checks = 0
    raw: Any = data
    if "boxes" in data:
        raw = data["boxes"]
        checks = data.get("yahtzee_bonus_checks", 0) or 0
        extra = set(data) - {"boxes", "yahtzee_bonus_checks", "totals", "turns"}
        if extra:
            raise AnalysisError(f"card: unknown field(s) {', '.join(sorted(extra))}")
        if not isinstance(raw, Mapping):
            raise AnalysisError("card.boxes: expected an object of box values")
    elif "yahtzee_bonus_checks" in data:
        checks = data["yahtzee_bonus_checks"]
        raw = {k: v for k, v in data.items() if k != "yahtzee_bonus_checks"}
    if isinstance(checks, bool) or not isinstance(checks, int) or not 0 <= checks <= 99:
        raise AnalysisError("card.yahtzee_bonus_checks: expected an integer 0..99")
    boxes: dict[Box, int] = {}
    for key, value in raw.items():
        try:
            box = box_from_key(str(key))
        except (KeyError, ValueError):
            raise AnalysisError(f"card: unknown box {key!r}") from None
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 50:
            raise AnalysisError(f"card.{box.value}: expected an integer 0..50")
        boxes[box] = value
    return boxes, checks


def _check_bonus_checks(boxes: Mapping[Box, int], checks: int) -> None:
    """A bonus check needs 50 in the YAHTZEE box, and each one's Yahtzee filled another box."""
    if not checks:
        return
    if boxes.get(Box.YAHTZEE) != 50:
        raise AnalysisError("no game reaches this card: a Yahtzee bonus check needs 50 in the "
                            "YAHTZEE box")
    if checks > len(boxes) - 1:
        raise AnalysisError(f"no game reaches this card: each Yahtzee bonus check fills a box, "
                            f"and {len(boxes) - 1} besides YAHTZEE are filled")


def advice_input(boxes: Mapping[Box, int], dice: Sequence[int] | str, roll: int,
                 bonus_checks: int = 0) -> list[int]:
    """``advise``'s checks of what it is asked, which need no table (a caller checks them
    before it builds one): the dice, parsed. AnalysisError says what is wrong."""
    if roll not in (1, 2, 3):
        raise AnalysisError(f"roll must be 1, 2 or 3, not {roll}")
    try:
        parsed = list(parse_dice(dice))
    except DiceError as exc:
        raise AnalysisError(str(exc)) from None
    if len(boxes) >= len(ALL_BOXES):
        raise AnalysisError("the card is full: no turn left to play")
    _check_bonus_checks(boxes, bonus_checks)
    return parsed


def advise(boxes: Mapping[Box, int], dice: Sequence[int] | str, roll: int,
           rules: RuleSet | str | dict[str, Any] | None = None, *, bonus_checks: int = 0,
           table: OptimalTable | None = None) -> Advice:
    """Best keep (after roll 1 or 2) or best box (after roll 3) for a card in progress."""
    rs = get_rules(rules)
    parsed = advice_input(boxes, dice, roll, bonus_checks)
    table = table or get_table(rs)
    state = _state(table, boxes, bonus_checks)
    try:
        ta = table.turn(state)
    except SolverError as exc:
        raise AnalysisError(str(exc)) from None
    r = keep_index(parsed)
    assert r >= ROLL_START
    if roll < 3:
        options = _ranked_keeps(ta, roll, r, state.points)
        kind = "keep"
    else:
        options = _ranked_boxes(table, state, boxes, parsed)
        kind = "box"
    return Advice(rs.name, roll, parsed, kind, options, state.points)
