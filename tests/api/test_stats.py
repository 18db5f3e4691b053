"""Statistics, leaderboards, head-to-head and CSV export, derived from stored games."""

from __future__ import annotations

import csv
import io

import pytest

from scorepad import reference
from scorepad.boxes import ALL_BOXES

from .conftest import GroupRef, full_game, sheet
from .test_service import assert_problem

# full_game() is worth 235; with yahtzee=50: 285; with aces=0 (upper 60, no bonus): 197.


def play(group: GroupRef, *games: tuple[dict[str, object], ...], names: tuple[str, ...] = (
        "Ann", "Bob"), date: str = "2026-11-01") -> dict[str, object]:
    players = [(n, [g[i] for g in games]) for i, n in enumerate(names)]
    return group.post_match({"played_on": date, "sheet": sheet(*players)})


def test_reference_table_adds_up() -> None:
    upper = sum(v for b, v in reference.BOX_MEANS.items() if b.is_upper)
    lower = sum(v for b, v in reference.BOX_MEANS.items() if not b.is_upper)
    total = upper + reference.EXPECTED_UPPER_BONUS_POINTS + lower \
        + reference.EXPECTED_YAHTZEE_BONUS_POINTS
    assert total == pytest.approx(reference.MEAN, abs=0.01)
    bonus_rate = reference.EXPECTED_UPPER_BONUS_POINTS / 35
    assert bonus_rate == pytest.approx(reference.UPPER_BONUS_RATE, abs=0.001)
    assert set(reference.BOX_MEANS) == set(ALL_BOXES)


def test_player_and_group_stats(group: GroupRef) -> None:
    play(group, (full_game(yahtzee=50), full_game()), (full_game(), full_game()))
    play(group, (full_game(aces=0), full_game()), date="2026-11-02")
    st = group.get("/stats").json
    assert st["games"] == 3 and st["matches"] == 2 and st["player_games"] == 6
    ann = next(p for p in st["players"] if p["player"] == "Ann")
    bob = next(p for p in st["players"] if p["player"] == "Bob")
    # game 1: Ann 285 > Bob 235; game 2: tie 235 (both win); game 3: Ann 197 < Bob 235
    assert (ann["wins"], bob["wins"]) == (2, 2)
    assert ann["games"] == 3 and ann["best"] == 285 and ann["worst"] == 197
    assert ann["median"] == 235 and ann["average"] == pytest.approx((285 + 235 + 197) / 3,
                                                                      abs=0.01)
    assert ann["upper_bonus_rate"] == pytest.approx(2 / 3, abs=0.01)
    assert ann["yahtzees_per_game"] == pytest.approx(1 / 3, abs=0.01)
    assert ann["box_zero_rate"]["aces"] == pytest.approx(1 / 3, abs=0.01)
    assert ann["box_average"]["large_straight"] == 40
    ref = ann["reference"]
    assert ref["reference"]["mean"] == 254.59 and ref["reference"]["sd"] == 59.61
    assert ref["average_minus_reference"] == pytest.approx(ann["average"] - 254.59, abs=0.01)
    assert ref["box_average_minus_reference"]["large_straight"] == pytest.approx(40 - 32.71,
                                                                                 abs=0.01)
    one = group.get("/players/ANN/stats").json
    assert one["wins"] == 2 and one["head_to_head"][0]["player_a"] == "Ann"
    assert_problem(group.get("/players/Zed/stats"), 404, "UNKNOWN_PLAYER")


def test_bonus_yahtzees_counted(group: GroupRef) -> None:
    g = full_game(yahtzee=50, sixes=30)
    g["yahtzee_bonus_checks"] = 1
    group.post_match({"sheet": sheet(("Solo", [g]))})
    p = group.get("/stats").json["players"][0]
    assert p["bonus_yahtzees_per_game"] == 1 and p["yahtzees_per_game"] == 1
    assert p["wins"] == 0 and p["win_rate"] is None  # a solitaire game has no winner


def test_games_in_progress_are_left_out(group: GroupRef) -> None:
    unfinished = {"boxes": {"aces": 3}}
    play(group, (full_game(), unfinished))
    st = group.get("/stats").json
    assert st["games"] == 0 and st["games_in_progress"] == 1


def test_correction_updates_stats(group: GroupRef) -> None:
    m = play(group, (full_game(yahtzee=50), full_game()))
    assert group.get("/leaderboard").json["rows"][0]["player"] == "Ann"
    r = group.client.put(f"{group.base}/matches/{m['id']}", headers=group.headers, json={
        "sheet": sheet(("Ann", [full_game()]), ("Bob", [full_game(yahtzee=50)]))})
    assert r.status_code == 200
    rows = group.get("/leaderboard").json["rows"]
    assert rows[0]["player"] == "Bob" and rows[0]["value"] == 1


def test_leaderboard_ties_share_rank(group: GroupRef) -> None:
    play(group, (full_game(), full_game()), (full_game(yahtzee=50), full_game()),
         names=("Ann", "Bob"))
    rows = group.get("/leaderboard?by=wins").json["rows"]
    assert [(r["player"], r["rank"], r["value"]) for r in rows] == [("Ann", 1, 2), ("Bob", 2, 1)]
    rows = group.get("/leaderboard?by=best").json["rows"]
    assert rows[0]["player"] == "Ann" and rows[0]["value"] == 285
    assert_problem(group.get("/leaderboard?by=luck"), 422)


def test_head_to_head(group: GroupRef) -> None:
    play(group, (full_game(yahtzee=50), full_game(), full_game()), names=("Ann", "Bob", "Cy"))
    play(group, (full_game(), full_game(yahtzee=50)), names=("Ann", "Bob"))
    recs = group.get("/head-to-head?a=Bob&b=Ann").json["records"]
    assert recs == [{"player_a": "Bob", "player_b": "Ann", "games": 2, "wins_a": 1, "wins_b": 1,
                     "ties": 0, "average_margin": 0.0}]
    allrecs = group.get("/head-to-head").json["records"]
    assert {(r["player_a"], r["player_b"]) for r in allrecs} == {
        ("Ann", "Bob"), ("Ann", "Cy"), ("Bob", "Cy")}


def test_csv_export_one_row_per_game_per_player(group: GroupRef) -> None:
    play(group, (full_game(yahtzee=50), full_game()), (full_game(), full_game()))
    group.post_match({"place": "=HYPERLINK(\"x\")", "sheet": sheet(("Cy", [full_game()]))})
    r = group.get("/export.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert len(rows) == 5
    ann = [x for x in rows if x["player"] == "Ann"]
    assert sorted(int(x["grand_total"]) for x in ann) == [235, 285]
    assert {x["won"] for x in ann} == {"1"}
    cy = next(x for x in rows if x["player"] == "Cy")
    assert cy["place"].startswith("'=")  # no formula injection
    assert cy["yahtzee"] == "0" and cy["large_straight"] == "40"


def test_delete_updates_stats(group: GroupRef) -> None:
    m = play(group, (full_game(yahtzee=50), full_game()))
    play(group, (full_game(), full_game(yahtzee=50)))
    assert group.get("/stats").json["games"] == 2
    r = group.client.delete(f"{group.base}/matches/{m['id']}", headers=group.headers)
    assert r.status_code == 204
    st = group.get("/stats").json
    assert st["games"] == 1
    assert {p["player"]: p["wins"] for p in st["players"]} == {"Ann": 0, "Bob": 1}


def test_decision_loss_in_player_stats(group: GroupRef, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Average loss per decision over stored games with turn logs (issue 5), once the
    optimal-play table exists; a statistics request never builds one itself."""
    import json
    from pathlib import Path

    from scorepad.solver import get_table, table

    cache = tmp_path / "cache"
    monkeypatch.setenv("SCOREPAD_CACHE_DIR", str(cache))
    monkeypatch.setattr(table, "_MEMO", {})  # no table from earlier tests in this process
    pad = Path(__file__).resolve().parents[2] / "sample_pads" / "turn_log_clean_hasbro.json"
    group.post_match({"played_on": "2026-11-03", "sheet": json.loads(pad.read_text())})
    before = group.get("/players/Log/stats").json["decision_loss"]
    assert before["games_analysed"] == 0 and before["mean_loss_per_decision"] is None
    assert not cache.exists() or not list(cache.iterdir())  # the request built no table
    get_table("hasbro")
    after = group.get("/players/Log/stats").json["decision_loss"]
    assert after["games_analysed"] == 1
    assert after["decisions"] >= 13
    assert after["mean_loss_per_decision"] > 0  # the sample game was played at random
