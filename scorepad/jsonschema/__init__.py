"""The sheet format as a JSON Schema, generated from ``scorepad.sheetspec`` and ``rules``.

``sheet.schema.json`` next to this module is the committed output of
``python -m scorepad.jsonschema`` (``--check`` says whether it is current;
tests/core/test_sheet_format.py checks it too). Standard library only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..readings import ReadStatus
from ..rules import (
    MAX_RULES_NAME,
    MAX_RULES_TEXT,
    REGISTRY,
    RULE_BOOL_FIELDS,
    RULE_INT_RANGES,
    RULE_TEXT_FIELDS,
    JokerRule,
)
from ..sheetspec import (
    BOX_KEYS,
    CHECKS_KEY,
    DICE,
    FORMAT,
    MAX_CANDIDATES,
    MAX_CHECKS,
    MAX_GAMES,
    MAX_NAME,
    MAX_PHOTOS,
    MAX_PIXEL,
    MAX_PLAYERS,
    MAX_ROLLS,
    MAX_TITLE,
    MAX_TURNS,
    MAX_VALUE,
    MIN_VALUE,
    SCORES_READING_KEYS,
    TOTAL_KEYS,
)

PATH = Path(__file__).with_name("sheet.schema.json")
RULE_NAMES = sorted({n for rs in REGISTRY.all() for n in (rs.name, *rs.aliases)})
# Text no sheet holds (sheetspec.bad_text): NUL. (Lone surrogates cannot be written in
# JSON Schema; the loader refuses them too.)
NO_NUL = "^[^\u0000]*$"


def _any_case(name: str) -> str:
    # (the names are letters and hyphens: nothing to escape)
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in name)


_SPACE = r"[\s\x1c-\x1f\x85]*"


def _builtin(names: list[str]) -> str:
    """A pattern matching these names (rule sets' names and aliases), any case, spaced."""
    return f"^{_SPACE}(?:{'|'.join(_any_case(n) for n in names)}){_SPACE}$"


def rules_name(names: list[str]) -> dict[str, Any]:
    """A house rule set's ``name``: not one of ``names``, the game's built-in rule sets'."""
    # not only white space as Python's str.strip() sees it (the rules' check): JSON
    # Schema's \s (ECMA-262) leaves out the separators \x1c-\x1f and \x85
    return {"type": "string", "minLength": 1, "maxLength": MAX_RULES_NAME,
            "pattern": r"[^\s\x1c-\x1f\x85]",
            # no NUL, and not a built-in rule set's name or alias (any case, spaced)
            "not": {"anyOf": [{"pattern": "\u0000"}, {"pattern": _builtin(names)}]}}


def rules_properties(base: dict[str, Any] | None = None) -> dict[str, Any]:
    """The properties of a custom (house) rule set; ``base`` documents its ``base`` field."""
    props: dict[str, Any] = {
        "name": rules_name(RULE_NAMES),
        "base": base or {"type": "string"},
        **{k: {"type": "string", "maxLength": MAX_RULES_TEXT, "pattern": NO_NUL}
           for k in RULE_TEXT_FIELDS},
        "joker": {"type": "string", "enum": [j.value for j in JokerRule]},
        **{k: {"type": "integer", "minimum": lo, "maximum": hi}
           for k, (lo, hi) in RULE_INT_RANGES.items()},
        **{k: {"type": "boolean"} for k in RULE_BOOL_FIELDS},
    }
    return props


def _value(lo: int = MIN_VALUE, hi: int = MAX_VALUE) -> dict[str, Any]:
    return {"type": ["integer", "null"], "minimum": lo, "maximum": hi}


def _nullable(schema: dict[str, Any], null_first: bool = True) -> dict[str, Any]:
    return {"oneOf": [{"type": "null"}, schema] if null_first else [schema, {"type": "null"}]}


def _reading(candidate: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["status"],
        "properties": {
            "status": {"enum": [s.value for s in ReadStatus],
                       "description": "confirmed: a person checked the value against the photo"},
            "confidence": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
            "candidates": {"type": "array", "maxItems": MAX_CANDIDATES, "items": candidate,
                           "description": "other plausible readings, best first; null: blank"},
            "ink": {**candidate,
                    "description": "what the ink alone reads where the reader took another "
                                   "value, the one a failed sum needs (the audit tries it); "
                                   "null: the value is the ink's reading"},
            "box": {**_nullable({"type": "array", "minItems": 4, "maxItems": 4,
                                 "items": {"type": "integer", "minimum": 0,
                                           "maximum": MAX_PIXEL}}),
                    "description": "the cell's crop in the photo: x0, y0, x1, y1 in pixels"},
            "photo": {**_value(0, MAX_PHOTOS),
                      "description": "which photo of a multi-photo scan (0-based)"},
        },
    }


def _object(properties: dict[str, Any], description: str | None = None,
            required: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "additionalProperties": False}
    if required:
        out["required"] = required
    if description:
        out["description"] = description
    out["properties"] = properties
    return out


def sheet_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``scorepad/sheet@1``."""
    die = {"type": "integer", "minimum": 1, "maximum": 6}
    boxes = {**_object({k: _value() for k in BOX_KEYS}),
             "description": "the 13 boxes as written; null or missing means empty"}
    totals = {**_object({k: _value() for k in TOTAL_KEYS}),
              "description": "every total box of the pad exactly as written; null or missing "
                             "means blank"}
    card_readings = _object(
        {k: {"$ref": "#/$defs/checks_reading" if k == CHECKS_KEY else "#/$defs/reading"}
         for k in (*BOX_KEYS, CHECKS_KEY, *TOTAL_KEYS)},
        "how each cell of the game was read from a photo (a scanned sheet); a cell without a "
        "reading was typed by a person")
    scores_readings = _object({k: {"$ref": "#/$defs/reading"} for k in SCORES_READING_KEYS},
                              "how each cell of the PLAYERS' SCORES column was read from a photo")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://scorepad.example/schemas/sheet.schema.json",
        "title": f"scorepad sheet ({FORMAT})",
        "description": "A filled Yahtzee pad: players, up to six games each (GAME #1..#6), the "
                       "totals exactly as written, optional turn logs and the PLAYERS' SCORES "
                       "sheet.",
        "type": "object",
        "additionalProperties": False,
        "required": ["players"],
        "properties": {
            "format": {"const": FORMAT},
            "title": {"type": ["string", "null"], "maxLength": MAX_TITLE, "pattern": NO_NUL},
            "rules": {"oneOf": [
                {"enum": RULE_NAMES, "description": "a rule-set name or alias (hasbro is the "
                                                    "default)"},
                {"type": "object", "additionalProperties": False,
                 "description": "House rules: fields not given come from 'base' (default "
                                "hasbro).",
                 "properties": rules_properties()},
                {"type": "null"},
            ]},
            "players": {"type": "array", "minItems": 1, "maxItems": MAX_PLAYERS,
                        "items": {"$ref": "#/$defs/player"}},
        },
        "$defs": {
            "player": _object({
                "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME,
                         "pattern": NO_NUL},
                "games": {"type": "array", "maxItems": MAX_GAMES,
                          "items": _nullable({"$ref": "#/$defs/game"}, null_first=False),
                          "description": "index 0 is GAME #1; null for an unused column"},
                "players_scores": _nullable(_object({
                    "games": {"type": "array", "maxItems": MAX_GAMES, "items": _value()},
                    "total": _value(),
                    "readings": {"$ref": "#/$defs/scores_readings"},
                })),
            }, required=["name"]),
            "game": _object({
                "boxes": boxes,
                CHECKS_KEY: {"type": "integer", "minimum": 0, "maximum": MAX_CHECKS},
                "totals": totals,
                "turns": _nullable({"type": "array", "maxItems": MAX_TURNS,
                                    "items": {"$ref": "#/$defs/turn"}}),
                "readings": {"$ref": "#/$defs/card_readings"},
            }),
            "turn": _object({
                "rolls": {"type": "array", "minItems": 1, "maxItems": MAX_ROLLS,
                          "items": {"type": "array", "items": die, "minItems": DICE,
                                    "maxItems": DICE}},
                "kept": {"type": "array", "maxItems": MAX_ROLLS,
                         "items": {"type": "array", "maxItems": DICE, "items": die},
                         "description": "kept[i]: the dice held after roll i+1 (empty list: "
                                        "unknown)"},
                "box": _nullable({"enum": list(BOX_KEYS)}, null_first=False),
                "value": _value(),
            }, required=["rolls"]),
            "reading": _reading(_value()),
            "checks_reading": _reading(_value(0, MAX_CHECKS)),
            "card_readings": card_readings,
            "scores_readings": scores_readings,
        },
    }


def schema_text() -> str:
    """The committed file's text."""
    return json.dumps(sheet_schema(), indent=2) + "\n"


def write(path: Path = PATH) -> None:
    path.write_text(schema_text(), encoding="utf-8")
