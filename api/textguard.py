"""Text that cannot be stored or sent back, refused once at the edge (issue 13).

A JSON body may spell strings no database and no UTF-8 response can hold: a lone
UTF-16 surrogate (``"\\ud800"``, or its bytes sent as CESU-8, which ``json.loads``
lets through) and NUL (``"\\u0000"``, which PostgreSQL text refuses). Every JSON
body the service parses passes through :func:`check_json`, and every request's
path and query through :func:`check_request`: such text answers 422
``VALIDATION_FAILED`` naming each place it sits (``$.players[0].name``,
``query.player``), and is never stored. The sheet loader refuses it too
(``scorepad.sheetspec.bad_text``), for sheets read from files by the CLI.
"""

from __future__ import annotations

from typing import Any

from flask import request

from scorepad.sheetspec import bad_text, printable

from .errors import ApiError, ProblemCode

MAX_REPORTED = 20  # places named in one answer


def printable_key(key: str) -> str:
    """A JSON key as a path step that can itself be sent (bad characters escaped)."""
    return printable(key)


def bad_places(value: Any, path: str = "$") -> list[tuple[str, str]]:
    """(JSON path, what is wrong) for each key or string that holds unencodable text or NUL."""
    out: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack and len(out) < MAX_REPORTED:  # no recursion: a body may nest deeply
        at, v = stack.pop()
        if isinstance(v, str):
            why = bad_text(v)
            if why:
                out.append((at, why))
        elif isinstance(v, dict):
            items = list(v.items())
            for k, sub in reversed(items):
                step = f"{at}.{printable_key(k)}"
                stack.append((step, sub))
            for k, _ in items:
                why = bad_text(k)
                if why:
                    out.append((f"{at}.{printable_key(k)}", f"key {why}"))
        elif isinstance(v, list):
            stack.extend((f"{at}[{i}]", sub) for i, sub in reversed(list(enumerate(v))))
    return out[:MAX_REPORTED]


def _maybe_bad(raw: bytes | None) -> bool:
    # Without a \u escape or a 0xED byte (the lead byte of an encoded surrogate) a JSON text
    # cannot hold a surrogate or a NUL (a raw control character is not valid JSON).
    return raw is None or b"\\u" in raw or b"\xed" in raw


def _refuse(errors: list[tuple[str, str]]) -> ApiError:
    return ApiError(422, ProblemCode.VALIDATION_FAILED,
                    "the request holds text that cannot be stored (NUL or a lone surrogate)",
                    errors=errors)


def check_json(data: Any, raw: bytes | None = None) -> None:
    """Raise 422 when the parsed JSON ``data`` (from the bytes ``raw``) holds such text."""
    if _maybe_bad(raw):
        errors = bad_places(data)
        if errors:
            raise _refuse(errors)


def check_request() -> None:
    """Raise 422 when the request's path or query holds NUL (URL decoding never makes a
    surrogate: werkzeug replaces undecodable bytes)."""
    errors: list[tuple[str, str]] = []
    why = bad_text(request.path)
    if why:
        errors.append(("path", why))
    for key, value in request.args.items(multi=True):
        why = bad_text(key) or bad_text(value)
        if why:
            errors.append((f"query.{printable_key(key)}", why))
    if errors:
        raise _refuse(errors[:MAX_REPORTED])
