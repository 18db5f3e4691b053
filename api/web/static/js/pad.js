/* scorepad web pages: the on-screen pad: totals as you type, the keyboard moves box to box.
   Text from users is only ever set with textContent or arrives in server-rendered
   (escaped) HTML; nothing is built with innerHTML from data. */
import { $, $$, jsonData, num } from "./dom.js";
import { showGameOf } from "./games.js";

export var UPPER = ["aces", "twos", "threes", "fours", "fives", "sixes"];
export var LOWER = ["three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance"];
/* The pad's box labels (the "What can I score" panel names boxes with them). */
export var LABELS = { aces: "Aces", twos: "Twos", threes: "Threes", fours: "Fours", fives: "Fives", sixes: "Sixes",
  three_of_a_kind: "3 of a kind", four_of_a_kind: "4 of a kind", full_house: "Full House",
  small_straight: "Sm. Straight", large_straight: "Lg. Straight", yahtzee: "YAHTZEE", chance: "Chance" };

/* The rule set in effect: its name (the page's rules field, else the server's default) and
   its numbers, all from the page's rules-data ({default, rule_sets: {name: rule set}}, written
   by the server from its registry); null on a page without them. */
export function currentRules() {
  var all = jsonData("rules-data");
  if (!all || !all.rule_sets) { return null; }
  var sel = $("select[name=rules]") || $("input[name=rules]");
  var name = sel && all.rule_sets[sel.value] ? sel.value : all.default;
  return { name: name, data: all.rule_sets[name] };
}

function parseName(name) {
  var m = /^p(\d+)\.g(\d+)\.(.+)$/.exec(name || "");
  return m ? { p: +m[1], g: +m[2], key: m[3] } : null;
}

export function columnValues(form, p, g) {
  var get = function (k) {
    var i = form.querySelector('[name="p' + p + ".g" + g + "." + k + '"]');
    return i ? num(i.value) : null;
  };
  var out = {}; UPPER.concat(LOWER).forEach(function (k) { out[k] = get(k); });
  out.checks = get("yahtzee_bonus_checks") || 0;
  return out;
}

export function computeTotals(form) {
  var mode = (form.querySelector(".cards") || {}).getAttribute ? form.querySelector(".cards").getAttribute("data-mode") : "edit";
  var current = currentRules();
  if (!current) { return; }
  var rules = current.data;
  var cols = {};
  $$("input.box-in", form).forEach(function (i) {
    var n = parseName(i.name); if (n) { cols[n.p + ":" + n.g] = n; }
  });
  Object.keys(cols).forEach(function (k) {
    var p = cols[k].p, g = cols[k].g, v = columnValues(form, p, g);
    var filled = function (keys) { return keys.every(function (x) { return v[x] !== null; }); };
    var sum = function (keys) { return keys.reduce(function (a, x) { return a + (v[x] || 0); }, 0); };
    var upper = sum(UPPER), bonus = upper >= rules.upper_bonus_threshold ? rules.upper_bonus : 0;
    var yb = v.checks * rules.yahtzee_bonus, lower = sum(LOWER) + yb;
    var upperDone = filled(UPPER), allDone = upperDone && filled(LOWER);
    var totals = {
      upper_total_score: [upper, upperDone], upper_bonus: [bonus, upperDone], upper_total: [upper + bonus, upperDone],
      yahtzee_bonus: [yb, allDone], lower_total: [lower, allDone], upper_total_repeat: [upper + bonus, allDone],
      grand_total: [upper + bonus + lower, allDone]
    };
    Object.keys(totals).forEach(function (t) {
      var i = form.querySelector('input.box-in[name="p' + p + ".g" + g + "." + t + '"]');
      if (!i || i.type === "hidden") { return; }
      var any = UPPER.concat(LOWER).some(function (x) { return v[x] !== null; });
      i.placeholder = any ? String(totals[t][0]) : "";
      if (i.getAttribute("data-manual") === "1" || mode !== "edit") { i.classList.remove("auto"); return; }
      if (totals[t][1]) { i.value = String(totals[t][0]); i.classList.add("auto"); }
      else { i.value = ""; i.classList.remove("auto"); }
    });
  });
}

function navItems(form) {
  return $$("input.box-in:not([type=hidden]), button.flag-btn", form).filter(function (e) {
    return parseName(e.name || e.getAttribute("data-field"));
  });
}

function move(form, from, dir) {
  var items = navItems(form), me = parseName(from.name || from.getAttribute("data-field"));
  if (!me) { return false; }
  var target = null;
  if (dir === "down" || dir === "up" || dir === "next") {
    // Enter ("next") skips the totals, which fill themselves; the arrows reach every box.
    var idx = items.indexOf(from), step = dir === "up" ? -1 : 1;
    for (var i = idx + step; i >= 0 && i < items.length; i += step) {
      var n = parseName(items[i].name || items[i].getAttribute("data-field"));
      if (dir === "next" && items[i].getAttribute("data-kind") === "total" && from.getAttribute("data-kind") !== "total") { continue; }
      if (n.p === me.p && n.g === me.g) { target = items[i]; break; }
    }
    if (!target && dir !== "up") {  // the end of a column: the top of the next one
      var next = items.filter(function (e) { var n = parseName(e.name || e.getAttribute("data-field")); return (n.p === me.p && n.g === me.g + 1) || (n.p === me.p + 1 && n.g === 0); });
      target = next[0] || null;
    }
  } else {
    var g = me.g + (dir === "right" ? 1 : -1);
    target = items.filter(function (e) { var n = parseName(e.name || e.getAttribute("data-field")); return n.p === me.p && n.g === g && n.key === me.key; })[0] || null;
  }
  if (target) { showGameOf(target); target.focus(); if (target.select) { target.select(); } return true; }
  return false;
}

export function initPad() {
  var form = $("#pad-form");
  if (!form) { return; }
  form.addEventListener("input", function (ev) {
    var t = ev.target;
    if (t.classList && t.classList.contains("box-in") && t.getAttribute("data-kind") === "total") {
      if (t.value.trim() === "") { t.removeAttribute("data-manual"); } else { t.setAttribute("data-manual", "1"); }
      t.classList.remove("auto");
    }
    if (t.classList && t.classList.contains("box-in") && t.type !== "hidden") {
      var n = parseName(t.name), c = n && form.querySelector('input.confirm-in[name="confirm.' + t.name + '"]');
      if (c) { c.value = "1"; }
    }
    computeTotals(form);
  });
  form.addEventListener("submit", function (ev) {
    // Redrawing the pad (+ Player, + Game column): totals filled in here are sent blank so
    // that they keep following the boxes; on "Check the card" they are sent as written.
    if (ev.submitter && ev.submitter.name === "action") {
      $$("input.box-in.auto", form).forEach(function (i) { i.value = ""; });
    }
  });
  var rs = $("select[name=rules]", form);
  if (rs) { rs.addEventListener("change", function () { computeTotals(form); }); }
  form.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (!(t.classList && (t.classList.contains("box-in") || t.classList.contains("flag-btn")))) {
      if (ev.key === "Enter" && t.tagName === "INPUT" && t.form === form) { ev.preventDefault(); }
      return;
    }
    var isInput = t.tagName === "INPUT", len = isInput ? t.value.length : 0;
    var atStart = !isInput || (t.selectionStart === 0 && t.selectionEnd === 0) || t.selectionEnd - t.selectionStart === len;
    var atEnd = !isInput || t.selectionStart === len;
    if (ev.key === "Enter" && isInput) { ev.preventDefault(); move(form, t, ev.shiftKey ? "up" : "next"); }
    else if (ev.key === "ArrowDown") { if (move(form, t, "down")) { ev.preventDefault(); } }
    else if (ev.key === "ArrowUp") { if (move(form, t, "up")) { ev.preventDefault(); } }
    else if (ev.key === "ArrowRight" && atEnd) { if (move(form, t, "right")) { ev.preventDefault(); } }
    else if (ev.key === "ArrowLeft" && atStart) { if (move(form, t, "left")) { ev.preventDefault(); } }
  });
  computeTotals(form);
}
