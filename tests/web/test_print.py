"""Issue 15: a verdict prints without the forms on few pages; its link opens it in another
browser; the pages follow the system's dark mode."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .conftest import DESKTOP, PHONE, SHOTS
from .test_phone import _fill_six, show_game

HIDDEN_IN_PRINT = ("#save", "#options", ".top nav", ".foot", "#check-btn", "#share-link")


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_a_verdict_prints_without_forms_and_its_link_opens_it(serve: Callable[..., str],
                                                               page: Any) -> None:
    base = serve()
    _fill_six(page, base)
    show_game(page, 5)
    page.fill("input[name='p1.g5.grand_total']", "999")
    page.click("#check-btn")
    page.wait_for_selector("section.verdict")
    page.emulate_media(media="print")
    for sel in HIDDEN_IN_PRINT:
        shown = page.evaluate("s => Array.from(document.querySelectorAll(s))"
                              ".some(e => e.getClientRects().length > 0)", sel)
        assert not shown, f"{sel} is printed"
    pdf = page.pdf(format="A4")
    assert 1 <= _pages(pdf) <= 3, _pages(pdf)
    page.emulate_media(media="screen")
    # the link holds the card: another browser (no session, no storage) sees the same verdict
    href = page.get_attribute("#share-link", "href")
    assert href and href.startswith("/v?s=")
    errors = page.get_attribute("section.verdict", "data-errors")
    other = page.context.browser.new_context(viewport=PHONE)
    try:
        p2 = other.new_page()
        p2.goto(base + href)
        assert p2.get_attribute("section.verdict", "data-errors") == errors
        assert p2.input_value("#played-on")  # and it can be saved from there
    finally:
        other.close()


def test_dark_mode_follows_the_system(serve: Callable[..., str], browser: Any) -> None:
    base = serve()
    ctx = browser.new_context(viewport=PHONE, color_scheme="dark")
    try:
        pg = ctx.new_page()
        pg.goto(base + "/")
        bg = pg.evaluate("getComputedStyle(document.body).backgroundColor")
        rgb = [int(v) for v in re.findall(r"\d+", bg)[:3]]
        assert sum(rgb) < 3 * 60, bg  # a dark page
        pg.screenshot(path=str(SHOTS / "home-dark-phone.png"), full_page=True)
        pg.set_viewport_size(DESKTOP)
        pg.wait_for_timeout(150)
        pg.screenshot(path=str(SHOTS / "home-dark-desktop.png"), full_page=True)
    finally:
        ctx.close()
