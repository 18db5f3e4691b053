"""The digit networks' forward pass against the plain one, measured in the same run.

    python benchmarks/classifier.py [--glyphs 3000] [--rounds 10]

The reader classifies every cut piece of a photo in one batch (up to about 3,000 distinct
pieces on a heavy photo). ``CnnEnsemble._forward`` runs the three members' first
convolutions as one (they see the same input) in passes of ``cnn.CHUNK`` glyphs; the
baseline runs each member alone (``Net.hidden``) in passes of 64, as the reader did before.
Both are run round by round, interleaved, on the same inputs (strokes drawn at random, as
many as ``--glyphs``); each one's best time is printed and the ratio of the bests. Run it
with OPENBLAS_NUM_THREADS=1 for a scan worker's setting (one thread a scan).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ocr import cnn  # noqa: E402


def plain(model: cnn.CnnEnsemble, x: np.ndarray, chunk: int = 64) -> np.ndarray:
    """The members one by one, as before the first convolutions were run together."""
    out = []
    for s in range(0, len(x), chunk):
        hs = [n.hidden(x[s: s + chunk]) for n in model.nets]
        out.append(np.mean([cnn.softmax(n.head(h)) for n, h in zip(model.nets, hs, strict=True)],
                           axis=0))
    return np.concatenate(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--glyphs", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=10)
    args = ap.parse_args()
    model = cnn.load()
    rng = np.random.default_rng(0)
    x = (rng.random((args.glyphs, cnn.SIDE, cnn.SIDE, cnn.CHANNELS)) > 0.8).astype(np.float32)
    def reader() -> np.ndarray:
        return model._forward(x, cnn.CHUNK)[0]

    def baseline() -> np.ndarray:
        return plain(model, x)

    ways: dict[str, Callable[[], np.ndarray]] = {
        "plain (members alone, 64 a pass)": baseline,
        f"reader (first layers together, {cnn.CHUNK} a pass)": reader}
    runs: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.rounds):
        for name, run in ways.items():
            t0 = time.perf_counter()
            run()
            runs[name].append(time.perf_counter() - t0)
    diff = float(np.abs(baseline() - reader()).max())
    for name, times in runs.items():
        print(f"{name:44s} best {min(times):.3f} s  ({args.glyphs} glyphs)")
    base, new = (min(t) for t in runs.values())
    print(f"speed-up {base / new:.2f}x; largest difference in a probability {diff:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
