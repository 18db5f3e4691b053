"""The web pages in a real browser (Chromium via Playwright) against the app on loopback."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest
import requests

from .conftest import DESKTOP, PHONE, SHOTS, shoot, wait_js
from .fakescan import FakeScanner
from .test_phone import show_game

ANN = [3, 6, 9, 12, 15, 18, 24, 0, 25, 30, 40, 50, 22]  # upper 63 (+35), lower 191: 289
BEN = [2, 4, 6, 8, 10, 12, 17, 0, 0, 30, 0, 0, 20]  # upper 42, lower 67: 109


def _active_name(page: Any) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.name"))


UNLABELLED = """() => Array.from(document.querySelectorAll(
    'input:not([type=hidden]), select, button, textarea')).filter(e => {
  if (e.closest('[hidden]') || e.closest('dialog:not([open])')) return false;
  const named = (e.labels && e.labels.length) || e.getAttribute('aria-label')
    || e.getAttribute('aria-labelledby') || (e.tagName === 'BUTTON' && e.textContent.trim());
  return !named;
}).map(e => e.outerHTML.slice(0, 120))"""


def _assert_labelled(page: Any) -> None:
    """Every visible control has an accessible name (a label, aria-label or its text)."""
    assert page.evaluate(UNLABELLED) == []


def _type_column(page: Any, values: list[int]) -> None:
    for v in values:
        page.keyboard.type(str(v))
        page.keyboard.press("Enter")


def test_type_a_card_by_hand(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    page.goto(base + "/")
    assert page.locator("input[name=rules][value=hasbro]").is_checked()
    assert page.locator("label.rule", has_text="classic").locator(".diff li").count() >= 1
    _assert_labelled(page)
    shoot(page, "home")
    page.click("#type-card")
    page.wait_for_url("**/pad?rules=hasbro")
    page.fill("input[name='p0.name']", "Ann")
    page.fill("input[name='p1.name']", "Ben")
    page.focus("input[name='p0.g0.aces']")
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    assert _active_name(page) == "p0.g0.twos"  # Enter moves down the column
    page.keyboard.press("ArrowUp")
    assert _active_name(page) == "p0.g0.aces"
    page.keyboard.press("ArrowDown")
    _type_column(page, ANN[1:])
    # the upper totals filled in as the boxes were typed, Enter skipped them
    assert page.input_value("input[name='p0.g0.upper_total_score']") == "63"
    assert page.input_value("input[name='p0.g0.upper_bonus']") == "35"
    assert page.input_value("input[name='p0.g0.grand_total']") == "289"
    assert _active_name(page) == "p0.g0.yahtzee_bonus_checks"
    page.keyboard.press("Enter")
    assert _active_name(page) == "p1.g0.aces"  # on to the next player's card
    _type_column(page, BEN)
    page.fill("input[name='p1.g0.grand_total']", "119")  # Ben's slip: the boxes make 109
    _assert_labelled(page)
    shoot(page, "pad")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    assert page.get_attribute("section.verdict", "data-verdict") == "errors"
    assert page.locator(".finding.sev-error").count() == 1
    cell = page.locator("td[data-field='p1.g0.grand_total']")
    assert "sev-error" in (cell.get_attribute("class") or "")
    assert "109" in cell.inner_text()  # what it should be, on the box
    fid = cell.locator("a.mark").get_attribute("href")
    finding = page.locator(f"li{fid}")
    assert finding.get_attribute("data-code") == "TOTAL_ARITHMETIC"
    assert finding.locator(".quote[data-cite='001:166-172']").count() == 1
    assert json.loads(page.get_attribute("#winner", "data-winners") or "") == ["Ann"]
    _assert_labelled(page)
    shoot(page, "verdict")


def test_what_can_i_score(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    page.goto(base + "/pad?rules=hasbro&players=1")
    page.fill("input[name='p0.g0.sixes']", "18")
    page.fill("input[name='p0.g0.yahtzee']", "50")
    page.click("button[value=add_game]")  # redrawn with a second column, values kept
    page.wait_for_selector("input[name='p0.g1.aces']")
    assert page.input_value("input[name='p0.g0.sixes']") == "18"
    for i in range(5):
        page.fill(f"#die-{i}", "6")
    page.click("#opt-ask")
    page.wait_for_selector("#opt-result .opt-list li")
    ls = page.locator("#opt-result li.yes[data-box=large_straight]")
    assert "40" in ls.locator(".val").inner_text()
    assert ls.locator(".why .quote[data-cite='001:144-160']").count() == 1
    assert page.locator("#opt-result li.yes[data-box=aces]").count() == 0  # lower box first
    assert page.get_attribute("#opt-result", "data-bonus") == "1"  # a bonus Yahtzee
    page.locator("#options").scroll_into_view_if_needed()
    shoot(page, "options")


def _token(page: Any) -> dict[str, str]:
    groups = json.loads(page.evaluate("localStorage.getItem('scorepad.groups')"))
    return dict(groups[0])


def _game(values: list[int], checks: int = 0) -> dict[str, Any]:
    keys = ["aces", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
            "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
            "chance"]
    return {"boxes": dict(zip(keys, values, strict=True)), "yahtzee_bonus_checks": checks}


def _more_matches(base: str, group: dict[str, str]) -> None:
    """Some history for the charts: a dozen evenings of Ann and Ben."""
    h = {"Authorization": f"Bearer {group['token']}"}
    day = dt.date(2026, 9, 1)
    for i in range(12):
        a = [i % 4 + 1, 6, 9, 12, 15, 18 + (i % 3) * 6, 18 + i % 10, 0 if i % 3 else 24, 25,
             30, 40 if i % 2 else 0, 50 if i % 4 == 0 else 0, 18 + i % 7]
        b = [2, 4, 9, 12, 10, 24, 22, 16 + i, 0 if i % 2 else 25, 30, 40, 0, 21]
        sheet = {"rules": "hasbro", "players": [
            {"name": "Ann", "games": [_game(a)]}, {"name": "Ben", "games": [_game(b)]}]}
        r = requests.post(f"{base}/api/v1/groups/{group['id']}/matches", headers=h, timeout=10,
                          json={"sheet": sheet, "played_on": str(day + dt.timedelta(days=7 * i)),
                                "place": "kitchen"})
        assert r.status_code == 201, r.text


def test_photo_review_verdict_group_and_statistics(serve: Callable[..., str], page: Any) -> None:
    scanner = FakeScanner()
    base = serve(WEB_SCANNER=scanner)
    page.goto(base + "/")
    page.set_input_files("#photo", files=[{"name": "pad.jpg", "mimeType": "image/jpeg",
                                           "buffer": scanner.photo()}])
    page.wait_for_url("**/scan/**")
    assert scanner.calls == 1
    flagged = page.locator("td.flag")
    assert flagged.count() == 3
    assert page.locator("#check-btn").is_disabled()  # nothing is checked before confirming
    assert page.evaluate("document.getElementById('pad-photo').naturalWidth") > 0
    _assert_labelled(page)
    shoot(page, "review")
    # the unsure Aces: the crop from the photo, then the correction
    page.click("td.flag button[data-field='p0.g0.aces']")
    page.wait_for_selector("#cell-dialog[open]")
    wait_js(page, "document.getElementById('cd-crop')?.naturalWidth > 0")
    assert "3" in page.inner_text("#cd-read")
    page.screenshot(path=str(SHOTS / "review-cell-phone.png"))
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(150)
    page.screenshot(path=str(SHOTS / "review-cell-desktop.png"))
    page.set_viewport_size(PHONE)
    page.fill("#cd-value", "7")
    page.click("#cd-ok")
    # the dialog's close event (which marks the cell) is dispatched after the click returns
    page.wait_for_selector("td.flag.confirmed button[data-field='p0.g0.aces']")
    page.click("td.flag button[data-field='p0.g0.full_house']")
    page.click("#cd-ok")
    assert page.locator("#check-btn").is_disabled()  # Chance is still unconfirmed
    page.click("td.flag button[data-field='p0.g0.chance']")
    page.fill("#cd-value", "22")
    page.keyboard.press("Enter")
    page.wait_for_selector("#check-btn:enabled")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    aces = page.locator("td[data-field='p0.g0.aces']")
    assert "sev-error" in (aces.get_attribute("class") or "")
    fid = aces.locator("a.mark").first.get_attribute("href")
    assert page.locator(f"li{fid}").get_attribute("data-code") == "BOX_VALUE_IMPOSSIBLE"
    # save it into a new group
    page.fill("#new-group", "Tuesday table")
    page.fill("#place", "kitchen")
    page.click("#save-btn")
    page.wait_for_selector("#saved-link")
    group = _token(page)
    assert group["token"].startswith("spg_")
    _more_matches(base, group)
    page.click("#saved-link")
    page.wait_for_selector("#group-name")
    assert page.inner_text("#group-name") == "Tuesday table"
    assert page.locator("table.leaderboard th", has_text="Ann").count() == 1
    shoot(page, "group")
    with page.expect_download() as dl:
        page.click("#export-csv")
    csv_path = dl.value.path()
    with open(csv_path, encoding="utf-8") as fh:
        assert fh.readline().startswith("match_id,")
    with page.expect_download() as dl2:
        page.click("#export-backup")
    with open(dl2.value.path(), encoding="utf-8") as fh:
        assert json.load(fh)["group"]["id"] == group["id"]
    # per-player statistics with their charts
    page.click("table.leaderboard a:text-is('Ann')")
    page.wait_for_selector("#player-name")
    charts = page.locator("figure.chart svg")
    assert charts.count() == 4
    assert page.locator("figure.chart polyline.line").count() == 1
    assert page.locator("figure.chart rect.bar.s2").count() > 10  # optimal play beside
    assert page.locator("figure.chart rect.bar.s1").count() > 10
    box = charts.first.bounding_box()
    assert box is not None and box["width"] > 300  # readable on a 360 px phone
    _assert_labelled(page)
    shoot(page, "player-stats")
    # a correction through the pad, and the match's history
    page.goto(f"{base}/g/{group['id']}")
    page.click("ul.match-list a:has(.badge.bad)")
    page.wait_for_selector("#correct-form")
    page.click("#correct-form button")
    page.wait_for_selector("input[name='p0.g0.aces']")
    assert page.input_value("input[name='p0.g0.aces']") == "7"
    page.fill("input[name='p0.g0.aces']", "3")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict.good")
    page.fill("#reason", "Aces was a 3")
    page.click("#save-btn")
    page.wait_for_selector("#saved-link")
    page.click("#saved-link")
    page.click("ul.match-list a:has(.badge:text('corrected 1×'))")
    page.wait_for_selector("ol.history")
    assert page.locator("ol.history > li").count() == 2
    history = page.inner_text("ol.history")
    assert "Aces was a 3" in history and "Aces: 7 → 3" in history
    shoot(page, "match-history")
    # the invite link opens the group in another browser; without it the group stays shut
    other = page.context.browser.new_context(viewport=PHONE)
    try:
        p2 = other.new_page()
        p2.goto(f"{base}/g/{group['id']}")
        p2.wait_for_selector("#no-token:not([hidden])")
        p2.goto(f"{base}/g/{group['id']}#join={group['token']}")
        p2.wait_for_selector("#group-name")
        assert "join=" not in p2.url  # the key leaves the address bar at once
        assert p2.inner_text("#group-name") == "Tuesday table"
    finally:
        other.close()


XSS = "<script>window.__xss = 1</script>"
XSS_NOTE = "<img src=x onerror=\"window.__xss = 2\">"


def test_names_and_notes_are_escaped(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(base + "/pad?players=1")
    page.fill("input[name='p0.name']", XSS)
    page.fill("input[name='p0.g0.aces']", "3")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    assert XSS in page.inner_text(".pname")
    page.click("text=Edit the card")
    page.wait_for_selector("input[name='p0.name']")
    assert page.input_value("input[name='p0.name']") == XSS
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    page.fill("#new-group", XSS)
    page.fill("#note", XSS_NOTE)
    page.fill("#place", XSS_NOTE)
    page.click("#save-btn")
    page.wait_for_selector("#saved-link")
    group = _token(page)
    h = {"Authorization": f"Bearer {group['token']}"}
    sheet = {"players": [{"name": XSS, "games": [_game(ANN)]}, {"name": "Bo", "games": [
        _game(BEN)]}]}
    r = requests.post(f"{base}/api/v1/groups/{group['id']}/matches", headers=h, timeout=10,
                      json={"sheet": sheet, "note": XSS_NOTE, "place": XSS})
    assert r.status_code == 201
    page.click("#saved-link")
    page.wait_for_selector("#group-name")
    assert page.inner_text("#group-name") == XSS
    assert XSS in page.inner_text("table.leaderboard")
    page.click("ul.match-list a >> nth=0")
    page.wait_for_selector("ol.history")
    assert XSS_NOTE in page.inner_text("#group-part")
    page.goto(base + "/g/" + group["id"])
    page.wait_for_selector("table.leaderboard")
    page.click(f"table.leaderboard a:text-is('{XSS}')")
    page.wait_for_selector("#player-name")
    assert page.inner_text("#player-name") == XSS
    page.goto(base + "/groups")
    assert XSS in page.inner_text("#group-list")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__xss") is None
    assert dialogs == []


@pytest.mark.slow
def test_photo_through_the_real_reader(serve: Callable[..., str], page: Any) -> None:
    from .realpad import sample_photo
    photo = sample_photo()
    base = serve()
    page.goto(base + "/")
    page.set_input_files("#photo", files=[{"name": "pad.jpg", "mimeType": "image/jpeg",
                                           "buffer": photo}])
    page.wait_for_url("**/scan/**", timeout=120_000)
    page.wait_for_selector("table.pad")
    wait_js(page, "document.getElementById('pad-photo')?.naturalWidth > 0")
    shoot(page, "review-photo")
    for name in page.eval_on_selector_all("button.flag-btn", "bs => bs.map(b => b.dataset.field)"):
        if ".g" in name:  # a card of many games on a phone: its game on the switcher
            show_game(page, int(name.split(".g")[1].split(".")[0]))
        page.click(f"button.flag-btn[data-field='{name}']")
        page.wait_for_selector("#cell-dialog[open]")
        page.click("#cd-ok")
        page.wait_for_selector(f".confirmed > button[data-field='{name}']")
    page.wait_for_selector("#check-btn:enabled")
    aces = "p0.g0.aces"
    show_game(page, 0)
    if page.locator(f"td.flag button[data-field='{aces}']").count():
        page.click(f"td.flag button[data-field='{aces}']")
        page.fill("#cd-value", "7")
        page.click("#cd-ok")
        page.wait_for_selector(f"td.flag.confirmed button[data-field='{aces}'] >> text=7")
    else:
        page.fill(f"input[name='{aces}']", "7")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    cell = page.locator(f"td[data-field='{aces}']")
    assert "sev-error" in (cell.get_attribute("class") or "")
    fid = cell.locator("a.mark").first.get_attribute("href")
    assert page.locator(f"li{fid}").get_attribute("data-code") == "BOX_VALUE_IMPOSSIBLE"


@pytest.mark.slow
def test_a_pad_not_found_is_read_from_corners_marked_on_the_photo(
        serve: Callable[..., str], page: Any) -> None:
    from ..ocr.thumbs import held_pad

    held = held_pad()  # thumbs over two corners: the reader finds no pad by itself
    base = serve()
    page.goto(base + "/")
    page.set_input_files("#photo", files=[{"name": "held.jpg", "mimeType": "image/jpeg",
                                           "buffer": held.jpeg}])
    page.wait_for_url("**/corners", timeout=120_000)  # no dead end: the corner editor
    wait_js(page, "document.getElementById('corner-photo')?.naturalWidth > 0")
    assert page.locator("#corners-error").is_visible()
    handles = page.locator(".corner-handle")
    assert handles.count() == 4
    for i in range(4):
        b = handles.nth(i).bounding_box()
        assert b is not None and b["width"] >= 44 and b["height"] >= 44  # a finger's target
    _assert_labelled(page)
    # the keyboard moves a handle too
    before = int(page.input_value("#c0x"))
    page.focus("#corner-0")
    page.keyboard.press("ArrowRight")
    assert int(page.input_value("#c0x")) > before
    # drag each handle onto its corner of the card's printed frame (pointer events)
    w, h = held.size
    page.locator("#corner-photo").scroll_into_view_if_needed()
    img = page.locator("#corner-photo").bounding_box()
    assert img is not None and img["width"] <= PHONE["width"]
    assert img["y"] + img["height"] <= PHONE["height"] + 1  # in sight (to the sub-pixel)
    inner = page.evaluate("(() => { const i = document.getElementById('corner-photo');"
                          " return [i.clientLeft, i.clientTop, i.clientWidth, i.clientHeight]; })()")
    for i, (x, y) in enumerate(held.corners):
        b = handles.nth(i).bounding_box()
        assert b is not None
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
        page.mouse.down()
        page.mouse.move(img["x"] + inner[0] + x / w * inner[2],
                        img["y"] + inner[1] + y / h * inner[3], steps=6)
        page.mouse.up()
    scale = w / inner[2]  # photo pixels per CSS pixel
    for i, (x, y) in enumerate(held.corners):
        assert abs(int(page.input_value(f"#c{i}x")) - x) <= 2 * scale
        assert abs(int(page.input_value(f"#c{i}y")) - y) <= 2 * scale
    shoot(page, "corners")
    page.click("#corners-submit")
    page.wait_for_url("**/scan/*", timeout=120_000)
    page.wait_for_selector("table.pad")
    assert "/corners" not in page.url
    # the cells were read: the boxes of the card against what is written on it
    games = held.sheet.players[0].games
    right = total = 0
    for g, game in enumerate(games):
        assert game is not None
        for box, value in game.boxes.items():
            total += 1
            got = page.locator(f"input[name='p0.g{g}.{box.value}']").first.input_value()
            right += got == str(value)
    assert total >= 40 and right / total >= 0.95
    # found wrong? the same editor, with the corners the reader used
    page.click("#mark-corners")
    page.wait_for_url("**/corners")
    assert not page.locator("#corners-error").count()
    for i, (x, y) in enumerate(held.corners):
        assert abs(int(page.input_value(f"#c{i}x")) - x) <= 3
        assert abs(int(page.input_value(f"#c{i}y")) - y) <= 3


def test_a_misreading_on_the_photo_is_a_doubt_to_check(serve: Callable[..., str],
                                                        page: Any) -> None:
    # GRAND TOTAL read (confidently) as 285 where the card adds up to 235: a doubt
    scanner = FakeScanner(unsure={"grand_total": ("confident", 285, [285, 235])})
    base = serve(WEB_SCANNER=scanner)
    page.goto(base + "/")
    page.set_input_files("#photo", files=[{"name": "pad.jpg", "mimeType": "image/jpeg",
                                           "buffer": scanner.photo()}])
    page.wait_for_url("**/scan/**")
    assert page.locator("td.flag").count() == 0
    page.click("#check-btn")
    page.wait_for_selector("section.verdict.unsure")
    assert page.locator(".finding.sev-error").count() == 0
    doubt = page.locator("#doubts .doubt-cell[data-cell='p0.g0.grand_total']")
    assert doubt.get_attribute("data-right-if") == "235"
    crop = doubt.locator("img.crop")
    crop.scroll_into_view_if_needed()
    wait_js(page, "document.querySelector('#doubts img.crop')?.naturalWidth > 0")
    box = crop.bounding_box()
    assert box is not None and box["width"] > 100 and box["x"] + box["width"] <= PHONE["width"]
    _assert_labelled(page)
    shoot(page, "verdict-doubt")
    # back to the review for that cell: it says 285 on the photo, so the card is wrong
    doubt.locator("button.recheck-btn").click()
    page.wait_for_selector("td.flag button[data-field='p0.g0.grand_total']")
    page.wait_for_selector("html[data-ready]")
    assert page.locator("#check-btn").is_disabled()
    page.click("td.flag button[data-field='p0.g0.grand_total']")
    page.wait_for_selector("#cell-dialog[open]")
    wait_js(page, "document.getElementById('cd-crop')?.naturalWidth > 0")
    _confirm_and_see_the_error(page, "p0.g0.grand_total")
    assert page.locator("#doubts").count() == 0


def test_the_pads_totals_take_every_rule_set_number_from_the_server(
        serve: Callable[..., str], page: Any) -> None:
    from scorepad.rules import DEFAULT_RULES, REGISTRY

    page.goto(serve() + "/pad?rules=classic")
    data = page.evaluate("JSON.parse(document.getElementById('rules-data').textContent)")
    assert {k: data[k] for k in ("default", "rule_sets")} == {
        "default": DEFAULT_RULES, "rule_sets": {rs.name: rs.to_dict() for rs in REGISTRY.all()}}
    # other numbers in the page's rule set: the totals follow them (the script has none)
    page.evaluate("""() => {
      const el = document.getElementById('rules-data'), d = JSON.parse(el.textContent);
      Object.assign(d.rule_sets.classic, {upper_bonus_threshold: 60, upper_bonus: 50,
                                          yahtzee_bonus: 10});
      el.textContent = JSON.stringify(d);
    }""")
    page.focus("input[name='p0.g0.aces']")
    _type_column(page, ANN)
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    assert page.input_value("input[name='p0.g0.upper_bonus']") == "50"
    assert page.input_value("input[name='p0.g0.yahtzee_bonus']") == "20"
    assert page.input_value("input[name='p0.g0.grand_total']") == str(63 + 50 + 191 + 20)
    # no rule-set data on the page: no totals are made up
    page.evaluate("document.getElementById('rules-data').remove()")
    page.fill("input[name='p0.g0.aces']", "4")
    page.dispatch_event("input[name='p0.g0.aces']", "input")
    assert page.input_value("input[name='p0.g0.upper_total_score']") == "63"


def test_a_reading_taken_for_the_sums_shows_what_the_ink_read(serve: Callable[..., str],
                                                               page: Any) -> None:
    # lower TOTAL: the ink reads 147, the reader took 137 (the one reading that makes the
    # column add up); the dialog asks which was written, and 147 confirmed is an error
    scanner = FakeScanner(unsure={"lower_total": ("needs_review", 137, [137, 147], 147)})
    base = serve(WEB_SCANNER=scanner)
    page.goto(base + "/")
    page.set_input_files("#photo", files=[{"name": "pad.jpg", "mimeType": "image/jpeg",
                                           "buffer": scanner.photo()}])
    page.wait_for_url("**/scan/**")
    button = page.locator("td.flag button[data-field='p0.g0.lower_total']")
    assert "the ink reads 147" in (button.get_attribute("aria-label") or "")
    button.click()
    page.wait_for_selector("#cell-dialog[open]")
    text = page.inner_text("#cd-read")
    assert "looks most like 147" in text and "sums need 137" in text
    assert page.input_value("#cd-value") == "137"
    page.fill("#cd-value", "147")
    _confirm_and_see_the_error(page, "p0.g0.lower_total")


def _confirm_and_see_the_error(page: Any, field: str) -> None:
    """OK in the open cell dialog (the last box to confirm), check: that box is an error."""
    page.click("#cd-ok")
    page.wait_for_selector("#check-btn:enabled")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict.bad")
    cell = page.locator(f"td[data-field='{field}']")
    assert "sev-error" in (cell.get_attribute("class") or "")
