"""Issue 15 on a phone: the verdict, the review and the pad of a six-game card fit the screen;
a slip's consequences sit under their cause; badges stay clear of the values they mark."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

from PIL import Image

from .conftest import ROOT
from .fakescan import FakeScanner, card_values, draw_photo

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


def test_six_game_pad_and_verdict_fit_a_phone(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    _fill_six(page, base)
    assert page.evaluate(FITS), "the pad of six games scrolls sideways"
    assert page.evaluate(INNER) == []
    # a grand total off by a hundred: its totals follow, three-digit values with badges
    page.fill("input[name='p1.g5.grand_total']", "999")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    assert page.get_attribute("section.verdict", "data-verdict") == "errors"
    assert page.evaluate(FITS), "the verdict of six games scrolls sideways"
    assert page.evaluate(INNER) == []
    for size in ({"width": 360, "height": 740}, {"width": 1366, "height": 900}):
        page.set_viewport_size(size)
        assert page.evaluate(FITS), size
    page.set_viewport_size({"width": 390, "height": 844})


def test_badges_are_big_and_clear_of_the_value(serve: Callable[..., str], page: Any) -> None:
    base = serve()
    _fill_six(page, base)
    page.fill("input[name='p1.g5.grand_total']", "999")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    boxes = page.evaluate("""() => Array.from(document.querySelectorAll('td.cell a.mark')).map(m => {
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
    assert page.evaluate(INNER) == []


IN_VIEW = """f => { const r = document.querySelector(`button.flag-btn[data-field="${f}"]`)
    .getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""


def test_next_unsure_box_walks_every_unsure_cell_in_order(serve: Callable[..., str],
                                                          page: Any) -> None:
    scanner = SixGameScanner(name=LONG)
    base = serve(WEB_SCANNER=scanner)
    _upload(page, base, scanner)
    order = page.eval_on_selector_all("td.flag button.flag-btn",
                                      "bs => bs.map(b => b.getAttribute('data-field'))")
    assert len(order) == 6
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
        assert page.evaluate(IN_VIEW, field), field  # brought into sight, never off-screen
        page.click("#cd-ok")
        page.wait_for_selector(f"td.flag.confirmed button[data-field='{field}']")
    assert seen == order
    assert page.locator("#next-unsure").is_hidden()
    page.wait_for_selector("#check-btn:enabled")
    # the GAME headers stay in sight while the card scrolls
    page.locator("button.flag-btn[data-field='p0.g3.chance']").scroll_into_view_if_needed()
    top = page.evaluate("document.querySelector('table.pad thead th.game')"
                        ".getBoundingClientRect().top")
    assert 0 <= top < 60
    # and the photo is no longer pinned over the card on a phone
    assert page.evaluate("getComputedStyle(document.querySelector('.photo')).position") != "sticky"


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
    page.go_back()
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
