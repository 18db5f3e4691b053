/* scorepad web pages: "What can I score with these dice?" (asks POST /api/v1/options).
   Text from users is only ever set with textContent or arrives in server-rendered
   (escaped) HTML; nothing is built with innerHTML from data. */
import { $, $$, el, jsonData, num } from "./dom.js";
import { api } from "./net.js";
import { LABELS, LOWER, UPPER, currentRules } from "./pad.js";

var REASONS = {
  NATURAL: "what the dice score in this box", ZERO: "a zero: you may always scratch a box",
  JOKER: "joker: a bonus Yahtzee scores the box's full value",
  JOKER_UPPER: "a bonus Yahtzee must go in its own upper box first",
  JOKER_UPPER_ZERO: "upper box and lower section are full: a zero in an upper box",
  BOX_FILLED: "already filled", FORBIDDEN_UPPER_FIRST: "the Yahtzee's own upper box is open: it must go there",
  FORBIDDEN_PRIORITY: "an earlier joker step still has room", FORBIDDEN_LOWER_OPEN: "a lower box is still open: it must go there first",
  ZERO_NOT_ALLOWED: "no zero here under these rules"
};
function why(o) {  // the reason, then each rule quoted in words, its book as a detail
  var s = el("span", "why", REASONS[o.reason] || o.reason), data = jsonData("rules-data") || {};
  (o.rule || []).forEach(function (c) {
    var q = (data.quotes || {})[c], bl = c.split(":"), book = (data.books || {})[bl[0]] || "book " + bl[0];
    var r = el("span", "quote", q ? " The rule: \u201c" + q + "\u201d" : "");
    r.setAttribute("data-cite", c);
    r.appendChild(el("small", "book", " (" + book + ", lines " + bl[1] + ")"));
    s.appendChild(r);
  });
  return s;
}
export function initOptions() {
  var panel = $("#options");
  if (!panel) { return; }
  var dice = $$(".die-in", panel), out = $("#opt-result");
  function names() {  // the column list says whose card it is
    var sheet = jsonData("sheet-data");
    $$("#opt-column option").forEach(function (o) {
      var pg = o.value.split(":"), p = +pg[0], g = +pg[1], n = null;
      var inp = document.querySelector('[name="p' + p + '.name"]');
      if (inp && inp.value.trim()) { n = inp.value.trim(); }
      else if (sheet && sheet.players[p]) { n = sheet.players[p].name; }
      o.textContent = (n || "Player " + (p + 1)) + ", game " + (g + 1);
    });
  }
  names();
  $$("input.name-in").forEach(function (i) { i.addEventListener("input", names); });
  dice.forEach(function (d, i) {
    d.addEventListener("input", function () {
      d.value = d.value.replace(/[^1-6]/g, "").slice(0, 1);
      if (d.value && dice[i + 1]) { dice[i + 1].focus(); }
    });
    d.addEventListener("keydown", function (ev) {
      if (ev.key === "Backspace" && !d.value && dice[i - 1]) { dice[i - 1].focus(); }
      if (ev.key === "Enter") { ev.preventDefault(); $("#opt-ask").click(); }
    });
  });
  $("#opt-ask").addEventListener("click", function () {
    var vals = dice.map(function (d) { return parseInt(d.value, 10); });
    out.textContent = "";
    if (vals.some(function (v) { return !(v >= 1 && v <= 6); })) { out.appendChild(el("p", "alert", "Enter all five dice, each 1 to 6.")); return; }
    var col = $("#opt-column"), pg = (col ? col.value : "0:0").split(":"), p = +pg[0], g = +pg[1], boxes = {};
    var form = $("#pad-form"), sheet = jsonData("sheet-data");
    UPPER.concat(LOWER).forEach(function (k) {
      var v = null;
      if (form) {
        var i = form.querySelector('[name="p' + p + ".g" + g + "." + k + '"]');
        v = i ? num(i.value) : null;
      } else if (sheet && sheet.players[p] && sheet.players[p].games[g]) {
        var b = sheet.players[p].games[g].boxes || {};
        v = b[k] === undefined ? null : b[k];
      }
      if (v !== null) { boxes[k] = v; }
    });
    api("POST", "/api/v1/options", { rules: (currentRules() || {}).name || null, boxes: boxes, dice: vals }).then(function (r) {
      out.setAttribute("data-bonus", r.bonus ? "1" : "0");
      out.setAttribute("data-joker", r.joker ? "1" : "0");
      var head = el("p", null, "");
      head.appendChild(el("strong", null, "Dice " + r.dice.join(" ") + " under " + r.rule_set + ". "));
      if (r.bonus) { head.appendChild(document.createTextNode("A bonus Yahtzee: tick the YAHTZEE BONUS box. ")); }
      if (r.joker) { head.appendChild(document.createTextNode("Joker rules apply.")); }
      out.appendChild(head);
      var ok = r.options.filter(function (o) { return o.allowed; }), no = r.options.filter(function (o) { return !o.allowed && o.reason !== "BOX_FILLED"; });
      var ul = el("ul", "opt-list");
      ok.sort(function (a, b) { return Math.max.apply(null, b.values) - Math.max.apply(null, a.values); });
      ok.forEach(function (o) {
        var li = el("li", "yes");
        li.setAttribute("data-box", o.box);
        li.appendChild(el("span", "box", LABELS[o.box] || o.box));
        li.appendChild(el("span", "val", o.values.join(" or ")));
        li.appendChild(why(o));
        ul.appendChild(li);
      });
      out.appendChild(el("h3", null, ok.length ? "You may score" : "No open box takes this roll"));
      out.appendChild(ul);
      if (no.length) {
        var det = el("details", "opt-closed"); det.appendChild(el("summary", null, "Not allowed (" + no.length + ")"));
        var ul2 = el("ul", "opt-list");
        no.forEach(function (o) {
          var li = el("li", "no"); li.appendChild(el("span", "box", LABELS[o.box] || o.box)); li.appendChild(el("span", "val", "\u2013"));
          li.appendChild(why(o));
          ul2.appendChild(li);
        });
        det.appendChild(ul2); out.appendChild(det);
      }
    }).catch(function (e) { out.appendChild(el("p", "alert", "Could not ask: " + e.message)); });
  });
}
