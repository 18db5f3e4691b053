"""One entry for a sheet of any game: which game it names, load it, check it, tally it.

A sheet without a ``game`` field is a Yahtzee sheet, loaded and audited exactly as before
(``scorepad.schemas``, ``scorepad.audit``); ``"game": "yahtzee"`` says the same. SCRABBLE
and SORRY! sheets go to their own schemas and checks. Marshmallow and the checks are
imported inside the functions (start-up time)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import GAMES, SCRABBLE, SORRY, YAHTZEE
from .spec import GAME_KEY

if TYPE_CHECKING:
    from ..scrabble.sheet import ScrabbleSheet
    from ..sorry.sheet import SorrySheet
    from .common import GameReport, OptionRegistry

    OtherSheet = ScrabbleSheet | SorrySheet


class UnknownGame(ValueError):
    """The sheet's ``game`` names no game this service checks: (JSON path, message)."""

    def __init__(self, value: Any) -> None:
        self.errors = [(f"$.{GAME_KEY}", f"one of {', '.join(GAMES)}; not {value!r}")]
        super().__init__(f"$.{GAME_KEY}: {self.errors[0][1]}")


def game_of(data: Any) -> str:
    """The game a parsed sheet names (``"yahtzee"`` when it names none); UnknownGame when
    it names another."""
    if not isinstance(data, Mapping) or GAME_KEY not in data:
        return YAHTZEE
    game = data[GAME_KEY]
    if not isinstance(game, str) or game not in GAMES:
        raise UnknownGame(game)
    return game


def without_game(data: Any) -> Any:
    """A Yahtzee sheet that says ``"game": "yahtzee"``, as the Yahtzee format reads it
    (anything else unchanged)."""
    if isinstance(data, Mapping) and data.get(GAME_KEY) == YAHTZEE:
        return {k: v for k, v in data.items() if k != GAME_KEY}
    return data


def load_other(game: str, data: Any) -> OtherSheet:
    """A SCRABBLE or SORRY! sheet from parsed JSON; SheetFormatError naming each bad path."""
    if game == SCRABBLE:
        from ..scrabble.schemas import load_sheet as load_scrabble

        return load_scrabble(data)
    from ..sorry.schemas import load_sheet as load_sorry

    return load_sorry(data)


def registry(game: str) -> OptionRegistry[Any]:
    if game == SCRABBLE:
        from ..scrabble.rules import REGISTRY as SCRABBLE_RULES

        return SCRABBLE_RULES
    from ..sorry.rules import REGISTRY as SORRY_RULES

    return SORRY_RULES


def resolve_rules(game: str, spec: Any) -> Any:
    """``spec`` (a name, a house-rule object or None) as one of ``game``'s rule sets (None
    stays None: the sheet's own). RuleSetError/UnknownRuleSet when it is none."""
    if spec is None:
        return None
    from ..scrabble.rules import ScrabbleRules
    from ..sorry.rules import SorryRules

    return registry(game).get(spec, ScrabbleRules if game == SCRABBLE else SorryRules)


def check_other(sheet: OtherSheet, rules: Any = None) -> GameReport:
    """Every finding on a SCRABBLE or SORRY! sheet, and its tally."""
    from ..scrabble.check import check_sheet as check_scrabble
    from ..scrabble.sheet import ScrabbleSheet
    from ..sorry.check import check_sheet as check_sorry

    if isinstance(sheet, ScrabbleSheet):
        return check_scrabble(sheet, rules)
    return check_sorry(sheet, rules)


__all__ = ["GAMES", "SCRABBLE", "SORRY", "YAHTZEE", "UnknownGame", "check_other", "game_of",
           "load_other", "registry", "resolve_rules", "without_game"]
