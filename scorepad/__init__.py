"""scorepad: Yahtzee score-pad verification, tallies and statistics.

The domain (rules, card model, audit, tallies) runs on the standard library;
``schemas`` (marshmallow) and ``cli`` are its edge.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import doubts
    from .audit import GameReport, Report, audit_game, audit_sheet
    from .boxes import ALL_BOXES, LOWER, UPPER, Box, TotalField
    from .card import Game, GameTotals, Player, PlayersScores, Sheet, Turn, compute_totals
    from .findings import Code, Finding, Severity
    from .placement import Option, Options, allowed_values, legal_options
    from .readings import Reading, ReadStatus
    from .rules import REGISTRY, JokerRule, RuleSet, get_rules
    from .schemas import SheetFormatError, dump_sheet, load_sheet, loads_sheet
    from .scoring import natural_score, natural_scores, parse_dice
    from .tally import Tally, tally_sheet

# Loaded on first use (PEP 562), so that ``scorepad --help`` and the modules that need only
# part of the domain (``scorepad.rules``) do not pay for marshmallow and the audit.
_EXPORTS = {
    "doubts": ".doubts",
    **dict.fromkeys(("GameReport", "Report", "audit_game", "audit_sheet"), ".audit"),
    **dict.fromkeys(("ALL_BOXES", "LOWER", "UPPER", "Box", "TotalField"), ".boxes"),
    **dict.fromkeys(("Game", "GameTotals", "Player", "PlayersScores", "Sheet", "Turn",
                     "compute_totals"), ".card"),
    **dict.fromkeys(("Code", "Finding", "Severity"), ".findings"),
    **dict.fromkeys(("Option", "Options", "allowed_values", "legal_options"), ".placement"),
    **dict.fromkeys(("Reading", "ReadStatus"), ".readings"),
    **dict.fromkeys(("REGISTRY", "JokerRule", "RuleSet", "get_rules"), ".rules"),
    **dict.fromkeys(("SheetFormatError", "dump_sheet", "load_sheet", "loads_sheet"), ".schemas"),
    **dict.fromkeys(("natural_score", "natural_scores", "parse_dice"), ".scoring"),
    **dict.fromkeys(("Tally", "tally_sheet"), ".tally"),
}


def __getattr__(name: str) -> Any:
    import importlib

    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'scorepad' has no attribute {name!r}")
    value = importlib.import_module(module, __name__)
    if name != "doubts":
        value = getattr(value, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


__version__ = "0.1.0"

__all__ = [
    "ALL_BOXES", "LOWER", "UPPER", "REGISTRY", "Box", "Code", "Finding", "Game", "GameReport",
    "GameTotals", "JokerRule", "Option", "Options", "Player", "PlayersScores", "ReadStatus",
    "Reading", "Report", "RuleSet", "Severity", "Sheet", "SheetFormatError", "Tally", "TotalField", "Turn",
    "allowed_values", "audit_game", "doubts", "audit_sheet", "compute_totals", "dump_sheet", "get_rules",
    "legal_options", "load_sheet", "loads_sheet", "natural_score", "natural_scores",
    "parse_dice", "tally_sheet",
]
