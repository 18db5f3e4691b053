/* scorepad web pages: marking the pad's corners on the photo (the form's inputs hold them),
   and the verdict (a marked box highlights its finding).
   Text from users is only ever set with textContent or arrives in server-rendered
   (escaped) HTML; nothing is built with innerHTML from data. */
import { $, $$ } from "./dom.js";

export function initVerdict() {
  $$(".cell .mark").forEach(function (a) {
    a.addEventListener("click", function () {
      $$(".finding.hl").forEach(function (f) { f.classList.remove("hl"); });
      var f = document.getElementById(a.getAttribute("href").slice(1));
      if (f) { f.classList.add("hl"); }
    });
  });
}

export function initCorners() {
  var stage = $("#corner-stage"), form = $("#corners-form");
  if (!stage || !form) { return; }
  var W = +stage.getAttribute("data-width"), H = +stage.getAttribute("data-height");
  var img = $("#corner-photo"), svg = $("#corner-lines"), poly = $("#corner-poly"), status = $("#corner-status");
  var handles = $$(".corner-handle", stage);
  var names = handles.map(function (h) { return h.getAttribute("aria-label"); });
  var drag = null;
  function field(i, axis) { return document.getElementById("c" + i + axis); }
  function get(i) { return [parseFloat(field(i, "x").value) || 0, parseFloat(field(i, "y").value) || 0]; }
  function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }
  function box() {  // the photo's own pixels on the screen (inside its border)
    return { left: img.offsetLeft + img.clientLeft, top: img.offsetTop + img.clientTop,
      width: img.clientWidth || 1, height: img.clientHeight || 1 };
  }
  function draw() {
    var b = box(), pts = [];
    svg.style.left = b.left + "px"; svg.style.top = b.top + "px";
    svg.style.width = b.width + "px"; svg.style.height = b.height + "px";
    handles.forEach(function (h, i) {
      var p = get(i);
      h.style.left = (b.left + clamp(p[0], 0, W) / W * b.width) + "px";
      h.style.top = (b.top + clamp(p[1], 0, H) / H * b.height) + "px";
      pts.push(p[0] + "," + p[1]);
    });
    poly.setAttribute("points", pts.join(" "));
  }
  function say(i) { var p = get(i); status.textContent = names[i] + " at " + p[0] + ", " + p[1] + "."; }
  function set(i, x, y) {
    field(i, "x").value = String(Math.round(clamp(x, 0, W)));
    field(i, "y").value = String(Math.round(clamp(y, 0, H)));
    draw();
  }
  function toPhoto(ev) {
    var r = img.getBoundingClientRect();
    return [(ev.clientX - r.left - img.clientLeft) / (img.clientWidth || 1) * W,
      (ev.clientY - r.top - img.clientTop) / (img.clientHeight || 1) * H];
  }
  handles.forEach(function (h, i) {
    h.hidden = false;
    h.addEventListener("pointerdown", function (ev) {  // mouse, pen and touch alike
      ev.preventDefault();
      var p = toPhoto(ev), q = get(i);
      drag = { i: i, dx: q[0] - p[0], dy: q[1] - p[1] };  // no jump to the finger
      h.classList.add("dragging");
      if (h.setPointerCapture) { h.setPointerCapture(ev.pointerId); }
      h.focus();
    });
    h.addEventListener("pointermove", function (ev) {
      if (!drag || drag.i !== i) { return; }
      ev.preventDefault();
      var p = toPhoto(ev);
      set(i, p[0] + drag.dx, p[1] + drag.dy);
    });
    function end() {
      if (drag && drag.i === i) { drag = null; h.classList.remove("dragging"); say(i); }
    }
    h.addEventListener("pointerup", end);
    h.addEventListener("pointercancel", end);
    h.addEventListener("keydown", function (ev) {
      var step = Math.max(1, Math.round(Math.max(W, H) / (ev.shiftKey ? 40 : 400)));
      var d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[ev.key];
      if (!d) { return; }
      ev.preventDefault();
      var p = get(i);
      set(i, p[0] + d[0], p[1] + d[1]);
      say(i);
    });
  });
  img.addEventListener("click", function (ev) {  // a tap on the photo: the nearest handle goes there
    var p = toPhoto(ev), best = 0, bestD = Infinity;
    handles.forEach(function (h, i) {
      var q = get(i), d = (q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]);
      if (d < bestD) { bestD = d; best = i; }
    });
    set(best, p[0], p[1]);
    say(best);
  });
  form.addEventListener("input", function (ev) { if (ev.target.classList.contains("corner-in")) { draw(); } });
  form.addEventListener("submit", function () {
    var b = $("#corners-busy"); if (b) { b.hidden = false; }
    var s = $("#corners-submit"); if (s) { s.disabled = true; }
  });
  if (img.complete) { draw(); } else { img.addEventListener("load", draw); }
  window.addEventListener("resize", draw);
}
