"""Issue 15: every page at 360x740 and 1366x900 passes an axe-core audit (no serious or
critical violation, axe-core from the axe-playwright-python package the setup installs, in
light and dark colours), is no wider than the screen, and has tap targets of at least 44x44 px
at 360 px (the boxes of a six-game card too); screenshots of the pages missing from the other
tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .conftest import DESKTOP, PHONE, shoot
from .fakescan import FakeScanner
from .taps import WIDTHS, audit, smallest, too_small
from .test_phone import _fill_six, show_game

WIDE = DESKTOP


def _check(page: Any, name: str, problems: list[str], size: dict[str, int]) -> str:
    """Audit the page at SIZE, in light and dark colours; what was measured, as a line."""
    page.set_viewport_size(size)
    page.wait_for_timeout(50)
    w = page.evaluate(WIDTHS)  # on a phone nothing inside scrolls sideways either; on a
    # desktop a table may in its own labelled region (the verdict's totals of six games)
    if w["page"] > w["screen"] or (w["inner"] and size == PHONE):
        problems.append(f"{name} {size['width']}: {w['page']} px wide, {w['inner']} inner scroll")
    found, dark = audit(page)
    problems += [f"{name} {size['width']}: {v}" for v in found]
    problems += [f"{name} {size['width']} dark: {v}" for v in dark]
    line = (f"{name} {size['width']}x{size['height']}: {w['page']} px wide, "
            f"axe serious/critical {len(found)} light {len(dark)} dark")
    if size == PHONE:  # every target a finger can reach, the boxes of a card included
        problems += [f"{name} small tap target: {t}" for t in too_small(page)]
        line += " , smallest target {:.0f}x{:.0f} px".format(*smallest(page))
    return line


def _pages(page: Any, base: str, scanner: FakeScanner) -> Iterator[str]:
    """Open each page in turn, yielding its name once it is ready."""
    page.goto(base + "/")
    yield "home"
    page.goto(base + "/dice")
    yield "dice"
    page.goto(base + "/pad/scrabble")
    yield "scrabble-pad"
    page.goto(base + "/pad/sorry")
    yield "sorry-pad"
    page.goto(base + "/no/such/page")
    yield "not-found"
    page.goto(base + "/")
    page.set_input_files("#photo", files=[{"name": "pad.jpg", "mimeType": "image/jpeg",
                                           "buffer": scanner.photo()}])
    page.wait_for_url("**/scan/**")
    yield "review"
    _fill_six(page, base)
    yield "pad"
    show_game(page, 5)
    page.fill("input[name='p1.g5.grand_total']", "999")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    yield "verdict"
    page.fill("#new-group", "Tuesday table")
    page.click("#save-btn")
    page.wait_for_selector("#saved-link")
    page.click("#saved-link")
    page.wait_for_selector("#group-name")
    yield "overview"
    page.click("table.leaderboard a:text-is('Ben')")
    page.wait_for_selector("#player-name")
    yield "player"
    page.go_back()
    page.wait_for_selector("ul.match-list a")
    page.click("ul.match-list a")
    page.wait_for_selector("#correct-form")
    yield "match"
    page.goto(base + "/groups")
    page.wait_for_selector("main a[href^='/g/']")
    yield "groups"


SHOOT = {"dice", "scrabble-pad", "sorry-pad", "not-found", "groups"}  # not shot elsewhere


def test_every_page_passes_axe_and_has_big_tap_targets(serve: Callable[..., str],
                                                      page: Any) -> None:
    scanner = FakeScanner()
    base = serve(WEB_SCANNER=scanner)
    problems: list[str] = []
    seen = []
    for name in _pages(page, base, scanner):
        seen.append(name)
        for size in (PHONE, WIDE):
            print(_check(page, name, problems, size))  # the figures (pytest -rP shows them)
        if name in SHOOT:
            shoot(page, name)
        page.set_viewport_size(PHONE)
    assert len(seen) == 12
    assert problems == [], "\n".join(problems)
