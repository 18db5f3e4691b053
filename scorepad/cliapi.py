"""What the command line's plugins share with ``scorepad.cli``: the exit codes, ``InputError``
and ``error`` (the one ``scorepad:`` prefix), the list of commands (``COMMANDS``) and
``add_command``, which adds a listed command's parser with its help and aliases.

This module imports none of the plugins (``scorepad.commands``, ``scorepad.solver.cli``,
``api.cli``, ``ocr.cli``): they import it, and ``scorepad.cli`` imports them by name from
``COMMANDS`` only when one of their commands runs, so there is no import circle.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

__all__ = ["COMMANDS", "Command", "ExitCode", "InputError", "add_command", "error"]


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
    Command("serve", "api.cli", "run the HTTP service (gunicorn; --debug: development server)"),
    Command("worker", "api.cli", "run a job worker (photo scans, table builds) on Redis"),
    Command("db", "api.cli", "database commands (migrations, backups)"),
    Command("scan", "ocr.cli", "read a photo of a pad into a sheet (JSON)"),
    Command("render", "ocr.cli", "draw the blank pad for printing"),
)


def add_command(sub: Any, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    """Add command ``name`` to the sub-parsers, with its help and aliases from COMMANDS."""
    cmd = next(c for c in COMMANDS if c.name == name)
    kwargs.setdefault("description", cmd.help[:1].upper() + cmd.help[1:] + ".")
    if "epilog" in kwargs:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
    parser: argparse.ArgumentParser = sub.add_parser(name, help=cmd.help,
                                                     aliases=list(cmd.aliases), **kwargs)
    return parser
