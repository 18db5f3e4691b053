"""The verification core as the service calls it: ``scorepad.audit_sheet``/``tally_sheet``.

``audit`` answers the ``Report`` itself (views read ``report.ok``; ``ReportSchema`` and
``MatchAuditSchema`` serialise it); ``tally`` answers the tally's JSON-ready dict."""

from __future__ import annotations

from typing import Any

from scorepad import audit_sheet, tally_sheet
from scorepad.audit import Report
from scorepad.card import Sheet


def audit(sheet: Sheet, rules: Any = None) -> Report:
    return audit_sheet(sheet, rules=rules)


def tally(sheet: Sheet, rules: Any = None) -> dict[str, Any]:
    d: dict[str, Any] = tally_sheet(sheet, rules=rules).to_dict()
    return d
