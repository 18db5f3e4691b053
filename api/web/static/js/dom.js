/* scorepad web pages, helpers for the page. Text from users is only ever set with textContent or
   arrives in server-rendered (escaped) HTML; nothing is built with innerHTML from data. */
export var $ = function (sel, root) { return (root || document).querySelector(sel); };
export var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };

/* JSON the server wrote into the page (<script type="application/json" id=...>), or null. */
export function jsonData(id) {
  var el = document.getElementById(id);
  if (!el) { return null; }
  try { return JSON.parse(el.textContent); } catch (e) { return null; }
}

export function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) { e.className = cls; }
  if (text !== undefined && text !== null) { e.textContent = String(text); }
  return e;
}

/* A box as typed: blank is null; a dash or cross is a zero. */
export function num(v) {
  v = (v || "").trim();
  if (v === "") { return null; }
  if (v === "-" || v === "x" || v === "X" || v === "/" || v === "\u2013" || v === "\u2014") { return 0; }
  var n = parseInt(v, 10);
  return isNaN(n) ? null : n;
}
