"""``scorepad render`` and ``scorepad scan``: the blank pad as a picture, and a photo as a sheet."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scorepad.cliapi import ExitCode, add_command, error


def register(subparsers: Any) -> None:
    scan = add_command(
        subparsers, "scan",
        description="Read a photographed pad (front score card or PLAYERS' SCORES back). "
                    "Prints the sheet, or with --report every cell's reading and status.",
        epilog="""exit codes: 0 read (cells to check are counted on stderr), 2 not read

examples:
  scorepad scan photo.jpg > sheet.json && scorepad verify sheet.json
  scorepad scan photo.jpg --report          every cell: value, confidence, candidates, crop
  scorepad scan ann.jpg bob.jpg back.jpg -o sheet.json
  scorepad scan held.jpg --corners "200,250 1050,160 1150,1250 350,1330\"""")
    scan.add_argument("photo", nargs="+",
                      help="the photo (JPEG/PNG/...), - for standard input; several photos of "
                           "one pad (score cards in player order, and the back) make one sheet")
    scan.add_argument("--rules", help="rule set (decides what each box can hold): a name or "
                      "alias, a JSON object or a JSON file (default hasbro)")
    scan.add_argument("--report", action="store_true",
                      help="print the full scan report (cells, candidates, statuses)")
    scan.add_argument("-o", "--output", help="write the sheet JSON here instead of stdout")
    scan.add_argument("--corners", metavar="'X1,Y1 X2,Y2 X3,Y3 X4,Y4'",
                      help="the pad's four corners in the photo's pixels (the photo turned "
                           "upright), in any order, when the reader cannot find the pad or "
                           "finds it wrong; also X1,Y1,X2,Y2,...; one photo only")
    scan.set_defaults(func=_scan)

    render = add_command(
        subparsers, "render",
        description="The blank pad (PNG or PDF, by the output's extension). Photos of filled "
                    "pads for tests and benchmarks: python -m padsynth (in the repository).",
        epilog="""examples:
  scorepad render -o pad.pdf
  scorepad render --side back -o back.png""")
    render.add_argument("-o", "--output", required=True, help="output file (.png or .pdf)")
    render.add_argument("--side", choices=("front", "back"), default="front",
                        help="the score card (front, default) or PLAYERS' SCORES (back)")
    render.set_defaults(func=_render)


def _fail(message: str) -> int:
    return error(message)


def _scan(args: argparse.Namespace) -> int:
    from scorepad.inputs import rules_arg
    from scorepad.rules import UnknownRuleSet
    from scorepad.schemas import dump_sheet

    from .corners import parse_corners
    from .merge import merge
    from .reader import scan_image
    from .result import ScanError
    from .tesseract import OcrEngineError

    rules = rules_arg(args.rules)  # InputError: one line, exit 2
    corners = None
    if args.corners is not None:
        if len(args.photo) > 1:
            return _fail(f"--corners marks the pad in one photo; {len(args.photo)} photos were "
                         "given (scan that photo on its own)")
        try:
            corners = parse_corners(args.corners)
        except ScanError as exc:
            return _fail(f"--corners: {exc.message}")
    results = []
    for photo in args.photo:
        try:
            data = sys.stdin.buffer.read() if photo == "-" else Path(photo).read_bytes()
        except OSError as exc:
            return _fail(f"cannot read {photo}: {exc.strerror or exc}")
        try:
            results.append(scan_image(data, rules=rules, corners=corners))
        except ScanError as exc:
            hint = ""
            if exc.code == "not_a_pad":
                hint = ("; check the corners given with --corners" if corners is not None else
                        '; mark its four corners with --corners "x1,y1 x2,y2 x3,y3 x4,y4" '
                        "(pixels of the photo turned upright)")
            if exc.code == "bad_corners":
                return _fail(f"--corners: {exc.message}")
            return _fail(f"{photo}: {exc.code}: {exc.message}{hint}")
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
        hint = "" if args.report else " (run with --report to see them)"
        print(f"scorepad: {review} cell(s) need review{hint}", file=sys.stderr)
    return ExitCode.OK


def _render(args: argparse.Namespace) -> int:
    from .layout import Side
    from .printed import blank_page

    out = Path(args.output)
    if out.suffix.lower() not in (".png", ".pdf"):
        return _fail("the output must end in .png or .pdf")
    page = blank_page(Side(args.side))
    try:
        if out.suffix.lower() == ".pdf":
            page.save(out, "PDF", resolution=150.0)
        else:
            page.save(out)
    except OSError as exc:
        return _fail(f"cannot write {out}: {exc.strerror or exc}")
    return ExitCode.OK
