"""Issue 15 on a phone: the verdict, the review and the pad of a six-game card fit the screen,
one game at a time with a game switcher and boxes of 44 px; a slip's consequences sit under
their cause; badges stay clear of the values they mark."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

from PIL import Image

from .conftest import DESKTOP, PHONE, ROOT, shoot, wait_js
from .fakescan import FakeScanner, card_values, draw_photo
from .taps import audit, too_small

SIX = json.loads((ROOT / "sample_pads" / "hasbro_two_players_six_games.json").read_text())
LONG = "Bartholomew-Maximilian"  # a long name: findings and headers must wrap, not overflow

FITS = "document.scrollingElement.scrollWidth <= window.innerWidth"
# and nothing inside scrolls sideways either: every cell is in sight
INNER = """() => Array.from(document.querySelectorAll('.scroll'))
    .filter(s => s.scrollWidth > s.clientWidth + 1).map(s => s.scrollWidth)"""


def _fill_six(page: Any, base: str, slip: bool = True) -> None:
    """The six-game sample typed into the pad (names long; one slip in player 1's game 6)."""
    page.goto(base + "/pad?rules=hasbro&players=2&games=6")
    values: dict[str, Any] = {}
    for p, pl in enumerate(SIX["players"]):
        values[f"p{p}.name"] = LONG if p == 0 else pl["name"]
        for g, game in enumerate(pl["games"]):
            for k, v in game["boxes"].items():
                values[f"p{p}.g{g}.{k}"] = v
            values[f"p{p}.g{g}.yahtzee_bonus_checks"] = game.get("yahtzee_bonus_checks", 0)
    if slip:
        values["p0.g5.aces"] = int(values.get("p0.g5.aces") or 0) + 1  # a slip: totals follow
    page.evaluate("""vals => { for (const [k, v] of Object.entries(vals)) {
        const i = document.querySelector(`input[name="${k}"]`);
        if (i) { i.value = String(v); i.dispatchEvent(new Event('input', {bubbles: true})); } } }""",
                  values)


SHOWN = """() => Array.from(document.querySelectorAll('.cards .card:not(.ps) th.game'))
    .filter(h => h.getClientRects().length).map(h => +h.getAttribute('data-col'))"""
PRESSED = """() => Array.from(document.querySelectorAll('.game-tabs .gt[aria-pressed=true]'))
    .filter(b => b.getClientRects().length).map(b => +b.getAttribute('data-game'))"""


def show_game(page: Any, g: int) -> None:
    """Tap GAME #g+1 on the switcher when the page shows one game at a time."""
    tab = page.locator(f".game-tabs .gt[data-game='{g}']")
    if tab.count() and tab.is_visible():
        tab.click()


def _one_game_at_a_time(page: Any, games: int = 6) -> None:
    """At 360 px one game column per card, its tab pressed; at 1366 px every column. Both
    pass the axe audit, in light and dark colours."""
    assert page.evaluate(FITS) and page.evaluate(INNER) == []
    shown = page.evaluate(SHOWN)
    assert len(set(shown)) == 1 and page.evaluate(PRESSED) == shown[:1]
    assert page.locator(".game-tabs .gt:visible").count() == games
    assert too_small(page) == []  # the boxes too: every target at least 44x44 px
    assert audit(page) == ([], [])
    page.set_viewport_size(DESKTOP)
    assert page.evaluate(FITS), DESKTOP
    assert audit(page) == ([], [])
    assert sorted(set(page.evaluate(SHOWN))) == list(range(games))
    assert page.locator(".game-tabs").first.is_hidden()
    page.set_viewport_size(PHONE)


def test_six_game_pad_and_verdict_fit_a_phone(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    _fill_six(page, base)
    assert page.evaluate(FITS), "the pad of six games scrolls sideways"
    _one_game_at_a_time(page)
    box = page.locator("input[name='p0.g0.aces']").bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44
    assert page.locator("input[name='p0.g3.aces']").is_hidden()
    shoot(page, "pad-six-games")
    # the switcher shows another game; Enter at the foot of a column goes on to the next game
    show_game(page, 3)
    assert page.evaluate(PRESSED) == [3] and page.evaluate(SHOWN) == [3, 3]
    assert page.locator("input[name='p0.g0.aces']").is_hidden()
    page.focus("input[name='p0.g3.yahtzee_bonus_checks']")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.name") == "p0.g4.aces"
    assert page.evaluate(PRESSED) == [4]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.name") == "p0.g3.aces"
    assert page.evaluate(PRESSED) == [3]
    # a grand total off by a hundred: its totals follow, three-digit values with badges
    show_game(page, 5)
    page.fill("input[name='p1.g5.grand_total']", "999")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    # (the verdict is in the page before its script has set up the switcher: on a busy
    # machine the tabs were looked at before it ran)
    wait_js(page, "!!document.querySelector('.cards.one-game')")
    assert page.get_attribute("section.verdict", "data-verdict") == "errors"
    assert page.evaluate(FITS), "the verdict of six games scrolls sideways"
    # the verdict opens on the game with findings; their tab counts the boxes marked
    assert page.evaluate(PRESSED) == [5]
    assert page.inner_text(".game-tabs .gt[data-game='5'] .gt-n").strip() != ""
    assert page.locator(".game-tabs .gt[data-game='0'] .gt-n").is_hidden()
    _one_game_at_a_time(page)
    shoot(page, "verdict-six-games")
    # a finding followed from the list shows its box, in its game, on the screen
    show_game(page, 0)
    link = page.locator("li.finding a.to-box[data-cell='p1.g5.grand_total']").first
    link.scroll_into_view_if_needed()
    link.click()
    assert page.evaluate(PRESSED) == [5]
    cell = page.locator("td[data-field='p1.g5.grand_total']")
    assert cell.is_visible()
    wait_js(page, """() => { const r = document.querySelector(
        "td[data-field='p1.g5.grand_total']").getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight; }""")
    # Back (past the link followed): the typed card is kept (the draft), on the game it was at
    page.go_back()
    page.go_back()
    page.wait_for_selector("input[name='p1.g5.grand_total']")
    assert page.input_value("input[name='p1.g5.grand_total']") == "999"
    assert page.input_value("input[name='p0.name']") == LONG
    assert page.evaluate(PRESSED) == [5]


def test_badges_are_big_and_clear_of_the_value(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    _fill_six(page, base)
    show_game(page, 5)
    page.fill("input[name='p1.g5.grand_total']", "999")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    wait_js(page, "!!document.querySelector('.cards.one-game')")  # the switcher set up
    boxes = page.evaluate("""() => Array.from(document.querySelectorAll('td.cell a.mark'))
        .filter(m => m.getClientRects().length).map(m => {
        const v = m.closest('td').querySelector('.v').getBoundingClientRect();
        const b = m.getBoundingClientRect();
        return {w: b.width, h: b.height, overlap: !(b.right <= v.left || b.left >= v.right
                || b.bottom <= v.top || b.top >= v.bottom) && v.width > 0};
    })""")
    assert boxes
    for b in boxes:
        assert b["w"] >= 24 and b["h"] >= 24, b
        assert not b["overlap"], b


class SixGameScanner(FakeScanner):
    """One player's six games on the photo; one unsure cell in each game column."""

    def __call__(self, data: bytes, rules: str, corners: Any = None) -> dict[str, Any]:
        self.calls += 1
        one = super().__call__(data, rules, corners)
        cells, games = [], []
        for col in range(6):
            for c in one["cells"]:
                if c["field"] == "name" and col:
                    continue
                unsure = c["field"] == ["aces", "twos", "sixes", "chance", "yahtzee", "fours"][col]
                cells.append({**c, "column": col, "game": col,
                              "status": "needs_review" if unsure else "confident",
                              "confidence": 0.6 if unsure else 0.97,
                              "box": [c["box"][0] + 90 * col, c["box"][1],
                                      c["box"][2] + 90 * col, c["box"][3]]})
            games.append(json.loads(json.dumps(one["sheet"]["players"][0]["games"][0])))
        one["sheet"]["players"][0]["games"] = games
        one["cells"] = cells
        return one

    def photo(self) -> bytes:  # one card's drawing, six game columns wide
        one = Image.open(io.BytesIO(draw_photo(card_values(), self.name)[0]))
        wide = Image.new("RGB", (one.width + 90 * 5, one.height), (250, 248, 240))
        for col in range(6):
            wide.paste(one.crop((200, 0, 290, one.height)), (200 + 90 * col, 0))
        wide.paste(one.crop((0, 0, 200, one.height)), (0, 0))
        out = io.BytesIO()
        wide.save(out, "JPEG", quality=90)
        return out.getvalue()


def _upload(page: Any, base: str, scanner: FakeScanner) -> None:
    page.goto(base + "/")
    page.set_input_files("#photo", files=[{"name": "pad.jpg", "mimeType": "image/jpeg",
                                           "buffer": scanner.photo()}])
    page.wait_for_url("**/scan/**")


def test_six_game_review_fits_a_phone(serve: Callable[..., str], page: Any) -> None:
    scanner = SixGameScanner(name=LONG)
    base = serve(WEB_SCANNER=scanner)
    _upload(page, base, scanner)
    assert page.locator("td.flag").count() == 6
    assert page.evaluate(FITS), "the review of six games scrolls sideways"
    # one unsure box in each game: every tab says so, the first game is shown
    assert page.locator(".game-tabs .gt .gt-n:visible").count() == 6
    _one_game_at_a_time(page)
    shoot(page, "review-six-games")


def _game(field: str) -> int:
    """The 0-based game of a box's form field (p0.g3.chance: 3)."""
    return int(field.split(".g")[1].split(".")[0])


# in sight: on the screen, below the switcher stuck at the top and above the bar at the bottom
IN_VIEW = """f => { const r = document.querySelector(`button.flag-btn[data-field="${f}"]`)
    .getBoundingClientRect();
  const tabs = document.querySelector('.game-tabs'), bar = document.querySelector('.sticky-bottom');
  const top = tabs && tabs.getClientRects().length ? tabs.getBoundingClientRect().bottom : 0;
  const bottom = bar ? bar.getBoundingClientRect().top : innerHeight;
  return r.width > 0 && r.top >= Math.max(top, 0) && r.bottom <= Math.min(bottom, innerHeight)
    && r.left >= 0 && r.right <= innerWidth; }"""


def test_next_unsure_box_walks_every_unsure_cell_in_order(serve: Callable[..., str],
                                                          page: Any) -> None:
    scanner = SixGameScanner(name=LONG)
    base = serve(WEB_SCANNER=scanner)
    _upload(page, base, scanner)
    dom = page.eval_on_selector_all("td.flag button.flag-btn",
                                    "bs => bs.map(b => b.getAttribute('data-field'))")
    # game by game, down each game's column (the page lists them row by row)
    order = sorted(dom, key=lambda f: (_game(f), dom.index(f)))
    assert [_game(f) for f in order] == list(range(6)) and order != dom
    seen = []
    for _ in order:
        page.click("#next-unsure")
        page.wait_for_selector("#cell-dialog[open]")
        current = page.evaluate("document.querySelector('.photo-hl.now') !== null")
        assert current
        field = page.evaluate("""() => Array.from(document.querySelectorAll('button.flag-btn'))
            .find(b => b.getAttribute('data-label') ===
                       document.getElementById('cd-title').textContent).getAttribute('data-field')""")
        seen.append(field)
        # its game shown on the switcher (one game at a time at 360 px), the box in sight
        assert page.evaluate(PRESSED) == [_game(field)]
        assert page.evaluate(IN_VIEW, field), field  # brought into sight, never off-screen
        page.click("#cd-ok")
        page.wait_for_selector(f"td.flag.confirmed button[data-field='{field}']")
    assert seen == order
    assert page.locator("#next-unsure").is_hidden()
    assert page.locator(".game-tabs .gt .gt-n:visible").count() == 0  # nothing left to check
    page.wait_for_selector("#check-btn:enabled")
    # the switcher (which game is shown) stays in sight while the card scrolls
    show_game(page, 3)
    page.locator("button.flag-btn[data-field='p0.g3.chance']").scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 200
    top = page.evaluate("document.querySelector('.game-tabs').getBoundingClientRect().top")
    assert 0 <= top < 60
    # and the photo is no longer pinned over the card on a phone
    assert page.evaluate("getComputedStyle(document.querySelector('.photo')).position") != "sticky"


def test_without_javascript_every_game_column_shows(serve: Callable[..., str],
                                                   browser: Any) -> None:
    base = serve()
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        pg = ctx.new_page()
        pg.goto(base + "/pad?rules=hasbro&players=2&games=6")
        assert sorted(set(pg.evaluate(SHOWN))) == list(range(6))  # no switcher to need
        assert pg.locator(".game-tabs").is_hidden()
        assert pg.locator("input[name='p1.g5.aces']").is_visible()
        assert pg.evaluate(FITS)
    finally:
        ctx.close()


def test_a_typed_card_survives_back_and_a_new_visit(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    page.goto(base + "/pad?rules=hasbro&players=3")
    page.fill("input[name='p0.name']", "Ann")
    page.fill("input[name='p1.name']", "Ben")
    page.fill("input[name='p2.name']", "Cy")
    page.fill("input[name='p0.g0.aces']", "3")
    page.fill("input[name='p2.g0.twos']", "8")
    page.click("button[value=add_game]")  # the server redraws the pad with a second column
    page.wait_for_selector("input[name='p0.g1.aces']")
    page.fill("input[name='p0.g1.sixes']", "24")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    # (back may be served from the page cache without a load event: wait for the box)
    page.go_back(wait_until="commit")
    page.wait_for_selector("input[name='p0.g1.sixes']")
    assert page.input_value("input[name='p0.g1.sixes']") == "24"
    # a new visit to the pad in this tab brings the draft back, columns and all
    page.goto(base + "/")
    page.goto(base + "/pad?rules=hasbro")
    page.wait_for_selector("input[name='p0.g1.sixes']")
    assert page.input_value("input[name='p0.g1.sixes']") == "24"
    assert page.input_value("input[name='p2.name']") == "Cy"
    assert page.get_attribute("#draft-note", "data-restored") == "1"
    # undo takes back the last change to a box
    page.fill("input[name='p0.g0.aces']", "5")
    page.focus("input[name='p1.name']")
    page.click("#undo-btn")
    assert page.input_value("input[name='p0.g0.aces']") == "3"
    # a player and a game column can be taken out again
    page.click("button.remove-player[value='remove_player:1']")
    page.wait_for_selector("input[name='p2.name']", state="detached")
    assert page.input_value("input[name='p1.name']") == "Cy"
    assert page.input_value("input[name='p1.g0.twos']") == "8"
    page.click("#remove-game")
    page.wait_for_selector("input[name='p0.g1.aces']", state="detached")
    assert page.input_value("input[name='p0.g0.aces']") == "3"
    # starting afresh forgets the draft
    page.goto(base + "/pad?rules=hasbro")
    page.click("#draft-clear")
    page.goto(base + "/pad?rules=hasbro")
    assert page.input_value("input[name='p0.g0.aces']") == ""


def test_the_dice_question_from_the_home_page(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    page.goto(base + "/")
    page.check("input[name=rules][value=classic]", force=True)
    page.click("#dice-link")
    page.wait_for_url("**/dice?rules=classic")
    assert page.evaluate(FITS)
    for i, d in enumerate([3, 3, 3, 5, 5]):
        page.fill(f"#die-{i}", str(d))
    page.click("#opt-ask")
    page.wait_for_selector("#opt-result .opt-list li")
    assert page.locator("#opt-result li.yes[data-box=full_house]").count() == 1
    assert page.locator("#opt-result li.yes[data-box=threes]").count() == 1
