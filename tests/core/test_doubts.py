"""Scanned sheets: an error that a plausible misread explains is a doubt, never an error.

Table-driven cases on one correct card (and its PLAYERS' SCORES column), each with one
cell read or written otherwise; they assert codes, severities, fields and the readings
that would make the card right, never wording.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from scorepad import (
    Reading,
    ReadStatus,
    Severity,
    audit_sheet,
    doubts,
    dump_sheet,
    load_sheet,
    loads_sheet,
)
from scorepad.card import CARD_READING_KEYS, SCORES_READING_KEYS

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "scorepad" / "jsonschema" / "sheet.schema.json").read_text())
PADS = ROOT / "sample_pads"

# A correct complete card (hasbro): upper 63 + 35, lower 137, grand total 235.
BOXES = {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
         "three_of_a_kind": 20, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
         "large_straight": 40, "yahtzee": 0, "chance": 22}
TOTALS = {"upper_total_score": 63, "upper_bonus": 35, "upper_total": 98, "yahtzee_bonus": 0,
          "lower_total": 137, "upper_total_repeat": 98, "grand_total": 235}


def read(status: str = "confident", *candidates: int | None) -> dict[str, Any]:
    return {"status": status, "confidence": 0.9, "candidates": list(candidates),
            "box": [10, 20, 60, 50], "photo": 0}


def inked(ink: int, *others: int | None) -> dict[str, Any]:
    """A cell read unsure, its value taken for a failed sum's sake where the ink reads
    ``ink`` (first among its candidates, as the reader writes it)."""
    return {**read("needs_review", ink, *others), "ink": ink}


def scanned(values: dict[str, int | None] | None = None,
            readings: dict[str, dict[str, Any]] | None = None,
            scores: dict[str, Any] | None = None,
            score_readings: dict[str, dict[str, Any]] | None = None,
            default: str | None = "confident") -> dict[str, Any]:
    """The card as read: every cell read ``default`` (None: typed), then ``values`` and
    ``readings`` on top; a PLAYERS' SCORES column when ``scores`` is given."""
    game: dict[str, Any] = {"boxes": dict(BOXES), "totals": dict(TOTALS),
                            "yahtzee_bonus_checks": 0}
    for k, v in (values or {}).items():
        if k == "yahtzee_bonus_checks":
            game[k] = v
        else:
            game["boxes" if k in BOXES else "totals"][k] = v
    rs = {k: read(default) for k in CARD_READING_KEYS} if default else {}
    rs.update(readings or {})
    if rs:
        game["readings"] = rs
    player: dict[str, Any] = {"name": "Ann", "games": [game]}
    if scores is not None:
        ps = dict(scores)
        if score_readings:
            ps["readings"] = score_readings
        player["players_scores"] = ps
    return {"rules": "hasbro", "players": [player]}


def outcome(data: dict[str, Any]) -> tuple[set[tuple[str, str, str | None]], str]:
    report = audit_sheet(load_sheet(data))
    got = {(f.severity.value, f.code.value, f.field) for f in report.findings
           if f.severity in (Severity.ERROR, Severity.DOUBT)}
    return got, report.verdict


def right_if(data: dict[str, Any], code: str, field: str) -> list[tuple[str, int | None]]:
    report = audit_sheet(load_sheet(data))
    f = next(f for f in report.findings if f.code.value == code and f.field == field)
    return [(r["field"], r["value"]) for r in f.details["doubt"]["would_be_right_if"]]


IN_PROGRESS: dict[str, int | None] = {"chance": None, "lower_total": None, "grand_total": None}
UPPER_ROWS = ("aces", "twos", "threes", "fours", "fives", "sixes", "upper_total_score",
              "upper_bonus", "upper_total")  # the rows of a table found only from 3 of a kind
UPPER_SUMS = {"upper_total_score", "upper_total", "upper_total_repeat", "grand_total"}

CASES = [
    # (id, sheet, findings {(severity, code, field)}, verdict)
    ("typed_correct_card", scanned(default=None), set(), "correct"),
    ("read_correct_card", scanned(), set(), "correct"),
    ("total_misread_true_value_a_candidate",
     scanned({"grand_total": 234}, {"grand_total": read("confident", 235, 284)}),
     {("doubt", "TOTAL_ARITHMETIC", "grand_total")}, "unsure"),
    ("total_misread_unsure_without_candidates",
     scanned({"grand_total": 234}, {"grand_total": read("needs_review")}),
     {("doubt", "TOTAL_ARITHMETIC", "grand_total")}, "unsure"),
    ("total_unreadable",
     scanned({"grand_total": 234}, {"grand_total": read("unreadable")}),
     {("doubt", "TOTAL_ARITHMETIC", "grand_total")}, "unsure"),
    # a total blank as read: a notice where the reader is sure the cell is blank (or it was
    # typed); where it could not read the cell, or was unsure, the card is not called right
    ("total_blank_read_surely", scanned({"grand_total": None}), set(), "correct"),
    ("total_blank_typed", scanned({"grand_total": None}, default=None), set(), "correct"),
    ("total_blank_unreadable",
     scanned({"grand_total": None}, {"grand_total": read("unreadable")}),
     {("doubt", "TOTAL_BLANK", "grand_total")}, "unsure"),
    ("total_blank_unsure",
     scanned({"lower_total": None}, {"lower_total": read("needs_review", 157)}),
     {("doubt", "TOTAL_BLANK", "lower_total")}, "unsure"),
    ("total_blank_confirmed",
     scanned({"grand_total": None}, {"grand_total": read("confirmed")}), set(), "correct"),
    # a game in progress as read: a notice where the reader is sure its open boxes are blank
    # (or they were typed); where rows were not found or a blank was unsure, a doubt
    ("in_progress_read_surely", scanned(IN_PROGRESS), set(), "correct"),
    ("in_progress_typed", scanned(IN_PROGRESS, default=None), set(), "correct"),
    ("in_progress_blank_unsure",
     scanned(IN_PROGRESS, {"chance": read("needs_review", 22)}),
     {("doubt", "GAME_IN_PROGRESS", None)}, "unsure"),
    ("in_progress_rows_not_found",
     scanned(dict.fromkeys(UPPER_ROWS), dict.fromkeys(UPPER_ROWS, read("unreadable"))),
     {("doubt", "GAME_IN_PROGRESS", None)}, "unsure"),
    ("in_progress_blank_confirmed",
     scanned(IN_PROGRESS, {"chance": read("confirmed")}), set(), "correct"),
    ("total_confirmed_by_a_person",
     scanned({"grand_total": 234}, {"grand_total": read("confirmed", 235)}),
     {("error", "TOTAL_ARITHMETIC", "grand_total")}, "errors"),
    ("total_typed", scanned({"grand_total": 234}, default=None),
     {("error", "TOTAL_ARITHMETIC", "grand_total")}, "errors"),
    ("confident_no_candidate_explains",
     scanned({"grand_total": 253}, {"grand_total": read("confident", 283, 258)}),
     {("error", "TOTAL_ARITHMETIC", "grand_total")}, "errors"),
    # The player's own slip (253 for 235, two digits swapped) on a card read confidently:
    # the candidates of every cell are plausible misreads, none makes the card right, and
    # no cell a digit off would either.
    ("players_slip_on_confident_card",
     scanned({"grand_total": 253}, {"grand_total": read("confident", 258, 353),
                                    "aces": read("confident", 4), "chance": read("confident", 27)}),
     {("error", "TOTAL_ARITHMETIC", "grand_total")}, "errors"),
    # A sure reading one digit from making the sum hold (245 for 235): a slip, or a 3
    # misread as a 4 in a hand the reader does not know. Until a person confirms the cell
    # it is a doubt (and an error once confirmed: total_confirmed_by_a_person).
    ("one_digit_off_on_confident_card",
     scanned({"grand_total": 245}, {"grand_total": read("confident", 248, 345)}),
     {("doubt", "TOTAL_ARITHMETIC", "grand_total")}, "unsure"),
    # ... and where the sure reading is a box: Four of a Kind 27 read as 21, the lower
    # TOTAL confirmed as written, 6 more than the boxes as read
    ("box_a_digit_off_after_review",
     scanned({"four_of_a_kind": 21, "lower_total": 164, "grand_total": 262},
             {"lower_total": read("confirmed"), "grand_total": read("confirmed")}),
      {("doubt", "TOTAL_ARITHMETIC", "lower_total"), ("doubt", "TOTAL_ARITHMETIC", "grand_total")},
     "unsure"),
    # A box misread: 3 Aces read as 8, the sums around it all fail; the 3 explains them all.
    ("box_misread_explains_every_sum",
     scanned({"aces": 8}, {"aces": read("confident", 3, 6)}),
     {("doubt", "BOX_VALUE_IMPOSSIBLE", "aces"),
      *(("doubt", "TOTAL_ARITHMETIC", f) for f in UPPER_SUMS)}, "unsure"),
    # Ink seen in a total left blank: blank among the candidates.
    ("blank_total_read_as_a_number",
     scanned({"upper_total_score": None, "upper_bonus": 8},
             {"upper_bonus": read("confident", None)}),
     {("doubt", "UPPER_BONUS_WRONG", "upper_bonus")}, "unsure"),
    ("blank_total_misread_no_blank_candidate",
     scanned({"upper_total_score": None, "upper_bonus": 8},
             {"upper_bonus": read("confident", 3)}),
     {("error", "UPPER_BONUS_WRONG", "upper_bonus")}, "errors"),
    # A written box read blank: the game looks unfinished, its totals early (warnings only).
    ("box_read_blank", scanned({"chance": None}, {"chance": read("confident", 22, 23)}),
     set(), "correct"),
    ("misread_with_two_candidates_that_fix_it",
     scanned({"upper_total_score": 68}, {"upper_total_score": read("confident", 63, None)}),
     {("doubt", "TOTAL_ARITHMETIC", "upper_total_score")}, "unsure"),
    # Aces 53 would make the written upper sum add up, but no Aces box holds 53: only the
    # sum's own candidate makes the card right.
    ("candidate_that_is_an_error_itself",
     scanned({"upper_total_score": 113}, {"upper_total_score": read("confident", 63),
                                          "aces": read("confident", 53)}),
     {("doubt", "TOTAL_ARITHMETIC", "upper_total_score")}, "unsure"),
    # A check mark seen where there is none: the checks read 1, blank a candidate.
    ("check_mark_misread",
     scanned({"yahtzee_bonus_checks": 1}, {"yahtzee_bonus_checks": read("confident", None)}),
     {("doubt", "BONUS_CHECKS_WITHOUT_YAHTZEE_50", "yahtzee_bonus_checks"),
      ("doubt", "YAHTZEE_BONUS_POINTS_WRONG", "yahtzee_bonus"),
      ("doubt", "TOTAL_ARITHMETIC", "grand_total")}, "unsure"),  # (lower total: a notice)
    # An unsure cell that the finding rests on makes it a doubt ...
    ("slip_resting_on_an_unsure_box",
     scanned({"grand_total": 245}, {"grand_total": read("confirmed"),
                                    "sixes": read("needs_review")}),
     {("doubt", "TOTAL_ARITHMETIC", "grand_total")}, "unsure"),
    # ... one it does not rest on leaves it an error (the upper sum is not the Chance's).
    ("slip_not_resting_on_the_unsure_box",
     scanned({"upper_total_score": 64}, {"upper_total_score": read("confirmed"),
                                         "chance": read("needs_review")}),
     {("error", "TOTAL_ARITHMETIC", "upper_total_score")}, "errors"),
    # A sum that holds only as the reader took it: 163 written for an upper TOTAL SCORE of
    # 63 (a slip), the digit more seen (the best other reading) and the 63 taken ...
    ("slip_hidden_by_an_unsure_reading",
     scanned({"upper_total_score": 63}, {"upper_total_score": read("needs_review", 163, 68)}),
     {("doubt", "TOTAL_ARITHMETIC", "upper_total_score")}, "unsure"),
    ("players_total_hidden_by_an_unsure_reading",
     scanned(scores={"games": [235], "total": 235},
             score_readings={"games[0]": read(), "total": read("needs_review", 2355)}),
     {("doubt", "PLAYERS_TOTAL_WRONG", "players_scores.total")}, "unsure"),
    # What the ink read where the reader took the reading a failed sum needs: the card is
    # right as taken, not as the ink reads (the player's slip: 153 written for 137) ...
    ("ink_of_a_taken_sum",
     scanned(readings={"lower_total": inked(153, 173)}),
     {("doubt", "TOTAL_ARITHMETIC", "lower_total")}, "unsure"),
    ("ink_of_a_taken_box",
     scanned(readings={"chance": inked(17)}),
     {("doubt", "TOTAL_ARITHMETIC", "lower_total")}, "unsure"),
    ("ink_of_a_taken_players_score",
     scanned(scores={"games": [235], "total": 235},
             score_readings={"games[0]": inked(285), "total": read()}),
     {("doubt", "PLAYERS_SCORE_WRONG", "players_scores.games[0]")}, "unsure"),
    # ... not once a person confirmed it, nor a sure reading's, nor an ink that reads the
    # value itself
    ("ink_of_a_confirmed_cell",
     scanned(readings={"lower_total": {**inked(153), "status": "confirmed"}}), set(), "correct"),
    ("ink_of_a_sure_reading",
     scanned(readings={"lower_total": {**inked(153), "status": "confident"}}), set(), "correct"),
    ("ink_that_reads_the_value",
     scanned(readings={"lower_total": inked(TOTALS["lower_total"])}), set(), "correct"),
    # ... not a sum read surely, or confirmed; not where the best other reading is no
    # digit more (a misread the sum holding makes unlikely), nor a box's reading (the
    # decoder takes a legal reading over an illegal one: most are right)
    ("sure_sum_a_digit_more_a_candidate",
     scanned({"upper_total_score": 63}, {"upper_total_score": read("confident", 163)}),
     set(), "correct"),
    ("confirmed_sum_a_digit_more_a_candidate",
     scanned(readings={"upper_total_score": read("confirmed", 163)}), set(), "correct"),
    ("unsure_sum_whose_best_other_reading_is_no_digit_more",
     scanned(readings={"upper_total_score": read("needs_review", 68, 163)}), set(), "correct"),
    ("unsure_box_a_digit_more_a_candidate",
     scanned(readings={"chance": read("needs_review", 122)}), set(), "correct"),
    ("unsure_sum_without_candidates",
     scanned(readings={"upper_total_score": read("needs_review")}), set(), "correct"),
    # PLAYERS' SCORES
    ("players_score_row_misread",
     scanned(scores={"games": [285], "total": 235},
             score_readings={"games[0]": read("confident", 235), "total": read()}),
     {("doubt", "PLAYERS_SCORE_WRONG", "players_scores.games[0]")}, "unsure"),
    ("players_total_unsure",
     scanned(scores={"games": [235], "total": 255},
             score_readings={"games[0]": read(), "total": read("needs_review")}),
     {("doubt", "PLAYERS_TOTAL_WRONG", "players_scores.total")}, "unsure"),
    ("players_score_row_confirmed",
     scanned(scores={"games": [285], "total": 235},
             score_readings={"games[0]": read("confirmed", 235), "total": read()}),
     {("error", "PLAYERS_SCORE_WRONG", "players_scores.games[0]")}, "errors"),
    ("players_score_typed_row_explained_by_a_front_box",
     scanned({"aces": 8}, {"aces": read("confident", 3)}, scores={"games": [235], "total": 235}),
     {("doubt", "BOX_VALUE_IMPOSSIBLE", "aces"),
      *(("doubt", "TOTAL_ARITHMETIC", f) for f in UPPER_SUMS),
      ("doubt", "PLAYERS_SCORE_WRONG", "players_scores.games[0]"),
      ("doubt", "PLAYERS_TOTAL_WRONG", "players_scores.total")}, "unsure"),
]


@pytest.mark.parametrize(("data", "want", "verdict"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_doubt_cases(data: dict[str, Any], want: set[tuple[str, str, str]],
                     verdict: str) -> None:
    got, v = outcome(data)
    assert got == want
    assert v == verdict
    report = audit_sheet(load_sheet(data))
    assert report.ok is (verdict != "errors")
    assert report.to_dict()["verdict"] == verdict
    assert report.counts()["doubt"] == sum(1 for s, _, _ in want if s == "doubt")


@pytest.mark.parametrize(("case", "code", "field", "want"), [
    ("total_misread_true_value_a_candidate", "TOTAL_ARITHMETIC", "grand_total",
     [("grand_total", 235)]),
    # unsure, no candidates: the value the finding expects is what would make it right
    ("total_misread_unsure_without_candidates", "TOTAL_ARITHMETIC", "grand_total",
     [("grand_total", 235)]),
    ("box_misread_explains_every_sum", "TOTAL_ARITHMETIC", "grand_total", [("aces", 3)]),
    ("one_digit_off_on_confident_card", "TOTAL_ARITHMETIC", "grand_total",
     [("grand_total", 235)]),  # (a box a digit off would fail the lower TOTAL)
    ("box_a_digit_off_after_review", "TOTAL_ARITHMETIC", "lower_total",  # any may be misread
     [("three_of_a_kind", 26), ("four_of_a_kind", 27), ("chance", 28)]),
    ("box_misread_explains_every_sum", "BOX_VALUE_IMPOSSIBLE", "aces", [("aces", 3)]),
    ("blank_total_read_as_a_number", "UPPER_BONUS_WRONG", "upper_bonus",
     [("upper_bonus", None)]),
    ("misread_with_two_candidates_that_fix_it", "TOTAL_ARITHMETIC", "upper_total_score",
     [("upper_total_score", 63), ("upper_total_score", None)]),
    ("candidate_that_is_an_error_itself", "TOTAL_ARITHMETIC", "upper_total_score",
     [("upper_total_score", 63)]),
    ("check_mark_misread", "BONUS_CHECKS_WITHOUT_YAHTZEE_50", "yahtzee_bonus_checks",
     [("yahtzee_bonus_checks", 0)]),
    ("slip_resting_on_an_unsure_box", "TOTAL_ARITHMETIC", "grand_total", []),
    ("players_score_row_misread", "PLAYERS_SCORE_WRONG", "players_scores.games[0]",
     [("players_scores.games[0]", 235)]),
    ("players_score_typed_row_explained_by_a_front_box", "PLAYERS_SCORE_WRONG",
     "players_scores.games[0]", [("aces", 3)]),
])
def test_would_be_right_if(case: str, code: str, field: str,
                           want: list[tuple[str, int | None]]) -> None:
    data = next(c[1] for c in CASES if c[0] == case)
    assert right_if(data, code, field) == want


def test_doubt_details_name_the_cells_with_their_crops() -> None:
    data = scanned({"grand_total": 234}, {"grand_total": {
        "status": "needs_review", "confidence": 0.62, "candidates": [235, 284],
        "box": [812, 1400, 905, 1452], "photo": 1}})
    f = next(f for f in audit_sheet(load_sheet(data)).findings if f.field == "grand_total")
    d = f.to_dict()
    assert d["code"] == "TOTAL_ARITHMETIC" and d["severity"] == "doubt"
    assert d["written"] == 234 and d["expected"] == 235
    doubt = d["details"]["doubt"]
    assert doubt["reason"] == "unsure_reading"
    assert doubt["cells"] == [{"field": "grand_total", "game": 1, "read": 234,
                               "status": "needs_review", "confidence": 0.62,
                               "box": [812, 1400, 905, 1452], "photo": 1}]
    assert doubt["would_be_right_if"] == [{"field": "grand_total", "game": 1, "value": 235}]
    assert f.message and "doubt" not in f.message.split(":")[0]  # a message is rendered


def test_a_game_read_in_part_names_the_open_boxes_it_could_not_read() -> None:
    # the upper rows not found: the doubt names the six open boxes (the sums are not boxes)
    data = next(c[1] for c in CASES if c[0] == "in_progress_rows_not_found")
    f = next(f for f in audit_sheet(load_sheet(data)).findings
             if f.code.value == "GAME_IN_PROGRESS")
    doubt = f.to_dict()["details"]["doubt"]
    assert doubt["reason"] == "unsure_reading"
    assert [(c["field"], c["read"], c["status"]) for c in doubt["cells"]] == [
        (k, None, "unreadable") for k in UPPER_ROWS[:6]]
    assert doubt["would_be_right_if"] == []


def test_a_hidden_slip_names_the_cell_and_the_reading_that_shows_it() -> None:
    data = scanned({"upper_total_score": 63}, {"upper_total_score": read("needs_review", 163)})
    report = audit_sheet(load_sheet(data))
    [f] = [f for f in report.findings if f.severity is Severity.DOUBT]
    doubt = f.details["doubt"]
    assert doubt["reason"] == "hidden"
    assert [c["field"] for c in doubt["cells"]] == ["upper_total_score"]
    assert doubt["cells"][0]["read"] == 63 and doubt["cells"][0]["box"] == [10, 20, 60, 50]
    assert doubt["would_be_wrong_if"] == [
        {"field": "upper_total_score", "game": 1, "value": 163}]
    assert (f.written, f.expected) == (163, 63)  # the finding as that reading would make it


def test_a_taken_reading_names_what_the_ink_read() -> None:
    data = scanned(readings={"lower_total": inked(153, 173)})
    report = audit_sheet(load_sheet(data))
    [f] = [f for f in report.findings if f.severity is Severity.DOUBT]
    doubt = f.details["doubt"]
    assert doubt["reason"] == "hidden"
    assert doubt["cells"][0]["read"] == TOTALS["lower_total"]
    assert doubt["would_be_wrong_if"] == [{"field": "lower_total", "game": 1, "value": 153}]
    assert f.message is not None and "not if" in f.message and "153" in f.message


def test_confirmed_readings_change_nothing() -> None:
    """Every sample pad with every cell confirmed by a person: the very same report."""
    for path in sorted(PADS.glob("*.json")):
        if path.name.endswith((".expect.json", ".truth.json")) or "readings" in path.read_text():
            continue
        data = json.loads(path.read_text())
        before = audit_sheet(load_sheet(data)).to_dict()
        for p in data["players"]:
            for g in p.get("games") or []:
                if g is not None:
                    g["readings"] = {k: {"status": "confirmed", "candidates": [1, None]}
                                     for k in CARD_READING_KEYS}
            if p.get("players_scores"):
                p["players_scores"]["readings"] = {k: {"status": "confirmed"}
                                                   for k in SCORES_READING_KEYS}
        assert audit_sheet(load_sheet(data)).to_dict() == before, path.name


def test_out_of_budget_findings_are_doubts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cells not tried within MAX_REAUDITS do not rule a misread out: such errors are
    doubts (reason not_checked); an error resting only on confirmed cells stays."""
    monkeypatch.setattr(doubts, "MAX_REAUDITS", 0)
    data = scanned({"grand_total": 234}, {"grand_total": read("confident", 284)})
    report = audit_sheet(load_sheet(data))
    (f,) = [f for f in report.findings if f.field == "grand_total"]
    assert f.severity is Severity.DOUBT and f.details["doubt"]["reason"] == "not_checked"
    data = scanned({"grand_total": 234}, default="confirmed")
    assert outcome(data) == ({("error", "TOTAL_ARITHMETIC", "grand_total")}, "errors")


def test_a_big_scanned_sheet_stays_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """12 players x 6 games, every cell with 8 candidates and a slip in every game."""
    calls = 0
    original = doubts.apply_doubts

    class Counting:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def game(self, *a: Any) -> Any:
            nonlocal calls
            calls += 1
            return self.inner.game(*a)

        def players_scores(self, *a: Any) -> Any:
            nonlocal calls
            calls += 1
            return self.inner.players_scores(*a)

    monkeypatch.setattr("scorepad.audit.apply_doubts",
                        lambda fs, sheet, re: original(fs, sheet, Counting(re)))
    game = scanned({"grand_total": 236}, {k: read("confident", 1, 2, 3, 4, 5, 6, 7, None)
                                          for k in CARD_READING_KEYS})["players"][0]["games"][0]
    data = {"players": [{"name": f"P{i}", "games": [copy.deepcopy(game) for _ in range(6)],
                         "players_scores": {"games": [235] * 6, "total": 1400}}
                        for i in range(12)]}
    report = audit_sheet(load_sheet(data))
    assert calls == doubts.MAX_REAUDITS
    # every slip rests on read cells: those tried are explained by some candidate, the rest
    # were not ruled out
    assert report.verdict == "unsure"
    reasons = {f.details["doubt"]["reason"] for f in report.findings
               if f.severity is Severity.DOUBT}
    assert reasons == {"other_reading", "not_checked"}


# ---- the sheet format ------------------------------------------------------------------------

def test_readings_round_trip_and_match_the_json_schema() -> None:
    text = (PADS / "scanned_misread_total.json").read_text()
    data = json.loads(text)
    jsonschema.validate(data, SCHEMA)
    sheet = loads_sheet(text)
    g = sheet.players[0].games[0]
    assert g is not None
    assert g.readings["grand_total"] == Reading(ReadStatus.NEEDS_REVIEW, 0.62, (355, 384),
                                                (812, 1400, 905, 1452), 0)
    ps = sheet.players[0].players_scores
    assert ps is not None and ps.readings["total"].status is ReadStatus.CONFIDENT
    again = dump_sheet(sheet)
    jsonschema.validate(again, SCHEMA)
    assert again["players"][0]["games"][0]["readings"] == data["players"][0]["games"][0][
        "readings"]
    assert load_sheet(again) == sheet
    assert load_sheet(json.loads(json.dumps(again))) == sheet


def test_a_typed_sheet_dumps_without_readings() -> None:
    data = scanned(default=None, scores={"games": [235], "total": 235})
    dumped = dump_sheet(load_sheet(data))
    assert "readings" not in dumped["players"][0]["games"][0]
    assert "readings" not in dumped["players"][0]["players_scores"]


def test_reading_accepts_plain_values() -> None:
    r = Reading("needs_review", 0.5, [3, None], [1, 2, 3, 4])  # type: ignore[arg-type]
    assert r.status is ReadStatus.NEEDS_REVIEW
    assert r.to_dict()["status"] == "needs_review"
    assert r.candidates == (3, None) and r.box == (1, 2, 3, 4)


def _bad(mutate: Any) -> dict[str, Any]:
    data = scanned(scores={"games": [235], "total": 235},
                   score_readings={"total": read()})
    mutate(data["players"][0])
    return data


G = "$.players[0].games[0].readings"


@pytest.mark.parametrize(("mutate", "path"), [
    (lambda p: p["games"][0]["readings"].update(bogus=read()), f"{G}.bogus"),
    (lambda p: p["games"][0]["readings"]["aces"].update(status="sure"), f"{G}.aces.status"),
    (lambda p: p["games"][0]["readings"]["aces"].pop("status"), f"{G}.aces.status"),
    (lambda p: p["games"][0]["readings"]["aces"].update(confidence=1.5), f"{G}.aces.confidence"),
    (lambda p: p["games"][0]["readings"]["aces"].update(confidence="0.5"),
     f"{G}.aces.confidence"),
    (lambda p: p["games"][0]["readings"]["aces"].update(candidates=list(range(9))),
     f"{G}.aces.candidates"),
    (lambda p: p["games"][0]["readings"]["aces"].update(candidates=["3"]),
     f"{G}.aces.candidates[0]"),
    (lambda p: p["games"][0]["readings"]["aces"].update(box=[1, 2, 3]), f"{G}.aces.box"),
    (lambda p: p["games"][0]["readings"]["aces"].update(box=[1, 2, -3, 4]),
     f"{G}.aces.box[2]"),
    (lambda p: p["games"][0]["readings"]["aces"].update(photo=-1), f"{G}.aces.photo"),
    (lambda p: p["games"][0]["readings"]["aces"].update(colour="red"), f"{G}.aces.colour"),
    (lambda p: p["games"][0]["readings"]["yahtzee_bonus_checks"].update(candidates=[100]),
     f"{G}.yahtzee_bonus_checks.candidates[0]"),
    (lambda p: p["games"][0].update(readings=[]), G),
    (lambda p: p["players_scores"]["readings"].update({"games[6]": read()}),
     "$.players[0].players_scores.readings.games[6]"),
    (lambda p: p["players_scores"]["readings"].update(total=None),
     "$.players[0].players_scores.readings.total"),
])
def test_bad_readings_name_the_json_path(mutate: Any, path: str) -> None:
    data = _bad(mutate)
    with pytest.raises(Exception) as exc:
        load_sheet(data)
    assert path in [p for p, _ in exc.value.errors]  # type: ignore[attr-defined]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)
