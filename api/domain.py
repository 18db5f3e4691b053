"""The verification core as the service calls it: ``scorepad.audit_sheet``/``tally_sheet``.

``audit`` answers the ``Report`` itself (views read ``report.ok``; ``ReportSchema`` and
``MatchAuditSchema`` serialise it); ``tally`` answers the ``Tally`` (``TallySchema``)."""

from __future__ import annotations

from typing import Any

from scorepad import audit_sheet, tally_sheet
from scorepad.audit import Report
from scorepad.card import Sheet
from scorepad.tally import Tally


def audit(sheet: Sheet, rules: Any = None) -> Report:
    return audit_sheet(sheet, rules=rules)


def tally(sheet: Sheet, rules: Any = None) -> Tally:
    return tally_sheet(sheet, rules=rules)
