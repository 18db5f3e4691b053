"""Benchmark the pad reader on generated photos it was not trained on, end to end.

Two evaluation sets, read in one run:

* **own**: our pad drawn by ``padsynth`` (the renderer the reader was developed with), the
  numbers written with the held-out handwriting fonts (padsynth.handwriting.EVAL_FONTS) and
  the reserved MNIST rows (index % 500 >= 400), photographed with random perspective,
  rotation (up to upside down), light, shadow, blur, noise and JPEG;
* **independent** (``--independent N``): pads laid out like the official Yahtzee pad, drawn
  by ``htmlpads`` (HTML/CSS rasterised by Chromium; no drawing, layout or photo code shared
  with padsynth), with its own hands, lighting and lens model.

For each set: pads refused, cells exact (and by number of digits), cells confident, silent
errors (confident and wrong), blanks read as a confident number, seconds per photo, and the
end-to-end figure: per game column, the verdict ``scorepad verify`` gives the scanned sheet
(with its readings) against the verdict on what was truly written: false accusations and
missed faults, as scanned and after review (every unsure cell checked by a person).

Usage: .venv/bin/python benchmarks/ocr.py [--count 60] [--seed 50000] [--independent 60]
       [--independent-seed 200000] [--designs 40] [--far 20] [--weights A.npz,B.npz]
       [--combined-only] [--without-adaptation] [--altered 1000px,dim,...] [--json out.json] [-v]
(--designs N: also N photos of other pad designs of padsynth, read by the adaptive path;
 --far N: also N photos of our pad taken from afar; --altered: the independent photos
 again as a messenger, poor light or a phone held sideways alters them, each alteration a
 set of its own (``ALTERATIONS``; ``--altered all`` for every one).)
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import io
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageFilter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ocr import cnn  # noqa: E402
from ocr.layout import Side  # noqa: E402
from ocr.reader import Reader  # noqa: E402
from ocr.result import ScanError  # noqa: E402
from padsynth import evaluate  # noqa: E402
from padsynth.render import sample  # noqa: E402
from padsynth.variants import VARIANTS, variant_sample  # noqa: E402
from scorepad.card import CARD_READING_KEYS, Sheet  # noqa: E402

RULES = "hasbro"
OFFICIAL_FIELDS = frozenset(CARD_READING_KEYS)  # the official pad also has the 100-per-check row
MODES = {
    "tesseract": {"use_classifier": False, "use_tesseract": True},
    "classifier": {"use_classifier": True, "use_tesseract": False},
    "combined": {"use_classifier": True, "use_tesseract": True},
}


@dataclass
class Photo:
    jpeg: bytes
    sheet: Sheet  # the whole true sheet
    side: Side
    source: str  # the hand (or design) it was written with
    fields: frozenset[str] | None = None  # front: the sheet keys the pad has rows for (None: ours)


@dataclass
class Tally:
    """One reader's figures over one set."""

    photos: int = 0
    refused: int = 0
    score: evaluate.Score = field(default_factory=evaluate.Score)
    scanned: evaluate.Verdicts = field(default_factory=evaluate.Verdicts)
    reviewed: evaluate.Verdicts = field(default_factory=evaluate.Verdicts)
    refusals: list[str] = field(default_factory=list)
    # seconds, which photo, its steps' seconds (``ScanResult.timings``)
    timed: list[tuple[float, str, dict[str, float]]] = field(default_factory=list)

    @property
    def seconds(self) -> list[float]:
        return [sec for sec, _which, _steps in self.timed]

    def slowest(self, n: int = 3) -> list[str]:
        """The n slowest photos read, as "set#k 1.23 s (find 0.40, classify 0.50, ...)": the
        time goal is on the slowest, and where its time went says what to make faster."""
        slow = sorted(self.timed, key=lambda t: t[0], reverse=True)[:n]
        return [f"{which} {sec:.2f} s ({', '.join(f'{k} {v:.2f}' for k, v in steps.items())})"
                for sec, which, steps in slow]

    def numbers(self) -> dict[str, float | int]:
        s = self.score
        cells = max(s.cells, 1)
        return {
            "photos": self.photos,
            "pads_refused": self.refused,
            "cells": s.cells,
            "cell_accuracy": s.correct / cells,
            "two_digit_accuracy": s.digits_accuracy(2),
            "three_digit_accuracy": s.digits_accuracy(3),
            "confident_share": s.confident / cells,
            "silent_error_rate": s.silent / cells,
            "blank_read_as_number": s.blank_as_number,
            "cells_never_read": s.missing,
            "wrong_flagged_share": s.wrong_flagged / max(s.wrong, 1),
            "sheet_exact_rate": s.sheets_exact / max(s.sheets, 1),
            "name_accuracy": s.names_right / max(s.names, 1),
            "seconds_per_photo_mean": statistics.fmean(self.seconds) if self.seconds else 0.0,
            "seconds_per_photo_max": max(self.seconds, default=0.0),
            "game_columns": self.scanned.columns,
            "faulty_columns": self.scanned.faulty,
            "false_accusations_scanned": self.scanned.false_accusations,
            "missed_faults_scanned": self.scanned.missed,
            "unsure_columns_scanned": self.scanned.unsure,
            "false_accusations_reviewed": self.reviewed.false_accusations,
            "missed_faults_reviewed": self.reviewed.missed,
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


def own_photos(count: int, seed: int, far: bool = False) -> Iterator[Photo]:
    for i in range(count):
        s = sample(seed + i, split="eval", far=far)
        hand = s.style.hand
        source = "MNIST reserved rows" if hand.use_mnist else Path(str(hand.font)).stem
        yield Photo(s.jpeg, s.sheet, s.side, source)


def design_photos(count: int, seed: int) -> Iterator[Photo]:
    names = sorted(VARIANTS)
    for i in range(count):
        v = variant_sample(seed + i, names[i % len(names)])
        yield Photo(v.jpeg, v.sheet, v.side, f"design {v.variant.name}")


def independent_photos(count: int, seed: int) -> Iterator[Photo]:
    from htmlpads import PadPhotoMaker

    with PadPhotoMaker() as maker:
        for i in range(count):
            p = maker.photo(seed=seed + i)
            hand = p.meta.get("hand", {})
            source = "MNIST reserved rows" if hand.get("kind") == "mnist" else \
                Path(str(hand.get("font"))).stem
            yield Photo(p.jpeg, p.truth, Side(p.side), source, OFFICIAL_FIELDS)


# ---------------------------------------------------------------- altered photos (--altered)
# Photos as phones, messengers and poor light alter them: neither renderer makes these by
# itself. A photo sent through a messenger comes back 1000 or 800 pixels long and
# recompressed; a kitchen table at night gives a dim, grainy or shaky one; a phone held
# sideways without EXIF a turned one. Each takes a photo's bytes, gives JPEG bytes.

Alteration = Callable[[bytes], bytes]


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _jpeg(im: Image.Image, quality: int = 85) -> bytes:
    out = io.BytesIO()
    im.save(out, "JPEG", quality=quality)
    return out.getvalue()


def _long_side(side: int, quality: int) -> Alteration:
    def alter(data: bytes) -> bytes:
        im = _open(data)
        s = side / max(im.size)
        size = (round(im.width * s), round(im.height * s))
        return _jpeg(im.resize(size, Image.Resampling.LANCZOS if s < 1 else Image.Resampling.BICUBIC),
                     quality)
    return alter


def _pixels(fn: Callable[[np.ndarray], np.ndarray]) -> Alteration:
    def alter(data: bytes) -> bytes:
        a = np.asarray(_open(data)).astype(np.float32)
        return _jpeg(Image.fromarray(np.clip(fn(a), 0, 255).astype(np.uint8)))
    return alter


def _dim(a: np.ndarray) -> np.ndarray:  # a dark room: the midtones pressed down, less light
    return np.power(a / 255.0, 1.8) * 0.55 * 255.0


def _tungsten(a: np.ndarray) -> np.ndarray:  # a warm bulb, no white balance
    return a * np.array([1.08, 0.95, 0.62], np.float32)


def _noise(a: np.ndarray) -> np.ndarray:  # a small sensor's grain in low light
    return a + np.random.default_rng(1).normal(0.0, 10.0, a.shape[:2] + (1,))


ALTERATIONS: dict[str, Alteration] = {
    "1000px": _long_side(1000, 80),  # a messenger's "standard quality"
    "800px": _long_side(800, 70),  # an e-mail client's "small"
    "4000px": _long_side(4000, 90),  # a 12-megapixel phone photo of the same framing
    "jpeg30": lambda data: _jpeg(_open(data), 30),
    "dim": _pixels(_dim),
    "tungsten": _pixels(_tungsten),
    "noise": _pixels(_noise),
    "blur": lambda data: _jpeg(_open(data).filter(ImageFilter.GaussianBlur(1.6))),
    "sideways": lambda data: _jpeg(_open(data).rotate(90, expand=True)),  # no EXIF to undo it
    "grey": lambda data: _jpeg(_open(data).convert("L")),
}


def altered_photos(photos: Iterator[Photo], alter: Alteration) -> Iterator[Photo]:
    for p in photos:
        yield dataclasses.replace(p, jpeg=alter(p.jpeg))


def run(photos: Iterator[Photo], modes: dict[str, dict[str, Any]], verbose: bool,
        by_hand: dict[str, evaluate.Score] | None = None, label: str = "") -> dict[str, Tally]:
    readers = {m: Reader(**kw) for m, kw in modes.items()}
    tallies = {m: Tally() for m in modes}
    for k, photo in enumerate(photos):
        truth = evaluate.on_photo(photo.sheet, photo.side)
        for mode, reader in readers.items():
            t = tallies[mode]
            t.photos += 1
            t0 = time.perf_counter()
            try:
                result = reader.scan(photo.jpeg, rules=RULES)
            except ScanError as exc:
                t.refused += 1
                t.refusals.append(f"{label}#{k} {exc.code}")
                if verbose:
                    print(f"  {label}#{k} {mode}: refused, {exc.code}", file=sys.stderr)
                continue
            t.timed.append((time.perf_counter() - t0, f"{label}#{k}", result.timings))
            sc = evaluate.score(result, photo.sheet, photo.side, photo.fields)
            t.score.add(sc)
            scanned = evaluate.verdicts(result.sheet, truth, RULES)
            reviewed = evaluate.verdicts(evaluate.reviewed(result.sheet, truth), truth, RULES)
            t.scanned.add(scanned)
            t.reviewed.add(reviewed)
            if verbose and mode.startswith("combined"):
                for line in scanned.accused:
                    print(f"  {label}#{k} {mode}: false accusation {line}", file=sys.stderr)
                for line in reviewed.accused:
                    print(f"  {label}#{k} {mode}: false accusation after review {line}",
                          file=sys.stderr)
            if by_hand is not None and mode.startswith("combined"):
                key = photo.source + mode[len("combined"):]
                by_hand.setdefault(key, evaluate.Score()).add(sc)
            if verbose and mode.startswith("combined"):
                for e in sc.errors:
                    print(f"  {label}#{k} {photo.side.value} {mode}: {e}", file=sys.stderr)
    return tallies


def print_table(results: dict[str, dict[str, float | int]]) -> None:
    keys = list(next(iter(results.values())).keys())
    width = max(12, *(len(m) + 1 for m in results))
    print(f"{'metric':28s}" + "".join(f"{m:>{width}s}" for m in results))
    for k in keys:
        row = []
        for m in results:
            v = results[m][k]
            row.append(f"{v:{width}.4f}" if isinstance(v, float) else f"{v:{width}d}")
        print(f"{k:28s}" + "".join(row))


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--count", type=int, default=60, help="photos of the own set")
    ap.add_argument("--seed", type=int, default=50_000)
    ap.add_argument("--independent", type=int, default=0,
                    help="photos of the independent set (htmlpads, the official pad's layout)")
    ap.add_argument("--independent-seed", type=int, default=200_000)
    ap.add_argument("--json", type=Path, help="also write the numbers here")
    ap.add_argument("--weights", default="",
                    help="compare CNN weights files in one run, e.g. ocr/digits_cnn.npz,new.npz "
                         "(default: the shipped one)")
    ap.add_argument("--designs", type=int, default=0,
                    help="also read this many photos of other padsynth designs (adaptive path)")
    ap.add_argument("--far", type=int, default=0,
                    help="also read this many photos of our pad taken from afar (12 megapixels, "
                         "the pad across 30%% of the photo)")
    ap.add_argument("--combined-only", action="store_true",
                    help="run only the shipped reader (tesseract + classifier), not each alone")
    ap.add_argument("--without-adaptation", action="store_true",
                    help="also run the combined reader without writer adaptation (ocr/writer.py)")
    ap.add_argument("--altered", default="",
                    help="also read the independent photos altered so, each a set of its own: "
                         f"comma-separated names of {', '.join(ALTERATIONS)}, or 'all'")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every wrong cell")
    args = ap.parse_args()
    altered = list(ALTERATIONS) if args.altered == "all" else \
        [a.strip() for a in args.altered.split(",") if a.strip()]
    unknown = [a for a in altered if a not in ALTERATIONS]
    if unknown or (altered and not args.independent):
        print(f"--altered: {', '.join(unknown) or 'needs --independent N'}: not an alteration "
              f"of the independent photos ({', '.join(ALTERATIONS)})", file=sys.stderr)
        return 2
    by_hand: dict[str, evaluate.Score] = {}
    weights = [Path(w.strip()) for w in args.weights.split(",") if w.strip()]
    shipped = modes_for(weights, True, args.without_adaptation)
    sets: list[tuple[str, Callable[[], Iterator[Photo]], dict[str, dict[str, Any]]]] = []
    if args.count:
        sets.append(("own", lambda: own_photos(args.count, args.seed),
                     modes_for(weights, args.combined_only, args.without_adaptation)))
    @functools.cache
    def independent_made() -> tuple[Photo, ...]:
        """The independent photos, drawn by Chromium once: read as made and each alteration."""
        return tuple(independent_photos(args.independent, args.independent_seed))

    if args.independent:
        sets.append(("independent", lambda: iter(independent_made()), shipped))
    if args.designs:
        sets.append(("designs", lambda: design_photos(args.designs, args.seed), shipped))
    if args.far:
        sets.append(("far", lambda: own_photos(args.far, args.seed, far=True), shipped))
    for name in altered:
        sets.append((name, lambda name=name: altered_photos(  # type: ignore[misc]
            iter(independent_made()), ALTERATIONS[name]), shipped))
    results: dict[str, dict[str, float | int]] = {}
    refusals: dict[str, list[str]] = {}
    slowest: dict[str, list[str]] = {}
    for name, photos, modes in sets:
        hands: dict[str, evaluate.Score] = {}
        # every photo of the set made before the first is read: the reader's seconds are
        # its own, not shared with the renderer (Chromium, the photo effects) working beside it
        made = list(photos())
        for mode, tally in run(iter(made), modes, args.verbose, hands, name).items():
            results[f"{mode}-{name}"] = tally.numbers()
            refusals[f"{mode}-{name}"] = tally.refusals
            slowest[f"{mode}-{name}"] = tally.slowest()
        by_hand.update({f"{name}: {k}": v for k, v in hands.items()})
    if not results:
        print("nothing to read: give --count, --independent, --designs or --far", file=sys.stderr)
        return 2
    print_table(results)
    print("\ncombined reader by set and handwriting source (held out from training):")
    print(f"{'source':48s}{'cells':>8s}{'accuracy':>10s}{'confident':>10s}{'silent':>8s}"
          f"{'blank->n':>9s}")
    for name, sc in sorted(by_hand.items()):
        n = max(sc.cells, 1)
        print(f"{name:48s}{sc.cells:8d}{sc.correct / n:10.4f}{sc.confident / n:10.4f}"
              f"{sc.silent:8d}{sc.blank_as_number:9d}")
    for mode, lines in refusals.items():
        if lines:
            print(f"refused ({mode}): {', '.join(lines)}")
    for mode, lines in slowest.items():
        print(f"slowest ({mode}): {', '.join(lines)}")
    if args.json:
        out = {"sets": results, "slowest": slowest, "by_hand": {k: {"cells": v.cells, "correct": v.correct,
                                                 "confident": v.confident, "silent": v.silent,
                                                 "blank_as_number": v.blank_as_number}
                                             for k, v in by_hand.items()}}
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
