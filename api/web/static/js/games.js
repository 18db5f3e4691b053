/* scorepad web pages: on a narrow screen a card of many games shows one GAME column at a
   time, with a switcher above the cards (GAME #1..#n, the shown one pressed; a count of the
   boxes marked in each game). The columns are hidden by games.css only on a narrow screen
   and only once this has run: without the script, or printed, every column is shown.
   Anything that moves to a box (the keyboard, "Next unsure box", a link to a box) shows its
   game first with showGameOf. */
import { $, $$ } from "./dom.js";

var KEY = "scorepad.game";
var MARKED = ".flag:not(.confirmed), .bad, .sev-error, .sev-warning, .sev-notice, .sev-doubt";

/* The game column (0-based) that holds E, or null (a name, the PLAYERS' SCORES sheet). */
export function colOf(e) {
  var c = e && e.closest ? e.closest("[data-col]") : null;
  return c && !c.closest(".ps") ? +c.getAttribute("data-col") : null;
}

function store(cards, g) {
  if (cards.getAttribute("data-mode") !== "edit") { return; }
  try { window.sessionStorage.setItem(KEY, String(g)); } catch (e) { /* storage off */ }
}

export function showGame(cards, g) {
  if (!cards || !cards.classList.contains("one-game")) { return; }
  cards.setAttribute("data-shown", String(g));
  $$(".card:not(.ps) [data-col]", cards).forEach(function (c) {
    c.classList.toggle("g-off", c.getAttribute("data-col") !== String(g));
  });
  $$(".game-tabs .gt", cards).forEach(function (b) {
    b.setAttribute("aria-pressed", b.getAttribute("data-game") === String(g) ? "true" : "false");
  });
}

/* Show the game column that holds E (a box, a button or anything inside a cell). */
export function showGameOf(e) {
  var cards = e && e.closest ? e.closest(".cards.one-game") : null, g = colOf(e);
  if (cards && g !== null && cards.getAttribute("data-shown") !== String(g)) { showGame(cards, g); store(cards, g); }
}

/* Each game's tab counts the boxes marked in it (unsure, wrong or with a finding). */
export function markGames() {
  $$(".cards.one-game").forEach(function (cards) {
    $$(".game-tabs .gt", cards).forEach(function (b) {
      var g = b.getAttribute("data-game");
      var n = $$('.card:not(.ps) td[data-col="' + g + '"]', cards).filter(function (c) { return c.matches(MARKED); }).length;
      var badge = $(".gt-n", b), sr = $(".gt-sr", b);
      badge.textContent = n ? String(n) : ""; badge.hidden = !n;
      sr.textContent = n ? ", " + n + (n === 1 ? " marked box" : " marked boxes") : "";
    });
  });
}

function byHash(h) {  // the element a "#id" names, or null
  try { return h && h.length > 1 ? document.getElementById(decodeURIComponent(h.slice(1))) : null; } catch (e) { return null; }
}

function firstGame(cards) {
  var target = byHash(location.hash);
  var g = target && cards.contains(target) ? colOf(target) : null;
  if (g !== null) { return g; }
  var marked = $$(".card:not(.ps) td[data-col]", cards).filter(function (c) { return c.matches(MARKED); });
  if (marked.length) { return +marked[0].getAttribute("data-col"); }
  var typed = $$("input.box-in", cards).some(function (i) { return i.value.trim() !== ""; });
  if (cards.getAttribute("data-mode") === "edit" && typed) {  // a card being typed: where it was
    var kept = null;
    try { kept = window.sessionStorage.getItem(KEY); } catch (e) { kept = null; }
    if (kept !== null && +kept >= 0 && +kept < +cards.getAttribute("data-games")) { return +kept; }
  }
  return 0;
}

var linksFollowed = false;

export function initGames(root) {
  $$(".cards.wide", root).forEach(function (cards) {
    if (!$(".game-tabs", cards) || cards.classList.contains("one-game")) { return; }
    cards.classList.add("one-game");
    $$(".game-tabs .gt", cards).forEach(function (b) {
      b.addEventListener("click", function () {
        var g = +b.getAttribute("data-game");
        showGame(cards, g); store(cards, g);
      });
    });
    var form = cards.closest("form");
    if (form) {  // "+ Game column": the pad comes back showing the new column
      form.addEventListener("submit", function (ev) {
        if (ev.submitter && ev.submitter.value === "add_game") { store(cards, +cards.getAttribute("data-games")); }
      });
    }
    showGame(cards, firstGame(cards));
  });
  markGames();
  if (!linksFollowed) {  // a link to a box in another game (a finding, a form error) shows it
    linksFollowed = true;
    document.addEventListener("click", function (ev) {
      var a = ev.target && ev.target.closest ? ev.target.closest('a[href^="#"]') : null;
      var t = a ? byHash(a.getAttribute("href")) : null;
      if (t) { showGameOf(t); }
    });
    window.addEventListener("hashchange", function () {
      var t = byHash(location.hash);
      if (t) { showGameOf(t); }
    });
  }
}
