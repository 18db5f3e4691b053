"""SCRABBLE: the book's five worked turns (000:328-333) score exactly; each placement and
score-sheet rule has its code; rule-set options; the sheet format's errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scorepad.games.dispatch import UnknownGame, game_of
from scorepad.schemas import SheetFormatError
from scorepad.scrabble import Placed, get_rules, parse_square, score_play
from scorepad.scrabble.board import Board, place
from scorepad.scrabble.check import check_sheet
from scorepad.scrabble.schemas import load_sheet

BOOK = Path(__file__).resolve().parents[2] / "sample_pads" / "scrabble" / "book_example.json"


def tiles(spec: str) -> list[Placed]:
    """"H8=R E11=b": a lower-case letter is a blank standing for that letter."""
    out = []
    for item in spec.split():
        square, letter = item.split("=")
        out.append(Placed(parse_square(square), letter.upper(), letter.islower()))
    return out


# The book's turns, with R on the centre star: HORN across row 8, FARM down column H,
# PASTE across row 10, MOB across row 9, BIT across row 11.
BOOK_TURNS = [
    ("F8=H G8=O H8=R I8=N", 14, {"HORN": 14}),
    ("H6=F H7=A H9=M", 9, {"FARM": 9}),
    ("F10=P G10=A H10=S I10=T J10=E", 25, {"PASTE": 15, "FARMS": 10}),
    ("I9=O J9=B", 16, {"MOB": 8, "NOT": 4, "BE": 4}),
    ("E11=B F11=I G11=T", 16, {"BIT": 10, "PI": 4, "AT": 2}),
]


def test_the_books_five_worked_turns_score_exactly() -> None:
    board: Board = {}
    for spec, score, words in BOOK_TURNS:
        res = score_play(board, tiles(spec))
        assert res.problems == []
        assert res.score == score
        assert {w.text: w.score for w in res.words} == words
        place(board, tiles(spec))


def test_the_book_example_sheet_is_correct_and_in_progress() -> None:
    report = check_sheet(load_sheet(json.loads(BOOK.read_text())))
    assert report.ok and report.codes() == ["SCRABBLE_GAME_IN_PROGRESS"]
    assert report.games[0]["moves_checked"] is True
    assert [p["before_adjustments"] for p in report.games[0]["players"]] == [55, 25]
    assert report.tally is not None and report.tally["best_turn"]["score"] == 25


def _board(*specs: str) -> Board:
    board: Board = {}
    for s in specs:
        place(board, tiles(s))
    return board


@pytest.mark.parametrize(("board", "play", "code"), [
    ((), "F7=H G7=O H7=R I7=N", "SCRABBLE_FIRST_NOT_ON_STAR"),
    ((), "H8=A", "SCRABBLE_FIRST_TOO_SHORT"),
    (("F8=H G8=O H8=R I8=N",), "A1=A A2=T", "SCRABBLE_NOT_CONNECTED"),
    (("F8=H G8=O H8=R I8=N",), "H8=X H9=A", "SCRABBLE_SQUARE_TAKEN"),
    (("F8=H G8=O H8=R I8=N",), "J8=S J9=O K9=N", "SCRABBLE_NOT_IN_LINE"),
    (("F8=H G8=O H8=R I8=N",), "K8=S M8=T", "SCRABBLE_GAP"),
    (("F8=H G8=O H8=R I8=N",), "A9=A B9=B C9=C D9=D E9=E F9=F G9=G H9=H",
     "SCRABBLE_TOO_MANY_TILES"),
])
def test_placement_rules(board: tuple[str, ...], play: str, code: str) -> None:
    res = score_play(_board(*board), tiles(play))
    assert code in [c.value for c, _ in res.problems]


def test_premiums_count_only_on_the_turn_they_are_covered() -> None:
    # HORN's H sits on F8 (no premium) and R on the star: adding S at J8 scores HORNS at
    # face value, 8, the star's doubling is spent (000:317)
    res = score_play(_board("F8=H G8=O H8=R I8=N"), tiles("J8=S"))
    assert res.score == 8


def test_a_blank_scores_zero_but_still_doubles_the_word() -> None:
    board = _board(*(s for s, _, _ in BOOK_TURNS[:4]))
    res = score_play(board, tiles("E11=b F11=I G11=T"))
    assert {w.text: w.score for w in res.words} == {"BIT": 4, "PI": 4, "AT": 2}


def test_two_word_premiums_multiply_and_the_bingo_comes_after() -> None:
    # E5 and K5 are both pink: the row-5 word is doubled and re-doubled (000:313); H5 also
    # makes EAAA down column H; the seven tiles' 50 comes after the total (000:321)
    board = _board("H8=A H7=A H6=A")
    res = score_play(board, tiles("E5=E F5=E G5=E H5=E I5=E J5=E K5=E"), bingo_bonus=50)
    assert res.problems == []
    assert {w.text: w.score for w in res.words} == {"EEEEEEE": 7 * 4, "EAAA": 4}
    assert res.bingo == 50 and res.score == 28 + 4 + 50


def _finished() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(BOOK.read_text())
    ann, ben = data["games"][0]["players"]
    ann.update(unplayed="", adjustment=11, final=66)
    ben.update(unplayed="EQ", adjustment=-11, final=14)
    data["games"][0]["winners"] = ["Ann"]
    return data


def codes(data: dict[str, Any], rules: Any = None) -> list[str]:
    return sorted(check_sheet(load_sheet(data), rules).codes())


def test_end_of_game_rules() -> None:
    assert codes(_finished()) == []
    data = _finished()
    data["games"][0]["players"][1]["unplayed"] = ""
    assert "SCRABBLE_TWO_WENT_OUT" in codes(data)
    data = _finished()  # Ben went out, but Ann played last
    data["games"][0]["players"][0].update(unplayed="EQ", adjustment=-11, final=44)
    data["games"][0]["players"][1].update(unplayed="", adjustment=11, final=36)
    assert "SCRABBLE_OUT_NOT_LAST" in codes(data)
    data = _finished()
    data["games"][0]["players"][1]["turns"].append({"score": 3, "total": 28})
    data["games"][0]["players"][1]["turns"].append({"score": 3, "total": 31})
    assert "SCRABBLE_TURN_COUNT" in codes(data)


def test_sheet_rules_without_a_move_log() -> None:
    data = _finished()
    for p in data["games"][0]["players"]:
        for t in p["turns"]:
            del t["tiles"]
    assert codes(data) == []
    data["games"][0]["players"][0]["turns"][0]["score"] = -2
    assert "SCRABBLE_SCORE_NEGATIVE" in codes(data)
    data = _finished()
    del data["games"][0]["players"][0]["turns"][1]["tiles"]
    assert codes(data) == ["SCRABBLE_MOVE_LOG_INCOMPLETE"]


def test_tiles_on_a_pass_and_a_winner_who_did_not_play() -> None:
    data = _finished()
    data["games"][0]["players"][0]["turns"][1]["kind"] = "exchange"
    assert "SCRABBLE_NO_PLAY_TILES" in codes(data)
    data = _finished()
    data["games"][0]["winners"] = ["Zed"]
    assert codes(data) == ["SCRABBLE_WINNER_WRONG"]


def test_more_tiles_than_the_bag_holds() -> None:
    data = _finished()
    data["games"][0]["players"][1].update(unplayed="QQ", adjustment=-20, final=5)
    data["games"][0]["players"][0].update(adjustment=20, final=75)
    assert codes(data) == ["SCRABBLE_TILES_EXCEED_BAG"]


def test_player_count_is_a_warning() -> None:
    data = json.loads(BOOK.read_text())
    solo = copy.deepcopy(data)
    solo["games"][0]["players"][0]["turns"] = solo["games"][0]["players"][0]["turns"][:1]
    del solo["games"][0]["players"][1]
    report = check_sheet(load_sheet(solo))
    assert report.ok and "SCRABBLE_PLAYER_COUNT" in report.codes()


def test_options_and_house_rules() -> None:
    assert codes(_finished(), {"base": "scrabble", "out_bonus": False}) == [
        "SCRABBLE_ADJUSTMENT_WRONG"]
    rs = get_rules({"name": "bingo-35", "bingo_bonus": 35})
    assert rs.name == "bingo-35" and rs.bingo_bonus == 35 and rs.out_bonus is True
    assert check_sheet(load_sheet(_finished()), rs).rule_set.name == "bingo-35"
    for bad in ({"bingo_bonus": -1}, {"tie_break": "coin"}, {"nope": 1}, {"name": "scrabble"}):
        with pytest.raises(ValueError):
            get_rules(bad)
    with pytest.raises(KeyError):
        get_rules("hasbro")


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: d["games"][0]["players"][0]["turns"][0]["tiles"][0].update(square="P8"),
     "$.games[0].players[0].turns[0].tiles[0].square"),
    (lambda d: d["games"][0]["players"][0]["turns"][0].update(kind="passed"),
     "$.games[0].players[0].turns[0].kind"),
    (lambda d: d["games"][0]["players"][0].update(unplayed="abc"),
     "$.games[0].players[0].unplayed"),
    (lambda d: d["games"][0].update(winners="Ann"), "$.games[0].winners"),
    (lambda d: d["games"][0]["players"][1].update(name="ann"), "$.games[0].players"),
    (lambda d: d["games"][0]["players"][0]["turns"][0].update(score="14"),
     "$.games[0].players[0].turns[0].score"),
    (lambda d: d.update(rules="classic"), "$.rules"),
])
def test_format_errors_name_the_json_path(change: Any, path: str) -> None:
    data = json.loads(BOOK.read_text())
    change(data)
    with pytest.raises(SheetFormatError) as exc:
        load_sheet(data)
    assert path in [p for p, _ in exc.value.errors]


def test_the_game_field() -> None:
    assert game_of({"players": []}) == "yahtzee"
    assert game_of({"game": "sorry"}) == "sorry"
    with pytest.raises(UnknownGame) as exc:
        game_of({"game": "clue"})
    assert exc.value.errors[0][0] == "$.game"
