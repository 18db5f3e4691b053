/* scorepad web pages: a photo being read on the job queue. The page asks the server how the
   job is doing (its status URL, JSON: state, value, max, message) about once a second and
   moves the progress bar and the status line; when the job has ended it opens the page
   again, which then goes on to the review, the corners or the advice. Without JavaScript the
   page refreshes itself (meta refresh). Text comes from the server and is set with
   textContent only. */
import { $ } from "./dom.js";

var DELAY = 1000;  // ms between two looks (the server's Retry-After is 1 s)
var GIVE_UP = 600;  // looks (about ten minutes): then the link to look again stays

export function initJob() {
  var box = $("#scan-job");
  if (!box || box.getAttribute("data-state") === "failed") { return; }
  var statusUrl = box.getAttribute("data-status-url"), pageUrl = box.getAttribute("data-page-url");
  var bar = $("#job-progress"), line = $("#job-status"), looks = 0, misses = 0;

  function show(s) {
    box.setAttribute("data-state", s.state);
    if (bar) { bar.max = s.max; bar.value = s.value; bar.textContent = s.value + " of " + s.max; }
    if (line && line.textContent !== s.message) { line.textContent = s.message; }
  }

  function look() {
    looks += 1;
    fetch(statusUrl, { headers: { "Accept": "application/json" }, credentials: "same-origin",
      cache: "no-store" }).then(function (r) {
      if (!r.ok) { throw new Error("HTTP " + r.status); }
      return r.json();
    }).then(function (s) {
      misses = 0;
      show(s);
      if (s.ended) { window.location.replace(pageUrl); return; }
      if (looks < GIVE_UP) { window.setTimeout(look, DELAY); }
    }).catch(function () {  // twice more, then the page itself tells (the job gone, say)
      misses += 1;
      if (misses > 2) { window.location.replace(pageUrl); return; }
      window.setTimeout(look, 2 * DELAY);
    });
  }
  window.setTimeout(look, DELAY / 2);
}

if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", initJob); }
else { initJob(); }
