"""The ``scorepad`` command line (the edge of the domain: files, output, exit codes).

Every sub-command is listed once in ``COMMANDS`` with its one-line help and the module
that implements it; the module's ``register(subparsers)`` adds its parsers (through
``add_command``, which takes the help from ``COMMANDS``) and sets ``func(args) -> int``.
A module is imported only when one of its commands runs: ``scorepad --help`` and
``scorepad verify`` never load numba, Flask, SQLAlchemy, OpenCV or PIL.

Failures: a command raises ``InputError`` (or returns ``ExitCode.BAD_INPUT`` after
``error``) and the user sees one line, ``scorepad: ...``; anything else that escapes a
command is a bug, reported on one line with ``ExitCode.INTERNAL``, never a traceback.

``ExitCode``, ``InputError``, ``error``, ``COMMANDS`` and ``add_command`` live in
``scorepad.cliapi`` (which imports no plugin), re-exported here: the plugins import them
from there, so no plugin imports this module back.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__
from .cliapi import COMMANDS, Command, ExitCode, InputError, add_command, error

__all__ = ["COMMANDS", "PLUGINS", "Command", "ExitCode", "InputError", "Parser", "add_command",
           "build_parser", "error", "main"]

PLUGINS = tuple(dict.fromkeys(c.module for c in COMMANDS if c.module != "scorepad.commands"))

EXAMPLES = """examples:
  scorepad verify sample_pads/                 every sheet in a directory, exit code = worst
  scorepad verify --format json sheet.json     one JSON document (an array of entries)
  scorepad options --dice 66666 --card '{"boxes": {"yahtzee": 50}}'
  scorepad rules                               the rule sets, their differences and books
  scorepad scan photo.jpg > sheet.json         a photo of a pad -> a sheet
  scorepad COMMAND --help                      a command's options and examples

exit codes: 0 ok, 1 a sheet has errors, 2 bad input, 3 doubts on a scanned sheet,
70 a bug in scorepad (please report it), 130 interrupted"""


class Parser(argparse.ArgumentParser):
    """argparse with scorepad's one error prefix (usage errors exit 2, as argparse's)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(ExitCode.BAD_INPUT, f"scorepad: {message} (see {self.prog} --help)\n")


def _command_of(name: str | None) -> Command | None:
    return next((c for c in COMMANDS if name == c.name or name in c.aliases), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser. With ``command`` (a name or alias), its module registers its commands in
    full and nothing else is loaded; without, every command is a placeholder that only lists
    it (for ``scorepad --help`` and the error about an unknown command)."""
    parser = Parser(prog="scorepad", description="Yahtzee score-pad verification and "
                    "statistics.", epilog=EXAMPLES,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"scorepad {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = _command_of(command)
    if chosen is not None:  # installed with scorepad: a module that fails to import is a bug
        importlib.import_module(chosen.module).register(sub)
        return parser
    for cmd in COMMANDS:
        sub.add_parser(cmd.name, help=cmd.help, aliases=list(cmd.aliases), add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    # The command is the first argument (the only options before it, -h and --version, exit).
    command = args_list[0] if args_list and not args_list[0].startswith("-") else None
    try:
        if not args_list:
            build_parser().print_help(sys.stderr)
            return ExitCode.BAD_INPUT
        parser = build_parser(command)
        args = parser.parse_args(args_list)
        if getattr(args, "func", None) is None:  # options but no command
            parser.print_help(sys.stderr)
            return ExitCode.BAD_INPUT
        return int(args.func(args))
    except InputError as exc:
        return error(str(exc))
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except BrokenPipeError:  # e.g. `scorepad rules | head -1`: the reader has gone
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        return ExitCode.OK
    except Exception as exc:  # the last resort: a bug, never a traceback
        detail = str(exc).splitlines()[0][:200] if str(exc) else ""
        print(f"scorepad: internal error ({type(exc).__name__}{': ' if detail else ''}"
              f"{detail}); please report it with the command that caused it", file=sys.stderr)
        return ExitCode.INTERNAL


if __name__ == "__main__":  # python -m scorepad.cli: run the module's one import, not __main__'s
    from scorepad.cli import main as _main

    sys.exit(_main())
