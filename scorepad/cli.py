"""The ``scorepad`` command line (the edge of the domain: files, output, exit codes).

Other packages add sub-commands through a ``register(subparsers)`` function in
the modules listed in ``PLUGINS``; each sub-command sets ``func(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from enum import IntEnum

PLUGINS = ("scorepad.solver.cli", "api.cli", "ocr.cli")


class ExitCode(IntEnum):
    """The exit codes of every sub-command (plugins' too)."""

    OK = 0
    FINDINGS = 1  # verify: a sheet has errors
    BAD_INPUT = 2  # input cannot be read (one clear line, no stack trace)
    DOUBTS = 3  # verify: no error, but doubts on a scanned sheet (check cells on the photo)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorepad", description="Yahtzee score-pad verification and statistics."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    from . import commands

    commands.register(sub)
    for name in PLUGINS:  # installed with scorepad: a plugin that fails to import is a bug
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return ExitCode.BAD_INPUT
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
