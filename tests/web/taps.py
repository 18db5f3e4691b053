"""Issue 15: what a finger can reach on a page, measured in the browser, and the axe-core
audit (shared by the tests of every page, test_a11y.py, and of the six-game card,
test_phone.py)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.base import AXE_SCRIPT

AUDIT = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 4)
      .map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').slice(0, 160)).join(' | '));
}"""

# Every link, button and input a finger can reach, shown on the page, with its size: a
# checkbox or radio counts by its label when that is bigger (the label is what is tapped);
# a link inside running text is left out (WCAG 2.5.5's "inline" exception).
TARGETS = """() => Array.from(document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary')).filter(e => {
  if (!e.getClientRects().length || e.closest('[hidden], dialog:not([open])')) return false;
  const s = getComputedStyle(e);
  if (s.visibility === 'hidden' || s.display === 'none') return false;
  if (e.tagName === 'A' && e.closest('p, li.finding .text, .prose, figcaption, .quote')
      && s.display === 'inline') return false;
  return true;
}).map(e => {
  let r = e.getBoundingClientRect();
  if ((e.type === 'checkbox' || e.type === 'radio' || e.type === 'file') && e.labels
      && e.labels.length) {
    const l = e.labels[0].getBoundingClientRect();  // the label or the control: the bigger
    if (l.width * l.height > r.width * r.height) { r = l; }
  }
  return {what: e.tagName.toLowerCase() + (e.name ? '[name=' + e.name + ']' : '')
    + (e.id ? '#' + e.id : '') + (e.matches('td.cell *') ? ' (a box)' : '') + ' "'
    + (e.textContent || e.value || '').trim().slice(0, 24) + '"',
    w: r.width, h: r.height, box: e.matches('td.cell *')};
})"""

# the page, and nothing in it, wider than the screen
WIDTHS = """() => ({page: document.scrollingElement.scrollWidth, screen: window.innerWidth,
  inner: Array.from(document.querySelectorAll('.scroll'))
    .filter(s => s.scrollWidth > s.clientWidth + 1).length})"""


def targets(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate(TARGETS))


def too_small(page: Any, least: float = 44) -> list[str]:
    """The targets under LEAST x LEAST px, described."""
    return [f"{t['what']} {round(t['w'])}x{round(t['h'])}" for t in targets(page)
            if t["w"] < least - 0.5 or t["h"] < least - 0.5]


def smallest(page: Any) -> tuple[float, float]:
    """The narrowest and the lowest target on the page (px)."""
    ts = targets(page)
    return min(t["w"] for t in ts), min(t["h"] for t in ts)


def audit(page: Any) -> tuple[list[str], list[str]]:
    """axe-core's serious and critical violations on the page, in light and in dark colours."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    light = list(page.evaluate(AUDIT))
    page.emulate_media(color_scheme="dark")
    dark = list(page.evaluate(AUDIT))
    page.emulate_media(color_scheme="light")
    return light, dark
