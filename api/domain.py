"""The verification core as the service calls it: ``scorepad.audit_sheet``/``tally_sheet``."""

from __future__ import annotations

from typing import Any

from scorepad import audit_sheet, tally_sheet
from scorepad.card import Sheet


def audit(sheet: Sheet, rules: Any = None) -> dict[str, Any]:
    d: dict[str, Any] = audit_sheet(sheet, rules=rules).to_dict()
    return d


def tally(sheet: Sheet, rules: Any = None) -> dict[str, Any]:
    d: dict[str, Any] = tally_sheet(sheet, rules=rules).to_dict()
    return d
