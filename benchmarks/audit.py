"""Audit speed: complete cards with 0, 2 and 12 bonus Yahtzees, against marshmallow loading.

Prints cards audited per second, microseconds per card, and the ratio of audit time to
the time marshmallow takes to load the same one-card sheet (measured in the same run,
so machine noise cancels). Targets (issue 2): ratio < 1, worst case (12 bonus) < 5 ms.

    .venv/bin/python benchmarks/audit.py [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from scorepad import Box, Game, Report, Sheet, TotalField, audit_sheet, compute_totals, get_rules, load_sheet
from scorepad.boxes import ALL_BOXES

CARDS: dict[str, tuple[list[int], int]] = {
    "0 bonus Yahtzees": ([3, 6, 9, 12, 15, 18, 22, 0, 25, 30, 40, 50, 23], 0),
    "2 bonus Yahtzees": ([3, 6, 9, 20, 15, 18, 22, 0, 25, 30, 40, 50, 23], 2),
    "12 bonus Yahtzees (1575)": ([5, 10, 15, 20, 25, 30, 30, 30, 25, 30, 40, 50, 30], 12),
    # the search's hardest shape: upper zeros that need the lower section first
    "8 bonus, joker order search": ([0, 0, 0, 0, 0, 0, 17, 18, 25, 30, 40, 50, 23], 8),
    "9 bonus, deadlocked (error)": ([0, 0, 0, 0, 0, 0, 17, 18, 25, 30, 40, 50, 23], 9),
}


def sheet_json(values: list[int], checks: int) -> dict[str, Any]:
    """A complete card as a player writes it: boxes, check marks and every total box."""
    boxes: dict[Box, int | None] = dict(zip(ALL_BOXES, values, strict=True))
    totals = compute_totals(Game(boxes=boxes, bonus_checks=checks), get_rules("hasbro"))
    return {"rules": "hasbro", "players": [{"name": "Bench", "games": [{
        "boxes": {b.value: v for b, v in boxes.items()},
        "yahtzee_bonus_checks": checks,
        "totals": {t.value: totals.expected(t) for t in TotalField},
    }]}]}


def per_call(fn: Callable[[], object], seconds: float) -> float:
    """Median seconds per call over five batches sized to ``seconds`` in total."""
    fn()
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds / 10:
        fn()
        n += 1
    batch = max(n, 1)
    samples = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - t) / batch)
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0, help="time budget per measurement")
    args = ap.parse_args()
    print(f"{'card':<30}{'audits/s':>10}{'us/audit':>10}{'us/load':>10}{'audit/load':>12}")
    worst = 0.0
    for name, (values, checks) in CARDS.items():
        data = sheet_json(values, checks)
        sheet = load_sheet(data)

        def audit_once(sheet: Sheet = sheet) -> Report:
            return audit_sheet(sheet)

        def load_once(data: dict[str, Any] = data) -> Sheet:
            return load_sheet(data)

        t_audit = per_call(audit_once, args.seconds)
        t_load = per_call(load_once, args.seconds)
        worst = max(worst, t_audit)
        print(f"{name:<30}{1 / t_audit:>10.0f}{t_audit * 1e6:>10.0f}{t_load * 1e6:>10.0f}"
              f"{t_audit / t_load:>12.2f}")
    print(f"worst case: {worst * 1e3:.2f} ms per card (target < 5 ms)")


if __name__ == "__main__":
    main()
