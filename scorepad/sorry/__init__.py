"""SORRY! play for points (seed book 000, lines 124-143): rule sets and points (``rules``),
the sheet model (``sheet``), the checks and tally (``check``); ``schemas`` is the
marshmallow edge. The core is standard library only."""

from __future__ import annotations

from .check import check_sheet
from .rules import REGISTRY, SorryCode, SorryRules, get_rules, points
from .sheet import SorryGame, SorryPlayer, SorrySheet, SorryTotal

__all__ = ["REGISTRY", "SorryCode", "SorryGame", "SorryPlayer", "SorryRules", "SorrySheet",
           "SorryTotal", "check_sheet", "get_rules", "points"]
