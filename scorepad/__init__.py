"""scorepad: Yahtzee score-pad verification, tallies and statistics.

The domain (rules, card model, audit, tallies) runs on the standard library;
``schemas`` (marshmallow) and ``cli`` are its edge.
"""

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

__version__ = "0.1.0"

__all__ = [
    "ALL_BOXES", "LOWER", "UPPER", "REGISTRY", "Box", "Code", "Finding", "Game", "GameReport",
    "GameTotals", "JokerRule", "Option", "Options", "Player", "PlayersScores", "ReadStatus",
    "Reading", "Report", "RuleSet", "Severity", "Sheet", "SheetFormatError", "Tally", "TotalField", "Turn",
    "allowed_values", "audit_game", "doubts", "audit_sheet", "compute_totals", "dump_sheet", "get_rules",
    "legal_options", "load_sheet", "loads_sheet", "natural_score", "natural_scores",
    "parse_dice", "tally_sheet",
]
