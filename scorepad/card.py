"""The score-sheet model: what the players wrote, valid or not (no I/O here).

Like a chess board that may hold an illegal position, a ``Sheet`` holds any
numbers a player wrote; the audit says what is wrong with them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .boxes import ALL_BOXES, LOWER, UPPER, Box, TotalField
from .readings import Reading
from .rules import RuleSet
from .sheetspec import CARD_READING_KEYS, CHECKS_KEY, MAX_GAMES, SCORES_READING_KEYS

__all__ = ["CARD_READING_KEYS", "CHECKS_KEY", "MAX_GAMES", "SCORES_READING_KEYS", "Game",
           "GameTotals", "Player", "PlayersScores", "Sheet", "Turn", "compute_totals"]

_BOX_BY_KEY = {b.value: b for b in ALL_BOXES}


@dataclass
class Turn:
    """One turn of a turn log: the rolls, the dice kept between them, the box filled."""

    rolls: list[list[int]]
    kept: list[list[int]] = field(default_factory=list)  # kept[i]: held after roll i+1
    box: Box | None = None
    value: int | None = None


@dataclass
class Game:
    """One GAME #n column of one player's card, exactly as written."""

    boxes: dict[Box, int | None] = field(default_factory=dict)
    bonus_checks: int = 0
    totals: dict[TotalField, int | None] = field(default_factory=dict)
    turns: list[Turn] | None = None
    # how each cell was read from a photo, by CARD_READING_KEYS; none for a typed card
    readings: dict[str, Reading] = field(default_factory=dict)

    def value(self, box: Box) -> int | None:
        return self.boxes.get(box)

    def cell(self, key: str) -> int | None:
        """The value in the cell named by a CARD_READING_KEYS key (None: blank)."""
        if key == CHECKS_KEY:
            return self.bonus_checks
        if key in _BOX_BY_KEY:
            return self.boxes.get(_BOX_BY_KEY[key])
        return self.totals.get(TotalField(key))

    def with_cell(self, key: str, value: int | None) -> Game:
        """A copy with one cell holding ``value`` (None: blank; no check marks for checks)."""
        if key == CHECKS_KEY:
            return replace(self, bonus_checks=value or 0)
        if key in _BOX_BY_KEY:
            box = _BOX_BY_KEY[key]
            boxes = dict(self.boxes)
            boxes[box] = value
            return replace(self, boxes={b: boxes[b] for b in ALL_BOXES
                                        if boxes.get(b) is not None})
        total = TotalField(key)
        totals = dict(self.totals)
        totals[total] = value
        return replace(self, totals={t: totals[t] for t in TotalField
                                     if totals.get(t) is not None})

    def filled(self) -> dict[Box, int]:
        return {b: v for b, v in self.boxes.items() if v is not None}

    @property
    def complete(self) -> bool:
        return len(self.filled()) == len(ALL_BOXES)

    @property
    def blank(self) -> bool:
        return (
            all(v is None for v in self.boxes.values())
            and not self.bonus_checks
            and all(v is None for v in self.totals.values())
            and not self.turns
        )

    def written(self, total: TotalField) -> int | None:
        return self.totals.get(total)


@dataclass
class PlayersScores:
    """One player's column on the back of the pad, the PLAYERS' SCORES sheet."""

    games: list[int | None] = field(default_factory=list)  # GAME #1..#6 rows
    total: int | None = None  # TOTAL OF ALL GAMES
    # how each cell was read from a photo, by SCORES_READING_KEYS; none when typed
    readings: dict[str, Reading] = field(default_factory=dict)

    def cell(self, key: str) -> int | None:
        """The value in the cell named by a SCORES_READING_KEYS key (None: blank)."""
        if key == "total":
            return self.total
        n = _row(key)
        return self.games[n] if n < len(self.games) else None

    def with_cell(self, key: str, value: int | None) -> PlayersScores:
        if key == "total":
            return replace(self, total=value)
        n = _row(key)
        games = list(self.games) + [None] * max(0, n + 1 - len(self.games))
        games[n] = value
        return replace(self, games=games)


def _row(key: str) -> int:
    return int(key.removeprefix("games[").removesuffix("]"))


@dataclass
class Player:
    name: str
    games: list[Game | None] = field(default_factory=list)  # index 0 is GAME #1
    players_scores: PlayersScores | None = None


@dataclass
class Sheet:
    """A filled pad: players, their games, and the rule set it was played under."""

    players: list[Player]
    rules: str | RuleSet | dict[str, Any] | None = None
    title: str | None = None


@dataclass(frozen=True)
class GameTotals:
    """The totals a game's written boxes add up to (arithmetic only, no rule check)."""

    upper_subtotal: int
    upper_bonus: int
    upper_total: int
    yahtzee_bonus: int
    lower_subtotal: int  # the seven lower boxes
    lower_total: int  # lower boxes plus Yahtzee bonus points (001 line 170)
    grand_total: int
    complete: bool

    def expected(self, total: TotalField) -> int:
        value: int = getattr(self, _TOTAL_ATTR[total])
        return value

    def to_dict(self) -> dict[str, int | bool]:
        d: dict[str, int | bool] = {key: getattr(self, attr) for key, attr in _TOTAL_KEYS}
        d["complete"] = self.complete
        return d


_TOTAL_ATTR: dict[TotalField, str] = {
    TotalField.UPPER_SUBTOTAL: "upper_subtotal",
    TotalField.UPPER_BONUS: "upper_bonus",
    TotalField.UPPER_TOTAL: "upper_total",
    TotalField.YAHTZEE_BONUS: "yahtzee_bonus",
    TotalField.LOWER_TOTAL: "lower_total",
    TotalField.UPPER_TOTAL_REPEAT: "upper_total",
    TotalField.GRAND_TOTAL: "grand_total",
}


_TOTAL_KEYS: tuple[tuple[str, str], ...] = tuple((t.value, a) for t, a in _TOTAL_ATTR.items())


def compute_totals(game: Game, rules: RuleSet) -> GameTotals:
    """Add up the boxes as written; the upper bonus from the rule set's threshold."""
    upper = sum(game.boxes.get(b) or 0 for b in UPPER)
    lower = sum(game.boxes.get(b) or 0 for b in LOWER)
    bonus = rules.upper_bonus if upper >= rules.upper_bonus_threshold else 0
    ybonus = max(game.bonus_checks, 0) * rules.yahtzee_bonus
    return GameTotals(
        upper_subtotal=upper,
        upper_bonus=bonus,
        upper_total=upper + bonus,
        yahtzee_bonus=ybonus,
        lower_subtotal=lower,
        lower_total=lower + ybonus,
        grand_total=upper + bonus + lower + ybonus,
        complete=game.complete,
    )
