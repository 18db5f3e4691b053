"""Fuzz of the sheet loader with the text schemathesis never generates (issue 13): lone
surrogates, NUL and huge unicode, in every text field and as keys. The loader either gives a
sheet whose dump encodes as UTF-8, or SheetFormatError naming the path; nothing else."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import audit_sheet, dump_sheet
from scorepad.schemas import SheetFormatError, load_sheet, loads_sheet
from scorepad.sheetspec import bad_text

# Every code point, surrogates (which hypothesis leaves out by default) and NUL included.
ANY_CHAR = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
NASTY = st.sampled_from(["\x00", "\ud800", "\udfff", "\udbff\udc00", "\ufeff", "\u202e",
                         "\ufffd", "\uffff", "\U0010ffff", "e\u0301", "𝔘", "\u0085"])
TEXT = st.one_of(
    st.text(ANY_CHAR, max_size=80),
    st.lists(st.one_of(NASTY, st.text(ANY_CHAR, max_size=3)), max_size=30).map("".join),
    # huge: far past the limits, in 4-byte characters and combining marks
    st.sampled_from(["𝔘" * 70_000, "e" + "\u0301" * 50_000, "\U0010ffff" * 65, "ä" * 64]),
)
GAME = {"boxes": {"aces": 3, "chance": 20}}


def _sheet_with(text: str, where: str) -> tuple[dict[str, Any], str]:
    """A valid sheet with ``text`` put in one place; the JSON path of that place."""
    sheet: dict[str, Any] = {"players": [{"name": "A", "games": [GAME]}, {"name": "B"}]}
    if where == "name":
        sheet["players"][1]["name"] = text
        return sheet, "$.players[1].name"
    if where == "title":
        sheet["title"] = text
        return sheet, "$.title"
    if where == "rules.name":
        sheet["rules"] = {"name": text, "yahtzee_bonus": 0}
        return sheet, "$.rules"
    if where == "rules.summary":
        sheet["rules"] = {"name": "house", "summary": text}
        return sheet, "$.rules"
    sheet["players"][0]["games"][0]["boxes"][text] = 1  # a key
    return sheet, "$.players[0].games[0].boxes"


PLACES = st.sampled_from(["name", "title", "rules.name", "rules.summary", "key"])


def _check(sheet_data: dict[str, Any], text: str, path: str) -> None:
    try:
        sheet = load_sheet(sheet_data)
    except SheetFormatError as exc:
        assert exc.errors and all(p.startswith("$") for p, _ in exc.errors)
        if bad_text(text) and path != "$.players[0].games[0].boxes":
            assert any(p.startswith(path) for p, _ in exc.errors), (exc.errors, path)
        # the errors themselves can be sent
        json.dumps(exc.errors, ensure_ascii=False).encode("utf-8")
        return
    assert not bad_text(text), "unencodable text was loaded"
    # whatever loads can be stored and sent back
    json.dumps(dump_sheet(sheet), ensure_ascii=False).encode("utf-8")
    json.dumps(audit_sheet(sheet).to_dict(), ensure_ascii=False).encode("utf-8")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT, where=PLACES)
def test_the_loader_refuses_unencodable_text_with_its_path(text: str, where: str) -> None:
    data, path = _sheet_with(text, where)
    _check(data, text, path)


@settings(max_examples=200, deadline=None)
@given(text=TEXT, where=PLACES)
def test_the_loader_from_json_text(text: str, where: str) -> None:
    data, path = _sheet_with(text, where)
    raw = json.dumps(data)  # surrogates and NUL written as \u escapes
    try:
        sheet = loads_sheet(raw)
    except SheetFormatError as exc:
        json.dumps(exc.errors, ensure_ascii=False).encode("utf-8")
        return
    assert not bad_text(text)
    json.dumps(dump_sheet(sheet), ensure_ascii=False).encode("utf-8")
