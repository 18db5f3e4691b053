"""``python -m htmlpads OUTDIR --count 20 --seed 200000``: write NAME.jpg, NAME.truth.json, NAME.meta.json."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .maker import PadPhotoMaker, Side


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m htmlpads", description=__doc__)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=200000, help="first seed; photo i uses seed + i")
    ap.add_argument("--side", choices=["front", "back"], default=None, help="default: random (mostly front)")
    ap.add_argument("--prefix", default="htmlpad", help="file name prefix")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    side: Side | None = args.side
    start = time.perf_counter()
    with PadPhotoMaker(args.chromium) as maker:
        up = time.perf_counter()
        for i in range(args.count):
            seed = args.seed + i
            t0 = time.perf_counter()
            p = maker.photo(seed=seed, side=side)
            name = f"{args.prefix}_{seed}"
            (args.outdir / f"{name}.jpg").write_bytes(p.jpeg)
            (args.outdir / f"{name}.truth.json").write_text(p.truth_json() + "\n")
            (args.outdir / f"{name}.meta.json").write_text(p.meta_json() + "\n")
            print(f"{name}: {p.side} {p.meta['camera']['size'][0]}x{p.meta['camera']['size'][1]} "
                  f"q{p.meta['jpeg_quality']} slips={p.meta['slip_columns']} "
                  f"{time.perf_counter() - t0:.2f}s", file=sys.stderr)
    end = time.perf_counter()
    if args.count:
        print(f"{args.count} photos in {end - up:.1f}s ({(end - up) / args.count:.2f}s each; "
              f"browser start {up - start:.1f}s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
