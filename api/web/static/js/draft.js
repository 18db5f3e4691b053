/* scorepad web pages: the typed card is kept as a draft in this tab's sessionStorage, so that
   Back or a reload brings it back; Undo takes back the last change to a box. */
import { $, $$ } from "./dom.js";
import { computeTotals } from "./pad.js";

var KEY = "scorepad.draft";

function fields(form) {  // what the pad sends, except the token: the draft
  var out = {};
  $$("input, select", form).forEach(function (i) {
    if (!i.name || i.name === "csrf_token" || i.type === "submit" || i.type === "button") { return; }
    if (i.classList.contains("auto")) { return; }  // a total the page filled in follows the boxes
    out[i.name] = i.value;
  });
  return out;
}

function typed(values) {
  return Object.keys(values).some(function (k) { return /^p\d+\./.test(k) && values[k].trim() !== ""; });
}

function restore(form, draft) {
  var shape = ["players", "games", "players_scores"], same = shape.every(function (k) {
    var i = form.querySelector('input[type=hidden][name="' + k + '"]');
    return (i ? i.value : undefined) === draft[k];
  });
  if (!same) {  // another shape: the server draws the pad with the draft's columns
    var f = document.createElement("form");
    f.method = "post"; f.action = form.getAttribute("data-redraw") || "/pad"; f.hidden = true;
    var all = Object.assign({}, draft, { csrf_token: $('input[name=csrf_token]', form).value });
    Object.keys(all).forEach(function (k) {
      var i = document.createElement("input"); i.type = "hidden"; i.name = k; i.value = all[k]; f.appendChild(i);
    });
    document.body.appendChild(f);
    try { window.sessionStorage.setItem(KEY + ".restored", "1"); } catch (e) { /* off */ }
    f.submit();
    return false;
  }
  Object.keys(draft).forEach(function (k) {
    var i = form.querySelector('[name="' + k + '"]');
    if (i && i.type !== "hidden") { i.value = draft[k]; if (i.getAttribute("data-kind") === "total" && draft[k] !== "") { i.setAttribute("data-manual", "1"); } }
  });
  computeTotals(form);
  return true;
}

export function initDraft() {
  var form = $("#pad-form");
  if (!form || form.classList.contains("review-form")) { return; }
  var store = window.sessionStorage, note = $("#draft-note"), undo = $("#undo-btn"), history = [], before = {};
  function save() { try { store.setItem(KEY, JSON.stringify(fields(form))); } catch (e) { /* full or off */ } }
  var draft = null;
  try { draft = JSON.parse(store.getItem(KEY) || "null"); } catch (e) { draft = null; }
  var empty = !typed(fields(form)), nav = (performance.getEntriesByType("navigation")[0] || {}).type;
  var again = nav === "back_forward" || nav === "reload";  // the page as it was sent, not as left
  if (draft && typed(draft) && ((form.getAttribute("data-restorable") === "1" && empty) || again)) {
    if (!restore(form, draft)) { return; }
    if (note) { note.hidden = false; note.setAttribute("data-restored", "1"); }
  } else if (!empty) {
    save();  // a card the server drew (redrawn, or opened to edit) is the draft now
    if (note && store.getItem(KEY + ".restored")) { note.hidden = false; note.setAttribute("data-restored", "1"); }
  }
  store.removeItem(KEY + ".restored");
  if (note) {
    $("#draft-clear").addEventListener("click", function () {
      store.removeItem(KEY);
      $$("input.box-in, input.name-in, #title", form).forEach(function (i) { i.value = ""; i.removeAttribute("data-manual"); });
      computeTotals(form); note.hidden = true; history = []; if (undo) { undo.disabled = true; }
    });
  }
  form.addEventListener("focusin", function (ev) { if (ev.target.name) { before[ev.target.name] = ev.target.value; } });
  form.addEventListener("change", function (ev) {
    var t = ev.target;
    if (t.name && before[t.name] !== undefined && before[t.name] !== t.value) {
      history.push({ name: t.name, value: before[t.name] });
      before[t.name] = t.value;
      if (undo) { undo.disabled = false; }
    }
    save();
  });
  form.addEventListener("input", save);
  if (undo) {
    undo.addEventListener("click", function () {
      var last = history.pop();
      if (!last) { return; }
      var i = form.querySelector('[name="' + last.name + '"]');
      if (i) {
        i.value = last.value; before[last.name] = last.value;
        i.dispatchEvent(new Event("input", { bubbles: true }));
        i.focus();
      }
      undo.disabled = history.length === 0;
    });
  }
}
