"""The ``scorepad`` command line (the edge of the domain: files, output, exit codes).

Other packages add sub-commands through a ``register(subparsers)`` function in
the modules listed in ``PLUGINS``; each sub-command sets ``func(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

PLUGINS = ("scorepad.solver.cli", "api.cli", "ocr.cli")

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2
EXIT_DOUBTS = 3  # verify: no error, but doubts on a scanned sheet (check cells on the photo)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorepad", description="Yahtzee score-pad verification and statistics."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    from . import commands

    commands.register(sub)
    for name in PLUGINS:
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            # A plugin whose optional dependencies are missing simply adds no commands.
            if exc.name and name.startswith(exc.name):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
