"""``python -m padsynth``: photos of filled pads, for tests, the benchmark and the samples.

    python -m padsynth photo SHEET -o photo.jpg [--seed 3] [--side back] [--clean]
    python -m padsynth samples DIR [--count 10] [--seed 1000] [--design plain]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from ocr.layout import Side
from scorepad.cli import ExitCode
from scorepad.schemas import SheetFormatError, loads_sheet

from . import handwriting as hw
from . import render as rd
from .samples import write_samples
from .variants import VARIANTS


def _fail(message: str) -> int:
    print(f"padsynth: error: {message}", file=sys.stderr)
    return ExitCode.BAD_INPUT


def _photo(args: argparse.Namespace) -> int:
    side = Side(args.side)
    out = Path(args.output)
    if out.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        return _fail("the output must end in .png, .jpg or .jpeg")
    try:
        sheet = loads_sheet(Path(args.sheet).read_bytes())
    except OSError as exc:
        return _fail(f"cannot read {args.sheet}: {exc.strerror or exc}")
    except SheetFormatError as exc:
        return _fail(f"{args.sheet}: {exc}")
    if side is Side.FRONT and not 1 <= args.player <= len(sheet.players):
        return _fail(f"--player must be 1..{len(sheet.players)}")
    if args.seed < 0:
        return _fail("--seed must be 0 or more")
    rng = np.random.default_rng(args.seed)
    style = rd.make_style(rng, hw.available(hw.EVAL_FONTS), hw.mnist_split(reserved=True))
    page = rd.write(sheet, side, style, rng, player=args.player - 1)
    try:
        if args.clean or out.suffix.lower() == ".png":
            page.convert("RGB").save(out)
        else:
            out.write_bytes(rd.photograph(page, rd.random_spec(rng), rng))
    except OSError as exc:
        return _fail(f"cannot write {out}: {exc.strerror or exc}")
    return ExitCode.OK


def _samples(args: argparse.Namespace) -> int:
    if args.count < 1:
        return _fail("--count must be at least 1")
    if args.seed < 0:
        return _fail("--seed must be 0 or more")
    if args.design != "standard" and args.design not in VARIANTS:
        return _fail(f"unknown --design {args.design!r} (standard, {', '.join(sorted(VARIANTS))})")
    try:
        write_samples(Path(args.directory), args.count, args.seed, args.split,
                      design=None if args.design == "standard" else args.design)
    except OSError as exc:
        return _fail(f"cannot write samples: {exc.strerror or exc}")
    return ExitCode.OK


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m padsynth", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(required=True)
    photo = sub.add_parser("photo", help="a sheet written by hand on our pad and photographed")
    photo.add_argument("sheet", help="a sheet JSON file")
    photo.add_argument("-o", "--output", required=True, help="output file (.jpg, or .png unphotographed)")
    photo.add_argument("--side", choices=("front", "back"), default="front")
    photo.add_argument("--player", type=int, default=1, help="which player's card (1-based)")
    photo.add_argument("--seed", type=int, default=0)
    photo.add_argument("--clean", action="store_true", help="no photo effects (a flat scan)")
    photo.set_defaults(func=_photo)
    samples = sub.add_parser("samples", help="random filled pads: NAME.jpg, NAME.truth.json, NAME.meta.json")
    samples.add_argument("directory")
    samples.add_argument("--count", type=int, default=10)
    samples.add_argument("--seed", type=int, default=1000)
    samples.add_argument("--split", choices=("eval", "train"), default="eval",
                         help="eval: held-out fonts and reserved MNIST rows")
    samples.add_argument("--design", default="standard",
                         help="standard (the pad `scorepad render` prints) or another design "
                              "(plain, compact, back_plain, back_framed: read by the adaptive path)")
    samples.set_defaults(func=_samples)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code
