"""The ``scorepad`` command line (the edge of the domain: files, output, exit codes).

Every sub-command is listed once in ``COMMANDS`` with its one-line help and the module
that implements it; the module's ``register(subparsers)`` adds its parsers (through
``add_command``, which takes the help from ``COMMANDS``) and sets ``func(args) -> int``.
A module is imported only when one of its commands runs: ``scorepad --help`` and
``scorepad verify`` never load numba, Flask, SQLAlchemy, OpenCV or PIL.

Failures: a command raises ``InputError`` (or returns ``ExitCode.BAD_INPUT`` after
``error``) and the user sees one line, ``scorepad: ...``; anything else that escapes a
command is a bug, reported on one line with ``ExitCode.INTERNAL``, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NoReturn

from . import __version__


class ExitCode(IntEnum):
    """The exit codes of every sub-command (plugins' too)."""

    OK = 0
    FINDINGS = 1  # a sheet (or card) has errors
    BAD_INPUT = 2  # input cannot be read or a usage error (one clear line, no stack trace)
    DOUBTS = 3  # verify: no error, but doubts on a scanned sheet (check cells on the photo)
    INTERNAL = 70  # a bug in scorepad (EX_SOFTWARE): one line on stderr, please report it
    INTERRUPTED = 130  # Ctrl-C


class InputError(Exception):
    """Bad input: one line for the user, exit code 2.

    ``code`` is a stable word for JSON output (``verify --format json``), ``errors`` the bad
    JSON paths of a sheet that does not load, as (path, message) pairs.
    """

    def __init__(self, message: str, code: str = "bad_input",
                 errors: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.errors = list(errors)


def error(message: str) -> int:
    """Print ``scorepad: message`` on stderr (the one prefix of every failure); exit code 2."""
    print(f"scorepad: {message}", file=sys.stderr)
    return ExitCode.BAD_INPUT


@dataclass(frozen=True)
class Command:
    name: str
    module: str  # imported only when this command (or another of its module) runs
    help: str
    aliases: tuple[str, ...] = ()


COMMANDS: tuple[Command, ...] = (
    Command("verify", "scorepad.commands",
            "audit score sheets (exit 0 correct, 1 errors, 2 bad input, 3 doubts)"),
    Command("options", "scorepad.commands", "where may these dice go on this card?"),
    Command("tally", "scorepad.commands", "totals, PLAYERS' SCORES, winners and standings"),
    Command("rules", "scorepad.commands", "the rule sets and how they differ"),
    Command("solve", "scorepad.solver.cli",
            "solve (or load) the optimal-play table of a rule set"),
    Command("analyse", "scorepad.solver.cli",
            "what each decision of the logged games cost against optimal play", ("analyze",)),
    Command("advise", "scorepad.solver.cli", "best keep or box for a position, and the runner-up"),
    Command("simulate", "scorepad.solver.cli", "score distribution of optimal play (seeded)"),
    Command("serve", "api.cli", "run the HTTP service (development server)"),
    Command("db", "api.cli", "database commands (migrations, backups)"),
    Command("scan", "ocr.cli", "read a photo of a pad into a sheet (JSON)"),
    Command("render", "ocr.cli", "draw the blank pad for printing"),
)
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


def add_command(sub: Any, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    """Add command ``name`` to the sub-parsers, with its help and aliases from COMMANDS."""
    cmd = next(c for c in COMMANDS if c.name == name)
    kwargs.setdefault("description", cmd.help[:1].upper() + cmd.help[1:] + ".")
    if "epilog" in kwargs:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
    parser: argparse.ArgumentParser = sub.add_parser(name, help=cmd.help,
                                                     aliases=list(cmd.aliases), **kwargs)
    return parser


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
