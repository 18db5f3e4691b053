"""SORRY! play for points (seed book 000, lines 124-143): codes, rule sets (frozen
dataclasses in a registry, the open points as options) and the points of one player."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..games import SORRY
from ..games.common import (
    Citation,
    GameCode,
    GameRules,
    OptionRegistry,
    Severity,
    choice_option,
    set_severities,
)

PAWNS = 4  # 000:130, 000:134
SHUTOUTS = ("cumulative", "best")
OPTION_FIELDS = ("shutout",)


class SorryCode(GameCode):
    PLAYER_COUNT = "SORRY_PLAYER_COUNT"  # warning: the book is for 2 to 4 players
    PAWNS_IMPOSSIBLE = "SORRY_PAWNS_IMPOSSIBLE"  # not 0 to 4 pawns HOME
    NO_WINNER = "SORRY_NO_WINNER"  # points written, but no player has all four pawns HOME
    TWO_WINNERS = "SORRY_TWO_WINNERS"  # more than one player with all four pawns HOME
    POINTS_WRONG = "SORRY_POINTS_WRONG"  # a game's points are not what the pawns score
    TOTAL_WRONG = "SORRY_TOTAL_WRONG"  # a player's total does not add up the games
    TOTAL_UNKNOWN_PLAYER = "SORRY_TOTAL_UNKNOWN_PLAYER"  # a total for a name no game has
    SLIP_CHANGES_LEADER = "SORRY_SLIP_CHANGES_LEADER"  # warning: written totals lead another
    GAME_IN_PROGRESS = "SORRY_GAME_IN_PROGRESS"  # notice: no winner and no points yet


set_severities({
    SorryCode.PLAYER_COUNT: Severity.WARNING,
    SorryCode.SLIP_CHANGES_LEADER: Severity.WARNING,
    SorryCode.GAME_IN_PROGRESS: Severity.NOTICE,
})


def _c(lines: str, says: str) -> Citation:
    return Citation("000", lines, says)


CITATIONS: dict[str, tuple[Citation, ...]] = {
    "players": (_c("11", "for 2 to 4 players"),),
    "pawns": (_c("130", "three pawns on START, the fourth on the circle outside it: four "
              "pawns each"),),
    "winner": (_c("134", "the first player to get all four pawns HOME wins"),),
    "points": (_c("138", "all players score 5 points for each pawn on HOME; the WINNER also "
              "scores as follows"),
               _c("140", "5 points for each opponent's pawn not in its HOME"),),
    "shutout": (_c("141", "25 points if no opponent has more than two pawns HOME"),
                _c("142", "50 points if no opponent has more than one pawn HOME"),
                _c("143", "100 points if no opponent's pawn reached HOME")),
    "totals": (_c("136-143", "points are scored game by game; the book is silent on adding "
               "them up: the totals are the sum of the games"),),
}
TOPIC: dict[SorryCode, str] = {
    SorryCode.PLAYER_COUNT: "players", SorryCode.PAWNS_IMPOSSIBLE: "pawns",
    SorryCode.NO_WINNER: "winner", SorryCode.TWO_WINNERS: "winner",
    SorryCode.POINTS_WRONG: "points", SorryCode.TOTAL_WRONG: "totals",
    SorryCode.TOTAL_UNKNOWN_PLAYER: "totals", SorryCode.SLIP_CHANGES_LEADER: "totals",
    SorryCode.GAME_IN_PROGRESS: "winner",
}


@dataclass(frozen=True)
class SorryRules(GameRules):
    """How a SORRY! play-for-points sheet is checked."""

    option_fields: ClassVar[tuple[str, ...]] = OPTION_FIELDS

    game: str = SORRY
    # 000:141-143 list three shut-out premiums, each with its own condition and none
    # saying "instead": "cumulative" adds every one whose condition holds (no opponent's
    # pawn HOME: 25 + 50 + 100); "best" gives only the largest.
    shutout: str = "cumulative"
    citations: Mapping[str, tuple[Citation, ...]] = field(
        default_factory=lambda: CITATIONS, compare=False, hash=False, repr=False)

    def cite(self, topic: str) -> list[str]:
        cites = super().cite(topic)
        return [*cites, *super().cite("shutout")] if topic == "points" else cites


BOOK = SorryRules(
    name="sorry",
    title="SORRY! play for points, seed book 000",
    summary="5 points a pawn HOME for everyone; the winner adds 5 for each opponent's pawn "
    "not HOME and every shut-out premium whose condition holds (25, 50, 100).",
    aliases=("sorry-points", "sorry-000"),
)
BEST_ONLY = SorryRules(
    name="sorry-best",
    title="SORRY! play for points, best shut-out premium only",
    summary="As the book, but the winner takes only the largest shut-out premium whose "
    "condition holds (100, else 50, else 25).",
    aliases=("sorry-best-only",),
    shutout="best",
)

REGISTRY: OptionRegistry[SorryRules] = OptionRegistry(
    "sorry", (BOOK, BEST_ONLY), {"shutout": choice_option(*SHUTOUTS)})


def get_rules(spec: str | SorryRules | Mapping[str, Any] | None = None) -> SorryRules:
    """A rule set by name or alias, a SorryRules, or a house-rule object (None: the book)."""
    return REGISTRY.get(spec, SorryRules)


def points(homes: list[int], i: int, rules: SorryRules) -> dict[str, int]:
    """What player ``i`` scores with these pawns HOME (``homes``: every player's count),
    item by item; "total" adds them up."""
    out = {"home": 5 * homes[i]}  # 000:138
    if homes[i] == PAWNS:  # the winner, 000:134
        opponents = [h for j, h in enumerate(homes) if j != i]
        most = max(opponents, default=0)
        out["opponents_not_home"] = 5 * sum(PAWNS - h for h in opponents)  # 000:140
        premiums = [p for p, holds in ((25, most <= 2), (50, most <= 1), (100, most == 0))
                    if holds]  # 000:141-143
        out["shutout"] = sum(premiums) if rules.shutout == "cumulative" else max(premiums,
                                                                                 default=0)
    out["total"] = sum(out.values())
    return out
