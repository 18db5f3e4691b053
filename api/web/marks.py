"""The findings of a verdict on the pad: by the cell they sit on, a cell's severity, and a
slip's carried totals under their cause (the verdict and a saved match's page draw them)."""

from __future__ import annotations

from typing import Any

from . import pad


def marks(report: dict[str, Any]) -> tuple[dict[str, list[dict[str, Any]]],
                                             list[dict[str, Any]]]:
    """Findings by the pad form field they sit on, and those on no single box."""
    on_cell: dict[str, list[dict[str, Any]]] = {}
    general: list[dict[str, Any]] = []
    for n, f in enumerate(report.get("findings") or [], start=1):
        f = {**f, "n": n}
        name = pad.finding_field(f.get("player"), f.get("game"), f.get("field"))
        f["cell"] = name
        if name:
            on_cell.setdefault(name, []).append(f)
        else:
            general.append(f)
    return on_cell, general


SEVERITY_ORDER = ("error", "doubt", "warning", "notice")


def group_slips(numbered: list[dict[str, Any]]) -> int:
    """Each finding the audit marks as carried from an earlier slip goes under its cause: the
    last finding before it on the same player's game that is not carried itself (``cause``
    on the consequence, ``consequences`` on the cause). Returns how many slips have some."""
    last: dict[tuple[Any, Any], dict[str, Any]] = {}
    for f in numbered:
        key = (f.get("player"), f.get("game"))
        cause = last.get(key)
        if (f.get("details") or {}).get("carried") and cause is not None:
            f["cause"] = cause["n"]
            cause.setdefault("consequences", []).append(f)
        elif f.get("severity") == "error" and f.get("game") is not None:
            last[key] = f
    return sum(1 for f in numbered if f.get("consequences"))


def severity(fs: list[dict[str, Any]]) -> str:
    """The severity a cell is marked with: the worst of its findings'."""
    sev = {f.get("severity") for f in fs}
    return next((s for s in SEVERITY_ORDER if s in sev), "notice")
