"""Write the optimal-play score distributions the statistics charts draw beside a player's.

    python -m api.web.optimal_data [--games 100000] [--seed 1]

For each built-in rule set: ``games`` optimally played games from scorepad.solver
(its table is solved first when not cached, some seconds each), stored as
``data/optimal-RULES.json``: ``{"rule_set", "games", "seed", "mean", "counts": {score: n}}``.
The pages read these files and never solve a table during a request.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from scorepad.rules import REGISTRY

DATA = Path(__file__).resolve().parent / "data"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", nargs="*", default=[rs.name for rs in REGISTRY.all()])
    args = ap.parse_args(argv)
    from scorepad.solver import simulate
    DATA.mkdir(exist_ok=True)
    for name in args.rules:
        r = simulate(name, games=args.games, seed=args.seed)
        counts = Counter(int(s) for s in r.scores)
        out = {"rule_set": name, "games": args.games, "seed": args.seed,
               "mean": round(r.mean, 3), "expected": round(r.expected, 4),
               "counts": {str(k): counts[k] for k in sorted(counts)}}
        (DATA / f"optimal-{name}.json").write_text(json.dumps(out, separators=(",", ":")) + "\n")
        print(f"{name}: mean {r.mean:.2f} (expected {r.expected:.2f}) over {args.games} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
