"""``python -m scorepad.jsonschema [--check]``: write (or check) sheet.schema.json."""

from __future__ import annotations

import sys

from . import PATH, schema_text, write


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        current = PATH.exists() and PATH.read_text(encoding="utf-8") == schema_text()
        print(f"{PATH}: {'current' if current else 'out of date: run python -m scorepad.jsonschema'}")
        return 0 if current else 1
    if args:
        print("usage: python -m scorepad.jsonschema [--check]", file=sys.stderr)
        return 2
    write()
    print(f"wrote {PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
