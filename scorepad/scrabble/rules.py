"""SCRABBLE rule sets: frozen dataclasses in a registry; the points the book leaves open are
options with defaults. Book lines are into seed 000 (``shared/seeds/``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..games import SCRABBLE
from ..games.common import (
    Citation,
    GameRules,
    OptionRegistry,
    bool_option,
    choice_option,
    int_option,
)

TIE_BREAKS = ("before_adjustments", "shared")
OPTION_FIELDS = ("bingo_bonus", "out_bonus", "tie_break")


def _c(lines: str, says: str) -> Citation:
    return Citation("000", lines, says)


CITATIONS: dict[str, tuple[Citation, ...]] = {
    "players": (_c("265", "for 2 to 4 players"),),
    "turn_order": (_c("289", "play passes to the left"),
                   _c("288", "a player completes a turn by announcing the score")),
    "no_play": (_c("301", "an exchange (of all, some or none of the letters) ends the turn"),
                _c("302", "a challenged word: the player takes back the tiles and loses the "
                   "turn; a wrong challenger loses the next turn")),
    "running_total": (_c("310", "keep a tally of each player's score, entering it after "
                      "each turn"),),
    "adjustment": (_c("322", "each score is reduced by the unplayed letters; a player who "
                   "used all letters adds the others' unplayed letters"),
                   _c("310", "the value of a blank is zero")),
    "ending": (_c("306", "the game ends when all letters have been drawn and one player uses "
               "the last letter, or when all possible plays have been made"),),
    "final": (_c("322", "the final score: the running total with the unplayed letters "
              "counted"),),
    "winner": (_c("326", "the highest final score wins; a tie goes to the higher score "
               "before the unplayed letters are counted"),),
    "tiles": (_c("274", "100 letter tiles"), _c("300", "the two blank tiles")),
    "placement": (_c("291", "all letters played in a turn in one row across or down, to "
                  "form one complete word"),
                  _c("295-298", "new words add to, cross or run parallel to the words on "
                     "the board"),
                  _c("299", "no letter may be shifted after it has been played")),
    "first_play": (_c("287", "the first player combines two or more letters, across or "
                   "down, with one letter on the centre star"),),
    "rack": (_c("288", "always keeping seven letters in the rack"),),
    "score": (_c("311", "the sum of the letter values in each word formed or modified, plus "
              "the premiums"),
              _c("312-313", "light/dark blue double/triple the letter; pink/red double/"
                 "triple the word, letter premiums first; two word premiums multiply"),
              _c("315", "the centre star is a pink square"),
              _c("317", "premiums count only on the turn they are covered"),
              _c("319", "a blank on a word premium still doubles or triples the word"),
              _c("320", "each word formed is scored; the common letter counts in each, "
                 "with its premium"),
              _c("310", "a blank scores zero")),
    "bingo": (_c("321", "seven tiles in one turn: a premium of 50 after totalling the "
              "turn"),),
    "words": (_c("302", "the players agree upon a dictionary, for challenges only"),),
}


@dataclass(frozen=True)
class ScrabbleRules(GameRules):
    """How a SCRABBLE score sheet is checked."""

    option_fields: ClassVar[tuple[str, ...]] = OPTION_FIELDS

    game: str = SCRABBLE
    bingo_bonus: int = 50  # 000:321
    out_bonus: bool = True  # 000:322: the player who went out adds the others' letters
    tie_break: str = "before_adjustments"  # 000:326; "shared": a tie on finals is shared
    citations: Mapping[str, tuple[Citation, ...]] = field(
        default_factory=lambda: CITATIONS, compare=False, hash=False, repr=False)


BOOK = ScrabbleRules(
    name="scrabble",
    title="SCRABBLE, seed book 000",
    summary="The book's scoring: standard board and English tiles, a 50-point premium for "
    "seven tiles, unplayed letters deducted and given to the player who went out, ties to "
    "the higher score before the unplayed letters.",
    aliases=("scrabble-book", "scrabble-000"),
)

REGISTRY: OptionRegistry[ScrabbleRules] = OptionRegistry(
    "scrabble", (BOOK,), {
        "bingo_bonus": int_option(0, 1000),
        "out_bonus": bool_option,
        "tie_break": choice_option(*TIE_BREAKS),
    })


def get_rules(spec: str | ScrabbleRules | Mapping[str, Any] | None = None) -> ScrabbleRules:
    """A rule set by name or alias, a ScrabbleRules, or a house rule object (None: the
    book's)."""
    return REGISTRY.get(spec, ScrabbleRules)
