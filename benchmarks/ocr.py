"""Benchmark the pad reader on generated photos it was not trained on.

Numbers are written with the held-out handwriting fonts (padsynth.handwriting.EVAL_FONTS)
and the reserved MNIST rows (index % 500 >= 400), then photographed with random
perspective, rotation (up to upside down), light, shadow, blur, noise and JPEG.
Three readers run on the same photos in one run: tesseract alone, the digit
classifier alone, and both combined (the shipped reader).

Usage: .venv/bin/python benchmarks/ocr.py [--count 60] [--seed 50000] [--designs 40] [--far 20]
       [--weights A.npz,B.npz] [--combined-only] [--without-adaptation] [--json out.json] [-v]
(--designs N: also N photos of other pad designs, read by the adaptive layout path;
 --far N: also N photos of our pad taken from afar.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ocr import cnn  # noqa: E402
from ocr.reader import Reader  # noqa: E402
from ocr.result import ScanError  # noqa: E402
from padsynth import evaluate  # noqa: E402
from padsynth.render import Sample, sample  # noqa: E402
from padsynth.variants import VARIANTS, VariantSample, variant_sample  # noqa: E402

MODES = {
    "tesseract": {"use_classifier": False, "use_tesseract": True},
    "classifier": {"use_classifier": True, "use_tesseract": False},
    "combined": {"use_classifier": True, "use_tesseract": True},
}


def modes_for(weights: list[Path], combined_only: bool = False,
              without_adaptation: bool = False) -> dict[str, dict[str, Any]]:
    """The three readers with the shipped classifier, or, with --weights A.npz,B.npz, the
    classifier-alone and combined readers once per weights file (one run, same photos);
    ``without_adaptation`` adds the combined reader without writer adaptation."""
    extra = {"combined-unadapted": {**MODES["combined"], "adapt": False}} if without_adaptation else {}
    if not weights:
        return {"combined": MODES["combined"], **extra} if combined_only else {**MODES, **extra}
    out: dict[str, dict[str, Any]] = {} if combined_only else {"tesseract": MODES["tesseract"]}
    out.update(extra)
    for path in weights:
        model = cnn.load(path)
        if not combined_only:
            out[f"classifier-{path.stem}"] = {**MODES["classifier"], "model": model}
        out[f"combined-{path.stem}"] = {**MODES["combined"], "model": model}
    return out


def hand_of(s: Sample) -> str:
    hand = s.style.hand
    return "MNIST reserved rows" if hand.use_mnist else Path(str(hand.font)).stem


def photos(count: int, seed: int, designs: bool,
           far: bool = False) -> Iterator[tuple[Sample | VariantSample, str]]:
    """Photos of our own pad with their hands, or (designs=True) of the other pad designs
    in turn with their names; ``far``: our pad small in 12-megapixel photos."""
    names = sorted(VARIANTS)
    for i in range(count):
        if designs:
            v = variant_sample(seed + i, names[i % len(names)])
            yield v, v.variant.name
        else:
            s = sample(seed + i, split="eval", far=far)
            yield s, hand_of(s)


def run(count: int, seed: int, verbose: bool,
        by_hand: dict[str, evaluate.Score] | None = None,
        modes: dict[str, dict[str, Any]] | None = None,
        designs: bool = False, far: bool = False) -> dict[str, dict[str, float]]:
    modes = modes or dict(MODES)
    readers = {m: Reader(**kw) for m, kw in modes.items()}
    totals = {m: evaluate.Score() for m in modes}
    seconds: dict[str, list[float]] = {m: [] for m in modes}
    failures = {m: 0 for m in modes}
    fronts = 0
    for i, (s, source) in enumerate(photos(count, seed, designs, far)):
        fronts += s.side.value == "front"
        for mode, reader in readers.items():
            t0 = time.perf_counter()
            try:
                result = reader.scan(s.jpeg)
            except ScanError as exc:
                failures[mode] += 1
                if verbose:
                    print(f"  {seed + i} {mode}: ScanError {exc.code}", file=sys.stderr)
                continue
            seconds[mode].append(time.perf_counter() - t0)
            sc = evaluate.score(result, s.sheet, s.side)
            totals[mode].add(sc)
            if by_hand is not None and mode.startswith("combined"):
                key = source + mode[len("combined"):]
                by_hand.setdefault(key, evaluate.Score()).add(sc)
            if verbose and mode.startswith("combined"):
                for e in sc.errors:
                    print(f"  {seed + i} {s.side.value} {mode}: {e}", file=sys.stderr)
    out: dict[str, dict[str, float]] = {}
    for mode in modes:
        t = totals[mode]
        cells = max(t.cells, 1)
        out[mode] = {
            "photos": count,
            "front_photos": fronts,
            "scan_errors": failures[mode],
            "cells": t.cells,
            "cell_accuracy": t.correct / cells,
            "confident_share": t.confident / cells,
            "silent_error_rate": t.silent / cells,
            "wrong_flagged_share": t.wrong_flagged / max(t.wrong, 1),
            "sheet_exact_rate": t.sheets_exact / max(t.sheets, 1),
            "name_accuracy": t.names_right / max(t.names, 1),
            "seconds_per_photo_mean": statistics.fmean(seconds[mode]) if seconds[mode] else 0.0,
            "seconds_per_photo_max": max(seconds[mode], default=0.0),
        }
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=50_000)
    ap.add_argument("--json", type=Path, help="also write the numbers here")
    ap.add_argument("--weights", default="",
                    help="compare CNN weights files in one run, e.g. ocr/digits_cnn.npz,new.npz "
                         "(default: the shipped one)")
    ap.add_argument("--designs", type=int, default=0,
                    help="also read this many photos of other pad designs (the adaptive layout path)")
    ap.add_argument("--far", type=int, default=0,
                    help="also read this many photos of our pad taken from afar (12 megapixels, "
                         "the pad across 30%% of the photo)")
    ap.add_argument("--combined-only", action="store_true",
                    help="run only the shipped reader (tesseract + classifier), not each alone")
    ap.add_argument("--without-adaptation", action="store_true",
                    help="also run the combined reader without writer adaptation (ocr/writer.py)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every wrong cell")
    args = ap.parse_args()
    by_hand: dict[str, evaluate.Score] = {}
    weights = [Path(w.strip()) for w in args.weights.split(",") if w.strip()]
    results = run(args.count, args.seed, args.verbose, by_hand,
                  modes_for(weights, args.combined_only, args.without_adaptation))
    if args.designs:
        by_design: dict[str, evaluate.Score] = {}
        for mode, numbers in run(args.designs, args.seed, args.verbose, by_design,
                                 modes_for(weights, True, args.without_adaptation),
                                 designs=True).items():
            results[f"{mode}-other-designs"] = numbers
        by_hand.update({f"design {k}": v for k, v in by_design.items()})
    if args.far:
        for mode, numbers in run(args.far, args.seed, args.verbose, None,
                                 modes_for(weights, True, args.without_adaptation),
                                 far=True).items():
            results[f"{mode}-far"] = numbers
    keys = list(next(iter(results.values())).keys())
    width = max(12, *(len(m) + 1 for m in results))
    print(f"{'metric':28s}" + "".join(f"{m:>{width}s}" for m in results))
    for k in keys:
        row = []
        for m in results:
            v = results[m][k]
            row.append(f"{v:{width}.4f}" if isinstance(v, float) else f"{v:{width}d}")
        print(f"{k:28s}" + "".join(row))
    print("\ncombined reader by handwriting source (held out from training) and pad design:")
    print(f"{'source':40s}{'cells':>8s}{'accuracy':>10s}{'confident':>10s}{'silent':>8s}")
    for name, sc in sorted(by_hand.items()):
        n = max(sc.cells, 1)
        print(f"{name:40s}{sc.cells:8d}{sc.correct / n:10.4f}{sc.confident / n:10.4f}"
              f"{sc.silent:8d}")
    if args.json:
        out = {"modes": results, "by_hand": {k: {"cells": v.cells, "correct": v.correct,
                                                  "confident": v.confident, "silent": v.silent}
                                              for k, v in by_hand.items()}}
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
