"""``scorepad render`` and ``scorepad scan``: the pad as a picture, and a picture as a sheet."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def register(subparsers: Any) -> None:
    scan = subparsers.add_parser(
        "scan", help="read a photo of a pad into a sheet (JSON)",
        description="Read a photographed pad (front score card or PLAYERS' SCORES back). "
                    "Prints the sheet, or with --report every cell's reading and status.")
    scan.add_argument("photo", nargs="+",
                      help="the photo (JPEG/PNG/...), - for standard input; several photos of "
                           "one pad (score cards in player order, and the back) make one sheet")
    scan.add_argument("--rules", help="rule set name (decides what each box can hold)")
    scan.add_argument("--report", action="store_true",
                      help="print the full scan report (cells, candidates, statuses)")
    scan.add_argument("-o", "--output", help="write the sheet JSON here instead of stdout")
    scan.set_defaults(func=_scan)

    render = subparsers.add_parser(
        "render", help="draw the pad: blank for printing, or a sheet as a photo",
        description="Without SHEET: the blank pad (PNG or PDF, by the output's extension). "
                    "With SHEET: that sheet written by hand on the pad, photographed.")
    render.add_argument("sheet", nargs="?", help="a sheet JSON file to write on the pad")
    render.add_argument("-o", "--output", required=True, help="output file (.png, .pdf, .jpg)")
    render.add_argument("--side", choices=("front", "back"), default="front")
    render.add_argument("--player", type=int, default=1, help="which player's card (1-based)")
    render.add_argument("--seed", type=int, default=0)
    render.add_argument("--clean", action="store_true", help="no photo effects (a flat scan)")
    render.set_defaults(func=_render)

    samples = subparsers.add_parser(
        "render-samples", help="generate synthetic pad photos with their true sheets",
        description="Writes NAME.jpg and NAME.truth.json pairs (the sheet format).")
    samples.add_argument("directory")
    samples.add_argument("--count", type=int, default=10)
    samples.add_argument("--seed", type=int, default=1000)
    samples.add_argument("--split", choices=("eval", "train"), default="eval",
                         help="eval: held-out fonts and reserved MNIST rows")
    samples.add_argument("--design", default="standard",
                         help="the pad's design: standard (the pad `render` prints) or another "
                              "(plain, compact, back_plain, back_framed: read by the adaptive "
                              "layout path; always written with the held-out hands)")
    samples.set_defaults(func=_render_samples)


def _fail(message: str) -> int:
    print(f"scorepad: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _scan(args: argparse.Namespace) -> int:
    from scorepad.rules import UnknownRuleSet
    from scorepad.schemas import dump_sheet

    from .merge import merge
    from .reader import ScanError, scan_image
    from .tesseract import OcrEngineError

    results = []
    for photo in args.photo:
        try:
            data = sys.stdin.buffer.read() if photo == "-" else Path(photo).read_bytes()
        except OSError as exc:
            return _fail(f"cannot read {photo}: {exc.strerror or exc}")
        try:
            results.append(scan_image(data, rules=args.rules))
        except ScanError as exc:
            return _fail(f"{photo}: {exc.code}: {exc.message}")
        except OcrEngineError as exc:
            return _fail(f"{exc.code}: {exc}")
        except UnknownRuleSet as exc:
            return _fail(str(exc))
    if len(results) == 1:
        out: Any = results[0].to_dict() if args.report else results[0].to_dict()["sheet"]
    else:
        try:
            sheet = dump_sheet(merge(results))
        except ScanError as exc:
            return _fail(f"{exc.code}: {exc.message}")
        out = ({"sheet": sheet, "photos": [r.to_dict() for r in results]} if args.report
               else sheet)
    text = json.dumps(out, indent=2)
    if args.output:
        try:
            Path(args.output).write_text(text + "\n")
        except OSError as exc:
            return _fail(f"cannot write {args.output}: {exc.strerror or exc}")
    else:
        print(text)
    review = sum(len(r.needs_review) for r in results)
    if review:
        print(f"scorepad: {review} cell(s) need review "
              f"(run with --report to see them)", file=sys.stderr)
    return EXIT_OK


def _render(args: argparse.Namespace) -> int:
    import numpy as np

    from scorepad.schemas import SheetFormatError, loads_sheet

    from . import handwriting as hw
    from . import render as rd
    from .layout import Side

    side = Side(args.side)
    out = Path(args.output)
    if out.suffix.lower() not in (".png", ".pdf", ".jpg", ".jpeg"):
        return _fail("the output must end in .png, .pdf, .jpg or .jpeg")
    try:
        if args.sheet is None:
            page = rd.blank_page(side)
            if out.suffix.lower() == ".pdf":
                page.save(out, "PDF", resolution=150.0)
            else:
                page.save(out)
            return EXIT_OK
        try:
            sheet = loads_sheet(Path(args.sheet).read_bytes())
        except OSError as exc:
            return _fail(f"cannot read {args.sheet}: {exc.strerror or exc}")
        except SheetFormatError as exc:
            return _fail(f"{args.sheet}: {exc}")
        if side is Side.FRONT and not 1 <= args.player <= len(sheet.players):
            return _fail(f"--player must be 1..{len(sheet.players)}")
        rng = np.random.default_rng(args.seed)
        style = rd.make_style(rng, hw.available(hw.EVAL_FONTS), hw.mnist_split(reserved=True))
        page = rd.write(sheet, side, style, rng, player=args.player - 1)
        if args.clean or out.suffix.lower() in (".png", ".pdf"):
            page.convert("RGB").save(out)
        else:
            out.write_bytes(rd.photograph(page, rd.random_spec(rng), rng))
    except OSError as exc:
        return _fail(f"cannot write {out}: {exc.strerror or exc}")
    return EXIT_OK


def _render_samples(args: argparse.Namespace) -> int:
    from .samples import write_samples
    from .variants import VARIANTS

    if args.count < 1:
        return _fail("--count must be at least 1")
    if args.design != "standard" and args.design not in VARIANTS:
        return _fail(f"unknown --design {args.design!r} (standard, {', '.join(sorted(VARIANTS))})")
    try:
        write_samples(Path(args.directory), args.count, args.seed, args.split,
                      design=None if args.design == "standard" else args.design)
    except OSError as exc:
        return _fail(f"cannot write samples: {exc.strerror or exc}")
    return EXIT_OK
