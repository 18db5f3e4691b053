"""Audit findings: stable codes, severities, locations, written and expected values.

Wording lives in ``messages.py``; tests assert codes, never prose.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any


class Severity(str, Enum):
    ERROR = "error"  # no legal game produces this; the card is wrong
    WARNING = "warning"  # legal, but suspicious or a consequence worth knowing
    NOTICE = "notice"  # information: blank totals, game in progress
    # an error on a scanned sheet that a misread explains: check the cell(s) on the photo
    # (never a code's own severity: an ERROR finding becomes a doubt, see doubts.py)
    DOUBT = "doubt"


class Code(str, Enum):
    """Every finding code, with its severity. Codes never change meaning."""

    # One box
    BOX_VALUE_IMPOSSIBLE = "BOX_VALUE_IMPOSSIBLE"  # no roll scores this in this box
    # Yahtzee bonus checks and jokers (cross-box)
    BONUS_CHECKS_WITHOUT_YAHTZEE_50 = "BONUS_CHECKS_WITHOUT_YAHTZEE_50"
    BONUS_CHECKS_NOT_IN_RULES = "BONUS_CHECKS_NOT_IN_RULES"  # the rule set has no Yahtzee bonus
    BONUS_CHECKS_UNSUPPORTED = "BONUS_CHECKS_UNSUPPORTED"  # no legal order places k bonus Yahtzees
    # Written totals
    TOTAL_ARITHMETIC = "TOTAL_ARITHMETIC"  # a sum box does not add up
    UPPER_BONUS_WRONG = "UPPER_BONUS_WRONG"  # bonus given without 63, or missing with 63
    YAHTZEE_BONUS_POINTS_WRONG = "YAHTZEE_BONUS_POINTS_WRONG"  # not 100 per check
    LOWER_TOTAL_EXCLUDES_BONUS = "LOWER_TOTAL_EXCLUDES_BONUS"  # notice: bonus added elsewhere
    TOTAL_PREMATURE = "TOTAL_PREMATURE"  # a total written before its boxes are all filled
    TOTAL_BELOW_FILLED = "TOTAL_BELOW_FILLED"  # ... and already less than its filled boxes
    TOTAL_ABOVE_REACHABLE = "TOTAL_ABOVE_REACHABLE"  # ... or more than the open boxes can bring
    TOTAL_BLANK = "TOTAL_BLANK"  # notice: a total box left blank on a complete game
    GAME_IN_PROGRESS = "GAME_IN_PROGRESS"  # notice: audited as far as it goes
    # Consequences of slips
    GRAND_TOTAL_CHANGES_WINNER = "GRAND_TOTAL_CHANGES_WINNER"
    # PLAYERS' SCORES sheet
    PLAYERS_SCORE_WRONG = "PLAYERS_SCORE_WRONG"  # a game row differs from the game's grand total
    PLAYERS_TOTAL_WRONG = "PLAYERS_TOTAL_WRONG"  # TOTAL OF ALL GAMES does not add up
    # Turn log
    TURN_LOG_TOO_LONG = "TURN_LOG_TOO_LONG"  # more than 13 turns
    TURN_TOO_MANY_ROLLS = "TURN_TOO_MANY_ROLLS"  # more than 3 rolls
    TURN_KEPT_MISMATCH = "TURN_KEPT_MISMATCH"  # kept dice not in the previous roll / not in the next
    TURN_KEPT_COUNT = "TURN_KEPT_COUNT"  # kept lists do not match the number of rerolls
    TURN_NO_BOX = "TURN_NO_BOX"  # a completed turn names no box
    TURN_BOX_REUSED = "TURN_BOX_REUSED"  # a box filled twice
    TURN_PLACEMENT_ILLEGAL = "TURN_PLACEMENT_ILLEGAL"  # the joker rules forbid this box for these dice
    TURN_VALUE_WRONG = "TURN_VALUE_WRONG"  # the value is not what these dice score there
    TURN_CARD_MISMATCH = "TURN_CARD_MISMATCH"  # the log and the card disagree on a box
    TURN_BONUS_COUNT = "TURN_BONUS_COUNT"  # checks on the card differ from bonus Yahtzees in the log

    @property
    def severity(self) -> Severity:
        return SEVERITY.get(self, Severity.ERROR)


SEVERITY: dict[Code, Severity] = {
    Code.LOWER_TOTAL_EXCLUDES_BONUS: Severity.NOTICE,
    Code.TOTAL_PREMATURE: Severity.WARNING,
    Code.TOTAL_BLANK: Severity.NOTICE,
    Code.GAME_IN_PROGRESS: Severity.NOTICE,
    Code.GRAND_TOTAL_CHANGES_WINNER: Severity.WARNING,
}


@dataclass
class Finding:
    """One problem (or note) about one place on the sheet."""

    code: Code
    rule_set: str
    player: int | None = None  # index into sheet.players
    player_name: str | None = None
    game: int | None = None  # GAME #n, 1..6
    field: str | None = None  # a box key, a total key, "yahtzee_bonus_checks", "turns[3]", ...
    written: Any = None
    expected: Any = None  # the correct value, or the values the rules allow
    rules: list[str] = dataclasses.field(default_factory=list)  # book passages, "001:144-160"
    details: dict[str, Any] = dataclasses.field(default_factory=dict)
    message: str = ""
    severity_override: Severity | None = None  # DOUBT for an error that a misread explains

    @property
    def severity(self) -> Severity:
        return self.severity_override or self.code.severity

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code.value,
            "severity": self.severity.value,
            "player": self.player,
            "player_name": self.player_name,
            "game": self.game,
            "field": self.field,
            "written": self.written,
            "expected": self.expected,
            "message": self.message,
            "rule_set": self.rule_set,
            "rules": list(self.rules),
            "details": self.details,
        }
