/* scorepad web pages: the review of a read photo (the cells the reader was unsure of).
   Text from users is only ever set with textContent or arrives in server-rendered
   (escaped) HTML; nothing is built with innerHTML from data. */
import { $, $$, el } from "./dom.js";
import { computeTotals } from "./pad.js";
import { colOf, markGames, showGameOf } from "./games.js";

export function initReview() {
  var form = $(".review-form"), dlg = $("#cell-dialog");
  if (!form || !dlg) { return; }
  var btn = $("#check-btn"), hint = $("#check-hint"), current = null;
  var img = $("#pad-photo"), wrap = $("#photo-wrap"), marks = {};
  function placeMarks() {  // outline each unsure box on the photo itself
    if (!img || !img.naturalWidth) { return; }
    var sx = img.clientWidth / img.naturalWidth, sy = img.clientHeight / img.naturalHeight;
    $$(".flag-btn", form).forEach(function (b) {
      var box = (b.getAttribute("data-box") || "").split(",").map(Number), f = b.getAttribute("data-field");
      if (box.length !== 4 || !(box[2] > box[0])) { return; }
      var m = marks[f];
      if (!m) { m = marks[f] = el("div", "photo-hl"); m.setAttribute("aria-hidden", "true"); wrap.appendChild(m); }
      m.style.left = (img.offsetLeft + box[0] * sx) + "px";
      m.style.top = (img.offsetTop + box[1] * sy) + "px";
      m.style.width = ((box[2] - box[0]) * sx) + "px";
      m.style.height = ((box[3] - box[1]) * sy) + "px";
      m.classList.toggle("ok", b.parentNode.classList.contains("confirmed"));
      m.classList.toggle("now", b === current);
    });
  }
  if (img && wrap) {
    if (img.complete) { placeMarks(); } else { img.addEventListener("load", placeMarks); }
    window.addEventListener("resize", placeMarks);
  }
  function refresh() {
    var left = $$("input.confirm-in", form).filter(function (c) { return c.value !== "1"; }).length;
    var lc = $("#left-count"); if (lc) { lc.textContent = String(left); }
    btn.disabled = left > 0;
    btn.setAttribute("aria-disabled", left > 0 ? "true" : "false");
    if (next) { next.hidden = left === 0; }
    markGames();
    hint.textContent = left > 0 ? left + (left === 1 ? " marked box" : " marked boxes") + " still to confirm" : "All marked boxes confirmed";
  }
  $$(".flag-btn", form).forEach(function (b) {
    b.addEventListener("click", function () {
      current = b;
      var name = b.getAttribute("data-field"), hidden = form.querySelector('input[type=hidden][name="' + name + '"]');
      $("#cd-title").textContent = b.getAttribute("data-label");
      $("#cd-crop").src = b.getAttribute("data-crop");
      var read = b.getAttribute("data-read"), cands = b.getAttribute("data-candidates"), ink = b.getAttribute("data-ink");
      $("#cd-read").textContent = read === "" ? "The reader could not read this box." :
        ink !== null ? "The ink looks most like " + ink + ", but the card's sums need " + read +
          " here: which did the player write? With " + ink + " the column does not add up." :
        "The reader saw " + read + " (" + b.getAttribute("data-confidence") + "% sure)" +
        (cands && cands !== read ? "; it might also be " + cands.split(" ").filter(function (c) { return c !== read; }).join(" or ") : "") + ".";
      var v = $("#cd-value"), isName = b.getAttribute("data-kind") === "name";
      v.value = hidden ? hidden.value : "";
      v.setAttribute("inputmode", isName ? "text" : "numeric");
      v.setAttribute("maxlength", v.getAttribute(isName ? "data-max-name" : "data-max-value"));
      $("#cd-hint").hidden = isName;
      dlg.returnValue = "";
      placeMarks();
      if (typeof dlg.showModal === "function") { dlg.showModal(); } else { dlg.setAttribute("open", ""); }
      v.focus(); v.select();
    });
  });
  $("#cd-value").addEventListener("keydown", function (ev) {
    if (ev.key === "Enter") { ev.preventDefault(); $("#cd-ok").click(); }
  });
  dlg.addEventListener("close", function () {
    if (!current) { return; }
    if (dlg.returnValue === "ok") {
      var name = current.getAttribute("data-field");
      var hidden = form.querySelector('input[type=hidden][name="' + name + '"]');
      var conf = form.querySelector('input.confirm-in[name="confirm.' + name + '"]');
      var val = $("#cd-value").value.trim();
      if (hidden) { hidden.value = val; }
      if (conf) { conf.value = "1"; }
      $(".v", current).textContent = val === "" ? "\u2013" : val;
      current.parentNode.classList.add("confirmed");
      current.setAttribute("aria-label", current.getAttribute("data-label") + ": confirmed " + (val === "" ? "empty" : val));
      computeTotals(form);
      refresh();
    }
    var back = current; current = null; placeMarks(); back.focus();
  });
  var next = $("#next-unsure"), last = null;
  if (next) {  // the unsure boxes game by game (the names first), down each game column and
    // card by card, as a pad is filled in; each brought into sight (its game shown) and opened
    var all = $$(".flag-btn", form), key = function (b) {
      var g = colOf(b);
      return g !== null ? g : (b.getAttribute("data-kind") === "name" ? -1 : 99);
    };
    var order = all.slice().sort(function (a, b) { return key(a) - key(b) || all.indexOf(a) - all.indexOf(b); });
    next.addEventListener("click", function () {
      var isOpen = function (b) { return !b.parentNode.classList.contains("confirmed"); };
      var from = last ? order.indexOf(last) + 1 : 0;
      var b = order.slice(from).filter(isOpen)[0] || order.filter(isOpen)[0];
      if (!b) { return; }
      last = b;
      showGameOf(b);  // on a phone, the game it is in
      b.scrollIntoView({ block: "center", inline: "nearest" });
      b.click();
    });
  }
  form.addEventListener("submit", function (ev) { if (btn.disabled) { ev.preventDefault(); } });
  refresh();
}
