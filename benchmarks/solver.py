"""Benchmark of the optimal-play solver (issue 5).

Prints, for one rule set:
* the JIT warm-up (numba compiles once, then loads from its on-disk cache),
* the full table solved from scratch, its expected score and peak memory,
* a baseline measured in the same run: the textbook dense formulation
  (batched numpy, 252 x 462 keep->roll matrices) timed on a sample of states and
  extrapolated to every state, and the ratio,
* loading the cached table, analysing one 13-turn game (cold per-state cache),
* a 10 000-game simulation.

    .venv/bin/python benchmarks/solver.py [--rules hasbro] [--repeat 20]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from math import factorial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorepad.schemas import loads_sheet  # noqa: E402
from scorepad.solver import _kernel, analyse_game, build_table, get_table, simulate  # noqa: E402
from scorepad.solver._dice import (  # noqa: E402
    KEEPS,
    NKEEPS,
    ROLL_PROB,
    ROLL_START,
    SUBKEEPS,
)
from scorepad.solver.table import enumerate_states, split_dead_upper  # noqa: E402


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def dense_baseline(sample: int = 512) -> float:
    """Seconds the textbook dense formulation would take for every state (extrapolated)."""
    trans = np.zeros((NKEEPS, NKEEPS - ROLL_START))  # P(roll | keep)
    for k, kc in enumerate(KEEPS):
        n = 5 - sum(kc)
        for j in range(ROLL_START, NKEEPS):
            rc = KEEPS[j]
            diff = [r - c for r, c in zip(rc, kc, strict=True)]
            if min(diff) < 0:
                continue
            ways = factorial(n)
            for d in diff:
                ways //= factorial(d)
            trans[k, j - ROLL_START] = ways / 6**n
    subs = np.where(SUBKEEPS[ROLL_START:] >= 0, SUBKEEPS[ROLL_START:], 0)
    rng = np.random.default_rng(0)
    e3 = rng.random((sample, NKEEPS - ROLL_START)) * 300
    start = time.perf_counter()
    ek2 = e3 @ trans.T  # (S, 462)
    m2 = ek2[:, subs].max(axis=2)  # (S, 252)
    ek1 = m2 @ trans.T
    m1 = ek1[:, subs].max(axis=2)
    _ = m1 @ ROLL_PROB[ROLL_START:]
    per_state = (time.perf_counter() - start) / sample
    n_states = sum(len(g) for g in enumerate_states(63))
    return per_state * n_states


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="hasbro")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    out: dict[str, object] = {"rules": args.rules, "cpus": os.cpu_count()}

    t = time.perf_counter()
    tiny = build_table({"base": "hasbro", "name": "warmup", "upper_bonus_threshold": 0})
    out["jit_warmup_and_tiny_table_s"] = round(time.perf_counter() - t, 3)
    del tiny

    rss_before = peak_rss_mb()
    out["load_average_before"] = [round(x, 2) for x in os.getloadavg()]
    t = time.perf_counter()
    cpu = time.process_time()
    table = build_table(args.rules)
    build_s = time.perf_counter() - t
    out["table_build_cpu_s"] = round(time.process_time() - cpu, 3)
    out["table_build_s"] = round(build_s, 3)
    out["expected_score"] = round(table.expected_score, 6)
    out["states"] = int(table.reachable.sum())
    out["states_solved"] = sum(len(split_dead_upper(g, table.threshold)[0])
                               for g in enumerate_states(table.threshold))
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    out["peak_rss_before_build_mb"] = round(rss_before, 1)
    # A second build under tracemalloc (slower, so not timed): Python and numpy memory.
    tracemalloc.start()
    build_table(args.rules)
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out["tracemalloc_peak_mb"] = round(traced_peak / 2**20, 1)

    baseline = dense_baseline()
    out["dense_numpy_baseline_keep_stages_only_s"] = round(baseline, 2)
    out["speedup_vs_dense_baseline"] = round(baseline / build_s, 2)

    with tempfile.TemporaryDirectory() as d:
        cache = Path(d)
        table.save(cache / "t.npz")
        from scorepad.solver.table import OptimalTable

        t = time.perf_counter()
        loaded = OptimalTable.load(table.rules, cache / "t.npz")
        assert loaded is not None
        loaded.warm_up()
        out["table_load_s"] = round(time.perf_counter() - t, 4)
        _ = get_table  # the public entry point adds only the cache look-up

    sheet = loads_sheet((ROOT / "sample_pads" / "turn_log_clean_hasbro.json").read_text())
    game = sheet.players[0].games[0]
    assert game is not None and game.turns and len(game.turns) == 13
    times = []
    for _ in range(args.repeat):
        loaded._turn_cache.clear()  # cold: every state's within-turn arrays recomputed
        t = time.perf_counter()
        result = analyse_game(game, table.rules, table=loaded)
        times.append(time.perf_counter() - t)
    out["analyse_13_turn_game_ms"] = {
        "first": round(times[0] * 1000, 2),
        "median": round(statistics.median(times) * 1000, 2),
        "max": round(max(times) * 1000, 2),
        "decisions": len(result.decisions),
    }

    t = time.perf_counter()
    sim = simulate(table.rules, args.games, seed=1, table=loaded)
    out[f"simulate_{args.games}_games_s"] = round(time.perf_counter() - t, 3)
    out["simulated_mean"] = round(sim.mean, 3)
    out["peak_rss_end_mb"] = round(peak_rss_mb(), 1)
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    _ = _kernel
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
