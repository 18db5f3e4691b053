"""Start-up time of the command line against a bare interpreter, measured in the same run.

    python benchmarks/cli_startup.py [--runs 20]

Runs ``python -c pass`` and each command (``scorepad --help``, ``scorepad rules``,
``scorepad verify`` of one sheet) as a fresh process, interleaved round by round so that
load on the machine falls on all of them alike, and prints each one's best and median wall
time and its excess over the bare interpreter. Target (issue 14): each command within
0.15 s of ``python -c pass``, judged on the best run (the least disturbed by other load).

Python's bytecode cache is used as on an installed system, kept in a temporary
PYTHONPYCACHEPREFIX (so nothing is written into the tree, and PYTHONDONTWRITEBYTECODE in
the environment does not turn every start into a compilation of the sources);
``--no-bytecode-cache`` measures with the environment as it is.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.15  # seconds over a bare interpreter start


def scorepad() -> list[str]:
    """The console script beside this interpreter, as a user runs it."""
    script = Path(sys.executable).with_name("scorepad")
    return [str(script)] if script.exists() else [sys.executable, "-m", "scorepad.cli"]


def cases() -> dict[str, list[str]]:
    sheet = str(ROOT / "sample_pads" / "upper_bonus_missing.json")
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "scorepad --help": [*scorepad(), "--help"],
        "scorepad rules": [*scorepad(), "rules"],
        "scorepad verify (one sheet)": [*scorepad(), "verify", sheet],
    }


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                   env=env, check=False)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20, help="rounds (default 20)")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="keep the environment's bytecode settings (PYTHONDONTWRITEBYTECODE)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="scorepad-pycache-") as prefix:
        env = dict(os.environ)
        if not args.no_bytecode_cache:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = prefix
        return measure(args.runs, env, "environment's" if args.no_bytecode_cache else
                       "a fresh bytecode cache (PYTHONPYCACHEPREFIX)")


def measure(runs: int, env: dict[str, str], cache: str) -> int:
    todo = cases()
    times: dict[str, list[float]] = {name: [] for name in todo}
    for cmd in todo.values():  # one warm-up each: file cache, .pyc files
        wall(cmd, env)
    for _ in range(runs):
        for name, cmd in todo.items():
            times[name].append(wall(cmd, env))
    bare_best = min(times["python -c pass"])
    bare_median = statistics.median(times["python -c pass"])
    print(f"{runs} runs each, interleaved, with {cache}; excess = time - python -c pass "
          "(same run)")
    print(f"{'command':<30}{'best':>8}{'median':>8}{'excess best':>13}{'excess median':>15}")
    worst = 0.0
    for name, ts in times.items():
        best, median = min(ts), statistics.median(ts)
        excess = best - bare_best
        if name != "python -c pass":
            worst = max(worst, excess)
        print(f"{name:<30}{best:>8.3f}{median:>8.3f}{excess:>13.3f}{median - bare_median:>15.3f}")
    verdict = "meets" if worst <= TARGET else "MISSES"
    print(f"worst excess (best runs) {worst:.3f} s: {verdict} the target of {TARGET:.2f} s")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
